//! `string.gsub`.

use std::ffi::{CStr, c_char, c_int};
use std::mem::MaybeUninit;

use mlua::ffi::{self, lua_Integer, lua_State, luaL_Buffer};

use super::items::ESC;
use super::matcher::{Captured, Matcher, split_anchor};
use super::stack::{check_bytes, match_at, push_capture, push_captures, raise, to_bytes};

unsafe extern "C-unwind" {
    /// lauxlib's `luaL_typeerror`, which mlua's bindings leave out.
    fn luaL_typeerror(l: *mut lua_State, arg: c_int, tname: *const c_char) -> c_int;
}

/// `string.gsub (s, pattern, repl [, n])`: lstrlib.c's `str_gsub`.
pub(super) unsafe extern "C-unwind" fn gsub(l: *mut lua_State) -> c_int {
    // SAFETY: `l` is the running state; the subject, pattern and
    // replacement stay on the stack as arguments 1 to 3. The buffer is
    // initialised before use and never moved.
    unsafe {
        let src = check_bytes(l, 1);
        let pat = check_bytes(l, 2);
        let kind = ffi::lua_type(l, 3);
        let max_replacements = ffi::luaL_optinteger(l, 4, src.len() as lua_Integer + 1);
        if !matches!(
            kind,
            ffi::LUA_TNUMBER | ffi::LUA_TSTRING | ffi::LUA_TFUNCTION | ffi::LUA_TTABLE
        ) {
            luaL_typeerror(l, 3, c"string/function/table".as_ptr());
        }
        let (anchored, pat) = split_anchor(pat);
        let mut matcher = Matcher::new(src, pat);
        let mut buffer = MaybeUninit::<luaL_Buffer>::uninit();
        let b = buffer.as_mut_ptr();
        ffi::luaL_buffinit(l, b);
        // Unmatched bytes are copied a run at a time, from `copied` on.
        let (mut s, mut copied, mut last_match) = (0, 0, None);
        let (mut count, mut changed): (lua_Integer, bool) = (0, false);
        while count < max_replacements {
            match match_at(l, &mut matcher, s) {
                Some(end) if Some(end) != last_match => {
                    count += 1;
                    add_bytes(b, &src[copied..s]);
                    changed |= add_value(l, b, src, &matcher, (s, end), kind);
                    (s, copied, last_match) = (end, end, Some(end));
                }
                _ if s < src.len() => s += 1,
                _ => break,
            }
            if anchored {
                break;
            }
        }
        if changed {
            add_bytes(b, &src[copied..]);
            ffi::luaL_pushresult(b);
        } else {
            ffi::lua_pushvalue(l, 1);
        }
        ffi::lua_pushinteger(l, count);
        2
    }
}

/// Adds the replacement of the match `src[whole.0..whole.1]` to `b`;
/// returns false when a function or table gave nil or false, which keeps
/// the match as it is.
///
/// # Safety
/// As in [`gsub`], with `b` the buffer on top of the stack.
unsafe fn add_value(
    l: *mut lua_State,
    b: *mut luaL_Buffer,
    src: &[u8],
    matcher: &Matcher,
    whole: (usize, usize),
    kind: c_int,
) -> bool {
    // SAFETY: guaranteed by the caller; the value pushed here is popped or
    // moved into the buffer.
    unsafe {
        match kind {
            ffi::LUA_TFUNCTION => {
                ffi::lua_pushvalue(l, 3);
                let args = push_captures(l, src, matcher, Some(whole));
                ffi::lua_call(l, args, 1);
            }
            ffi::LUA_TTABLE => {
                push_capture(l, src, matcher, 0, whole);
                ffi::lua_gettable(l, 3);
            }
            _ => {
                add_template(l, b, src, matcher, whole);
                return true;
            }
        }
        if ffi::lua_toboolean(l, -1) == 0 {
            ffi::lua_pop(l, 1);
            add_bytes(b, &src[whole.0..whole.1]);
            false
        } else if ffi::lua_isstring(l, -1) == 0 {
            let type_name = CStr::from_ptr(ffi::luaL_typename(l, -1));
            let type_name = type_name.to_str().unwrap_or("?");
            raise(l, format_args!("invalid replacement value (a {type_name})"))
        } else {
            ffi::luaL_addvalue(b);
            true
        }
    }
}

/// Adds the replacement string (argument 3) to `b`, with `%0`-`%9`
/// replaced by the match or a capture and `%%` by `%`.
///
/// # Safety
/// As for [`add_value`].
unsafe fn add_template(
    l: *mut lua_State,
    b: *mut luaL_Buffer,
    src: &[u8],
    matcher: &Matcher,
    whole: (usize, usize),
) {
    // SAFETY: guaranteed by the caller; a position is pushed and at once
    // moved into the buffer.
    unsafe {
        let mut rest = to_bytes(l, 3);
        while let Some(i) = rest.iter().position(|&c| c == ESC) {
            add_bytes(b, &rest[..i]);
            match rest.get(i + 1) {
                Some(&ESC) => add_bytes(b, &[ESC]),
                Some(b'0') => add_bytes(b, &src[whole.0..whole.1]),
                Some(&digit @ b'1'..=b'9') => {
                    match matcher.capture(usize::from(digit - b'1'), whole) {
                        Ok(Captured::Text { start, end }) => add_bytes(b, &src[start..end]),
                        Ok(Captured::Position(at)) => {
                            ffi::lua_pushinteger(l, at as lua_Integer + 1);
                            ffi::luaL_addvalue(b);
                        }
                        Err(err) => raise(l, err),
                    }
                }
                _ => raise(l, "invalid use of '%' in replacement string"),
            }
            rest = &rest[i + 2..];
        }
        add_bytes(b, rest);
    }
}

/// # Safety
/// `b` must be an initialised buffer on top of the stack.
unsafe fn add_bytes(b: *mut luaL_Buffer, bytes: &[u8]) {
    // SAFETY: guaranteed by the caller.
    unsafe { ffi::luaL_addlstring(b, bytes.as_ptr().cast(), bytes.len()) };
}
