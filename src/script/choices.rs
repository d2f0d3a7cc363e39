//! The choices a phase's `run` returns: a list of strings, which the kernel
//! stores in the frame (so listing legal actions never calls Lua).
//!
//! A solitaire journey reads six such lists; read through mlua, each item
//! cost a checked conversion (some 600 instructions) and the length a
//! metamethod lookup. A plain list (no metatable, every item a UTF-8
//! string) is read with raw reads on the Lua stack, outside any protected
//! call: none of them can raise, and a protected call (mlua's `exec_raw`)
//! cost more than reading five short strings. Anything else (a frozen
//! list, whose items sit behind its metatable, or an item mlua converts,
//! such as a number) takes the general path, so what a list means does
//! not depend on how it is read.

use crate::script::api::native::text;
use mlua::{Lua, Table, ffi};
use std::ffi::c_int;

/// The choices in `t`, read raw when it is a plain list of strings.
pub fn choice_list(lua: &Lua, t: &Table) -> mlua::Result<Vec<String>> {
    match plain(lua, t)? {
        Some(choices) => Ok(choices),
        None => through_metamethods(t),
    }
}

/// The strings of `t` if it has no metatable and holds only UTF-8 strings
/// from 1 to its border; `None` otherwise.
fn plain(lua: &Lua, t: &Table) -> mlua::Result<Option<Vec<String>>> {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: no call here raises (`lua_checkstack` reports a stack it
        // cannot grow by returning 0; pushing the table, `lua_getmetatable`,
        // `lua_rawlen`, `lua_rawgeti` and reading a string's bytes never
        // raise), so nothing skips a Rust destructor; the stack is put back
        // to `top` on every return.
        unsafe {
            if ffi::lua_checkstack(l, 3) == 0 {
                return Ok(None);
            }
            let top = ffi::lua_gettop(l);
            raw.push(t)?;
            let list = top + 1;
            let mut choices = None;
            if ffi::lua_getmetatable(l, list) == 0 {
                choices = strings(l, list);
            }
            ffi::lua_settop(l, top);
            Ok(choices)
        }
    })
}

/// The items of the table at `list`, from 1 to its border, if every one
/// is a UTF-8 string.
///
/// # Safety
/// `l` is the running state, `list` a table's index on its stack, with
/// room for one more value.
unsafe fn strings(l: *mut ffi::lua_State, list: c_int) -> Option<Vec<String>> {
    // SAFETY: guaranteed by the caller; see `plain`.
    unsafe {
        let len = ffi::lua_rawlen(l, list);
        let mut choices = Vec::with_capacity(len);
        for i in 1..=len {
            ffi::lua_rawgeti(l, list, i as ffi::lua_Integer);
            let item = text(l, -1).map(str::to_owned);
            ffi::lua_settop(l, list);
            choices.push(item?);
        }
        Some(choices)
    }
}

/// The choices read through metamethods, so a frozen list reads like any
/// other.
fn through_metamethods(t: &Table) -> mlua::Result<Vec<String>> {
    let bad = |e: mlua::Error| {
        mlua::Error::runtime(format!("run must return a list of choice strings: {e}"))
    };
    (1..=t.len()?)
        .map(|i| t.get::<String>(i).map_err(bad))
        .collect()
}
