//! `vars.get`, `vars.set` and `vars.add`, and `vars.game`, with the game
//! variables mirrored on the Lua side, because rules read their variables
//! far more often than anything else the kernel holds (a solitaire journey
//! reads some 330 and writes some 120).
//!
//! The mirror is a Lua table no script can reach. It holds every game
//! variable of the state the host lent last, so a read never leaves Lua: a
//! name missing from the mirror is an unset variable. `vars.game` is an
//! empty table whose `__index` is the mirror, so `vars.game.turn` is read
//! by the VM itself, without a function call; its `__newindex` is `set`.
//! A write goes to the kernel, then to the mirror. Between calls the host
//! keeps the mirror for any state whose variables have the stamp it holds
//! (`GameState::vars_stamp`: a clone keeps its original's, a change takes a
//! new one); for a clone of the state it was loaded from, it puts back the
//! few names changed since (`mirror_book.rs`); otherwise it loads a new one
//! (a new game, mostly): a fresh table with room for as many names as a
//! game has used so far. Emptying the old one would cost more: Lua does not
//! reuse the slot of a key set to nil, so a cleared table shrinks at the
//! next new key and then grows again, name by name.
//!
//! A package may also lay out a sheet (`sheet.rs`): the names it lays out
//! live in the sheet's slots, not in the mirror, and these functions reach
//! them through their slot (upvalues 3 and 4), so every way of reading and
//! writing a variable sees one value. A write to a laid-out name goes to
//! its slot, and to the kernel when the call returns, with the sheet.
//!
//! These are the hottest functions of the API, so they skip the generic
//! native machinery (`native.rs`): each reads its arguments once, checks
//! them, and calls the kernel through [`guarded`], which has dropped every
//! Rust value by the time anything raises. Lua may also raise an
//! out-of-memory error while a value is stored in the mirror: that happens
//! when nothing needing a drop is alive.

use super::link::Link;
use super::native::{ApiError, guarded, link, raise, text, type_name};
use super::sheet::{self, Sheet, Taken};
use crate::kernel::script_data::Scope;
use crate::kernel::state::GameState;
use crate::kernel::value::{Value, Vars};
use mlua::{Function, Lua, Table, Variadic, ffi};
use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_void};
use std::fmt;
use std::rc::Rc;

const MIRROR: c_int = ffi::lua_upvalueindex(2);
const SHEET: c_int = ffi::lua_upvalueindex(3);
const SLOTS: c_int = ffi::lua_upvalueindex(4);

/// The Lua-side mirror of the game variables, and `vars.game` over it.
pub struct VarsCache {
    mirror: RefCell<Table>,
    /// The closures that hold the mirror as their upvalue 2, and the
    /// proxy's metatable, whose `__index` it is: a new mirror goes to each.
    holders: RefCell<Vec<Function>>,
    meta: RefCell<Option<Table>>,
    /// The most variables a state lent so far has held: a new mirror's room.
    room: Cell<usize>,
    sheet: Rc<Sheet>,
    /// The metatable of a mirror while the sheet has slots: its `__index`
    /// reads a laid-out name from the sheet, so `vars.game.turn` finds it.
    mirror_meta: RefCell<Option<Table>>,
}

impl VarsCache {
    pub fn new(lua: &Lua) -> mlua::Result<VarsCache> {
        Ok(VarsCache {
            mirror: RefCell::new(lua.create_table()?),
            holders: RefCell::new(Vec::new()),
            meta: RefCell::new(None),
            room: Cell::new(0),
            sheet: Sheet::new(lua)?,
            mirror_meta: RefCell::new(None),
        })
    }

    pub fn sheet(&self) -> &Rc<Sheet> {
        &self.sheet
    }

    /// The mirrored `get`, `set` and `add`.
    pub fn functions(&self, lua: &Lua, link: &Link) -> mlua::Result<[Function; 3]> {
        Ok([
            self.closure(lua, link, cached_get)?,
            self.closure(lua, link, cached_set)?,
            self.closure(lua, link, cached_add)?,
        ])
    }

    /// Notes how many variables a lent state holds off the sheet, so the
    /// next mirror has room for them from the start.
    pub fn fit(&self, vars: &Vars) {
        self.room.set(self.room.get().max(vars.named_len()));
    }

