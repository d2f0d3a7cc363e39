//! `vars.get`, `vars.set` and `vars.add`, kept on the Lua side for the
//! length of a call, because rules read and write their variables far more
//! often than anything else the kernel holds (a solitaire journey reads
//! some 700 and writes some 150).
//!
//! The cache is a Lua table held only by these three C closures (no script
//! can reach it). A read that finds its name in the cache never leaves
//! Lua's C API; a miss asks the kernel and fills the cache. A write goes to
//! the kernel, then to the cache. Between calls the host keeps the cache
//! while the state is the same one and nothing outside the API changed its
//! variables (`GameState::vars_stamp`), and empties it otherwise, so a
//! cached value is always the kernel's.
//!
//! The kernel's side runs the ordinary `vars.get` and `vars.set` native
//! bodies (in `vars.rs`) through the trampoline's parts; the checks of a
//! write are made here first, so a bad value fails at the script's line.
//! Lua may raise an out-of-memory error while storing in the cache: that
//! happens when nothing needing a drop is alive.

use super::link::Link;
use super::native::{Native, push_out, raise, run, upvalues};
use mlua::{Function, Lua, Table, ffi};
use std::ffi::{c_int, c_void};

/// The value the cache holds for a variable known to be unset (nil cannot
/// be stored in a table).
static ABSENT: u8 = 0;

fn absent() -> *mut c_void {
    std::ptr::from_ref(&ABSENT).cast_mut().cast()
}

const CACHE: c_int = ffi::lua_upvalueindex(3);
/// The `vars.set` body, which `get` and `add` need too.
const SET: c_int = ffi::lua_upvalueindex(4);

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

    /// The cached `get`, `set` and `add`, over the kernel's `get` and `set`.
    pub fn functions(
        &self,
        lua: &Lua,
        link: &Link,
        [get, set]: [&'static Native; 2],
    ) -> mlua::Result<[Function; 3]> {
        Ok([
            self.closure(lua, link, get, set, cached_get)?,
            self.closure(lua, link, get, set, cached_set)?,
            self.closure(lua, link, get, set, cached_add)?,
        ])
    }

    fn closure(
        &self,
        lua: &Lua,
        link: &Link,
        get: &'static Native,
        set: &'static Native,
        f: ffi::lua_CFunction,
    ) -> mlua::Result<Function> {
        let pointer = |n: &'static Native| std::ptr::from_ref(n).cast_mut().cast::<c_void>();
        let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
        let (get, set) = (pointer(get), pointer(set));
        // SAFETY: pushes the upvalues (the cache is the argument) and makes
        // the closure, the one value left on the stack.
        unsafe {
            lua.exec_raw(&self.cache, |l| {
                ffi::lua_pushlightuserdata(l, link);
                ffi::lua_pushlightuserdata(l, get);
                ffi::lua_pushvalue(l, 1);
                ffi::lua_pushlightuserdata(l, set);
                ffi::lua_pushcclosure(l, f, 4);
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
    // SAFETY: `l` runs a closure made by `closure`; no Rust value with a
    // destructor is alive while Lua may raise.
    unsafe {
        if ffi::lua_type(l, 1) == ffi::LUA_TSTRING {
            ffi::lua_settop(l, 1);
            if lookup(l, 1) {
                return 1;
            }
        }
        let (link, native) = upvalues(l);
        if run(l, link, native) {
            raise(l, link)
        }
        push_out(l, link);
        remember(l, 1, -1);
        1
    }
}

/// `vars.set(name, value)`: a whole float is stored as an integer.
unsafe extern "C-unwind" fn cached_set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        check_name(l, "vars.set");
        match ffi::lua_type(l, 2) {
            ffi::LUA_TNIL | ffi::LUA_TBOOLEAN | ffi::LUA_TSTRING => {}
            ffi::LUA_TNUMBER => whole(l, 2, "vars.set"),
            other => {
                store_error(
                    l,
                    &format!(
                        "bad argument #2 to 'vars.set' (game variables hold booleans, whole \
                         numbers and strings, not a {}: keep state in the kernel, DESIGN \
                         principle 1)",
                        type_name(other)
                    ),
                );
                raise_stored(l)
            }
        }
        write(l);
        0
    }
}

/// `vars.add(name, n)`: adds to a whole-number variable (unset counts as
/// 0) and returns the sum.
unsafe extern "C-unwind" fn cached_add(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        ffi::lua_settop(l, 2);
        check_name(l, "vars.add");
        if ffi::lua_type(l, 2) != ffi::LUA_TNUMBER {
            fail(l, "bad argument #2 to 'vars.add' (number expected)");
        }
        whole(l, 2, "vars.add");
        if !lookup(l, 1) {
            // A miss: the kernel's answer (the `get` body reads only the
            // name, argument 1).
            let (link, native) = upvalues(l);
            if run(l, link, native) {
                raise(l, link)
            }
            push_out(l, link);
            remember(l, 1, -1);
        }
        // The old value is on top.
        let mut is_int = 0;
        let old = match ffi::lua_type(l, -1) {
            ffi::LUA_TNIL => 0,
            _ => ffi::lua_tointegerx(l, -1, &mut is_int),
        };
        if ffi::lua_type(l, -1) != ffi::LUA_TNIL && is_int == 0 {
            fail(l, "vars.add: the variable holds text or a boolean, not a whole number")
        }
        let n = ffi::lua_tointegerx(l, 2, std::ptr::null_mut());
        let Some(sum) = old.checked_add(n) else {
            fail(l, "vars.add: the sum does not fit in a whole number")
        };
        ffi::lua_settop(l, 1);
        ffi::lua_pushinteger(l, sum);
        write(l);
        ffi::lua_settop(l, 2);
        1
    }
}

/// Writes the value at 2 under the name at 1: into the kernel, then the
/// cache. The stack holds just the two.
///
/// # Safety
/// `l` runs a closure made by `closure`; the arguments are checked.
unsafe fn write(l: *mut ffi::lua_State) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let link = upvalues(l).0;
        let set = &*ffi::lua_touserdata(l, SET).cast::<Native>();
        if run(l, link, set) {
            raise(l, link)
        }
        remember(l, 1, 2);
    }
}

