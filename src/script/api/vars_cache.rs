//! `vars.get`, `vars.set` and `vars.add`, with a cache of game variables on
//! the Lua side, because rules read and write their variables far more
//! often than anything else the kernel holds (a solitaire journey reads
//! some 500 and writes some 120).
//!
//! The cache is a Lua table held only by these three C closures (no script
//! can reach it). A read that finds its name in the cache never leaves
//! Lua's C API; a miss asks the kernel and fills the cache. A write goes to
//! the kernel, then to the cache. Between calls the host keeps the cache
//! while the state is the same one and nothing outside the API changed its
//! variables (`GameState::vars_stamp`), and empties it otherwise, so a
//! cached value is always the kernel's.
//!
//! These are the hottest functions of the API, so they skip the generic
//! native machinery (`native.rs`): each reads its arguments once, checks
//! them, and calls the kernel through [`guarded`], which has dropped every
//! Rust value by the time anything raises. Lua may also raise an
//! out-of-memory error while a value is stored in the cache: that happens
//! when nothing needing a drop is alive.

use super::link::Link;
use super::native::{ApiError, guarded, push_out, raise, type_name};
use crate::kernel::script_data::Scope;
use crate::kernel::value::Value;
use mlua::{Function, Lua, Table, ffi};
use std::ffi::{c_int, c_void};
use std::fmt;

/// The value the cache holds for a variable known to be unset (nil cannot
/// be stored in a table).
static ABSENT: u8 = 0;

fn absent() -> *mut c_void {
    std::ptr::from_ref(&ABSENT).cast_mut().cast()
}

const LINK: c_int = ffi::lua_upvalueindex(1);
const CACHE: c_int = ffi::lua_upvalueindex(2);

/// The cache of game variables.
pub struct VarsCache {
    cache: Table,
}

impl VarsCache {
    pub fn new(lua: &Lua) -> mlua::Result<VarsCache> {
        Ok(VarsCache {
            cache: lua.create_table()?,
        })
    }

    /// The cached `get`, `set` and `add`.
    pub fn functions(&self, lua: &Lua, link: &Link) -> mlua::Result<[Function; 3]> {
        Ok([
            self.closure(lua, link, cached_get)?,
            self.closure(lua, link, cached_set)?,
            self.closure(lua, link, cached_add)?,
        ])
    }

    fn closure(&self, lua: &Lua, link: &Link, f: ffi::lua_CFunction) -> mlua::Result<Function> {
        let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
        // SAFETY: pushes the upvalues (the cache is the argument) and makes
        // the closure, the one value left on the stack.
        unsafe {
            lua.exec_raw(&self.cache, |l| {
                ffi::lua_pushlightuserdata(l, link);
                ffi::lua_pushvalue(l, 1);
                ffi::lua_pushcclosure(l, f, 2);
                ffi::lua_replace(l, 1);
            })
        }
    }

    /// Empties the cache.
    pub fn clear(&self) {
        // Emptying a table assigns nils to its keys: it cannot fail.
        self.cache.clear().ok();
    }
}

/// `vars.get(name)`.
unsafe extern "C-unwind" fn cached_get(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs a closure made by `closure`; nothing with a
    // destructor is alive while Lua may raise.
    unsafe {
        ffi::lua_settop(l, 1);
        // Only names that were checked are ever cached, so a hit needs no
        // check of its own.
        if lookup(l) {
            return 1;
        }
        let name = check_name(l, "vars.get");
        let link = link(l);
        let mut found = None;
        if guarded(link, "vars.get", || {
            found = link.with_state(|_, s| Ok(s.script_var(Scope::Game, name).cloned()))?;
            Ok(())
        }) {
            raise(l, link)
        }
        hand_over(l, link, found);
        remember(l, 2);
        1
    }
}

/// `vars.set(name, value)`: a whole float is stored as an integer.
unsafe extern "C-unwind" fn cached_set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        let name = check_name(l, "vars.set");
        match ffi::lua_type(l, 2) {
            ffi::LUA_TNIL | ffi::LUA_TBOOLEAN | ffi::LUA_TSTRING => {}
            ffi::LUA_TNUMBER => whole(l, 2, "vars.set"),
            other => fail_with(
                l,
                format_args!(
                    "bad argument #2 to 'vars.set' (game variables hold booleans, whole \
                     numbers and strings, not a {}: keep state in the kernel, DESIGN \
                     principle 1)",
                    type_name(other)
                ),
            ),
        }
        write(l, name);
        0
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
        whole(l, 2, "vars.add");
        let n = ffi::lua_tointegerx(l, 2, std::ptr::null_mut());
        ffi::lua_settop(l, 1);
        if !lookup(l) {
            // A miss: the kernel's value, cached like a read.
            let link = link(l);
            let mut found = None;
            if guarded(link, "vars.add", || {
                found = link.with_state(|_, s| Ok(s.script_var(Scope::Game, name).cloned()))?;
                Ok(())
            }) {
                raise(l, link)
            }
            hand_over(l, link, found);
            remember(l, 2);
        }
        let mut is_int = 0;
        let old = match ffi::lua_type(l, 2) {
            ffi::LUA_TNIL => {
                is_int = 1;
                0
            }
            _ => ffi::lua_tointegerx(l, 2, &mut is_int),
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
        write(l, name);
        1
    }
}

