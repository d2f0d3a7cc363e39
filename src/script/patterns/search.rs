//! `string.find`, `string.match` and `string.gmatch`.

use std::ffi::{c_int, c_void};
use std::mem::size_of;

use mlua::ffi::{self, lua_Integer, lua_State};

use super::matcher::{Matcher, PatternError, Steps, split_anchor};
use super::stack::{check_bytes, match_at, push_captures, raise, start_offset, to_bytes};

/// Bytes that make `find` match a pattern rather than search plain text.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// `string.find (s, pattern [, init [, plain]])`.
pub(super) unsafe extern "C-unwind" fn find(l: *mut lua_State) -> c_int {
    // SAFETY: Lua calls this with a running state.
    unsafe { find_or_match(l, true) }
}

/// `string.match (s, pattern [, init])`.
pub(super) unsafe extern "C-unwind" fn match_(l: *mut lua_State) -> c_int {
    // SAFETY: Lua calls this with a running state.
    unsafe { find_or_match(l, false) }
}

/// lstrlib.c's `str_find_aux`.
unsafe fn find_or_match(l: *mut lua_State, find: bool) -> c_int {
    // SAFETY: `l` is the running state; the subject and pattern stay on
    // the stack as arguments 1 and 2; at most 2 values are pushed before
    // `push_captures` grows the stack.
    unsafe {
        let src = check_bytes(l, 1);
        let pat = check_bytes(l, 2);
        let init = start_offset(l, 3, src.len());
        if init > src.len() {
            ffi::lua_pushnil(l);
            return 1;
        }
        if find && (ffi::lua_toboolean(l, 4) != 0 || !pat.iter().any(|c| SPECIALS.contains(c))) {
            let found = find_plain(&src[init..], pat).unwrap_or_else(|err| raise(l, err));
            if let Some(at) = found {
                ffi::lua_pushinteger(l, (init + at + 1) as lua_Integer);
                ffi::lua_pushinteger(l, (init + at + pat.len()) as lua_Integer);
                return 2;
            }
        } else {
            let (anchored, pat) = split_anchor(pat);
            let mut matcher = Matcher::new(src, pat);
            for s in init..=src.len() {
                if let Some(end) = match_at(l, &mut matcher, s) {
                    if !find {
                        return push_captures(l, src, &matcher, Some((s, end)));
                    }
                    ffi::lua_pushinteger(l, s as lua_Integer + 1);
                    ffi::lua_pushinteger(l, end as lua_Integer);
                    return 2 + push_captures(l, src, &matcher, None);
                }
                if anchored {
                    break;
                }
            }
        }
        ffi::lua_pushnil(l);
        1
    }
}

/// Where `needle` first occurs in `hay`. Each candidate position costs a
/// step per byte compared, so a long needle that almost matches everywhere
/// cannot take quadratic time unchecked.
fn find_plain(hay: &[u8], needle: &[u8]) -> Result<Option<usize>, PatternError> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0));
    };
    let Some(last) = hay.len().checked_sub(needle.len()) else {
        return Ok(None);
    };
    let mut steps = Steps::new();
    let mut from = 0;
    while let Some(offset) = find_byte(&hay[from..=last], first) {
        let at = from + offset;
        let same = hay[at + 1..]
            .iter()
            .zip(rest)
            .take_while(|(a, b)| a == b)
            .count();
        steps.spend(1 + same)?;
        if same == rest.len() {
            return Ok(Some(at));
        }
        from = at + 1;
        if from > last {
            break;
        }
    }
    Ok(None)
}

unsafe extern "C" {
    /// The C library's `memchr`, as lstrlib.c uses: several times faster
    /// than a byte loop on long subjects.
    fn memchr(s: *const c_void, c: c_int, n: usize) -> *const c_void;
}

/// Where `byte` first occurs in `hay`.
fn find_byte(hay: &[u8], byte: u8) -> Option<usize> {
    // SAFETY: `memchr` reads only the `hay.len()` bytes of `hay`, and
    // returns null or a pointer into them.
    let found = unsafe { memchr(hay.as_ptr().cast(), c_int::from(byte), hay.len()) };
    (!found.is_null()).then(|| found as usize - hay.as_ptr() as usize)
}

/// What a `gmatch` iterator keeps between calls: where to go on, and where
/// the last match ended (5.4 skips an empty match right there).
#[derive(Clone, Copy)]
struct GmatchState {
    next: usize,
    last_match: Option<usize>,
}

/// `string.gmatch (s, pattern [, init])`: an iterator closure over the
/// subject, the pattern and a [`GmatchState`] userdata, like lstrlib.c's.
pub(super) unsafe extern "C-unwind" fn gmatch(l: *mut lua_State) -> c_int {
    // SAFETY: `l` is the running state. Lua aligns userdata memory for
    // any C scalar, so for `GmatchState`, and never moves it.
    unsafe {
        let len = check_bytes(l, 1).len();
        check_bytes(l, 2);
        let next = start_offset(l, 3, len).min(len + 1);
        ffi::lua_settop(l, 2);
        let state = ffi::lua_newuserdatauv(l, size_of::<GmatchState>(), 0).cast::<GmatchState>();
        state.write(GmatchState {
            next,
            last_match: None,
        });
        ffi::lua_pushcclosure(l, gmatch_step, 3);
        1
    }
}

/// One `gmatch` iteration: the captures of the next match, or nothing.
unsafe extern "C-unwind" fn gmatch_step(l: *mut lua_State) -> c_int {
    // SAFETY: `l` is the running state; the upvalues are the ones `gmatch`
    // set, so the strings stay alive with the closure.
    unsafe {
        let src = to_bytes(l, ffi::lua_upvalueindex(1));
        let pat = to_bytes(l, ffi::lua_upvalueindex(2));
        let state = ffi::lua_touserdata(l, ffi::lua_upvalueindex(3)).cast::<GmatchState>();
        let GmatchState { next, last_match } = state.read();
        let mut matcher = Matcher::new(src, pat);
        for s in next..=src.len() {
            if let Some(end) = match_at(l, &mut matcher, s)
                && Some(end) != last_match
            {
                state.write(GmatchState {
                    next: end,
                    last_match: Some(end),
                });
                return push_captures(l, src, &matcher, Some((s, end)));
            }
        }
        0
    }
}
