//! `board`: read the board graph (it never changes during a game).

use super::link::Link;
use super::native::Native;
use super::{fail, natives, player_arg, space_arg, vars_to_table};
use crate::data::compile::rank_of;
use crate::kernel::game::Game;
use mlua::{Lua, Table};
use std::rc::Rc;

/// A function of `board` that reads only the definition, called through
/// mlua: names and tables to build, no hot path.
type Reader = fn(&Lua, &Game, Option<String>, Option<String>) -> mlua::Result<mlua::Value>;

pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<()> {
    let t = natives(lua, link, &[&RANK, &IN_ZONE])?;
    let cold: [(&str, Reader); 7] = [
        ("spaces", |lua, g, _, _| {
            let names = g.board.ids().map(|i| g.board.name(i));
            lua.create_sequence_from(names).map(mlua::Value::Table)
        }),
        ("space", |lua, g, name, _| {
            space(lua, g, name.as_deref().unwrap_or_default()).map(mlua::Value::Table)
        }),
        ("neighbours", |lua, g, name, _| {
            let id = space_arg(g, name.as_deref().unwrap_or_default()).map_err(|e| fail(lua, e))?;
            let names = g.board.neighbours(id).map(|n| g.board.name(n));
            lua.create_sequence_from(names).map(mlua::Value::Table)
        }),
        ("edges", |lua, g, name, _| {
            let id = space_arg(g, name.as_deref().unwrap_or_default()).map_err(|e| fail(lua, e))?;
            edges(lua, g, id).map(mlua::Value::Table)
        }),
        ("rows", |_, g, _, _| {
            Ok(g.board.grid_size().map_or(mlua::Value::Nil, |s| {
                mlua::Value::Integer(i64::from(s.rows))
            }))
        }),
        ("columns", |_, g, _, _| {
            Ok(g.board.grid_size().map_or(mlua::Value::Nil, |s| {
                mlua::Value::Integer(i64::from(s.columns))
            }))
        }),
        ("zone", |lua, g, zone, player| {
            let (z, p) = (
                zone_arg(g, zone.as_deref().unwrap_or_default()).map_err(|e| fail(lua, e))?,
                player_arg(g, player.as_deref().unwrap_or_default()).map_err(|e| fail(lua, e))?,
            );
            let names = g.zones[z].spaces(p).iter().map(|&s| g.board.name(s));
            lua.create_sequence_from(names).map(mlua::Value::Table)
        }),
    ];
    for (name, f) in cold {
        let l = Rc::clone(link);
        t.raw_set(
            name,
            lua.create_function(move |lua, (a, b): (Option<String>, Option<String>)| {
                let g = l.game().map_err(|e| fail(lua, e))?;
                f(lua, g, a, b)
            })?,
        )?;
    }
    lua.globals().raw_set("board", t)
}

/// One space: name, kind, tags, region, attrs, and column/row on grids
/// (with `grid`, the grid's name, on a named grid).
fn space(lua: &Lua, g: &Game, name: &str) -> mlua::Result<Table> {
    let id = space_arg(g, name).map_err(|e| fail(lua, e))?;
    let s = g.board.space(id);
    let t = lua.create_table()?;
    t.raw_set("name", s.name.as_str())?;
    t.raw_set("kind", g.board.space_kind_name(id))?;
    t.raw_set(
        "tags",
        lua.create_sequence_from(s.tags.iter().map(String::as_str))?,
    )?;
    t.raw_set("region", s.region.as_deref())?;
    if let Some((col, row)) = s.cell {
        t.raw_set("column", col + 1)?;
        t.raw_set("row", row + 1)?;
    }
    if let Some(cell) = s.named_cell {
        t.raw_set(
            "grid",
            g.board.named_grids()[usize::from(cell.grid)].0.as_str(),
        )?;
        t.raw_set("column", cell.col + 1)?;
        t.raw_set("row", cell.row + 1)?;
    }
    t.raw_set("attrs", vars_to_table(lua, &s.attrs)?)?;
    Ok(t)
}

/// A space's edges as `{to, kind}` tables, in board order: the edge kind
/// (a strait, a coast, a crossing arrow) is what an area map's movement
/// rules are written in.
fn edges(lua: &Lua, g: &Game, id: crate::kernel::board::SpaceId) -> mlua::Result<Table> {
    let out = lua.create_table()?;
    for (i, e) in g.board.edges(id).iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("to", g.board.name(e.to))?;
        t.raw_set("kind", g.board.edge_kinds()[usize::from(e.kind)].as_str())?;
        out.raw_set(i + 1, t)?;
    }
    Ok(out)
}

fn zone_arg(g: &Game, name: &str) -> Result<usize, super::native::ApiError> {
    g.zone_index(name).ok_or_else(|| {
        let zones = g.zones.iter().map(|z| z.name.as_str());
        super::native::ApiError(format!(
            "no zone '{name}': {}",
            crate::data::error::suggest(name, zones)
        ))
    })
}

/// A grid cell's row counted from a player's home edge (1 = home row).
static RANK: Native = Native {
    name: "board.rank",
    call: |link, a, out| {
        let g = link.game()?;
        let id = space_arg(g, a.str(1)?)?;
        let p = player_arg(g, a.str(2)?)?;
        match (g.board.grid_size(), g.players[p.0 as usize].home) {
            (Some(size), Some(home)) => match rank_of(&g.board, size, home, id) {
                Some(r) => out.int(i64::from(r)),
                None => out.nil(),
            },
            _ => out.nil(),
        }
        Ok(())
    },
};

static IN_ZONE: Native = Native {
    name: "board.in_zone",
    call: |link, a, out| {
        let g = link.game()?;
        let z = zone_arg(g, a.str(1)?)?;
        let p = player_arg(g, a.str(2)?)?;
        out.bool(g.zones[z].contains(p, space_arg(g, a.str(3)?)?));
        Ok(())
    },
};
