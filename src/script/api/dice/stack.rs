//! A quick path's call read and answered in the stack's memory, as Lua 5.4
//! lays out a running C function (`lstate.h`: `lua_State`, `CallInfo`;
//! `lobject.h`: `TValue`, `CClosure`).
//!
//! Through the C API, each argument read or result pushed is a call that
//! turns an index into a slot and checks it: finding the link, reading
//! `dice.on`'s table and modifiers and pushing its results cost some 130
//! of its 430 instructions, for what is a load or a store each. So the
//! quick paths read the running call's slots (the function, its upvalue,
//! the arguments up to the top) and write their results (whole numbers, a
//! dice table's row) there themselves. The layout is Lua 5.4's (the
//! vendored 5.4.9, pinned by Cargo.lock; these structures are the same
//! throughout 5.4), like the sheet's (`sheet/raw.rs`). [`check`] tries it once on a call made
//! through the API, before the quick paths trust it; if it fails, every
//! call takes the ordinary path, so another Lua costs speed, never
//! correctness.

use crate::script::lua54::{
    C_CLOSURE, INTEGER, LIGHT_USERDATA, NIL, SHORT_STRING, TABLE, TValue, TYPE_BITS,
};
use mlua::{Lua, ffi};
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether [`check`] found the layout below (the same for every state of
/// the process: one Lua is compiled in).
static CHECKED: AtomicBool = AtomicBool::new(false);

/// The head of Lua 5.4's `lua_State`, up to the running call.
#[repr(C)]
struct StateHead {
    next: *mut c_void,
    tt: u8,
    marked: u8,
    status: u8,
    allowhook: u8,
    nci: u16,
    /// The first free slot.
    top: *mut TValue,
    global: *mut c_void,
    ci: *const CallHead,
}

/// The head of Lua 5.4's `CallInfo`: the running function's slot; its
/// arguments follow it.
#[repr(C)]
struct CallHead {
    func: *mut TValue,
}

/// The head of Lua 5.4's `CClosure`, up to its first upvalue.
#[repr(C)]
struct CClosureHead {
    next: *mut c_void,
    tt: u8,
    marked: u8,
    nupvalues: u8,
    gclist: *mut c_void,
    f: *mut c_void,
    upvalue: TValue,
}

/// An argument, as a quick path takes it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Arg {
    /// Nil, or past the last argument.
    Nil,
    Int(i64),
    /// A short string, by its object's address (as `lua_topointer` gives
    /// it, and `known.rs` keeps it).
    Text(usize),
    /// Anything else: the ordinary path's to read.
    Other,
}

/// The running C function's call, in memory.
pub(super) struct Frame {
    state: *mut StateHead,
    func: *mut TValue,
}

impl Frame {
    /// The running call, if [`check`] found the layout.
    ///
    /// # Safety
    /// `l` is the running state, inside a C function's call.
    #[inline]
    pub(super) unsafe fn of(l: *mut ffi::lua_State) -> Option<Frame> {
        if !CHECKED.load(Ordering::Relaxed) {
            return None;
        }
        // SAFETY: guaranteed by the caller, and the layout was checked.
        Some(unsafe { Frame::unchecked(l) })
    }

    /// # Safety
    /// As [`Frame::of`], with Lua 5.4's layout.
    unsafe fn unchecked(l: *mut ffi::lua_State) -> Frame {
        let state = l.cast::<StateHead>();
        // SAFETY: guaranteed by the caller.
        let func = unsafe { (*(*state).ci).func };
        Frame { state, func }
    }

    /// How many arguments the call has.
    #[inline]
    pub(super) fn count(&self) -> usize {
        // SAFETY: the top is at or past the function's slot, in one stack.
        unsafe { (*self.state).top.offset_from(self.func) as usize - 1 }
    }

    /// Argument `i` (from 1).
    #[inline]
    pub(super) fn arg(&self, i: usize) -> Arg {
        if i > self.count() {
            return Arg::Nil;
        }
        // SAFETY: an argument's slot, below the top.
        let slot = unsafe { &*self.func.add(i) };
        match slot.tag {
            INTEGER => Arg::Int(slot.value as i64),
            SHORT_STRING => Arg::Text(slot.value as usize),
            tag if tag & TYPE_BITS == NIL => Arg::Nil,
            _ => Arg::Other,
        }
    }

