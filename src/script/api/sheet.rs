//! `vars.sheet` and `vars.slots`: game variables that the rules read and
//! write as a plain Lua array, with no call into the host.
//!
//! Through `vars.game` and `vars.set`, every read is a metamethod and every
//! write a call into the host that writes the kernel (some 140 and 880
//! instructions: a solitaire journey made 336 reads and 100 writes, a third
//! of its cost). A package that lays out a sheet (`vars.slots{...}`, in
//! `prepare()`) gets a slot number for each of those variables and reads
//! and writes `vars.sheet[slot]` as the VM reads any array.
//!
//! The kernel still holds every variable (DESIGN principle 1): when a call
//! into the rules returns, the host takes the sheet back
//! ([`Sheet::take_in_memory`], or [`Sheet::take_back`] through Lua). It
//! compares the sheet with the shadow, its own array of what the kernel
//! holds (in memory: `raw.rs`), checks each changed value as `vars.set`
//! would, and writes it into the state by slot: the state's variables
//! keep the sheet's names by slot too (`Vars::adopt`), so no name is
//! looked up. Saves, undo, clones, hashes and replays see the whole state
//! whenever no rule runs, as before;
//! only a value the kernel refuses is reported when the call returns, not
//! at the line that wrote it. Before a call, the sheet holds the lent
//! state's variables (`vars_cache.rs` loads it with the mirror).
//!
//! `vars.get`, `vars.set`, `vars.add` and `vars.game` reach a laid-out
//! name through its slot, so both ways see one value.

mod raw;

use super::fail;
use super::native::{ApiError, type_name};
use crate::kernel::value::{Value, VarLayout, Vars};
use mlua::{Lua, Table, ffi};
pub use raw::Arrays;
use raw::{Layout, Plain};
use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

/// The sheet: its layout, the rules' array and the host's shadow.
pub struct Sheet {
    /// The rules' array. Rules keep it in upvalues, so it stays the same
    /// table for the Lua state's life.
    table: Table,
    /// What the kernel held at the last load or take-back, slot by slot:
    /// the host's own array, which no script sees. It keeps the strings it
    /// holds alive, so a slot holding the same string object is unchanged.
    shadow: RefCell<Table>,
    /// The two tables' addresses, to read them in memory with no call
    /// into Lua (a table never moves).
    table_at: *const c_void,
    shadow_at: Cell<*const c_void>,
    /// Slot by name, for the `vars` functions (one raw read in C).
    slots: Table,
    /// The names by slot, which the state's variables keep by slot too
    /// (`Vars::adopt`): shared with them once the package has loaded.
    names: RefCell<Rc<VarLayout>>,
    /// Until the package freezes, it may lay out more slots.
    open: Cell<bool>,
    layout: Layout,
    /// The slots found changed by the last comparison (a buffer kept).
    changed: RefCell<Vec<usize>>,
    /// The list a take-back fills, kept between calls (see `recycle`).
    spare: RefCell<Vec<(usize, Option<Value>)>>,
}

/// The values taken back from the sheet, by slot, or what is wrong with
/// one of them.
pub type Taken = Result<Vec<(usize, Option<Value>)>, String>;

impl Sheet {
    pub fn new(lua: &Lua) -> mlua::Result<Rc<Sheet>> {
        let mut layout = None;
        // SAFETY: the probe leaves the stack as it found it, and may only
        // raise (out of memory) before it holds anything.
        unsafe { lua.exec_raw::<()>((), |l| layout = Some(Layout::probe(l)))? };
        Sheet::with_layout(lua, layout.expect("the probe ran"))
    }

    fn with_layout(lua: &Lua, layout: Layout) -> mlua::Result<Rc<Sheet>> {
        let (table, shadow) = (lua.create_table()?, lua.create_table()?);
        let sheet = Rc::new(Sheet {
            table_at: table.to_pointer(),
            shadow_at: Cell::new(shadow.to_pointer()),
            table,
            shadow: RefCell::new(shadow),
            slots: lua.create_table()?,
            names: RefCell::default(),
            open: Cell::new(true),
            layout,
            changed: RefCell::new(Vec::new()),
            spare: RefCell::new(Vec::new()),
        });
        let meta = lua.create_table()?;
        meta.raw_set("__newindex", sheet.newindex(lua)?)?;
        meta.raw_set(
            "__len",
            lua.create_function(|lua, ()| -> mlua::Result<()> {
                Err(fail(
                    lua,
                    ApiError::new(
                        "vars.sheet has no length (its slots may hold nil): walk the slots \
                         vars.slots gave",
                    ),
                ))
            })?,
        )?;
        meta.raw_set("__metatable", false)?;
        sheet.table.set_metatable(Some(meta))?;
        Ok(sheet)
    }