/// Writes the value at 2 (checked) under the name at 1 into the kernel,
/// then the cache.
///
/// # Safety
/// `l` runs a closure made by `closure`, with the name at 1 and the value
/// at 2; `name` is the name's text.
unsafe fn write(l: *mut ffi::lua_State, name: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let link = link(l);
        let value = match ffi::lua_type(l, 2) {
            ffi::LUA_TBOOLEAN => Some(Value::Bool(ffi::lua_toboolean(l, 2) != 0)),
            ffi::LUA_TNUMBER => Some(Value::Int(ffi::lua_tointegerx(l, 2, std::ptr::null_mut()))),
            ffi::LUA_TSTRING => match text(l, 2) {
                Some(t) => Some(Value::Str(t.to_string())),
                None => fail(l, "vars.set: a variable's text must be UTF-8"),
            },
            _ => None,
        };
        if guarded(link, "vars.set", || {
            link.with_state(|_, s| {
                let before = s.vars_stamp();
                s.set_script_var(Scope::Game, name, value, link.data_limit())
                    .map_err(ApiError)?;
                link.cache_follows(before, s.vars_stamp());
                Ok(())
            })
        }) {
            raise(l, link)
        }
        remember(l, 2);
    }
}

/// The link (upvalue 1 of every closure made by `closure`).
///
/// # Safety
/// `l` runs a closure made by `closure`.
unsafe fn link<'a>(l: *mut ffi::lua_State) -> &'a Link {
    // SAFETY: the upvalue is the link, which outlives the Lua state.
    unsafe { &*ffi::lua_touserdata(l, LINK).cast::<Link>() }
}

/// Pushes the cached value of the name at 1; false (with nothing pushed)
/// on a miss (and for a name that cannot be a key: nil or NaN).
///
/// # Safety
/// `l` runs a closure made by `closure`, with an argument at 1.
unsafe fn lookup(l: *mut ffi::lua_State) -> bool {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::lua_pushvalue(l, 1);
        // Reading a nil or NaN key finds nothing; it never raises.
        if ffi::lua_rawget(l, CACHE) == ffi::LUA_TNIL {
            ffi::lua_pop(l, 1);
            return false;
        }
        if ffi::lua_touserdata(l, -1) == absent() {
            ffi::lua_pop(l, 1);
            ffi::lua_pushnil(l);
        }
        true
    }
}

/// Pushes a kernel value, by way of the link's buffer: the value is
/// dropped before Lua may raise (out of memory) while pushing it.
///
/// # Safety
/// `l` runs a closure made by `closure`, with a free stack slot.
unsafe fn hand_over(l: *mut ffi::lua_State, link: &Link, v: Option<Value>) {
    // SAFETY: guaranteed by the caller; no native runs meanwhile.
    unsafe {
        let out = link.out();
        out.clear_results();
        out.value(v.as_ref());
        drop(v);
        push_out(l, link);
    }
}

/// Caches the value at stack index `value` under the name at 1.
///
/// # Safety
/// `l` runs a closure made by `closure`, with two free stack slots; the
/// name at 1 is a string.
unsafe fn remember(l: *mut ffi::lua_State, value: c_int) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::lua_pushvalue(l, 1);
        if ffi::lua_type(l, value) == ffi::LUA_TNIL {
            ffi::lua_pushlightuserdata(l, absent());
        } else {
            ffi::lua_pushvalue(l, value);
        }
        ffi::lua_rawset(l, CACHE);
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

/// The text at stack index `i`, if it is a UTF-8 string.
///
/// # Safety
/// `i` is a valid index of the running state; the text lives while the
/// value stays on the stack.
unsafe fn text<'a>(l: *mut ffi::lua_State, i: c_int) -> Option<&'a str> {
    // SAFETY: guaranteed by the caller; only strings are read, so
    // `lua_tolstring` converts nothing.
    unsafe {
        if ffi::lua_type(l, i) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0;
        let bytes = std::slice::from_raw_parts(ffi::lua_tolstring(l, i, &mut len).cast(), len);
        if bytes.is_ascii() {
            Some(std::str::from_utf8_unchecked(bytes))
        } else {
            std::str::from_utf8(bytes).ok()
        }
    }
}

/// Replaces the number at `index` by the integer it equals, or raises if
/// it has a fraction.
///
/// # Safety
/// `l` runs a closure made by `closure`; a number is at `index`.
unsafe fn whole(l: *mut ffi::lua_State, index: c_int, function: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        if ffi::lua_isinteger(l, index) != 0 {
            return;
        }
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
        ffi::lua_pushinteger(l, n);
        ffi::lua_replace(l, index);
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