    /// `vars.game`: an empty table that reads the mirror and writes through
    /// `set`. Its metatable is hidden; the freezer makes it refuse `rawset`
    /// (see `Sandbox::freeze`), and walking it is refused, since the
    /// mirror's order is not the game's.
    pub fn proxy(&self, lua: &Lua, link: &Link) -> mlua::Result<Table> {
        let meta = lua.create_table()?;
        meta.raw_set("__index", &*self.mirror.borrow())?;
        meta.raw_set("__newindex", self.closure(lua, link, proxy_set)?)?;
        meta.raw_set("__metatable", false)?;
        meta.raw_set(
            "__pairs",
            lua.create_function(|_, ()| -> mlua::Result<()> {
                Err(mlua::Error::runtime(
                    "vars.game cannot be walked: read each variable by its name",
                ))
            })?,
        )?;
        let proxy = lua.create_table()?;
        proxy.set_metatable(Some(meta.clone()))?;
        *self.meta.borrow_mut() = Some(meta);
        let mirror_meta = lua.create_table()?;
        mirror_meta.raw_set("__index", self.closure(lua, link, sheet_index)?)?;
        *self.mirror_meta.borrow_mut() = Some(mirror_meta);
        Ok(proxy)
    }

    fn closure(&self, lua: &Lua, link: &Link, f: ffi::lua_CFunction) -> mlua::Result<Function> {
        let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
        // SAFETY: pushes the upvalues (the mirror, the sheet and its slots
        // are the arguments) and makes the closure, the one value left.
        let closure: Function = unsafe {
            let args = (
                &*self.mirror.borrow(),
                self.sheet.table(),
                self.sheet.slots(),
            );
            lua.exec_raw(args, |l| {
                ffi::lua_pushlightuserdata(l, link);
                ffi::lua_rotate(l, 1, 1);
                ffi::lua_pushcclosure(l, f, 4);
            })?
        };
        self.holders.borrow_mut().push(closure.clone());
        Ok(closure)
    }

    /// Makes the mirror hold `vars` with no call into Lua, when it can: the
    /// mirror holds no name (`MirrorBook::empty`, the caller's to check),
    /// `vars` keep every variable by the sheet's slots (`Vars::adopt`: a
    /// new game's do) with plain values, and the sheet is read in memory.
    /// A solitaire journey's new game then costs a copy of its slots, not
    /// a new mirror. Returns whether it could.
    pub fn fill_sheet(&self, vars: &Vars) -> bool {
        let sheet = &self.sheet;
        let Some(values) = sheet.held(vars).filter(|_| vars.named_len() == 0) else {
            return false;
        };
        // SAFETY: no Lua runs until the arrays are dropped, below.
        let Some(arrays) = (unsafe { sheet.arrays_now() }) else {
            return false;
        };
        // SAFETY: no Lua runs while the arrays are written, and only plain
        // values are stored, which need no call into Lua. A value that is
        // not plain stops the fill half way; the load that follows then
        // stores every slot again.
        unsafe {
            (1..)
                .zip(values)
                .all(|(slot, value)| sheet::store_plain(&arrays, slot, value.as_ref()))
        }
    }

    /// Makes the mirror hold `vars`: a new table, filled before anything
    /// points at it; then every holder is pointed at it, and the sheet and
    /// its shadow are filled in place. (Should that fail half way, out of
    /// memory, the host has already forgotten what the mirror held, and
    /// the next call loads it again.) Returns whether the new mirror holds
    /// no name (every variable is on the sheet).
    pub fn load(&self, lua: &Lua, vars: &Vars) -> mlua::Result<bool> {
        self.fit(vars);
        let mut empty = true;
        let fresh = lua.create_table_with_capacity(0, self.room.get())?;
        let laid_out = self.sheet.slot_count() > 0;
        if laid_out {
            fresh.set_metatable(self.mirror_meta.borrow().clone())?;
        }
        let holders = Variadic::from_iter(self.holders.borrow().iter().cloned());
        let meta = self.meta.borrow().clone();
        let (sheet, shadow) = (self.sheet.table(), self.sheet.shadow());
        // SAFETY: the new mirror is at 1, the proxy's metatable (or nil) at
        // 2, the sheet at 3, its shadow at 4, and C closures made by
        // `closure`, with four upvalues, above. The sheet's names are read
        // unguarded: they only change while the package loads.
        // Each name and value is stored raw; pushing text may raise (out of
        // memory): the walk over `vars` holds nothing that needs dropping,
        // and `exec_raw` turns the error into a Rust one. Then
        // `lua_setupvalue` pops a copy of the mirror into each holder's
        // second upvalue; `__index` is already a key of the metatable:
        // setting it again allocates nothing. (One protected call for it
        // all: a new game loads its starting variables, and a bot weighing
        // moves makes the host load a copied state's for each move.)
        unsafe {
            lua.exec_raw::<()>((&fresh, meta, sheet, &*shadow, holders), |l| {
                let arrays = self.sheet.arrays(l, 3, 4);
                sheet::clear(l, arrays.as_ref(), 3, 4, self.sheet.slot_count());
                for (name, value) in vars.iter_unordered() {
                    match self.sheet.slot(name).filter(|_| laid_out) {
                        Some(slot) => sheet::store(l, arrays.as_ref(), 3, 4, slot, Some(value)),
                        None => {
                            empty = false;
                            store(l, name, Some(value));
                        }
                    }
                }
                for holder in 5..=ffi::lua_gettop(l) {
                    ffi::lua_pushvalue(l, 1);
                    ffi::lua_setupvalue(l, holder, 2);
                }
                if ffi::lua_istable(l, 2) != 0 {
                    ffi::lua_pushvalue(l, 1);
                    ffi::lua_setfield(l, 2, c"__index".as_ptr());
                }
                ffi::lua_settop(l, 0);
            })?
        };
        *self.mirror.borrow_mut() = fresh;
        Ok(empty)
    }

