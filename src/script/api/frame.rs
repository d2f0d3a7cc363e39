//! `frame`: the phase frame a scripted phase works on, as a view into the
//! kernel's phase stack rather than a copy.
//!
//! `phases.NAME.run(frame)` reads and writes `frame.player`, `frame.step`
//! and the context `frame.ctx.KEY` straight in the state, so a call pays
//! only for the fields it touches, and nothing is copied back afterwards.
//! The same two objects serve every call (they are userdata: a script
//! cannot store anything in them); they refer to whichever frame the
//! running call works on, and refuse to work outside a phase call.

use super::link::Link;
use super::native::{self, ApiError, Args, Native, Out, text, with_quick_path};
use super::player_arg;
use super::vars::set;
use crate::kernel::script_data::Scope;
use crate::kernel::state::Frame;
use mlua::{Function, Lua, RegistryKey, Value, ffi};
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The `frame` object handed to phase functions, and the registry slots
/// its natives return.
pub struct FrameProxy {
    frame: Value,
    _keep: Vec<RegistryKey>,
}

impl FrameProxy {
    pub fn new(lua: &Lua, link: &Link) -> mlua::Result<FrameProxy> {
        let ctx = proxy(
            lua,
            native::function(lua, link, &CTX_INDEX)?,
            native::function(lua, link, &CTX_NEWINDEX)?,
            Some(native::function(lua, link, &CTX_PAIRS)?),
        )?;
        let frame = proxy(
            lua,
            with_quick_path(lua, link, &FRAME_INDEX, step_index)?,
            with_quick_path(lua, link, &FRAME_NEWINDEX, step_newindex)?,
            None,
        )?;
        let ctx_key = lua.create_registry_value(&ctx)?;
        let next_key = lua.create_registry_value(native::function(lua, link, &CTX_NEXT)?)?;
        link.set_frame_slots(ctx_key.id(), next_key.id());
        Ok(FrameProxy {
            frame,
            _keep: vec![ctx_key, next_key],
        })
    }

    /// The `frame` argument of phase functions.
    pub fn value(&self) -> &Value {
        &self.frame
    }
}

/// A userdata whose fields are read and written by natives.
fn proxy(
    lua: &Lua,
    index: Function,
    newindex: Function,
    pairs: Option<Function>,
) -> mlua::Result<Value> {
    let mt = lua.create_table()?;
    mt.raw_set("__index", index)?;
    mt.raw_set("__newindex", newindex)?;
    if let Some(pairs) = pairs {
        mt.raw_set("__pairs", pairs)?;
    }
    mt.raw_set("__metatable", false)?;
    // SAFETY: makes an empty userdata and gives it `mt` (the one argument),
    // leaving the userdata as the one result.
    unsafe {
        lua.exec_raw(&mt, |l| {
            mlua::ffi::lua_newuserdatauv(l, 0, 0);
            mlua::ffi::lua_pushvalue(l, 1);
            mlua::ffi::lua_setmetatable(l, -2);
            mlua::ffi::lua_remove(l, 1);
        })
    }
}

/// Runs `f` on the frame of the running phase call.
fn with_frame<R>(
    link: &Link,
    f: impl FnOnce(
        &crate::kernel::game::Game,
        &mut crate::kernel::state::GameState,
        usize,
    ) -> Result<R, ApiError>,
) -> Result<R, ApiError> {
    let depth = link.frame()?;
    link.with_state(|g, s| {
        if depth >= s.stack.len() {
            return Err(ApiError::new(
                "the phase's frame left the stack during the call",
            ));
        }
        f(g, s, depth)
    })
}

fn frame_at(s: &mut crate::kernel::state::GameState, depth: usize) -> &mut Frame {
    &mut s.stack[depth]
}

static FRAME_INDEX: Native = Native {
    name: "frame",
    call: |link, a, out| {
        let key = a.str(2)?;
        match key {
            "ctx" => {
                out.registry(link.frame_slots().0);
                Ok(())
            }
            "player" | "step" => with_frame(link, |_, s, depth| {
                let f = frame_at(s, depth);
                match key {
                    "player" => out.registry(link.player_name(f.player)),
                    _ => out.int(i64::from(f.step)),
                }
                Ok(())
            }),
            _ => Err(unknown_field(key)),
        }
    },
};

