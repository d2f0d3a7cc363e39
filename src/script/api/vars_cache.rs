//! `vars.get`, `vars.set` and `vars.add` with a cache of game variables on
//! the Lua side, because rules read their variables far more often than
//! anything else the kernel holds (a solitaire journey reads some 700).
//!
//! The cache is a Lua table held only by these three C closures (no script
//! can reach it). A read that finds its name there never leaves Lua's C
//! API; a miss asks the kernel and fills the cache; a write goes to the
//! kernel first and then to the cache. Between calls the host keeps the
//! cache while the state is the same one and nothing outside the API
//! changed its variables (`GameState::vars_stamp`), and empties it
//! otherwise, so a cached value is always the kernel's.
//!
//! Each function runs the ordinary native body (in `vars.rs`) through the
//! same trampoline parts as every native, so errors, panics and
//! re-entrancy are handled alike; only the cache reads and writes around it
//! are here. Lua may raise an out-of-memory error while storing in the
//! cache: that happens after the body, when nothing needing a drop is alive.

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

/// Makes the cached `get`, `set` and `add` over one cache table, running
/// the natives given for the kernel's side.
pub fn functions(
    lua: &Lua,
    link: &Link,
    cache: &Table,
    [get, set, add]: [&'static Native; 3],
) -> mlua::Result<[Function; 3]> {
    Ok([
        closure(lua, link, cache, get, cached_get)?,
        closure(lua, link, cache, set, cached_set)?,
        closure(lua, link, cache, add, cached_add)?,
    ])
}

fn closure(
    lua: &Lua,
    link: &Link,
    cache: &Table,
    native: &'static Native,
    f: ffi::lua_CFunction,
) -> mlua::Result<Function> {
    let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
    let native = std::ptr::from_ref(native).cast_mut().cast::<c_void>();
    // SAFETY: pushes the upvalues (the cache is the one argument) and makes
    // the closure, the one value left on the stack.
    unsafe {
        lua.exec_raw(cache, |l| {
            ffi::lua_pushlightuserdata(l, link);
            ffi::lua_pushlightuserdata(l, native);
            ffi::lua_pushvalue(l, 1);
            ffi::lua_pushcclosure(l, f, 3);
            ffi::lua_remove(l, 1);
        })
    }
}

/// `vars.get(name)`.
unsafe extern "C-unwind" fn cached_get(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs a closure made by `closure`; no Rust value with a
    // destructor is alive while Lua may raise.
    unsafe {
        if ffi::lua_type(l, 1) == ffi::LUA_TSTRING {
            ffi::lua_settop(l, 1);
            ffi::lua_pushvalue(l, 1);
            if ffi::lua_rawget(l, CACHE) != ffi::LUA_TNIL {
                if ffi::lua_touserdata(l, -1) == absent() {
                    ffi::lua_pushnil(l);
                }
                return 1;
            }
            ffi::lua_settop(l, 1);
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

/// `vars.set(name, value)`: the body returns the value as stored.
unsafe extern "C-unwind" fn cached_set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        let (link, native) = upvalues(l);
        if run(l, link, native) {
            raise(l, link)
        }
        push_out(l, link);
        remember(l, 1, -1);
        0
    }
}

/// `vars.add(name, n)`: the body returns the sum.
unsafe extern "C-unwind" fn cached_add(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `cached_get`.
    unsafe {
        let (link, native) = upvalues(l);
        if run(l, link, native) {
            raise(l, link)
        }
        push_out(l, link);
        remember(l, 1, -1);
        1
    }
}

/// Caches the value at stack index `value` under the name at `name`.
///
/// # Safety
/// `l` runs a closure made by `closure`, with two free stack slots; the
/// name is a string (the body checked it).
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
