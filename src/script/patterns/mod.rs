//! Lua's pattern matching with bounded work: `string.find`, `match`,
//! `gmatch` and `gsub` for untrusted scripts.
//!
//! The sandbox's time budget stops a script with a debug hook, and Lua
//! never runs hooks inside a C function. Stock Lua's matcher is C, and a
//! backtracking pattern such as `(".-"):rep(8) .. "b"` on a long string
//! keeps it busy for minutes, hooks or not. This module is a port of the
//! matcher of Lua 5.4.9's lstrlib.c to Rust that behaves the same in every
//! respect (results, errors and their messages) but counts its work and
//! fails with a Lua error past [`STEP_LIMIT`] steps per call, and bounds
//! its recursion like C does, so a pattern cannot hang or crash the host.
//!
//! Ported from lstrlib.c of Lua 5.4.9, Copyright © 1994–2025 Lua.org,
//! PUC-Rio, under the MIT license.
//!
//! * `matcher`: the backtracking matcher and its step budget;
//! * `items`: single-character classes and sets;
//! * `search`: `find`, `match` and `gmatch`; `gsub`: `gsub`;
//! * `stack`: what they do on the Lua stack, and why through the C API.

mod gsub;
mod items;
mod matcher;
mod search;
mod stack;

use mlua::{Lua, Table, ffi};

pub use matcher::STEP_LIMIT;

/// Replaces find, match, gmatch and gsub in `string` with the bounded versions.
///
/// `string` is normally the global `string` table, which is also the
/// `__index` of the string metatable, so method calls (`s:find(p)`) get the
/// new functions too.
///
/// ```
/// let lua = mlua::Lua::new();
/// portolan::script::patterns::install(&lua, &lua.globals().get("string")?)?;
/// let bomb = r#"return pcall(string.find, ("a"):rep(30000), (".-"):rep(7) .. "b")"#;
/// let (ok, err): (bool, String) = lua.load(bomb).eval()?;
/// assert!(!ok && err.contains("steps"));
/// # Ok::<(), mlua::Error>(())
/// ```
pub fn install(lua: &Lua, string: &Table) -> mlua::Result<()> {
    let functions: [(&str, ffi::lua_CFunction); 4] = [
        ("find", search::find),
        ("match", search::match_),
        ("gmatch", search::gmatch),
        ("gsub", gsub::gsub),
    ];
    for (name, function) in functions {
        // SAFETY: these functions follow Lua's C function protocol and hold
        // nothing with a destructor across calls that may raise errors.
        string.raw_set(name, unsafe { lua.create_c_function(function)? })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
