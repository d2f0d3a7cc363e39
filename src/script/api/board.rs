//! `board`: read the board graph (it never changes during a game).

use super::{definition, player_arg, space_arg};
use crate::data::compile::rank_of;
use mlua::{Lua, Result, Table};

pub fn register(lua: &Lua) -> Result<()> {
    let t = lua.create_table()?;
    t.set("spaces", lua.create_function(spaces)?)?;
    t.set("space", lua.create_function(space)?)?;
    t.set("neighbours", lua.create_function(neighbours)?)?;
    t.set(
        "rows",
        lua.create_function(|lua, ()| Ok(definition(lua)?.board.grid_size().map(|g| g.rows)))?,
    )?;
    t.set(
        "columns",
        lua.create_function(|lua, ()| Ok(definition(lua)?.board.grid_size().map(|g| g.columns)))?,
    )?;
    t.set("rank", lua.create_function(rank)?)?;
    t.set("in_zone", lua.create_function(in_zone)?)?;
    t.set("zone", lua.create_function(zone)?)?;
    lua.globals().set("board", t)
}

/// Every space name, in board order.
fn spaces(lua: &Lua, (): ()) -> Result<Table> {
    let g = definition(lua)?;
    lua.create_sequence_from(g.board.ids().map(|i| g.board.name(i).to_string()))
}

/// One space: name, kind, tags, region, and column/row on grids.
fn space(lua: &Lua, name: String) -> Result<Table> {
    let g = definition(lua)?;
    let id = space_arg(&g, &name)?;
    let s = g.board.space(id);
    let t = lua.create_table()?;
    t.set("name", s.name.as_str())?;
    t.set("kind", g.board.space_kind_name(id))?;
    t.set(
        "tags",
        lua.create_sequence_from(s.tags.iter().map(String::as_str))?,
    )?;
    t.set("region", s.region.as_deref())?;
    if let Some((col, row)) = s.cell {
        t.set("column", col + 1)?;
        t.set("row", row + 1)?;
    }
    t.set("attrs", super::vars_to_table(lua, &s.attrs)?)?;
    Ok(t)
}

fn neighbours(lua: &Lua, name: String) -> Result<Table> {
    let g = definition(lua)?;
    let id = space_arg(&g, &name)?;
    lua.create_sequence_from(g.board.neighbours(id).map(|n| g.board.name(n).to_string()))
}

/// A grid cell's row counted from a player's home edge (1 = home row).
fn rank(lua: &Lua, (name, player): (String, String)) -> Result<Option<u8>> {
    let g = definition(lua)?;
    let id = space_arg(&g, &name)?;
    let p = player_arg(&g, &player)?;
    Ok(match (g.board.grid_size(), g.players[p.0 as usize].home) {
        (Some(size), Some(home)) => rank_of(&g.board, size, home, id),
        _ => None,
    })
}

fn zone_arg(g: &crate::kernel::game::Game, name: &str) -> Result<usize> {
    g.zone_index(name)
        .ok_or_else(|| mlua::Error::runtime(format!("no zone '{name}'")))
}

fn in_zone(lua: &Lua, (zone, player, name): (String, String, String)) -> Result<bool> {
    let g = definition(lua)?;
    Ok(g.zones[zone_arg(&g, &zone)?].contains(player_arg(&g, &player)?, space_arg(&g, &name)?))
}

/// The spaces of a zone as a player sees it, in board order.
fn zone(lua: &Lua, (zone, player): (String, String)) -> Result<Table> {
    let g = definition(lua)?;
    let (z, p) = (zone_arg(&g, &zone)?, player_arg(&g, &player)?);
    lua.create_sequence_from(
        g.board
            .ids()
            .filter(|&s| g.zones[z].contains(p, s))
            .map(|s| g.board.name(s).to_string()),
    )
}
