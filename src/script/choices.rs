//! The choices a phase's `run` returns: a list of strings, which the kernel
//! stores in the frame (so listing legal actions never calls Lua).
//!
//! A solitaire journey reads six such lists; read through mlua, each item
//! cost a checked conversion (some 600 instructions) and the length a
//! metamethod lookup. A plain list (no metatable, every item a UTF-8
//! string) is read in one protected call with raw reads; anything else (a
//! frozen list, whose items sit behind its metatable, or an item mlua
//! converts, such as a number) takes the general path, so what a list
//! means does not depend on how it is read.

use crate::script::api::native::text;
use mlua::{Lua, Table, ffi};

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
    let mut out = None;
    // SAFETY: the table is at 1. `lua_getmetatable`, `lua_rawlen`,
    // `lua_rawgeti` and reading a string's bytes never raise, so no Rust
    // value is skipped by an error while the list is built.
    unsafe {
        lua.exec_raw::<()>(t, |l| {
            if ffi::lua_getmetatable(l, 1) != 0 {
                return;
            }
            let len = ffi::lua_rawlen(l, 1);
            let mut choices = Vec::with_capacity(len);
            for i in 1..=len {
                ffi::lua_rawgeti(l, 1, i as ffi::lua_Integer);
                let Some(text) = text(l, -1) else {
                    return;
                };
                choices.push(text.to_owned());
                ffi::lua_settop(l, 1);
            }
            out = Some(choices);
        })?;
    }
    Ok(out)
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