    /// Makes the mirror hold `vars` again by the `names` changed since it
    /// held them (see `mirror_book.rs`). Should it fail half way (out of
    /// memory), the host loads it at the next call. Returns whether it
    /// stored a name in the mirror (one not on the sheet).
    pub fn put_back<'a>(
        &self,
        lua: &Lua,
        vars: &Vars,
        names: impl Iterator<Item = &'a str>,
    ) -> mlua::Result<bool> {
        let mut stored = false;
        let (sheet, shadow) = (self.sheet.table(), self.sheet.shadow());
        // SAFETY: the mirror is at 1, the sheet at 3, its shadow at 4; as
        // in `load`, nothing that needs dropping is alive while storing may
        // raise.
        unsafe {
            lua.exec_raw::<()>((&*self.mirror.borrow(), mlua::Nil, sheet, &*shadow), |l| {
                let arrays = self.sheet.arrays(l, 3, 4);
                for name in names {
                    match self.sheet.slot(name) {
                        Some(slot) => sheet::store(l, arrays.as_ref(), 3, 4, slot, vars.get(name)),
                        None => {
                            stored = true;
                            store(l, name, vars.get(name));
                        }
                    }
                }
                ffi::lua_settop(l, 0);
            })?;
        }
        Ok(stored)
    }

    /// Takes the sheet back after a call (see `sheet.rs`): every changed
    /// slot is written into `state` as `vars.set` would write it, and the
    /// mirror's book follows. If the kernel refuses them (a value it cannot
    /// hold, or more data than the limit: then none is written), the
    /// sheet and the mirror are loaded again from the state at the next
    /// call. `None` is a take-back that failed (Lua out of memory).
    pub fn settle(
        &self,
        link: &Link,
        state: &mut GameState,
        taken: Option<Taken>,
    ) -> Result<(), String> {
        let taken = taken.unwrap_or_else(|| Err("the rules' sheet could not be taken back".into()));
        let written = taken.and_then(|mut taken| {
            let written = if taken.is_empty() {
                Ok(())
            } else {
                let before = state.vars_stamp();
                let layout = self.sheet.layout();
                let written = state.set_game_slots(&layout, &mut taken, link.data_limit());
                if written.is_ok() {
                    let names = taken.iter().map(|(slot, _)| &**layout.name(*slot));
                    link.cache_follows(before, state.vars_stamp(), names);
                }
                written
            };
            self.sheet.recycle(taken);
            written
        });
        if written.is_err() {
            link.mirror().forget();
        }
        written
    }
}

/// Stores `value` (nil for none) under `name` in the table at 1.
///
/// # Safety
/// A table is at 1 of the running state, and nothing that needs dropping
/// is alive in the caller's frames up to the protected call (storing text
/// may raise).
unsafe fn store(l: *mut ffi::lua_State, name: &str, value: Option<&Value>) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
        push_value(l, value);
        ffi::lua_rawset(l, 1);
    }
}

/// Pushes `value`, nil for none.
///
/// # Safety
/// As [`store`].
pub(super) unsafe fn push_value(l: *mut ffi::lua_State, value: Option<&Value>) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        match value {
            None => ffi::lua_pushnil(l),
            Some(Value::Bool(b)) => ffi::lua_pushboolean(l, c_int::from(*b)),
            Some(Value::Int(i)) => ffi::lua_pushinteger(l, *i),
            Some(Value::Str(s)) => {
                ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
            }
        }
    }
}

