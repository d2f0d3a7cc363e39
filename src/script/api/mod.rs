//! The Lua API over the kernel. Each area (board, pieces, dice, game, vars)
//! registers its global table in one `register` function; docs/lua-api.md
//! documents every call with an example.
//!
//! Scripts never hold game state: during a call the kernel lends the state
//! to the Lua host ([`Lent`]), the callbacks read and change it there, and
//! the kernel takes it back when the call returns. Outside a call (while the
//! package loads) the state calls fail with a clear message.

mod board;
mod dice;
mod game;
mod pieces;
mod vars;

use crate::kernel::board::SpaceId;
use crate::kernel::game::Game;
use crate::kernel::piece::{Location, PieceId, PlayerId};
use crate::kernel::state::GameState;
use crate::kernel::value::{Value, Vars};
use mlua::{Lua, Result, Table};
use std::rc::Rc;

/// The game state lent to the scripts for the length of one call.
#[derive(Default)]
pub struct Lent(pub Option<GameState>);

/// The game definition, set once when the package is loaded.
pub struct Definition(pub Rc<Game>);

/// Registers every API area as a global table.
pub fn register(lua: &Lua) -> Result<()> {
    lua.set_app_data(Lent::default());
    board::register(lua)?;
    pieces::register(lua)?;
    dice::register(lua)?;
    game::register(lua)?;
    vars::register(lua)?;
    Ok(())
}

/// Runs `f` with the game definition and the lent state.
fn with_state<R>(lua: &Lua, f: impl FnOnce(&Game, &mut GameState) -> Result<R>) -> Result<R> {
    let game = definition(lua)?;
    let mut lent = lua.app_data_mut::<Lent>().ok_or_else(no_game)?;
    let state = lent.0.as_mut().ok_or_else(no_game)?;
    f(&game, state)
}

fn definition(lua: &Lua) -> Result<Rc<Game>> {
    lua.app_data_ref::<Definition>()
        .map(|d| d.0.clone())
        .ok_or_else(|| {
            mlua::Error::runtime(
                "the game definition is not available while the package is still loading",
            )
        })
}

fn no_game() -> mlua::Error {
    mlua::Error::runtime(
        "no game is in progress: game state can only be read inside a rule function, not while the package loads",
    )
}

/// Piece ids in Lua are the kernel's index plus one, like every Lua list.
fn piece_arg(state: &GameState, id: i64) -> Result<PieceId> {
    if id >= 1 && (id as usize) <= state.pieces().len() {
        Ok(PieceId((id - 1) as u16))
    } else {
        Err(mlua::Error::runtime(format!(
            "no piece {id}: piece ids run from 1 to {}",
            state.pieces().len()
        )))
    }
}

fn lua_piece(id: PieceId) -> i64 {
    i64::from(id.0) + 1
}

fn space_arg(game: &Game, name: &str) -> Result<SpaceId> {
    game.board.find(name).ok_or_else(|| {
        let names: Vec<&str> = game.board.ids().map(|i| game.board.name(i)).collect();
        mlua::Error::runtime(format!(
            "no space '{name}': {}",
            crate::data::error::suggest(name, names)
        ))
    })
}

fn player_arg(game: &Game, id: &str) -> Result<PlayerId> {
    game.player_index(id).ok_or_else(|| {
        let ids: Vec<&str> = game.players.iter().map(|p| p.id.as_str()).collect();
        mlua::Error::runtime(format!(
            "no player '{id}': {}",
            crate::data::error::suggest(id, ids)
        ))
    })
}

/// A space name or a pool name, as scripts write locations.
fn location_arg(game: &Game, name: &str) -> Result<Location> {
    if let Some(s) = game.board.find(name) {
        return Ok(Location::Space(s));
    }
    game.pool_index(name).map(Location::Pool).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "'{name}' is neither a space nor a pool ({})",
            game.pools.join(", ")
        ))
    })
}

fn location_name(game: &Game, loc: Location) -> &str {
    match loc {
        Location::Space(s) => game.board.name(s),
        Location::Pool(p) => &game.pools[p.0 as usize],
    }
}

/// Converts a Lua value to a kernel value: booleans, integers, strings.
pub fn to_value(v: mlua::Value) -> Result<Option<Value>> {
    Ok(match v {
        mlua::Value::Nil => None,
        mlua::Value::Boolean(b) => Some(Value::Bool(b)),
        mlua::Value::Integer(i) => Some(Value::Int(i)),
        mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => Some(Value::Int(n as i64)),
        mlua::Value::String(s) => Some(Value::Str(s.to_str()?.to_string())),
        other => {
            return Err(mlua::Error::runtime(format!(
                "game variables hold booleans, integers and strings, not {} (keep state in the kernel: DESIGN principle 1)",
                other.type_name()
            )));
        }
    })
}

pub fn from_value(lua: &Lua, v: &Value) -> Result<mlua::Value> {
    Ok(match v {
        Value::Bool(b) => mlua::Value::Boolean(*b),
        Value::Int(i) => mlua::Value::Integer(*i),
        Value::Str(s) => mlua::Value::String(lua.create_string(s)?),
    })
}

pub fn vars_to_table(lua: &Lua, vars: &Vars) -> Result<Table> {
    let t = lua.create_table()?;
    for (k, v) in vars {
        t.set(k.as_str(), from_value(lua, v)?)?;
    }
    Ok(t)
}

/// Reads a Lua table of variables, in sorted key order.
pub fn table_to_vars(t: &Table) -> Result<Vars> {
    let mut vars = Vars::new();
    for pair in t.pairs::<String, mlua::Value>() {
        let (k, v) = pair?;
        if let Some(v) = to_value(v)? {
            vars.insert(k, v);
        }
    }
    Ok(vars)
}

/// A list of piece ids as a Lua sequence.
fn piece_list(lua: &Lua, ids: impl Iterator<Item = PieceId>) -> Result<Table> {
    lua.create_sequence_from(ids.map(lua_piece))
}

/// Runs `f` on the frame at `depth` of the lent state's stack.
pub fn with_frame<R>(
    lua: &Lua,
    depth: usize,
    f: impl FnOnce(&Game, &mut crate::kernel::state::Frame) -> Result<R>,
) -> Result<R> {
    with_state(lua, |g, s| {
        let frame = s.stack.get_mut(depth).ok_or_else(|| {
            mlua::Error::runtime("the phase's frame left the stack during the call")
        })?;
        f(g, frame)
    })
}

/// The depth of the lent state's phase stack.
pub fn stack_len(lua: &Lua) -> Result<usize> {
    with_state(lua, |_, s| Ok(s.stack.len()))
}

/// A player's id and a space's name, as scripts receive them.
pub fn names(lua: &Lua, player: PlayerId, space: SpaceId) -> Result<(String, String)> {
    let g = definition(lua)?;
    Ok((
        g.player_id(player).to_string(),
        g.board.name(space).to_string(),
    ))
}
