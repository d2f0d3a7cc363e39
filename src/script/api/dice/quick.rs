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

use super::super::link::Link;
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
    // SAFETY: guaranteed by the caller; only a string is read as one.
    unsafe {
        let top = ffi::lua_gettop(l);
        // The label is only read when narrating, but its type is checked.
        let label_ok = top < 2 || matches!(ffi::lua_type(l, 2), ffi::LUA_TNIL | ffi::LUA_TSTRING);
        if top < 1 || ffi::lua_type(l, 1) != ffi::LUA_TSTRING || !label_ok {
            return None;
        }
        let address = ffi::lua_tolstring(l, 1, std::ptr::null_mut()) as usize;
        let dice = link.known()?.dice(address)?;
        kernel(|| link.with_state(|_, s| Ok(super::roll(link, s, &dice).0)))
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
    // SAFETY: guaranteed by the caller; only a string is read as one, and
    // only integers as integers.
    unsafe {
        let top = ffi::lua_gettop(l);
        // The table, then (source, value) pairs: the sources are only read
        // when narrating.
        if top < 1 || top % 2 == 0 || ffi::lua_type(l, 1) != ffi::LUA_TSTRING {
            return None;
        }
        let index = link
            .known()?
            .table(ffi::lua_tolstring(l, 1, std::ptr::null_mut()) as usize)?;
        let mut modifier = 0i64;
        for value in (3..=top).step_by(2) {
            match ffi::lua_type(l, value) {
                ffi::LUA_TNIL => {}
                ffi::LUA_TNUMBER if ffi::lua_isinteger(l, value) != 0 => {
                    let n = ffi::lua_tointegerx(l, value, std::ptr::null_mut());
                    modifier = modifier.saturating_add(n);
                }
                _ => return None,
            }
        }
        kernel(|| {
            link.with_state(|game, s| {
                let t = super::roll_on(link, game, s, index, modifier);
                Ok((t.row.map(|r| link.row(index, r)), t.read, t.natural))
            })
        })
    }
}

/// Runs the kernel's part; none when the state cannot be had (the ordinary
/// path then says why) or the host failed (it then reports the failure).
fn kernel<R>(f: impl FnOnce() -> Result<R, super::ApiError>) -> Option<R> {
    catch_unwind(AssertUnwindSafe(f)).ok()?.ok()
}
