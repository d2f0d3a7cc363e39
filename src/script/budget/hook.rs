//! The count hook that stops a killed call, and how it finds its sandbox.
//!
//! Everything that touches Lua's debug-hook slot is here, so the unsafe
//! surface of the budget is in one place.

use std::ffi::{CStr, c_void};
use std::sync::Arc;
use std::sync::atomic::{Ordering::SeqCst, fence};

use mlua::{Lua, ffi};

use super::{KILLED, STOP_MESSAGE, Shared, StatePtr, lock};

/// The address of this static keys the registry entry that leads the hook
/// from a `lua_State` to its sandbox's [`Shared`]: a light userdata lookup
/// allocates nothing, so it cannot fail inside the hook.
static HOOK_KEY: u8 = 0;

/// Lets [`stop_hook`] find `shared` from any thread of `lua`.
pub(super) fn link(lua: &Lua, shared: &Arc<Shared>) -> mlua::Result<()> {
    // The Lua state owns a clone, so the pointer in the registry stays valid
    // for as long as any of its threads can run, even if the host keeps a
    // clone of the `Lua` after the sandbox is gone.
    lua.set_app_data(Arc::clone(shared));
    let shared_ptr = Arc::as_ptr(shared).cast_mut().cast::<c_void>();
    // SAFETY: the closure runs in protected mode, with stack space for the
    // one value it pushes and that `lua_rawsetp` pops.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            ffi::lua_pushlightuserdata(state, shared_ptr);
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, hook_key());
        })
    }
}

/// Makes `state` raise the stop error at its next instruction, and at every
/// one after that.
///
/// # Safety
/// `state` must be alive for the whole call: see "Pointer safety" in the
/// parent module's docs.
pub(super) unsafe fn install(state: StatePtr) {
    // SAFETY: the caller guarantees `state` is alive; Lua allows setting a
    // hook asynchronously.
    unsafe { ffi::lua_sethook(state.0, Some(stop_hook), ffi::LUA_MASKCOUNT, 1) };
}

/// Takes the hook off `state`, so that it runs at full speed again.
///
/// # Safety
/// `state` must be alive and either running on this thread or not running.
pub(super) unsafe fn remove(state: StatePtr) {
    // SAFETY: guaranteed by the caller.
    unsafe { ffi::lua_sethook(state.0, None, 0, 0) };
}

/// Whether `state` still has the stop hook (it removes itself only when it
/// fires outside a killed call, which needs Lua's hooks to be on).
///
/// # Safety
/// `state` must be alive and not running: the watchdog only hooks states
/// that run.
pub(super) unsafe fn is_installed(state: StatePtr) -> bool {
    // SAFETY: guaranteed by the caller.
    let hook = unsafe { ffi::lua_gethook(state.0) };
    hook.is_some_and(|hook| std::ptr::fn_addr_eq(hook, stop_hook as ffi::lua_Hook))
}

/// The count hook the watchdog installs on a killed call's states.
///
/// It raises a Lua error, which longjmps out of this frame: so it holds no
/// value with a destructor when it does (all such work is in [`note_stop`],
/// which has returned), and it is `C-unwind` like the Lua API it calls.
unsafe extern "C-unwind" fn stop_hook(state: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) {
    fence(SeqCst); // pairs with the fence in `Shared::kill`
    // SAFETY: hooks get LUA_MINSTACK free slots; this pushes one and pops it.
    let shared = unsafe {
        ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, hook_key());
        let ptr = ffi::lua_touserdata(state, -1).cast::<Shared>();
        ffi::lua_pop(state, 1);
        ptr.as_ref()
    };
    let this = StatePtr(state);
    let Some(shared) = shared else {
        // SAFETY: a hook may remove itself from the state running it.
        unsafe { remove(this) };
        return;
    };
    if shared.phase.load(SeqCst) != KILLED {
        // A hook left behind on a coroutine by an earlier kill: remove it. If
        // the watchdog kills this call meanwhile, its hook must win, hence
        // the second look after the removal.
        // SAFETY: as above.
        unsafe { remove(this) };
        fence(SeqCst);
        if shared.phase.load(SeqCst) != KILLED {
            return;
        }
        // SAFETY: `state` is running this hook.
        unsafe { install(this) };
    }
    // SAFETY: our own `state` and `ar`; then raise with nothing left to drop.
    unsafe {
        note_stop(shared, state, ar);
        ffi::lua_pushstring(state, STOP_MESSAGE.as_ptr());
        ffi::lua_error(state)
    }
}

/// Remembers where the script was when first stopped, for the error message.
///
/// # Safety
/// Only from a hook, with the hook's own `state` and `ar`.
unsafe fn note_stop(shared: &Shared, state: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) {
    let mut stopped_at = lock(&shared.stopped_at);
    // SAFETY: `ar` is the activation record Lua passed to the hook.
    if stopped_at.is_some() || unsafe { ffi::lua_getinfo(state, c"Sl".as_ptr(), ar) } == 0 {
        return;
    }
    // SAFETY: `lua_getinfo` filled `short_src` with a NUL-terminated string.
    let ar = unsafe { &*ar };
    let file = unsafe { CStr::from_ptr(ar.short_src.as_ptr()) }.to_string_lossy();
    *stopped_at = Some(match ar.currentline {
        line if line > 0 => format!("{file}:{line}"),
        _ => file.into_owned(),
    });
}

fn hook_key() -> *const c_void {
    (&raw const HOOK_KEY).cast()
}