/// `vars.get(name)`.
unsafe extern "C-unwind" fn cached_get(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs a closure made by `closure`; nothing with a
    // destructor is alive while Lua may raise.
    unsafe {
        ffi::lua_settop(l, 1);
        ffi::lua_pushvalue(l, 1);
        // Reading a nil or NaN key finds nothing; it never raises. Only
        // checked names are ever stored, so a hit needs no check.
        if ffi::lua_rawget(l, MIRROR) == ffi::LUA_TNIL {
            check_name(l, "vars.get");
            if let Some(slot) = slot_of(l) {
                ffi::lua_rawgeti(l, SHEET, slot);
            }
        }
        1
    }
}

/// A mirror's `__index` while the sheet has slots (the mirror and the name
/// on the stack): a laid-out name's value, from its slot.
unsafe extern "C-unwind" fn sheet_index(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        ffi::lua_rotate(l, 1, -1);
        ffi::lua_settop(l, 1);
        match slot_of(l) {
            Some(slot) => _ = ffi::lua_rawgeti(l, SHEET, slot),
            None => ffi::lua_pushnil(l),
        }
        1
    }
}

/// The slot of the name at 1, if the sheet lays it out and a game is
/// lent (while the package loads, the sheet holds no game's values: the
/// name is then read and written as any other, which says so).
///
/// # Safety
/// `l` runs a closure made by `closure`, with room for a value.
unsafe fn slot_of(l: *mut ffi::lua_State) -> Option<ffi::lua_Integer> {
    // SAFETY: guaranteed by the caller; reading never raises.
    unsafe {
        if !link(l).lent() {
            return None;
        }
        ffi::lua_pushvalue(l, 1);
        let slot = (ffi::lua_rawget(l, SLOTS) == ffi::LUA_TNUMBER)
            .then(|| ffi::lua_tointegerx(l, -1, std::ptr::null_mut()));
        ffi::lua_settop(l, -2);
        slot
    }
}

/// `vars.set(name, value)`: a whole float is stored as an integer.
unsafe extern "C-unwind" fn cached_set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        set(l, "vars.set");
        0
    }
}

/// `vars.game[name] = value`, the proxy's `__newindex` (called with the
/// proxy first): the same as `vars.set`.
unsafe extern "C-unwind" fn proxy_set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 3);
        ffi::lua_rotate(l, 1, -1);
        ffi::lua_settop(l, 2);
        set(l, "vars.game");
        0
    }
}

/// Checks the name at 1 and the value at 2 and writes them.
///
/// # Safety
/// `l` runs a closure made by `closure`, with the name at 1, the value at
/// 2 and nothing above.
unsafe fn set(l: *mut ffi::lua_State, function: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let name = check_name(l, function);
        let value = checked_value(l, function);
        write(l, name, value);
    }
}

/// The value at 2, read once: nil (clear), a boolean, a whole number (a
/// whole float is replaced on the stack by the integer it equals, which
/// the mirror then holds) or UTF-8 text; anything else raises. Text is
/// copied last, so nothing raises while the copy is alive.
///
/// # Safety
/// As [`set`].
unsafe fn checked_value(l: *mut ffi::lua_State, function: &str) -> Option<Value> {
    // SAFETY: guaranteed by the caller.
    unsafe {
        match ffi::lua_type(l, 2) {
            ffi::LUA_TNIL => None,
            ffi::LUA_TBOOLEAN => Some(Value::Bool(ffi::lua_toboolean(l, 2) != 0)),
            ffi::LUA_TNUMBER => Some(Value::Int(whole(l, 2, function))),
            ffi::LUA_TSTRING => match text(l, 2) {
                Some(t) => Some(Value::Str(t.to_string())),
                None => fail(l, "vars.set: a variable's text must be UTF-8"),
            },
            other => fail_with(
                l,
                format_args!(
                    "bad argument #2 to '{function}' (game variables hold booleans, whole \
                     numbers and strings, not a {}: a game's state is plain data that saves, \
                     undo and bots copy)",
                    type_name(other)
                ),
            ),
        }
    }
}

