//! One rules package's Lua state, sandboxed (DESIGN.md, principle 8).
//!
//! Game packages come from other people, so their scripts get:
//! * the base library without `dofile`, `loadfile` and `collectgarbage`
//!   (the file system, and a memory figure that would make games depend on
//!   the allocator), a `load` that takes Lua source text only, a
//!   `setmetatable` that refuses `__gc` finalizers, and an `xpcall` whose
//!   message handler cannot outlast the time budget;
//! * `string` without `string.dump` (its metatable locked), `table` (with
//!   Lua 5.5's `table.create`),
//!   `utf8`, `coroutine` (resumes tracked by the time budget), and `math`
//!   without `math.random` and `math.randomseed` (every random draw goes
//!   through the kernel's seeded RNG, principle 2);
//! * no `io`, `os`, `debug` or `package`: not even `os.time` or `os.clock`,
//!   whose values would make a replay diverge;
//! * a `require` that only finds the package's own files (see
//!   [`package`](super::package));
//! * a memory limit and a per-call time budget ([`Limits`]; how the budget
//!   stops a script without slowing the others down is in `budget.rs`), with
//!   the standard library's long C loops bounded (`prelude.lua`, and a
//!   pattern matcher that counts its steps);
//! * once loaded, a frozen state: the package's tables and globals are
//!   read-only, so no call can leave anything behind for the next one
//!   ([`Sandbox::freeze`]).

use std::fmt;
use std::rc::Rc;

use mlua::{Lua, LuaOptions, StdLib, Table, Value, ffi};
use std::ffi::c_int;

use super::budget::Budget;
use super::error::ScriptError;
use super::freeze::Freezer;
use super::heap::Heap;
use super::limits::Limits;
use super::package::{Modules, PackageFiles, caller_location, install_require};

/// The standard libraries a rules package gets (base is always loaded).
fn libraries() -> StdLib {
    StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH
}

/// Lua code that replaces `load`, `setmetatable`, `xpcall` and
/// `coroutine.resume`, `wrap` and `close` with their sandboxed versions,
/// and locks the string metatable.
const PRELUDE: &str = include_str!("prelude.lua");

/// The Lua state of one rules package, with its scripts confined and their
/// time and memory limited.
///
/// A script that loops forever, exhausts memory, or tries to step outside
/// the sandbox fails with a [`ScriptError`] that says what and where; the
/// sandbox stays usable for the next call.
///
/// ```
/// use portolan::script::{limits::Limits, package::PackageFiles, sandbox::Sandbox};
///
/// let package = PackageFiles::new("rules/demo")
///     .with_file("combat.lua", "function attack_bonus(strength) return strength // 2 end");
/// let sandbox = Sandbox::new(package, Limits::new())?;
/// sandbox.run_file("combat.lua")?;
/// let bonus: i64 = sandbox.call(|lua| {
///     lua.globals().get::<mlua::Function>("attack_bonus")?.call(5)
/// })?;
/// assert_eq!(bonus, 2);
/// # Ok::<(), portolan::script::error::ScriptError>(())
/// ```
pub struct Sandbox {
    lua: Lua,
    package: Rc<PackageFiles>,
    limits: Limits,
    budget: Budget,
    freezer: Freezer,
    modules: Modules,
    /// Lua's allocator, which keeps small freed blocks for reuse; it puts
    /// mlua's back when dropped.
    _heap: Heap,
}

impl Sandbox {
    /// A fresh Lua state for `package`, with the sandboxed libraries only.
    /// No package file runs until [`Self::run_file`] or `require` asks.
    pub fn new(package: PackageFiles, limits: Limits) -> Result<Self, ScriptError> {
        let setup = |err: mlua::Error| ScriptError::Setup(err.to_string());
        let lua = Lua::new_with(libraries(), LuaOptions::default()).map_err(setup)?;
        let budget = Budget::new(&lua, limits.time_budget())?;
        let package = Rc::new(package);
        let freezer = Freezer::install(&lua).map_err(setup)?;
        restrict_libraries(&lua, &budget).map_err(setup)?;
        let modules = install_require(&lua, Rc::clone(&package)).map_err(setup)?;
        // Last, so that setting up never counts against the package.
        lua.set_memory_limit(limits.memory()).map_err(setup)?;
        let heap = Heap::install(&lua, limits.memory()).map_err(setup)?;
        Ok(Self {
            lua,
            package,
            limits,
            budget,
            freezer,
            modules,
            _heap: heap,
        })
    }

    /// Ends loading: everything the package built becomes read-only and
    /// `require` loads nothing new (see [`freeze`](super::freeze)). From
    /// here on every call starts from the same script state. The globals,
    /// the standard libraries and the `api` tables refuse every write; the
    /// `proxies` (API tables whose metatable does the work) keep working and
    /// refuse `rawset`, and the `state` tables (game state that the host
    /// takes back after each call) stay writable but refuse `rawset`.
    pub fn freeze(
        &self,
        api: &[Table],
        proxies: &[Table],
        state: &[Table],
    ) -> Result<(), ScriptError> {
        self.modules.close();
        self.call(|lua| {
            let globals = lua.globals();
            let mut locked = vec![globals.clone()];
            for lib in ["string", "table", "math", "utf8", "coroutine"] {
                locked.push(globals.raw_get(lib)?);
            }
            locked.extend(api.iter().cloned());
            let locked = lua.create_sequence_from(locked)?;
            let proxies = lua.create_sequence_from(proxies.iter().cloned())?;
            let state = lua.create_sequence_from(state.iter().cloned())?;
            self.freezer.freeze(&globals, &locked, &proxies, &state)?;
            self.freezer
                .freeze(self.modules.loaded(), &locked, &proxies, &state)
        })
    }

