//! The Lua side of the pattern functions: reading arguments, pushing
//! captures, raising errors, all through Lua's C API like lstrlib.c does.
//!
//! # Why the C API
//!
//! An mlua callback costs more than a whole stock `find` on a short string
//! (it wraps errors, catches panics and references every argument), and
//! its errors reach scripts as userdata with a traceback instead of the
//! plain `file:line: message` strings stock Lua raises. Plain C functions
//! keep both the speed and the exact error values and messages, since the
//! argument checks are Lua's own `luaL_check*` functions.
//!
//! # Safety rules for the callers
//!
//! Lua raises errors with `longjmp`, which skips Rust frames without
//! running destructors. So every function here, and every C function of
//! this module, holds no value with a destructor while it calls into Lua
//! (only slices, integers and the `Copy` matcher state), and the slices
//! it reads point into strings that stay on the Lua stack for the call.

use std::ffi::{c_char, c_int};
use std::fmt;
use std::io::Write;
use std::slice;

use mlua::ffi::{self, lua_Integer, lua_State};

use super::matcher::{Captured, Matcher};

/// The string (or number, converted in place) at stack index `index`, as
/// `luaL_checklstring` reads it.
///
/// # Safety
/// `l` must be a running state and `index` a valid argument; the slice is
/// valid while that value stays on the stack.
pub(super) unsafe fn check_bytes<'a>(l: *mut lua_State, index: c_int) -> &'a [u8] {
    let mut len = 0;
    // SAFETY: Lua strings are `len` bytes at the returned pointer and never
    // move; the caller keeps the string on the stack.
    unsafe { slice::from_raw_parts(ffi::luaL_checklstring(l, index, &mut len).cast(), len) }
}

/// The bytes of the string at `index`, which must hold a string or number.
///
/// # Safety
/// As for [`check_bytes`].
pub(super) unsafe fn to_bytes<'a>(l: *mut lua_State, index: c_int) -> &'a [u8] {
    let mut len = 0;
    // SAFETY: as in `check_bytes`.
    unsafe { slice::from_raw_parts(ffi::lua_tolstring(l, index, &mut len).cast(), len) }
}

/// The 0-based start offset for the optional 1-based, possibly negative
/// position argument at `index` (default 1), clipped below at 0 like
/// lstrlib.c's `posrelatI`; it may lie past the end of the subject.
///
/// # Safety
/// As for [`check_bytes`].
pub(super) unsafe fn start_offset(l: *mut lua_State, index: c_int, len: usize) -> usize {
    // SAFETY: guaranteed by the caller.
    let pos = unsafe { ffi::luaL_optinteger(l, index, 1) };
    let magnitude = usize::try_from(pos.unsigned_abs()).unwrap_or(usize::MAX);
    match pos {
        1.. => magnitude - 1,
        0 => 0,
        _ => len.saturating_sub(magnitude),
    }
}

/// Runs `matcher` at `s`, raising any error.
///
/// # Safety
/// `l` must be the running state.
pub(super) unsafe fn match_at(l: *mut lua_State, matcher: &mut Matcher, s: usize) -> Option<usize> {
    match matcher.match_at(s) {
        Ok(end) => end,
        // SAFETY: guaranteed by the caller.
        Err(err) => unsafe { raise(l, err) },
    }
}

/// Pushes capture `i` of the last match of `matcher`, which spans
/// `src[whole.0..whole.1]`, and returns it.
///
/// # Safety
/// `l` must be the running state with room for one value; `src` is the
/// subject of `matcher`.
pub(super) unsafe fn push_capture(
    l: *mut lua_State,
    src: &[u8],
    matcher: &Matcher,
    i: usize,
    whole: (usize, usize),
) {
    // SAFETY: guaranteed by the caller; the range lies within `src`.
    unsafe {
        match matcher.capture(i, whole) {
            Ok(Captured::Text { start, end }) => push_bytes(l, &src[start..end]),
            Ok(Captured::Position(at)) => ffi::lua_pushinteger(l, at as lua_Integer + 1),
            Err(err) => raise(l, err),
        }
    }
}

/// Pushes every value of the last match (see [`Matcher::value_count`]) and
/// returns how many.
///
/// # Safety
/// As for [`push_capture`].
pub(super) unsafe fn push_captures(
    l: *mut lua_State,
    src: &[u8],
    matcher: &Matcher,
    whole: Option<(usize, usize)>,
) -> c_int {
    let count = matcher.value_count(whole.is_some());
    let whole = whole.unwrap_or_default();
    // SAFETY: guaranteed by the caller; the stack is grown first.
    unsafe {
        ffi::luaL_checkstack(l, count as c_int, c"too many captures".as_ptr());
        for i in 0..count {
            push_capture(l, src, matcher, i, whole);
        }
    }
    count as c_int
}

/// # Safety
/// `l` must be the running state with room for one value.
unsafe fn push_bytes(l: *mut lua_State, bytes: &[u8]) {
    // SAFETY: guaranteed by the caller.
    unsafe { ffi::lua_pushlstring(l, bytes.as_ptr().cast::<c_char>(), bytes.len()) };
}

/// Raises `message` as `luaL_error` would: a string error prefixed with
/// the calling script's `file:line:`.
///
/// # Safety
/// `l` must be the running state.
pub(super) unsafe fn raise(l: *mut lua_State, message: impl fmt::Display) -> ! {
    // Formatted on the stack: a heap buffer would leak past `lua_error`.
    const CAPACITY: usize = 160;
    let mut buffer = [0u8; CAPACITY];
    let mut free = &mut buffer[..];
    // The messages are far shorter; a longer one would only be cut.
    let _ = write!(free, "{message}");
    let len = CAPACITY - free.len();
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::luaL_where(l, 1);
        push_bytes(l, &buffer[..len]);
        ffi::lua_concat(l, 2);
        ffi::lua_error(l)
    }
}