/// `vars.add(name, n)`: adds to a whole-number variable (unset counts as
/// 0) and returns the sum.
unsafe extern "C-unwind" fn cached_add(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        let name = check_name(l, "vars.add");
        if ffi::lua_type(l, 2) != ffi::LUA_TNUMBER {
            fail(l, "bad argument #2 to 'vars.add' (number expected)")
        }
        let n = whole(l, 2, "vars.add");
        let mut is_int = 0;
        let found = match slot_of(l) {
            Some(slot) => ffi::lua_rawgeti(l, SHEET, slot),
            None => {
                ffi::lua_pushvalue(l, 1);
                ffi::lua_rawget(l, MIRROR)
            }
        };
        let old = match found {
            ffi::LUA_TNIL => {
                is_int = 1;
                0
            }
            _ => ffi::lua_tointegerx(l, 3, &mut is_int),
        };
        if is_int == 0 {
            fail(
                l,
                "vars.add: the variable holds text or a boolean, not a whole number",
            )
        }
        let Some(sum) = old.checked_add(n) else {
            fail(l, "vars.add: the sum does not fit in a whole number")
        };
        ffi::lua_settop(l, 1);
        ffi::lua_pushinteger(l, sum);
        write(l, name, Some(Value::Int(sum)));
        ffi::lua_pushinteger(l, sum);
        1
    }
}

/// Writes `value` (checked, and at 2 as the mirror will hold it) under the
/// name at 1 into the kernel, then the mirror, taking both off the stack.
/// The kernel goes first: it may refuse the write (the data limit), and
/// then nothing has changed. Storing the value in the mirror may raise in
/// turn (out of memory, for a name the mirror has never held); the mirror
/// counts as stale while it is stored, so if that raises, the host reloads
/// it from the kernel before the next call trusts it.
///
/// # Safety
/// `l` runs a closure made by `closure`, with the name at 1, the value at
/// 2 and nothing above; `name` is the name's text.
unsafe fn write(l: *mut ffi::lua_State, name: &str, value: Option<Value>) {
    // SAFETY: guaranteed by the caller; `value` is moved into the kernel
    // (or dropped) before anything may raise.
    unsafe {
        if let Some(slot) = slot_of(l) {
            // The sheet holds it until the call returns (see `sheet.rs`).
            drop(value);
            ffi::lua_rawseti(l, SHEET, slot);
            ffi::lua_settop(l, 0);
            return;
        }
        let link = link(l);
        if guarded(link, "vars.set", || {
            link.with_state(|_, s| {
                let before = s.vars_stamp();
                s.set_script_var(Scope::Game, name, value, link.data_limit())
                    .map_err(ApiError)?;
                link.cache_follows(before, s.vars_stamp(), [name]);
                Ok(())
            })
        }) {
            raise(l, link)
        }
        let holds = link.suspend_cache();
        ffi::lua_rawset(l, MIRROR);
        link.resume_cache(holds);
    }
}

/// The name at 1, or a raised error.
///
/// # Safety
/// `l` runs a closure made by `closure`; the text lives while the name
/// stays at 1.
unsafe fn check_name<'a>(l: *mut ffi::lua_State, function: &str) -> &'a str {
    // SAFETY: guaranteed by the caller.
    unsafe {
        match text(l, 1) {
            Some(name) => name,
            None => fail_with(
                l,
                format_args!(
                    "bad argument #1 to '{function}' (a UTF-8 string expected, got {})",
                    type_name(ffi::lua_type(l, 1))
                ),
            ),
        }
    }
}

/// The whole number at `index`, which replaces a float there; raises if it
/// has a fraction.
///
/// # Safety
/// `l` runs a closure made by `closure`; a number is at `index`.
unsafe fn whole(l: *mut ffi::lua_State, index: c_int, function: &str) -> i64 {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let mut ok = 0;
        let n = ffi::lua_tointegerx(l, index, &mut ok);
        if ok == 0 {
            fail_with(
                l,
                format_args!(
                    "bad argument #{index} to '{function}' (game variables hold whole numbers, \
                     not fractions)"
                ),
            );
        }
        if ffi::lua_isinteger(l, index) == 0 {
            ffi::lua_pushinteger(l, n);
            ffi::lua_replace(l, index);
        }
        n
    }
}

/// Raises `message` with the script's location.
///
/// # Safety
/// `l` runs a closure made by `closure`, and the caller holds nothing that
/// needs dropping.
unsafe fn fail(l: *mut ffi::lua_State, message: &'static str) -> ! {
    // SAFETY: guaranteed by the caller.
    unsafe { fail_with(l, format_args!("{message}")) }
}

/// Raises a message made for the occasion. It is written into the link's
/// buffer; `fmt::Arguments` owns nothing, so no Rust value needs dropping
/// when the raise leaves this frame.
///
/// # Safety
/// As [`fail`].
unsafe fn fail_with(l: *mut ffi::lua_State, message: fmt::Arguments) -> ! {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let link = link(l);
        link.set_error_args(message);
        raise(l, link)
    }
}