    /// The modules `require` has loaded, by name (coverage counts their
    /// functions).
    pub(crate) fn modules(&self) -> &Table {
        self.modules.loaded()
    }

    /// Puts back what scripts changed in the package's sealed tables since
    /// loading (see [`freeze`](super::freeze)); describes the first change.
    /// The host runs it between games.
    pub fn check_frozen(&self) -> Result<Option<String>, ScriptError> {
        self.call(|_| self.freezer.check())
    }

    /// Runs `f`, which makes the actual calls into Lua, within one time
    /// budget, and turns what went wrong into a [`ScriptError`].
    ///
    /// Calls nest: a Rust callback may call back into Lua through `call`,
    /// and the inner call shares the outer call's budget. Coroutines must be
    /// resumed from Lua (`coroutine.resume` or `coroutine.wrap`), not with
    /// [`mlua::Thread::resume`], or the budget cannot stop a loop inside them.
    /// The sandbox owns the Lua debug hook: do not set another.
    ///
    /// If the budget runs out, the result is [`ScriptError::Timeout`] even if
    /// `f` caught the error, since the Lua work it asked for was cut short.
    pub fn call<R>(&self, f: impl FnOnce(&Lua) -> mlua::Result<R>) -> Result<R, ScriptError> {
        let call = self.budget.start(&self.lua);
        let result = f(&self.lua);
        if let Some(stopped) = call.finish() {
            return Err(ScriptError::Timeout {
                limit: stopped.limit,
                location: stopped.location,
            });
        }
        result.map_err(|err| {
            let err = ScriptError::from_lua(&err, self.limits.memory());
            if let ScriptError::Memory { .. } = err {
                // Free the runaway's garbage now, not at the next allocation
                // failure; a failure to collect changes nothing for the caller.
                self.lua.gc_collect().ok();
            }
            err
        })
    }

    /// Runs a package file, like `combat.lua` or `lib/util.lua`, as a chunk
    /// named after it, so that errors read `rules/<package>/combat.lua:12:`.
    pub fn run_file(&self, relative_path: &str) -> Result<(), ScriptError> {
        self.call(|lua| match self.package.load(lua, relative_path)? {
            Some(chunk) => chunk.call(()),
            None => Err(mlua::Error::external(ScriptError::MissingFile {
                root: self.package.root().to_owned(),
                path: relative_path.to_owned(),
            })),
        })
    }

    /// The package this sandbox runs.
    pub fn package(&self) -> &PackageFiles {
        &self.package
    }

    /// The limits this sandbox enforces.
    pub fn limits(&self) -> Limits {
        self.limits
    }
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("package", &self.package.root())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Removes what a package must not use and runs the prelude.
fn restrict_libraries(lua: &Lua, budget: &Budget) -> mlua::Result<()> {
    let globals = lua.globals();
    for name in ["dofile", "loadfile", "collectgarbage"] {
        globals.raw_set(name, Value::Nil)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;
    // Lua's pattern matcher runs in C, out of the budget's reach, and can
    // backtrack for years: these versions count their steps.
    super::patterns::install(lua, &string)?;
    let table: Table = globals.get("table")?;
    // SAFETY: `table_create` follows Lua's C function protocol and holds
    // nothing with a destructor when it raises.
    table.raw_set("create", unsafe { lua.create_c_function(table_create)? })?;
    let math: Table = globals.get("math")?;
    math.raw_set("random", Value::Nil)?;
    math.raw_set("randomseed", Value::Nil)?;
    // `forbid(what, level)` raises `ScriptError::Forbidden` for the Lua
    // function `level` frames up (the prelude passes 2: its own caller).
    let forbid =
        lua.create_function(|lua, (what, level): (String, usize)| -> mlua::Result<()> {
            Err(mlua::Error::external(ScriptError::Forbidden {
                what,
                location: caller_location(lua, level),
            }))
        })?;
    lua.load(PRELUDE).set_name("=[sandbox prelude]").call((
        budget.tracked_resume(lua)?,
        budget.guarded_close(lua)?,
        budget.stop_probe(lua)?,
        forbid,
    ))
}

/// The most slots `table.create` makes room for at once: more than any
/// rule needs, and few enough that asking costs no noticeable time (the
/// memory limit still applies).
const CREATE_LIMIT: ffi::lua_Integer = 1 << 24;

/// `table.create(nseq [, nrec])`, from Lua 5.5: a new table with room for
/// `nseq` list items and `nrec` other fields, so a list built item by item
/// does not grow (and copy) itself three or four times on the way.
unsafe extern "C-unwind" fn table_create(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua with its arguments on the stack; the checks
    // raise Lua errors, and nothing here needs dropping.
    unsafe {
        // The commonest call, `table.create(n)` with `n` in range, reads
        // its argument as `luaL_checkinteger` would (the same conversion)
        // without the checks' calls, which cost some 100 instructions.
        let mut whole = 0;
        let seq = ffi::lua_tointegerx(l, 1, &mut whole);
        if whole != 0 && (0..=CREATE_LIMIT).contains(&seq) && ffi::lua_type(l, 2) <= ffi::LUA_TNIL {
            ffi::lua_createtable(l, seq as c_int, 0);
            return 1;
        }
        let seq = ffi::luaL_checkinteger(l, 1);
        let rec = ffi::luaL_optinteger(l, 2, 0);
        for (arg, n) in [(1, seq), (2, rec)] {
            if !(0..=CREATE_LIMIT).contains(&n) {
                ffi::luaL_argerror(l, arg, c"out of range (0 to 16777216)".as_ptr());
            }
        }
        ffi::lua_createtable(l, seq as c_int, rec as c_int);
        1
    }
}

#[cfg(test)]
mod tests;