    /// `vars.sheet`.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The slot-by-name table the `vars` functions read.
    pub fn slots(&self) -> &Table {
        &self.slots
    }

    /// How many slots are laid out.
    pub fn slot_count(&self) -> usize {
        self.laid_out().len()
    }

    /// The slot of `name`, if it is laid out.
    pub fn slot(&self, name: &str) -> Option<usize> {
        self.laid_out().slot(name)
    }

    /// The names by slot, for the state's variables to adopt.
    pub fn layout(&self) -> Rc<VarLayout> {
        Rc::clone(&self.names.borrow())
    }

    /// The layout, read with no guard to drop (a walk of Lua's may be cut
    /// short, out of memory): safe while the package cannot lay out slots,
    /// which is whenever a game runs.
    fn laid_out(&self) -> &VarLayout {
        // SAFETY: `lay_out`, the only writer, runs while the package loads,
        // never while a reference from here is alive.
        unsafe { self.names.try_borrow_unguarded() }.expect("the names are not being laid out")
    }

    /// Takes a plain value of `slot` (see `raw.rs`) from the sheet into the
    /// shadow, in memory; `None` if it is not plain.
    ///
    /// # Safety
    /// `arrays` are good, and `slot` is laid out.
    unsafe fn take_plain(&self, arrays: &Arrays, slot: usize) -> Option<(usize, Option<Value>)> {
        // SAFETY: guaranteed by the caller.
        unsafe {
            let plain = arrays.read(slot)?;
            arrays.store(slot, plain, false);
            Some((slot, plain.value()))
        }
    }