    /// The running C closure's first upvalue, a light userdata (the link,
    /// as `with_quick_path` makes the closure).
    #[inline]
    pub(super) fn first_upvalue(&self) -> *mut c_void {
        // SAFETY: the function's slot holds the running C closure, which
        // has at least one upvalue.
        unsafe {
            let closure = (*self.func).value as *const CClosureHead;
            (*closure).upvalue.value as *mut c_void
        }
    }

    /// Pushes a whole number, as `lua_pushinteger` does.
    ///
    /// # Safety
    /// The stack has room (a C function may push `LUA_MINSTACK` values).
    #[inline]
    pub(super) unsafe fn push_int(&self, n: i64) {
        // SAFETY: guaranteed by the caller.
        unsafe { self.push(n as u64, INTEGER) }
    }

    /// Pushes the table at `object` (as `lua_topointer` gives its address),
    /// as `lua_rawgeti` pushes a table it reads: a stack slot needs no
    /// write barrier, since the collector walks a thread's stack again
    /// before it frees anything.
    ///
    /// # Safety
    /// As [`Frame::push_int`], and the table is alive (something else holds
    /// it: the stack does not keep it until it is pushed).
    #[inline]
    pub(super) unsafe fn push_table(&self, object: usize) {
        // SAFETY: guaranteed by the caller.
        unsafe { self.push(object as u64, TABLE) }
    }

    /// # Safety
    /// As [`Frame::push_int`]; `value` is a value of type `tag`.
    #[inline]
    unsafe fn push(&self, value: u64, tag: u8) {
        // SAFETY: guaranteed by the caller: the top slot is free stack.
        unsafe {
            let top = (*self.state).top;
            (*top).value = value;
            (*top).tag = tag;
            (*self.state).top = top.add(1);
        }
    }
}

/// Tries the layout on a call made through the API, and lets the quick
/// paths use it if every read and write agrees with the API's.
pub(super) fn check(lua: &Lua) -> mlua::Result<()> {
    static MARK: u8 = 0;
    // SAFETY: makes a C closure with one light userdata upvalue, calls it
    // with three arguments and leaves its one result, a boolean.
    let agrees = unsafe {
        lua.exec_raw::<bool>((), |l| {
            ffi::lua_pushlightuserdata(l, std::ptr::from_ref(&MARK).cast_mut().cast());
            ffi::lua_pushcclosure(l, probe, 1);
            ffi::lua_pushstring(l, c"probe".as_ptr());
            ffi::lua_pushinteger(l, -7);
            ffi::lua_pushnil(l);
            ffi::lua_createtable(l, 0, 0);
            ffi::lua_call(l, 4, 1);
        })
    }?;
    CHECKED.store(agrees, Ordering::Relaxed);
    Ok(())
}

/// Whether the layout agrees with the API on this call: `("probe", -7,
/// nil, {})`, by a closure whose upvalue is a light userdata.
unsafe extern "C-unwind" fn probe(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: a C function's call; `lua_State`'s head is read only where
    // every Lua 5.4 has it, and the slots only once the count agrees.
    unsafe {
        let frame = Frame::unchecked(l);
        let mut agrees = ffi::lua_gettop(l) == 4
            && frame.count() == 4
            && (*frame.func).tag == C_CLOSURE
            && (*((*frame.func).value as *const CClosureHead)).upvalue.tag == LIGHT_USERDATA
            && frame.first_upvalue() == ffi::lua_touserdata(l, ffi::lua_upvalueindex(1))
            && frame.arg(1) == Arg::Text(ffi::lua_topointer(l, 1) as usize)
            && frame.arg(2) == Arg::Int(-7)
            && frame.arg(3) == Arg::Nil
            && frame.arg(4) == Arg::Other
            && frame.arg(5) == Arg::Nil;
        if agrees {
            frame.push_int(42);
            frame.push_table(ffi::lua_topointer(l, 4) as usize);
            agrees = ffi::lua_gettop(l) == 6
                && ffi::lua_isinteger(l, 5) != 0
                && ffi::lua_tointegerx(l, 5, std::ptr::null_mut()) == 42
                && ffi::lua_rawequal(l, 4, 6) != 0;
        }
        ffi::lua_pushboolean(l, c_int::from(agrees));
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_lua_has_the_layout_the_quick_paths_read() {
        check(&Lua::new()).unwrap();
        assert!(CHECKED.load(Ordering::Relaxed));
    }
}