/// Pushes the cached value of the name at `name`; false (with nothing
/// pushed) on a miss.
///
/// # Safety
/// `l` runs a closure made by `closure`, the name is a string.
unsafe fn lookup(l: *mut ffi::lua_State, name: c_int) -> bool {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::lua_pushvalue(l, name);
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

/// Caches the value at stack index `value` under the name at `name`.
///
/// # Safety
/// `l` runs a closure made by `closure`, with two free stack slots; the
/// name is a string.
unsafe fn remember(l: *mut ffi::lua_State, name: c_int, value: c_int) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let value = ffi::lua_absindex(l, value);
        ffi::lua_pushvalue(l, name);
        if ffi::lua_type(l, value) == ffi::LUA_TNIL {
            ffi::lua_pushlightuserdata(l, absent());
        } else {
            ffi::lua_pushvalue(l, value);
        }
        ffi::lua_rawset(l, CACHE);
    }
}

/// Raises unless argument 1 is a string.
///
/// # Safety
/// `l` runs a closure made by `closure`.
unsafe fn check_name(l: *mut ffi::lua_State, function: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let t = ffi::lua_type(l, 1);
        if t != ffi::LUA_TSTRING {
            store_error(
                l,
                &format!(
                    "bad argument #1 to '{function}' (string expected, got {})",
                    type_name(t)
                ),
            );
            raise_stored(l)
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
            store_error(
                l,
                &format!(
                    "bad argument #{index} to '{function}' (game variables hold whole numbers, \
                     not fractions)"
                ),
            );
            raise_stored(l)
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
    unsafe {
        store_error(l, message);
        raise_stored(l)
    }
}

/// Keeps an error message in the link, for [`raise_stored`]: a message
/// made with `format!` is dropped at the end of the statement that stores
/// it, before anything raises.
///
/// # Safety
/// `l` runs a closure made by `closure`.
unsafe fn store_error(l: *mut ffi::lua_State, message: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe { upvalues(l).0.set_error(message) }
}

/// Raises the stored error with the script's location.
///
/// # Safety
/// `l` runs a closure made by `closure`, and the caller holds nothing that
/// needs dropping.
unsafe fn raise_stored(l: *mut ffi::lua_State) -> ! {
    // SAFETY: guaranteed by the caller.
    unsafe { raise(l, upvalues(l).0) }
}

fn type_name(t: c_int) -> &'static str {
    match t {
        ffi::LUA_TNONE => "no value",
        ffi::LUA_TNIL => "nil",
        ffi::LUA_TBOOLEAN => "boolean",
        ffi::LUA_TNUMBER => "number",
        ffi::LUA_TSTRING => "string",
        ffi::LUA_TTABLE => "table",
        ffi::LUA_TFUNCTION => "function",
        ffi::LUA_TTHREAD => "thread",
        _ => "userdata",
    }
}
