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
//! exactly what the ordinary path would. The call's arguments and results
//! are read and written in the stack's memory (`stack.rs`); if Lua's
//! layout is not the one expected, every call takes the ordinary path.

use super::super::known::At;
use super::super::link::{Link, Refused};
use super::super::native::call;
use super::stack::{Arg, Frame};
use mlua::ffi;
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// `dice.roll(dice [, label])`.
pub(super) unsafe extern "C-unwind" fn roll(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs a closure made by `with_quick_path`, whose upvalues
    // `call` reads too; the quick path has dropped every Rust value by the
    // time `call` may raise.
    unsafe {
        if let Some(frame) = Frame::of(l)
            && let Some(total) = quick_roll(&frame)
        {
            frame.push_int(total);
            return 1;
        }
        call(l)
    }
}

/// `dice.on(table, [source, value]...)`: the row (or nil), the total read
/// and the natural roll.
pub(super) unsafe extern "C-unwind" fn on(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `roll`; a C function may push LUA_MINSTACK values.
    unsafe {
        if let Some(frame) = Frame::of(l)
            && let Some((row, read, natural)) = quick_on(&frame)
        {
            match row {
                // The row is alive: `known.rs` keeps it.
                Some(object) => frame.push_table(object),
                None => ffi::lua_pushnil(l),
            }
            frame.push_int(read);
            frame.push_int(natural);
            return 3;
        }
        call(l)
    }
}

/// The link, `with_quick_path`'s closure's first upvalue.
///
/// # Safety
/// `frame` is a call of such a closure; the link outlives the Lua state.
unsafe fn link<'a>(frame: &Frame) -> &'a Link {
    // SAFETY: guaranteed by the caller.
    unsafe { &*frame.first_upvalue().cast::<Link>() }
}

/// The roll, if this call may take the quick path.
///
/// # Safety
/// `frame` is a call of `dice.roll`.
unsafe fn quick_roll(frame: &Frame) -> Option<i64> {
    // SAFETY: guaranteed by the caller.
    let link = unsafe { link(frame) };
    if link.narrating() {
        return None;
    }
    let Arg::Text(text) = frame.arg(1) else {
        return None;
    };
    let dice = link.known()?.dice(At::Object(text))?;
    // The label is only read when narrating, but its type is checked.
    if !matches!(frame.arg(2), Arg::Nil | Arg::Text(_)) {
        return None;
    }
    kernel(|| link.try_state(|_, s| dice.roll(&mut s.rng)))
}

/// The row read (its table's object; none in a gap), the total read and
/// the natural roll, if this call may take the quick path.
///
/// # Safety
/// `frame` is a call of `dice.on`.
unsafe fn quick_on(frame: &Frame) -> Option<(Option<usize>, i64, i64)> {
    // SAFETY: guaranteed by the caller.
    let link = unsafe { link(frame) };
    if link.narrating() {
        return None;
    }
    // The table, then (source, value) pairs: the sources are only read
    // when narrating.
    let top = frame.count();
    if top.is_multiple_of(2) {
        return None;
    }
    let Arg::Text(name) = frame.arg(1) else {
        return None;
    };
    let known = link.known()?;
    let index = known.table(At::Object(name))?;
    let mut modifier = 0i64;
    for value in (3..=top).step_by(2) {
        match frame.arg(value) {
            Arg::Nil => {}
            Arg::Int(n) => modifier = modifier.saturating_add(n),
            _ => return None,
        }
    }
    kernel(|| {
        link.try_state(|game, s| {
            let table = &game.dice_tables[index];
            let natural = table.dice.roll(&mut s.rng);
            let (read, row) = super::read_row(link, table, index, natural, modifier);
            (row.map(|r| known.row(index, r)), read, natural)
        })
    })
}

/// Runs the kernel's part; none when the state cannot be had (the ordinary
/// path then says why) or the kernel panicked (the ordinary path then
/// reports the failure).
fn kernel<R>(f: impl FnOnce() -> Result<R, Refused>) -> Option<R> {
    catch_unwind(AssertUnwindSafe(f)).ok()?.ok()
}
