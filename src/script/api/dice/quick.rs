//! The quick paths of `dice.roll` and `dice.on`, the API's commonest calls
//! (a solitaire journey makes some 115 of them).
//!
//! In a simulation nobody reads the log, the dice are nearly always a text
//! or a table the data names (`known.rs`), and modifiers are whole numbers:
//! such a call needs none of the native machinery's argument and result
//! buffers, which cost more than the roll itself. Every other call (the
//! game narrated, dice a script built, an argument of the wrong kind) goes
//! to the native's ordinary path, which checks everything and explains what
//! is wrong; so a quick path never raises, and draws from the random stream
//! exactly what the ordinary path would.

use super::super::known::At;
use super::super::link::{Link, Refused};
use super::super::native::{call, link};
use mlua::ffi;
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// `dice.roll(dice [, label])`.
pub(super) unsafe extern "C-unwind" fn roll(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs a closure made by `with_quick_path`, whose upvalues
    // `call` reads too; the quick path has dropped every Rust value by the
    // time `call` may raise.
    unsafe {
        let link = link(l);
        match quick_roll(l, link) {
            Some(total) => {
                ffi::lua_pushinteger(l, total);
                1
            }
            None => call(l),
        }
    }
}

/// `dice.on(table, [source, value]...)`: the row (or nil), the total read
/// and the natural roll.
pub(super) unsafe extern "C-unwind" fn on(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `roll`; a C function may push LUA_MINSTACK values.
    unsafe {
        let link = link(l);
        match quick_on(l, link) {
            Some((row, read, natural)) => {
                match row {
                    Some(key) => {
                        ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(key));
                    }
                    None => ffi::lua_pushnil(l),
                }
                ffi::lua_pushinteger(l, read);
                ffi::lua_pushinteger(l, natural);
                3
            }
            None => call(l),
        }
    }
}

/// The roll, if this call may take the quick path.
///
/// # Safety
/// `l` is the running state, in a call of `dice.roll`.
unsafe fn quick_roll(l: *mut ffi::lua_State, link: &Link) -> Option<i64> {
    if link.narrating() {
        return None;
    }
    // SAFETY: guaranteed by the caller; an index past the arguments reads
    // as none (no address, `LUA_TNONE`).
    unsafe {
        let dice = link
            .known()?
            .dice(At::Object(ffi::lua_topointer(l, 1) as usize))?;
        // The label is only read when narrating, but its type is checked.
        if !matches!(
            ffi::lua_type(l, 2),
            ffi::LUA_TNONE | ffi::LUA_TNIL | ffi::LUA_TSTRING
        ) {
            return None;
        }
        kernel(|| link.try_state(|_, s| dice.roll(&mut s.rng)))
    }
}

/// The registry key of the row read (none in a gap), the total read and
/// the natural roll, if this call may take the quick path.
///
/// # Safety
/// `l` is the running state, in a call of `dice.on`.
unsafe fn quick_on(l: *mut ffi::lua_State, link: &Link) -> Option<(Option<c_int>, i64, i64)> {
    if link.narrating() {
        return None;
    }
    // SAFETY: guaranteed by the caller; only numbers are read as integers,
    // so nothing is converted.
    unsafe {
        // The table, then (source, value) pairs: the sources are only read
        // when narrating.
        let top = ffi::lua_gettop(l);
        if top % 2 == 0 {
            return None;
        }
        let index = link
            .known()?
            .table(At::Object(ffi::lua_topointer(l, 1) as usize))?;
        let mut modifier = 0i64;
        for value in (3..=top).step_by(2) {
            match ffi::lua_type(l, value) {
                ffi::LUA_TNIL => {}
                ffi::LUA_TNUMBER => {
                    // A float with a whole value reads as that whole number,
                    // as the ordinary path reads it; any other float does not.
                    let mut whole = 0;
                    let n = ffi::lua_tointegerx(l, value, &mut whole);
                    if whole == 0 {
                        return None;
                    }
                    modifier = modifier.saturating_add(n);
                }
                _ => return None,
            }
        }
        kernel(|| {
            link.try_state(|game, s| {
                let table = &game.dice_tables[index];
                let natural = table.dice.roll(&mut s.rng);
                let (read, row) = super::read_row(link, table, index, natural, modifier);
                (row.map(|r| link.row(index, r)), read, natural)
            })
        })
    }
}

/// Runs the kernel's part; none when the state cannot be had (the ordinary
/// path then says why) or the kernel panicked (the ordinary path then
/// reports the failure).
fn kernel<R>(f: impl FnOnce() -> Result<R, Refused>) -> Option<R> {
    catch_unwind(AssertUnwindSafe(f)).ok()?.ok()
}