static FRAME_NEWINDEX: Native = Native {
    name: "frame",
    call: |link, a, _| {
        let key = a.str(2)?;
        match key {
            "player" => {
                let id = a.str(3)?;
                with_frame(link, |g, s, depth| {
                    frame_at(s, depth).player = player_arg(g, id)?;
                    Ok(())
                })
            }
            "step" => {
                let step = u32::try_from(a.int(3)?)
                    .map_err(|_| ApiError::new("frame.step counts from 0 to 4294967295"))?;
                with_frame(link, |_, s, depth| {
                    frame_at(s, depth).step = step;
                    Ok(())
                })
            }
            "ctx" => Err(ApiError::new(
                "frame.ctx is the frame's context, not a table to replace: set its fields \
                 one by one (frame.ctx.area = \"gaul\")",
            )),
            _ => Err(unknown_field(key)),
        }
    },
};

/// `frame.step`'s quick paths. A phase that remembers where it stopped
/// reads the step on most calls and writes it before most decisions (a
/// solitaire journey: 7 reads and 6 writes), which through the native
/// machinery's argument and result buffers cost some 350 instructions
/// each. The quick path answers a read of `step`, and a write of a whole
/// number it can hold, straight from the frame; every other key or value,
/// and a call outside a phase, goes to the ordinary native, which checks
/// everything and explains what is wrong. So the quick path never raises.
///
/// # Safety
/// `l` runs the `frame` proxy's `__index`, made by `with_quick_path`.
unsafe extern "C-unwind" fn step_index(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as the dice's quick paths: every Rust value of the quick
    // path is gone when `call` may raise.
    unsafe {
        let link = native::link(l);
        match is_step(l).then(|| on_step(link, |step| *step)).flatten() {
            Some(step) => {
                ffi::lua_pushinteger(l, ffi::lua_Integer::from(step));
                1
            }
            None => native::call(l),
        }
    }
}

/// `frame.step = n`'s quick path; see [`step_index`].
///
/// # Safety
/// `l` runs the `frame` proxy's `__newindex`, made by `with_quick_path`.
unsafe extern "C-unwind" fn step_newindex(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `step_index`; only an integer is read as one.
    unsafe {
        let link = native::link(l);
        let value = (is_step(l) && ffi::lua_isinteger(l, 3) != 0)
            .then(|| u32::try_from(ffi::lua_tointegerx(l, 3, std::ptr::null_mut())).ok())
            .flatten();
        match value.and_then(|value| on_step(link, |step| *step = value)) {
            Some(()) => 0,
            None => native::call(l),
        }
    }
}

/// Whether the key (argument 2 of a metamethod) is `"step"`.
///
/// # Safety
/// `l` is the running state, in a metamethod call.
unsafe fn is_step(l: *mut ffi::lua_State) -> bool {
    // SAFETY: guaranteed by the caller; `text` reads only a string.
    unsafe { text(l, 2) == Some("step") }
}

/// `f` on the running phase's `step`; none when there is no such frame
/// (the ordinary path then says why).
fn on_step<R>(link: &Link, f: impl FnOnce(&mut u32) -> R) -> Option<R> {
    let depth = link.frame().ok()?;
    let run = || link.with_state(|_, s| Ok(s.stack.get_mut(depth).map(|frame| f(&mut frame.step))));
    catch_unwind(AssertUnwindSafe(run)).ok()?.ok()?
}

fn unknown_field(key: &str) -> ApiError {
    ApiError(format!(
        "a frame has `player`, `step` and `ctx`, not '{key}' (keep other values in frame.ctx)"
    ))
}

static CTX_INDEX: Native = Native {
    name: "frame.ctx",
    call: |link, a, out| {
        let key = a.str(2)?;
        with_frame(link, |_, s, depth| {
            out.value(s.script_var(Scope::Frame(depth), key));
            Ok(())
        })
    },
};

static CTX_NEWINDEX: Native = Native {
    name: "frame.ctx",
    call: |link, a, _| {
        let (key, value) = (a.str(2)?, a.value(3)?);
        with_frame(link, |_, s, depth| {
            set(link, s, Scope::Frame(depth), key, value)
        })
    },
};

/// `pairs(frame.ctx)`: the context in key order.
static CTX_PAIRS: Native = Native {
    name: "pairs",
    call: |link, _, out| {
        out.registry(link.frame_slots().1);
        out.registry(link.frame_slots().0);
        out.nil();
        Ok(())
    },
};

/// The iterator `pairs(frame.ctx)` returns: the key after `key`.
static CTX_NEXT: Native = Native {
    name: "next",
    call: |link, a, out| ctx_next(link, a, out),
};

fn ctx_next(link: &Link, a: &Args, out: &mut Out) -> Result<(), ApiError> {
    let after = a.opt_str(2)?;
    with_frame(link, |_, s, depth| {
        let next = frame_at(s, depth).ctx.next_after(after);
        match next {
            Some((k, v)) => {
                out.str(k);
                out.value(Some(v));
            }
            None => out.nil(),
        }
        Ok(())
    })
}
