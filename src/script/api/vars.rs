//! `vars`: game and per-player variables, kept in the kernel's state.

use super::link::Link;
use super::native::{ApiError, Native, Out};
use super::natives;
use super::player_arg;
use super::vars_cache::VarsCache;
use crate::kernel::game::Game;
use crate::kernel::script_data::Scope;
use crate::kernel::secrets;
use crate::kernel::state::GameState;
use crate::kernel::value::Value;
use mlua::{Lua, Table};

/// Registers `vars`; returns the cache of game variables that `get`,
/// `set`, `add` and `vars.game` keep (see `vars_cache.rs`), which the host
/// reloads when the state changes, and `vars.game`.
pub fn register(lua: &Lua, link: &Link) -> mlua::Result<(VarsCache, Table)> {
    let t = natives(lua, link, &[&GET_PLAYER, &SET_PLAYER, &ADD_PLAYER])?;
    let cache = VarsCache::new(lua)?;
    let [get, set, add] = cache.functions(lua, link)?;
    t.raw_set("get", get)?;
    t.raw_set("set", set)?;
    t.raw_set("add", add)?;
    let game = cache.proxy(lua, link)?;
    t.raw_set("game", &game)?;
    t.raw_set("sheet", cache.sheet().table())?;
    t.raw_set("slots", cache.sheet().slots_function(lua)?)?;
    lua.globals().raw_set("vars", t)?;
    Ok((cache, game))
}

static GET_PLAYER: Native = Native {
    name: "vars.get_player",
    call: |link, a, out| {
        let (player, name) = (a.str(1)?, a.str(2)?);
        link.with_state(|g, s| {
            out.value(s.script_var(player_scope(g, player, name)?, name));
            Ok(())
        })
    },
};

static SET_PLAYER: Native = Native {
    name: "vars.set_player",
    call: |link, a, _| {
        let (player, name, value) = (a.str(1)?, a.str(2)?, a.value(3)?);
        link.with_state(|g, s| set(link, s, player_scope(g, player, name)?, name, value))
    },
};

static ADD_PLAYER: Native = Native {
    name: "vars.add_player",
    call: |link, a, out| {
        let (player, name, n) = (a.str(1)?, a.str(2)?, a.int(3)?);
        link.with_state(|g, s| add(link, s, player_scope(g, player, name)?, name, n, out))
    },
};

/// The scope of `player`'s variable `name`, which game.yaml must declare
/// (public or secret: see `kernel::secrets`).
fn player_scope(g: &Game, player: &str, name: &str) -> Result<Scope, ApiError> {
    secrets::check_player_var(g, name).map_err(ApiError)?;
    Ok(Scope::Player(player_arg(g, player)?))
}

/// Sets a variable within the link's data limit.
pub(super) fn set(
    link: &Link,
    s: &mut GameState,
    scope: Scope,
    name: &str,
    value: Option<Value>,
) -> Result<(), ApiError> {
    s.set_script_var(scope, name, value, link.data_limit())
        .map_err(ApiError)
}

/// Adds to a whole-number variable (unset counts as 0); returns the sum.
fn add(
    link: &Link,
    s: &mut GameState,
    scope: Scope,
    name: &str,
    n: i64,
    out: &mut Out,
) -> Result<(), ApiError> {
    let old = match s.script_var(scope, name) {
        None => 0,
        Some(Value::Int(i)) => *i,
        Some(other) => {
            return Err(ApiError(format!(
                "cannot add to '{name}': it holds {other}, not a whole number"
            )));
        }
    };
    let sum = old
        .checked_add(n)
        .ok_or_else(|| ApiError(format!("'{name}' would overflow: {old} + {n}")))?;
    set(link, s, scope, name, Some(Value::Int(sum)))?;
    out.int(sum);
    Ok(())
}
