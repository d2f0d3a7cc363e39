//! The Lua API over the kernel. Each area (board, pieces, dice, game, vars,
//! the phase frame) registers its global table in one `register` function;
//! docs/lua-api.md documents every call with an example.
//!
//! Scripts never hold game state: during a call the kernel lends the state
//! to the [`Link`], the functions read and change it there, and the kernel
//! takes it back when the call returns. The functions a rule calls many
//! times a game are [`native`] (plain C functions on Lua's stack); the rest
//! are ordinary mlua callbacks. Both reach the state only through
//! [`Link::with_state`].

mod board;
mod cards;
mod dice;
mod frame;
mod frames;
mod game;
pub mod known;
pub mod link;
mod mirror_book;
pub mod native;
mod piece_filter;
mod pieces;
mod secret_roll;
pub mod sheet;
mod vars;
pub mod vars_cache;

pub use frame::FrameProxy;
pub use link::Link;

/// What registering the API hands back to the host: the `frame` object of
/// phase calls, the narration switch, and the cache of game variables.
pub struct Api {
    pub frame: FrameProxy,
    /// `narrate(on)`: switches the Lua side's narration.
    pub narrate: mlua::Function,
    /// The Lua-side cache of game variables (`vars_cache.rs`).
    pub vars_cache: vars_cache::VarsCache,
    /// The API's global tables (`vars`, `dice`...), which no script may change.
    pub tables: Vec<Table>,
    /// API tables that read and write through their metatable
    /// (`vars.game`), for the freezer to leave as they are.
    pub proxies: Vec<Table>,
}

use crate::kernel::board::SpaceId;
use crate::kernel::game::Game;
use crate::kernel::piece::{Location, PieceId, PlayerId};
use crate::kernel::value::{Value, Vars};
use crate::script::package::caller_location;
use mlua::{Lua, Table, ffi};
use native::{ApiError, Native};
use std::ffi::c_int;
use std::rc::Rc;

/// Lua code of the API that is best written in Lua: narration helpers
/// that format only when someone reads the log.
const API_LUA: &str = include_str!("api.lua");

/// Registers every API area as a global table. The Lua state keeps the link
/// alive, since native functions point at it.
pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<Api> {
    lua.set_app_data(Rc::clone(link));
    board::register(lua, link)?;
    pieces::register(lua, link)?;
    cards::register(lua, link)?;
    dice::register(lua, link)?;
    lua.globals().get::<Table>("dice")?.raw_set(
        "roll_secret",
        native::function(lua, link, &secret_roll::ROLL_SECRET)?,
    )?;
    let emit = game::register(lua, link)?;
    let (vars_cache, game_vars) = vars::register(lua, link)?;
    let narrate = lua.load(API_LUA).set_name("=[portolan api]").call(emit)?;
    let globals = lua.globals();
    let tables = ["board", "pieces", "cards", "dice", "game", "vars"]
        .iter()
        .map(|name| globals.raw_get::<Table>(*name))
        .collect::<mlua::Result<_>>()?;
    Ok(Api {
        frame: frame::FrameProxy::new(lua, link)?,
        narrate,
        tables,
        proxies: vec![game_vars],
        vars_cache,
    })
}

/// A table of native functions.
fn natives(lua: &Lua, link: &Link, list: &[&'static Native]) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for native in list {
        let short = native.name.rsplit('.').next().unwrap_or(native.name);
        t.raw_set(short, native::function(lua, link, native)?)?;
    }
    Ok(t)
}

/// An API error raised from an mlua callback, with the script's
/// `file:line:` in front, like the natives' errors.
fn fail(lua: &Lua, e: ApiError) -> mlua::Error {
    let at = caller_location(lua, 1).map_or(String::new(), |l| l + ": ");
    mlua::Error::runtime(format!("{at}{}", e.0))
}

/// Piece ids in Lua are the kernel's index plus one, like every Lua list.
fn piece_arg(state: &crate::kernel::state::GameState, id: i64) -> Result<PieceId, ApiError> {
    if id >= 1 && (id as usize) <= state.pieces().len() {
        Ok(PieceId((id - 1) as u16))
    } else {
        Err(ApiError(format!(
            "no piece {id}: piece ids run from 1 to {}",
            state.pieces().len()
        )))
    }
}

fn lua_piece(id: PieceId) -> i64 {
    i64::from(id.0) + 1
}

fn space_arg(game: &Game, name: &str) -> Result<SpaceId, ApiError> {
    game.board.find(name).ok_or_else(|| {
        let names = game.board.ids().map(|i| game.board.name(i));
        ApiError(format!(
            "no space '{name}': {}",
            crate::data::error::suggest(name, names)
        ))
    })
}

fn player_arg(game: &Game, id: &str) -> Result<PlayerId, ApiError> {
    game.player_index(id).ok_or_else(|| {
        let ids = game.players.iter().map(|p| p.id.as_str());
        ApiError(format!(
            "no player '{id}': {}",
            crate::data::error::suggest(id, ids)
        ))
    })
}

