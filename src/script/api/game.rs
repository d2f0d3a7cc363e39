//! `game`: players, options, the log, the end of the game, and the phase
//! stack for scripted procedures.

use super::{definition, player_arg, with_state};
use crate::kernel::engine::Engine;
use crate::kernel::event::{Event, Outcome};
use crate::kernel::piece::{EVERYONE, player_bit};
use crate::kernel::state::Frame;
use mlua::{Lua, Result, Table};

pub fn register(lua: &Lua) -> Result<()> {
    let t = lua.create_table()?;
    t.set(
        "players",
        lua.create_function(|lua, ()| {
            lua.create_sequence_from(definition(lua)?.players.iter().map(|p| p.id.clone()))
        })?,
    )?;
    t.set(
        "first_player",
        lua.create_function(|lua, ()| {
            with_state(lua, |g, s| Ok(g.player_id(s.first_player).to_string()))
        })?,
    )?;
    t.set(
        "next_player",
        lua.create_function(|lua, p: String| {
            let g = definition(lua)?;
            Ok(g.player_id(g.next_player(player_arg(&g, &p)?)).to_string())
        })?,
    )?;
    t.set(
        "current_player",
        lua.create_function(|lua, ()| {
            with_state(lua, |g, s| {
                Ok(s.stack.last().map(|f| g.player_id(f.player).to_string()))
            })
        })?,
    )?;
    t.set(
        "option",
        lua.create_function(|lua, id: String| Ok(definition(lua)?.option_enabled(&id)))?,
    )?;
    t.set(
        "ply",
        lua.create_function(|lua, ()| with_state(lua, |_, s| Ok(s.ply)))?,
    )?;
    t.set("log", lua.create_function(log)?)?;
    t.set("finish", lua.create_function(finish)?)?;
    t.set("push_phase", lua.create_function(push_phase)?)?;
    lua.globals().set("game", t)?;
    lua.globals().set("print", lua.create_function(print)?)
}

/// `print` writes to the game log, seen by everyone: a script's output
/// belongs to the game's narration, not to the terminal behind the REPL.
/// While the package loads there is no game yet, so it goes to stderr.
fn print(lua: &Lua, args: mlua::Variadic<mlua::Value>) -> Result<()> {
    let text = args
        .iter()
        .map(|v| {
            v.to_string()
                .unwrap_or_else(|_| format!("<{}>", v.type_name()))
        })
        .collect::<Vec<_>>()
        .join("\t");
    let logged = with_state(lua, |_, s| {
        s.events.push(Event::Text {
            text: text.clone(),
            to: EVERYONE,
        });
        Ok(())
    });
    if logged.is_err() {
        eprintln!("{text}");
    }
    Ok(())
}

/// Adds a line to the game log, seen by everyone or by one player.
fn log(lua: &Lua, (text, player): (String, Option<String>)) -> Result<()> {
    with_state(lua, |g, s| {
        let to = match player {
            Some(p) => player_bit(player_arg(g, &p)?),
            None => EVERYONE,
        };
        s.events.push(Event::Text { text, to });
        Ok(())
    })
}

/// Ends the game: `{winner = "blue" | nil, reason = "...", scores = {...}}`.
fn finish(lua: &Lua, t: Table) -> Result<()> {
    with_state(lua, |g, s| {
        let winner = t
            .get::<Option<String>>("winner")?
            .map(|w| player_arg(g, &w))
            .transpose()?;
        let reason = t
            .get::<Option<String>>("reason")?
            .unwrap_or_else(|| "the rules ended the game".into());
        let scores = match t.get::<Option<Table>>("scores")? {
            Some(sc) => g
                .players
                .iter()
                .map(|p| sc.get::<Option<i64>>(p.id.as_str()).map(|v| v.unwrap_or(0)))
                .collect::<Result<Vec<_>>>()?,
            None => Vec::new(),
        };
        Engine::finish(
            s,
            Outcome {
                winner,
                reason,
                scores,
            },
        );
        Ok(())
    })
}

/// Pushes a phase frame for a player, with optional context; it runs as
/// soon as the current script call returns.
fn push_phase(lua: &Lua, (name, player, ctx): (String, String, Option<Table>)) -> Result<()> {
    with_state(lua, |g, s| {
        let phase = g
            .phase_index(&name)
            .ok_or_else(|| mlua::Error::runtime(format!("no phase '{name}'")))?;
        let mut frame = Frame::new(phase, player_arg(g, &player)?);
        if let Some(ctx) = ctx {
            frame.ctx = super::table_to_vars(&ctx)?;
        }
        s.stack.push(frame);
        Ok(())
    })
}