    /// The shadow (see the type).
    pub fn shadow(&self) -> std::cell::Ref<'_, Table> {
        self.shadow.borrow()
    }

    /// The package is about to freeze: no more slots. The sheet must hold
    /// its slots and nothing else (a key put in with `rawset` while the
    /// package loaded would be a place to keep something between calls
    /// that the host never takes back); the shadow is made, with room for
    /// every slot.
    pub fn close(&self, lua: &Lua) -> mlua::Result<()> {
        self.open.set(false);
        let n = self.slot_count();
        for pair in self.table.pairs::<mlua::Value, mlua::Value>() {
            let (key, _) = pair?;
            let slot = match key {
                mlua::Value::Integer(i) => usize::try_from(i).ok(),
                _ => None,
            };
            if !slot.is_some_and(|s| (1..=n).contains(&s)) {
                return Err(mlua::Error::runtime(format!(
                    "vars.sheet holds the key {} when the package has loaded: the sheet holds \
                     only the slots vars.slots lays out (keep other values in game variables)",
                    key.to_string()
                        .unwrap_or_else(|_| key.type_name().to_string())
                )));
            }
        }
        let shadow = lua.create_table_with_capacity(n, 0)?;
        self.shadow_at.set(shadow.to_pointer());
        *self.shadow.borrow_mut() = shadow;
        Ok(())
    }

    /// Whether the sheet is read and written in memory (see `raw.rs`).
    #[cfg(test)]
    fn compares_memory(&self) -> bool {
        self.layout.trusted()
    }

    /// `vars.slots{name, ...}`: lays out each name not laid out yet, in
    /// order, and returns a table of the names' slots, which raises on a
    /// name it does not hold (a typo would otherwise read slot nil).
    pub fn slots_function(self: &Rc<Sheet>, lua: &Lua) -> mlua::Result<mlua::Function> {
        let sheet = Rc::clone(self);
        lua.create_function(move |lua, names: Table| {
            if !sheet.open.get() {
                return Err(fail(
                    lua,
                    ApiError::new(
                        "vars.slots: the sheet is laid out while the package loads (call it in \
                         prepare()); the package has frozen",
                    ),
                ));
            }
            let out = lua.create_table()?;
            for (i, name) in names.sequence_values::<mlua::Value>().enumerate() {
                let name = match name? {
                    mlua::Value::String(s) => s.to_str()?.to_string(),
                    other => {
                        return Err(fail(
                            lua,
                            ApiError(format!(
                                "vars.slots: item {} is not a variable's name: names are \
                                 strings, not {}",
                                i + 1,
                                other.type_name()
                            )),
                        ));
                    }
                };
                let slot = sheet.lay_out(&name)?;
                out.raw_set(name, slot)?;
            }
            let strict = lua.create_table()?;
            strict.raw_set(
                "__index",
                lua.create_function(|lua, (_, name): (mlua::Value, mlua::Value)| -> mlua::Result<()> {
                    Err(fail(
                        lua,
                        ApiError(format!(
                            "no slot for {}: vars.slots returns the slots of the names it was given",
                            name.to_string().unwrap_or_else(|_| "that key".into())
                        )),
                    ))
                })?,
            )?;
            out.set_metatable(Some(strict))?;
            Ok(out)
        })
    }

    /// The slot of `name`, laid out now if it is new (the shadow is made
    /// when the package closes the sheet).
    fn lay_out(&self, name: &str) -> mlua::Result<usize> {
        if let Some(slot) = self.slot(name) {
            return Ok(slot);
        }
        let slot = Rc::get_mut(&mut self.names.borrow_mut())
            .expect("the layout is shared once the package has loaded")
            .lay_out(name);
        self.slots.raw_set(name, slot)?;
        // Every slot holds a value until the first load (which gives each
        // its state's value, nil included), so that Lua sizes the array
        // part to hold them all: it counts only keys that hold a value.
        // (Nothing shrinks it later: no other key can be added.)
        self.table.raw_set(slot, false)?;
        Ok(slot)
    }

    /// The sheet's `__newindex`, for a slot that holds nil (a key the
    /// table holds is written without it): a slot is stored; any other key
    /// is refused, since a key the host does not take back would let a rule
    /// remember something between calls.
    fn newindex(self: &Rc<Sheet>, lua: &Lua) -> mlua::Result<mlua::Function> {
        let sheet = Rc::as_ptr(self).cast_mut().cast::<c_void>();
        // SAFETY: pushes the sheet's address and makes the closure; the Rc
        // that owns the sheet lives as long as the API, which the state's
        // functions cannot outlive (the sandbox drops them together).
        unsafe {
            lua.exec_raw((), |l| {
                ffi::lua_pushlightuserdata(l, sheet);
                ffi::lua_pushcclosure(l, sheet_newindex, 1);
            })
        }
    }

    /// Compares the sheet with the shadow and returns every changed slot
    /// with its value, in memory (see `raw.rs`), with no call into Lua;
    /// plain values are stored in the shadow. `vars` are the lent state's:
    /// a slot holding text that differs from the shadow is compared with
    /// their text ([`Arrays::text`]). `None` when it cannot be done so (the
    /// layout is not trusted, or a changed slot holds a float or a value
    /// the kernel refuses): the caller then calls [`Sheet::take_back`],
    /// with nothing changed.
    pub fn take_in_memory(&self, vars: &Vars) -> Option<Vec<(usize, Option<Value>)>> {
        let n = self.slot_count();
        if n == 0 {
            return Some(Vec::new());
        }
        // SAFETY: both tables are alive (held here), and no Lua runs while
        // their arrays are read.
        let arrays = unsafe { self.arrays_now() }?;
        let kernel = self.held(vars).unwrap_or_default();
        let mut changed = self.changed.borrow_mut();
        changed.clear();
        // SAFETY: as above; the changed slots are in 1..=n, and their
        // values are all checked before any is stored in the shadow.
        unsafe {
            arrays.differing(n, kernel, &mut changed);
            let text = |slot| arrays.text(slot).and_then(|t| std::str::from_utf8(t).ok());
            if !changed
                .iter()
                .all(|&slot| arrays.read(slot).is_some() || text(slot).is_some())
            {
                return None;
            }
            let mut taken = self.spare.take();
            taken.extend(changed.iter().map(|&slot| {
                self.take_plain(&arrays, slot).unwrap_or_else(|| {
                    let text = text(slot).expect("checked above");
                    arrays.mark_text(slot);
                    (slot, Some(Value::Str(text.to_owned())))
                })
            }));
            Some(taken)
        }
    }

    /// The values `vars` hold by the sheet's slots, if they keep its names
    /// by slot (`Vars::adopt`).
    pub fn held<'a>(&self, vars: &'a Vars) -> Option<&'a [Option<Value>]> {
        let laid_out = vars
            .layout()
            .is_some_and(|layout| Rc::ptr_eq(layout, &self.names.borrow()));
        laid_out.then(|| vars.slot_values())
    }

    /// As [`Sheet::take_in_memory`], through Lua where it must be: every
    /// changed value is checked as `vars.set` checks it (a whole float read
    /// as the integer it equals, which both then hold) and stored in the
    /// shadow. `Err` names the first value the kernel cannot hold; the
    /// caller then loads the sheet again from the state.
    pub fn take_back(&self, lua: &Lua, vars: &Vars) -> mlua::Result<Taken> {
        let n = self.slot_count();
        let kernel = self.held(vars).unwrap_or_default();
        let mut changed = self.changed.borrow_mut();
        changed.clear();
        let mut taken = Ok(Vec::new());
        // SAFETY: the sheet is at 1 and the shadow at 2. Nothing here
        // raises: reads, stores into slots the arrays hold, an integer
        // pushed; so the Rust values alive meanwhile are dropped normally.
        unsafe {
            lua.exec_raw::<()>((&self.table, &*self.shadow.borrow()), |l| {
                let arrays = self.layout.arrays(l, 1, 2, n);
                match &arrays {
                    Some(arrays) => arrays.differing(n, kernel, &mut changed),
                    None => raw::differing_by_api(l, 1, 2, n, &mut changed),
                }
                taken = self.take(l, arrays.as_ref(), &changed);
                ffi::lua_settop(l, 0);
            })?;
        }
        Ok(taken)
    }

    /// The values of the `changed` slots of the sheet at 1, checked; each
    /// is stored in the shadow at 2 (and, normalized, in the sheet).
    ///
    /// # Safety
    /// `l` is a running state with the sheet at 1, the shadow at 2 and
    /// room for two values; `arrays` are theirs, if they can be read in
    /// memory.
    unsafe fn take(
        &self,
        l: *mut ffi::lua_State,
        arrays: Option<&Arrays>,
        changed: &[usize],
    ) -> Taken {
        let mut taken = self.spare.take();
        for &slot in changed {
            // SAFETY: guaranteed by the caller.
            unsafe {
                if let Some(plain) = arrays.and_then(|a| self.take_plain(a, slot)) {
                    taken.push(plain);
                    continue;
                }
                let at = slot as ffi::lua_Integer;
                ffi::lua_rawgeti(l, 1, at);
                let value = checked(l, -1).map_err(|what| {
                    format!(
                        "vars.sheet[{slot}] ('{}') holds {what}: game variables hold booleans, \
                         whole numbers and UTF-8 strings",
                        self.laid_out().name(slot)
                    )
                })?;
                ffi::lua_pushvalue(l, -1);
                ffi::lua_rawseti(l, 1, at);
                ffi::lua_rawseti(l, 2, at);
                taken.push((slot, value));
            }
        }
        Ok(taken)
    }

    /// Keeps the list a take-back returned, emptied, for the next one: a
    /// take-back then allocates nothing.
    pub fn recycle(&self, mut taken: Vec<(usize, Option<Value>)>) {
        taken.clear();
        *self.spare.borrow_mut() = taken;
    }

    /// The sheet's and the shadow's arrays, if they can be read in memory,
    /// found with no call into Lua.
    ///
    /// # Safety
    /// The caller runs no Lua while it uses them.
    pub unsafe fn arrays_now(&self) -> Option<Arrays> {
        // SAFETY: both tables are alive (held here); the caller runs no Lua
        // while it uses the arrays.
        unsafe {
            self.layout
                .arrays_of(self.table_at, self.shadow_at.get(), self.slot_count())
        }
    }

    /// The sheet's and the shadow's arrays, if they can be read in memory.
    ///
    /// # Safety
    /// As [`Layout::arrays`].
    pub unsafe fn arrays(
        &self,
        l: *mut ffi::lua_State,
        sheet: c_int,
        shadow: c_int,
    ) -> Option<Arrays> {
        // SAFETY: guaranteed by the caller.
        unsafe { self.layout.arrays(l, sheet, shadow, self.slot_count()) }
    }
}