fn kind_arg(game: &Game, name: &str) -> Result<crate::kernel::piece::KindId, ApiError> {
    game.kind_index(name).ok_or_else(|| {
        let kinds = game.kinds.iter().map(|k| k.name.as_str());
        ApiError(format!(
            "no piece kind '{name}': {}",
            crate::data::error::suggest(name, kinds)
        ))
    })
}

/// A space name or a pool name, as scripts write locations.
fn location_arg(game: &Game, name: &str) -> Result<Location, ApiError> {
    if let Some(s) = game.board.find(name) {
        return Ok(Location::Space(s));
    }
    game.pool_index(name).map(Location::Pool).ok_or_else(|| {
        ApiError(format!(
            "'{name}' is neither a space nor a pool (pools: {})",
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

/// Converts a Lua value to a kernel value: booleans, whole numbers, text.
pub fn to_value(v: mlua::Value) -> mlua::Result<Option<Value>> {
    Ok(match v {
        mlua::Value::Nil => None,
        mlua::Value::Boolean(b) => Some(Value::Bool(b)),
        mlua::Value::Integer(i) => Some(Value::Int(i)),
        mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => Some(Value::Int(n as i64)),
        mlua::Value::String(s) => Some(Value::Str(s.to_str()?.to_string())),
        other => {
            return Err(mlua::Error::runtime(format!(
                "game variables hold booleans, whole numbers and strings, not {} (a game's state is plain data that saves, undo and bots copy)",
                other.type_name()
            )));
        }
    })
}

pub fn from_value(lua: &Lua, v: &Value) -> mlua::Result<mlua::Value> {
    Ok(match v {
        Value::Bool(b) => mlua::Value::Boolean(*b),
        Value::Int(i) => mlua::Value::Integer(*i),
        Value::Str(s) => mlua::Value::String(lua.create_string(s)?),
    })
}

/// Variables as a new Lua table, in one protected call: through mlua, each
/// field cost a protected call of its own (some 3,000 instructions; a
/// Treasure Fleet game spent a tenth of its time in `pieces.get`).
pub fn vars_to_table(lua: &Lua, vars: &Vars) -> mlua::Result<Table> {
    let entries: Vec<(&str, &Value)> = vars.iter().collect();
    // SAFETY: `push_vars` leaves the table, the one value returned; the
    // list it reads is dropped here, after the call.
    unsafe { lua.exec_raw((), |l| push_vars(l, &entries)) }
}

/// Pushes a new table of `entries`, made with room for them all. (Lua
/// seeds its string hashes afresh in every process, so a walk of a table
/// of names meets them in no order a script could rely on anyway.)
///
/// # Safety
/// `l` is a running state with room for three values; a push may raise
/// (out of memory), so the caller keeps nothing that needs dropping in the
/// frames that would skip.
pub(super) unsafe fn push_vars(l: *mut ffi::lua_State, entries: &[(&str, &Value)]) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let room = c_int::try_from(entries.len()).unwrap_or(c_int::MAX);
        ffi::lua_createtable(l, 0, room);
        for &(name, value) in entries {
            push_str(l, name);
            push_value(l, value);
            ffi::lua_rawset(l, -3);
        }
    }
}

/// Pushes `text` as a Lua string.
///
/// # Safety
/// As [`push_vars`].
pub(super) unsafe fn push_str(l: *mut ffi::lua_State, text: &str) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ffi::lua_pushlstring(l, text.as_ptr().cast(), text.len());
    }
}

/// Pushes a variable's value.
///
/// # Safety
/// As [`push_vars`].
pub(super) unsafe fn push_value(l: *mut ffi::lua_State, value: &Value) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        match value {
            Value::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
            Value::Int(i) => ffi::lua_pushinteger(l, *i),
            Value::Str(s) => push_str(l, s),
        }
    }
}

/// Reads a Lua table of variables (a new frame's context).
pub fn table_to_vars(lua: &Lua, t: &Table) -> mlua::Result<Vars> {
    let mut vars = Vars::new();
    let mut add = |k: mlua::Value, v: mlua::Value| -> mlua::Result<()> {
        let mlua::Value::String(k) = k else {
            return Err(mlua::Error::runtime(format!(
                "variable names are strings, not {}",
                k.type_name()
            )));
        };
        if let Some(v) = to_value(v)? {
            vars.insert(k.to_str()?.to_string(), v);
        }
        Ok(())
    };
    // A plain table (the usual `{ nation = nation }`) is walked raw; one
    // with a metatable, such as a read-only package table, through the
    // sandbox's `next`, which sees what it holds.
    if t.metatable().is_none() {
        t.for_each(add)?;
        return Ok(vars);
    }
    let next: mlua::Function = lua.globals().get("next")?;
    let mut key = mlua::Value::Nil;
    loop {
        let (k, v): (mlua::Value, mlua::Value) = next.call((t, &key))?;
        if k.is_nil() {
            break;
        }
        key = k.clone();
        add(k, v)?;
    }
    Ok(vars)
}
