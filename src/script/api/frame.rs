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
use super::native::{self, ApiError, Args, Native, Out};
use super::player_arg;
use super::vars::set;
use crate::kernel::script_data::Scope;
use crate::kernel::state::Frame;
use mlua::{Lua, RegistryKey, Value};

/// The `frame` object handed to phase functions, and the registry slots
/// its natives return.
pub struct FrameProxy {
    frame: Value,
    _keep: Vec<RegistryKey>,
}

impl FrameProxy {
    pub fn new(lua: &Lua, link: &Link) -> mlua::Result<FrameProxy> {
        let ctx = proxy(lua, link, &CTX_INDEX, &CTX_NEWINDEX, Some(&CTX_PAIRS))?;
        let frame = proxy(lua, link, &FRAME_INDEX, &FRAME_NEWINDEX, None)?;
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
    link: &Link,
    index: &'static Native,
    newindex: &'static Native,
    pairs: Option<&'static Native>,
) -> mlua::Result<Value> {
    let mt = lua.create_table()?;
    mt.raw_set("__index", native::function(lua, link, index)?)?;
    mt.raw_set("__newindex", native::function(lua, link, newindex)?)?;
    if let Some(pairs) = pairs {
        mt.raw_set("__pairs", native::function(lua, link, pairs)?)?;
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