/// Makes every slot of the sheet at `sheet` and the shadow at `shadow`
/// nil, before a load stores the state's values.
///
/// # Safety
/// `l` is a running state with room for a value; `arrays`, if any, are
/// those tables' and good.
pub unsafe fn clear(
    l: *mut ffi::lua_State,
    arrays: Option<&Arrays>,
    sheet: c_int,
    shadow: c_int,
    n: usize,
) {
    for slot in 1..=n {
        // SAFETY: guaranteed by the caller.
        unsafe { store(l, arrays, sheet, shadow, slot, None) }
    }
}

/// Stores `value` (nil for none) in `slot` of the sheet at `sheet` and of
/// the shadow at `shadow`: in memory when it is plain, else through Lua.
///
/// # Safety
/// As [`clear`]; pushing text may raise (out of memory), so the caller
/// holds nothing that needs dropping.
pub unsafe fn store(
    l: *mut ffi::lua_State,
    arrays: Option<&Arrays>,
    sheet: c_int,
    shadow: c_int,
    slot: usize,
    value: Option<&Value>,
) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        if arrays.is_some_and(|arrays| store_plain(arrays, slot, value)) {
            return;
        }
        super::vars_cache::push_value(l, value);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_rawseti(l, sheet, slot as ffi::lua_Integer);
        ffi::lua_rawseti(l, shadow, slot as ffi::lua_Integer);
    }
}

