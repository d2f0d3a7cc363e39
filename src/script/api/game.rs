//! `game`: players, options, the log, the end of the game, and the phase
//! stack for scripted procedures.

use super::link::Link;
use super::native::{ApiError, Native};
use super::{fail, kind_arg, natives, player_arg, table_to_vars};
use crate::kernel::engine::Engine;
use crate::kernel::event::{Event, Outcome};
use crate::kernel::piece::{EVERYONE, PlayerId, player_bit};
use crate::kernel::secrets;
use crate::kernel::state::Frame;
use mlua::{Function, Lua, Table};
use std::rc::Rc;

/// Registers `game`; returns the native that writes a log line, which the
/// Lua half of the API (`api.lua`) builds `game.log` and `print` on.
pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<Function> {
    let t = natives(
        lua,
        link,
        &[
            &FIRST_PLAYER,
            &SET_FIRST_PLAYER,
            &NEXT_PLAYER,
            &CURRENT_PLAYER,
            &PLAYER_NAME,
            &KIND_NAME,
            &OPTION,
            &PLY,
        ],
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "players",
        lua.create_function(move |lua, ()| {
            let g = l.game().map_err(|e| fail(lua, e))?;
            lua.create_sequence_from(g.players.iter().map(|p| p.id.as_str()))
        })?,
    )?;
    t.raw_set(
        "finish",
        super::native::with_fields(lua, link, &FINISH, &OUTCOME)?,
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "push_phase",
        lua.create_function(
            move |lua, (name, player, ctx, opts): (String, String, Option<Table>, Option<Table>)| {
                push_phase(lua, &l, &name, &player, ctx, opts)
            },
        )?,
    )?;
    super::frames::register(lua, link, &t)?;
    lua.globals().raw_set("game", t)?;
    super::native::function(lua, link, &EMIT)
}

static FIRST_PLAYER: Native = Native {
    name: "game.first_player",
    call: |link, _, out| {
        link.with_state(|_, s| {
            out.registry(link.player_name(s.first_player));
            Ok(())
        })
    },
};

/// For games that throw for the first player during play, after a
/// set-up (Treasure Fleet's secret placement): what `game.first_player`
/// and the simulator's seat-order statistics read from then on.
static SET_FIRST_PLAYER: Native = Native {
    name: "game.set_first_player",
    call: |link, a, _| {
        let player = player_arg(link.game()?, a.str(1)?)?;
        link.with_state(|_, s| {
            s.first_player = player;
            Ok(())
        })
    },
};

static NEXT_PLAYER: Native = Native {
    name: "game.next_player",
    call: |link, a, out| {
        let g = link.game()?;
        out.registry(link.player_name(g.next_player(player_arg(g, a.str(1)?)?)));
        Ok(())
    },
};

static CURRENT_PLAYER: Native = Native {
    name: "game.current_player",
    call: |link, _, out| {
        link.with_state(|_, s| {
            match s.stack.last() {
                Some(f) => out.registry(link.player_name(f.player)),
                None => out.nil(),
            }
            Ok(())
        })
    },
};

/// A player's name for messages (`Blue` for `blue`), from game.yaml.
static PLAYER_NAME: Native = Native {
    name: "game.player_name",
    call: |link, a, out| {
        let g = link.game()?;
        out.str(&g.players[player_arg(g, a.str(1)?)?.0 as usize].name);
        Ok(())
    },
};

/// A piece kind's name for messages (`North wind` for `Wind_N`), from
/// game.yaml: what status blocks show instead of the kind's id.
static KIND_NAME: Native = Native {
    name: "game.kind_name",
    call: |link, a, out| {
        let g = link.game()?;
        out.str(&g.kind(kind_arg(g, a.str(1)?)?).label);
        Ok(())
    },
};

static OPTION: Native = Native {
    name: "game.option",
    call: |link, a, out| {
        out.bool(link.game()?.option_enabled(a.str(1)?));
        Ok(())
    },
};

static PLY: Native = Native {
    name: "game.ply",
    call: |link, _, out| {
        link.with_state(|_, s| {
            out.int(i64::from(s.ply));
            Ok(())
        })
    },
};

/// `emit(text, player or nil)`: a log line for everyone or one player.
/// While the package loads there is no game yet, so it goes to stderr.
static EMIT: Native = Native {
    name: "game.log",
    call: |link, a, _| {
        let text = a.str(1)?;
        let player = a.opt_str(2)?;
        if link.game().is_err() {
            eprintln!("{text}");
            return Ok(());
        }
        link.with_state(|g, s| {
            let to = match player {
                Some(p) => player_bit(player_arg(g, p)?),
                None => EVERYONE,
            };
            s.record(|| Event::Text {
                text: text.to_string(),
                to,
            });
            Ok(())
        })
    },
};

/// The fields of `game.finish`'s table, in the order [`FINISH`] reads them.
const OUTCOME: [&str; 3] = ["winner", "reason", "scores"];

/// Ends the game: `{winner = "blue" | nil, reason = "...", scores = {...}}`.
/// The table is read raw (its metatable is not consulted): it is data, not
/// an object.
static FINISH: Native = Native {
    name: "game.finish",
    call: |link, a, _| {
        if a.type_name(1) != "table" {
            return Err(a.bad(1, "table"));
        }
        let winner = a.field_str(1, 0, OUTCOME[0])?;
        let reason = a.field_str(1, 1, OUTCOME[1])?;
        let scores = match a.field_table(1, 2, OUTCOME[2])? {
            Some(at) => (0..link.game()?.players.len())
                .map(|p| {
                    let player = link.player_name(PlayerId(p as u8));
                    Ok(a.entry_int(at, player, OUTCOME[2])?.unwrap_or(0))
                })
                .collect::<Result<Vec<_>, ApiError>>()?,
            None => Vec::new(),
        };
        link.with_state(|g, s| {
            let winner = winner.map(|w| player_arg(g, w)).transpose()?;
            let reason = reason.unwrap_or("the rules ended the game").to_string();
            Engine::finish(
                s,
                Outcome {
                    winner,
                    reason,
                    scores,
                    by_limit: false,
                },
            );
            Ok(())
        })
    },
};

/// Pushes a phase frame for a player, with optional context and options
/// (`{ seen_by = ... }`: who may see the context); it runs as soon as the
/// current script call returns.
fn push_phase(
    lua: &Lua,
    link: &Link,
    name: &str,
    player: &str,
    ctx: Option<Table>,
    opts: Option<Table>,
) -> mlua::Result<()> {
    let ctx = ctx
        .map(|t| table_to_vars(lua, &t))
        .transpose()?
        .unwrap_or_default();
    let seen_by = opts
        .map(|o| super::frames::seen_by_option(lua, &o))
        .transpose()?
        .flatten();
    link.with_state(|g, s| {
        let phase = g
            .phase_index(name)
            .ok_or_else(|| ApiError(format!("no phase '{name}'")))?;
        let mut frame = Frame::new(phase, player_arg(g, player)?);
        frame.ctx = ctx;
        if let Some(players) = seen_by {
            secrets::check_frame_context(g, phase).map_err(ApiError)?;
            frame.seen_by = players
                .iter()
                .map(|p| player_arg(g, p).map(player_bit))
                .collect::<Result<Vec<u8>, ApiError>>()?
                .into_iter()
                .fold(0, |mask, bit| mask | bit);
        }
        s.push_script_frame(frame, link.data_limit())
            .map_err(ApiError)
    })
    .map_err(|e| fail(lua, e))
}
