//! Freezing a package once it has loaded, so that every call, every game and
//! every thread starts from the same script state.
//!
//! One Lua state serves many games on a thread, and bots clone game states
//! to search; both are only right if rules keep nothing between calls
//! (DESIGN principle 1). After loading, the sandbox freezes what the package
//! built: every table reachable from the globals, the module cache and the
//! upvalues of its functions becomes read-only in place. The globals and the
//! host's API refuse every write at once, with the script's file and line;
//! the package's own tables stay fast to read, refuse new keys at once, and
//! have any change to an existing key undone and reported between games
//! (`freeze.lua` explains the two kinds). The one other place a rule could
//! remember something, a local of a function that has returned, is found in
//! the functions' bytecode before anything runs
//! ([`bytecode`](super::bytecode)): the package is refused at load time,
//! with the line of the write.

use super::bytecode::stateful_writes;
use mlua::{Function, Lua, Table, Value};

const FREEZER: &str = include_str!("freeze.lua");

/// The freezer's entry points, kept by the sandbox.
pub(crate) struct Freezer {
    freeze: Function,
    check: Function,
}

impl Freezer {
    /// Runs the freezer chunk: installs the frozen-aware `rawget`, `rawset`,
    /// `rawlen` and `next`. Must run before the prelude, which it trusts.
    pub(crate) fn install(lua: &Lua) -> mlua::Result<Freezer> {
        let raw_getmetatable = lua.create_function(|_, t: Table| Ok(t.metatable()))?;
        let inspect = lua.create_function(|lua, f: Function| inspect(lua, &f))?;
        let (freeze, check) = lua
            .load(FREEZER)
            .set_name("=[sandbox freezer]")
            .call((raw_getmetatable, inspect))?;
        Ok(Freezer { freeze, check })
    }

    /// Makes `root` and everything reachable from it read-only: the
    /// `locked` tables strictly, the others sealed; the `proxies` stay as
    /// the host made them, refusing `rawset`; the `state` tables stay
    /// writable, except by `rawset`.
    pub(crate) fn freeze(
        &self,
        root: &Table,
        locked: &Table,
        proxies: &Table,
        state: &Table,
    ) -> mlua::Result<()> {
        self.freeze.call((root, "", locked, proxies, state))
    }

    /// Puts back every sealed table a script changed; describes the first
    /// change, if any.
    pub(crate) fn check(&self) -> mlua::Result<Option<String>> {
        self.check.call(())
    }
}

/// The upvalues of a Lua function, to freeze in turn; an error if the
/// function assigns a local that outlives the call.
fn inspect(lua: &Lua, f: &Function) -> mlua::Result<Table> {
    let values = lua.create_table()?;
    if f.info().what == "C" {
        return Ok(values);
    }
    if let Some(w) = stateful_writes(&f.dump(false))
        .map_err(mlua::Error::runtime)?
        .first()
    {
        let file = w.source.strip_prefix('@').unwrap_or(&w.source);
        return Err(mlua::Error::runtime(format!(
            "{file}:{}: this assigns '{}', a local variable of a function that has already \
             returned (a file-level local?): it would carry state from one call to the next, \
             which rules may not keep (saves, undo and bots see only the game state). Keep it in the game state \
             (vars.set), or make it local to the function that uses it",
            w.line, w.variable
        )));
    }
    for (i, value) in upvalues(lua, f)?.into_iter().enumerate() {
        values.raw_set(i + 1, value)?;
    }
    Ok(values)
}

/// The current values of a Lua function's upvalues.
fn upvalues(lua: &Lua, f: &Function) -> mlua::Result<Vec<Value>> {
    let count = f.info().num_upvalues;
    let table = lua.create_table()?;
    // SAFETY: pushes the function's upvalues one at a time into a table
    // (`lua_getupvalue` pushes one value; `lua_rawseti` pops it), leaving
    // the stack as it found it.
    unsafe {
        lua.exec_raw::<()>((f, &table), |l| {
            for n in 1..=count as i32 {
                if !mlua::ffi::lua_getupvalue(l, 1, n).is_null() {
                    mlua::ffi::lua_rawseti(l, 2, mlua::ffi::lua_Integer::from(n));
                }
            }
            mlua::ffi::lua_settop(l, 0);
        })?;
    }
    table
        .pairs::<i64, Value>()
        .map(|pair| pair.map(|(_, v)| v))
        .collect()
}