/// Stores `value` (nil for none) in `slot` of the sheet and the shadow in
/// memory, if it is plain (not text, which needs Lua); returns whether it
/// did.
///
/// # Safety
/// `arrays` are good (no Lua has run since they were found), and `slot`
/// is laid out.
pub unsafe fn store_plain(arrays: &Arrays, slot: usize, value: Option<&Value>) -> bool {
    let plain = match value {
        None => Plain::Nil,
        Some(Value::Bool(b)) => Plain::Bool(*b),
        Some(Value::Int(i)) => Plain::Int(*i),
        Some(Value::Str(_)) => return false,
    };
    // SAFETY: guaranteed by the caller.
    unsafe { arrays.store(slot, plain, true) };
    true
}

/// The value at `i`, as the kernel holds it; a whole float is replaced on
/// the stack by its integer.
///
/// # Safety
/// `i` is a valid index of the running state.
unsafe fn checked(l: *mut ffi::lua_State, i: c_int) -> Result<Option<Value>, String> {
    // SAFETY: guaranteed by the caller.
    unsafe {
        match ffi::lua_type(l, i) {
            ffi::LUA_TNIL => Ok(None),
            ffi::LUA_TBOOLEAN => Ok(Some(Value::Bool(ffi::lua_toboolean(l, i) != 0))),
            ffi::LUA_TNUMBER => {
                let mut whole = 0;
                let n = ffi::lua_tointegerx(l, i, &mut whole);
                if whole == 0 {
                    let x = ffi::lua_tonumberx(l, i, std::ptr::null_mut());
                    return Err(format!("{x}, not a whole number"));
                }
                if ffi::lua_isinteger(l, i) == 0 {
                    ffi::lua_pushinteger(l, n);
                    ffi::lua_replace(l, i);
                }
                Ok(Some(Value::Int(n)))
            }
            ffi::LUA_TSTRING => match super::native::text(l, i) {
                Some(t) => Ok(Some(Value::Str(t.to_string()))),
                None => Err("text that is not UTF-8".into()),
            },
            other => Err(format!("a {}", type_name(other))),
        }
    }
}

/// The sheet's `__newindex` (the table, the key and the value on the
/// stack): stores a laid-out slot; raises for any other key.
unsafe extern "C-unwind" fn sheet_newindex(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs the closure made by `Sheet::newindex`, whose
    // upvalue is the sheet's address; the message is on Lua's stack before
    // the raise, so no Rust value is alive then.
    unsafe {
        let sheet = &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)).cast::<Sheet>();
        ffi::lua_settop(l, 3);
        let n = sheet.slot_count();
        let mut whole = 0;
        let slot = ffi::lua_tointegerx(l, 2, &mut whole);
        // A whole float key is the integer it equals, as for any table.
        let number = ffi::lua_type(l, 2) == ffi::LUA_TNUMBER && whole != 0;
        if number && slot >= 1 && slot as usize <= n {
            ffi::lua_rawset(l, 1);
            return 0;
        }
        ffi::luaL_where(l, 1);
        let key = match ffi::lua_type(l, 2) {
            ffi::LUA_TNUMBER if number => slot.to_string(),
            ffi::LUA_TSTRING => format!("'{}'", super::native::text(l, 2).unwrap_or("?")),
            other => format!("a {}", type_name(other)),
        };
        let message = if n == 0 {
            format!(
                "vars.sheet has no slots, so {key} is not one: lay them out with \
                 vars.slots {{ ... }} in prepare()"
            )
        } else {
            format!(
                "vars.sheet has slots 1 to {n}: {key} is not one of them (write a slot that \
                 vars.slots gave: sheet[at.turn] = 1)"
            )
        };
        ffi::lua_pushlstring(l, message.as_ptr().cast(), message.len());
        drop(message);
        ffi::lua_concat(l, 2);
        ffi::lua_error(l)
    }
}

