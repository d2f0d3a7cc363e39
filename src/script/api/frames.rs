//! The phase stack seen from outside a phase call: `game.frames()` lists
//! it and `game.set_context(n, key, value)` writes a frame's context. A
//! sampler (`rules.sample`) needs both: the contexts a seat may not see
//! are blanked in its sample, and the sampler writes them anew. Inside a
//! phase call, `frame.ctx` is the quicker way to the running frame.

use super::fail;
use super::link::Link;
use super::native::{self, ApiError, Native};
use super::vars::set;
use crate::kernel::piece::{PlayerId, player_bit};
use crate::kernel::script_data::Scope;
use mlua::{Lua, Table, Value};
use std::rc::Rc;

/// Adds `frames` and `set_context` to the `game` table.
pub fn register(lua: &Lua, link: &Rc<Link>, game: &Table) -> mlua::Result<()> {
    let l = Rc::clone(link);
    game.raw_set(
        "frames",
        lua.create_function(move |lua, ()| frames(lua, &l))?,
    )?;
    game.raw_set("set_context", native::function(lua, link, &SET_CONTEXT)?)
}

/// The stack from the bottom up: `{ phase, player, seen_by }` for each
/// frame, `seen_by` the ids of the players who may see its context.
fn frames(lua: &Lua, link: &Link) -> mlua::Result<Table> {
    let list = link
        .with_state(|g, s| {
            Ok(s.stack
                .iter()
                .map(|f| {
                    let seen: Vec<String> = (0..g.players.len())
                        .filter(|&p| f.seen_by & player_bit(PlayerId(p as u8)) != 0)
                        .map(|p| g.players[p].id.clone())
                        .collect();
                    (
                        g.phases[f.phase as usize].name.clone(),
                        g.players[f.player.0 as usize].id.clone(),
                        seen,
                    )
                })
                .collect::<Vec<_>>())
        })
        .map_err(|e| fail(lua, e))?;
    let out = lua.create_table()?;
    for (i, (phase, player, seen)) in list.into_iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("phase", phase)?;
        t.raw_set("player", player)?;
        t.raw_set("seen_by", lua.create_sequence_from(seen)?)?;
        out.raw_set(i + 1, t)?;
    }
    Ok(out)
}

/// `game.set_context(n, key, value)`: sets (nil clears) a key of the
/// context of frame `n`, counted from 1 at the bottom of the stack.
static SET_CONTEXT: Native = Native {
    name: "game.set_context",
    call: |link, a, _| {
        let (n, key, value) = (a.int(1)?, a.str(2)?, a.value(3)?);
        link.with_state(|_, s| {
            let depth = usize::try_from(n)
                .ok()
                .filter(|&n| (1..=s.stack.len()).contains(&n))
                .ok_or_else(|| {
                    ApiError(format!(
                        "no frame {n}: game.frames() lists {} frame(s), from 1 at the bottom",
                        s.stack.len()
                    ))
                })?;
            set(link, s, Scope::Frame(depth - 1), key, value)
        })
    },
};

/// Reads the options of `game.push_phase`: `{ seen_by = "blue" }` or
/// `{ seen_by = { "blue", "red" } }` (`{}`: nobody). `None` when no
/// `seen_by` is given: the context is public. Any other key is refused.
pub fn seen_by_option(lua: &Lua, opts: &Table) -> mlua::Result<Option<Vec<String>>> {
    let mut seen = None;
    for pair in opts.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match (k.as_string().map(|k| k.to_string_lossy()).as_deref(), v) {
            (Some("seen_by"), Value::String(p)) => seen = Some(vec![p.to_str()?.to_string()]),
            (Some("seen_by"), Value::Table(list)) => {
                seen = Some(
                    list.sequence_values::<String>()
                        .collect::<mlua::Result<Vec<_>>>()
                        .map_err(|_| bad_option(lua, "seen_by lists player ids"))?,
                )
            }
            (Some("seen_by"), other) => {
                return Err(bad_option(
                    lua,
                    &format!(
                        "seen_by is a player id or a list of them, not a {}",
                        other.type_name()
                    ),
                ));
            }
            (key, _) => {
                return Err(bad_option(
                    lua,
                    &format!(
                        "game.push_phase's options have only seen_by, not {}",
                        key.map_or("a key that is not a string".to_string(), |k| format!(
                            "'{k}'"
                        ))
                    ),
                ));
            }
        }
    }
    Ok(seen)
}

fn bad_option(lua: &Lua, message: &str) -> mlua::Error {
    fail(lua, ApiError(message.to_string()))
}