#[cfg(test)]
mod tests {
    use super::{Layout, Sheet};
    use crate::kernel::value::{Value, Vars};

    /// One take-back's findings, names as text.
    type Found = Result<Vec<(String, Option<Value>)>, String>;

    /// What take-backs find after the rules' writes, on a sheet of `a`, `b`
    /// and `c` read in `layout`, with the kernel's variables following
    /// (as the host settles them).
    fn taken(layout: Option<Layout>) -> Vec<Found> {
        let lua = mlua::Lua::new();
        let sheet = match layout {
            None => Sheet::new(&lua).unwrap(),
            Some(layout) => Sheet::with_layout(&lua, layout).unwrap(),
        };
        for name in ["a", "b", "c"] {
            sheet.lay_out(name).unwrap();
        }
        sheet.close(&lua).unwrap();
        let mut kernel = Vars::new();
        kernel.adopt(&sheet.layout());
        let table = sheet.table();
        let mut found = Vec::new();
        let mut take = || {
            let t = match sheet.take_in_memory(&kernel) {
                Some(t) => Ok(t),
                None => sheet.take_back(&lua, &kernel).unwrap(),
            };
            found.push(t.map(|t| {
                t.into_iter()
                    .map(|(slot, v)| {
                        kernel.swap_slot(slot, &mut v.clone());
                        (sheet.laid_out().name(slot).to_string(), v)
                    })
                    .collect()
            }));
        };
        // The first take-back finds what `close` left (false) as changed.
        take();
        table.raw_set(1, 5).unwrap();
        table.raw_set(2, "x").unwrap();
        table.raw_set(3, mlua::Value::Nil).unwrap();
        take();
        take();
        table.raw_set(1, 2.0).unwrap();
        table.raw_set(2, lua.create_string("x").unwrap()).unwrap();
        take();
        assert_eq!(
            table.raw_get::<mlua::Value>(1).unwrap(),
            mlua::Value::Integer(2)
        );
        table
            .raw_set(2, "a longer text than the forty bytes Lua interns")
            .unwrap();
        take();
        take();
        // Text taken back in memory is marked, not kept, in the shadow:
        // clearing it must still be seen where the shadow held nil.
        table.raw_set(3, "y").unwrap();
        take();
        table.raw_set(3, mlua::Value::Nil).unwrap();
        take();
        table.raw_set(2, lua.create_table().unwrap()).unwrap();
        take();
        found
    }

    #[test]
    fn the_sheet_is_taken_back_alike_in_memory_and_through_the_api() {
        let found = taken(None);
        assert_eq!(found, taken(Some(Layout::without_text())));
        assert_eq!(found, taken(Some(Layout::through_the_api())));
        let int = |n| Some(Value::Int(n));
        let text = |t: &str| Some(Value::Str(t.into()));
        assert_eq!(
            found[1],
            Ok(vec![
                ("a".into(), int(5)),
                ("b".into(), text("x")),
                ("c".into(), None)
            ])
        );
        assert_eq!(found[2], Ok(vec![]));
        assert_eq!(found[3], Ok(vec![("a".into(), int(2))]), "the same text");
        let long = "a longer text than the forty bytes Lua interns";
        assert_eq!(found[4], Ok(vec![("b".into(), text(long))]));
        assert_eq!(found[5], Ok(vec![]));
        assert_eq!(found[6], Ok(vec![("c".into(), text("y"))]));
        assert_eq!(found[7], Ok(vec![("c".into(), None)]));
        assert!(
            found[8]
                .as_ref()
                .unwrap_err()
                .contains("vars.sheet[2] ('b') holds a table")
        );
    }

    #[test]
    fn the_vendored_lua_is_read_in_memory() {
        // If this fails, Lua's layout changed (see `raw.rs`): the sheet
        // still works through the API, only slower.
        let lua = mlua::Lua::new();
        assert!(Sheet::new(&lua).unwrap().compares_memory());
        // The same for strings.
        assert!(Sheet::new(&lua).unwrap().layout.reads_text());
    }
}
