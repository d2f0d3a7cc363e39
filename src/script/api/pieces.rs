//! `pieces`: find, read, move, reveal and remove pieces. Every list comes
//! back in id order, so no script can depend on hash order.

use super::{
    definition, location_arg, location_name, lua_piece, piece_arg, piece_list, player_arg,
    with_state,
};
use crate::kernel::event::Event;
use crate::kernel::piece::{ELIMINATED, EVERYONE, Location, Piece, player_bit};
use mlua::{Lua, Result, Table};

pub fn register(lua: &Lua) -> Result<()> {
    let t = lua.create_table()?;
    t.set(
        "all",
        lua.create_function(|lua, ()| with_state(lua, |_, s| piece_list(lua, s.piece_ids())))?,
    )?;
    t.set("at", lua.create_function(at)?)?;
    t.set("list", lua.create_function(list)?)?;
    t.set("get", lua.create_function(get)?)?;
    t.set("move", lua.create_function(move_to)?)?;
    t.set("remove", lua.create_function(remove)?)?;
    t.set("reveal", lua.create_function(reveal)?)?;
    t.set("set_kind", lua.create_function(set_kind)?)?;
    t.set("set_owner", lua.create_function(set_owner)?)?;
    t.set("attr", lua.create_function(attr)?)?;
    t.set("set_attr", lua.create_function(set_attr)?)?;
    t.set("create", lua.create_function(create)?)?;
    lua.globals().set("pieces", t)
}

/// The pieces on a space, or in a pool.
fn at(lua: &Lua, place: String) -> Result<Table> {
    with_state(lua, |g, s| match location_arg(g, &place)? {
        Location::Space(space) => piece_list(lua, s.pieces_at(space)),
        pool => piece_list(lua, s.piece_ids().filter(|&id| s.piece(id).loc == pool)),
    })
}

/// Pieces matching a filter: `{owner=, kind=, at=, on_board=}`, all optional.
fn list(lua: &Lua, filter: Option<Table>) -> Result<Table> {
    with_state(lua, |g, s| {
        let get =
            |k: &str| -> Result<Option<String>> { filter.as_ref().map_or(Ok(None), |f| f.get(k)) };
        let owner = get("owner")?.map(|o| player_arg(g, &o)).transpose()?;
        let kind = get("kind")?
            .map(|k| {
                g.kind_index(&k)
                    .ok_or_else(|| mlua::Error::runtime(format!("no piece kind '{k}'")))
            })
            .transpose()?;
        let at = get("at")?.map(|a| location_arg(g, &a)).transpose()?;
        let on_board: bool = filter
            .as_ref()
            .map_or(Ok(None), |f| f.get("on_board"))?
            .unwrap_or(false);
        let keep = |p: &Piece| {
            owner.is_none_or(|o| p.owner == Some(o))
                && kind.is_none_or(|k| p.kind == k)
                && at.is_none_or(|a| p.loc == a)
                && (!on_board || p.loc.space().is_some())
        };
        piece_list(lua, s.piece_ids().filter(|&id| keep(s.piece(id))))
    })
}

/// One piece as a table: id, kind, owner, at, public (face shown to all),
/// attrs. Scripts see every face: hiding is for views, not for the rules.
fn get(lua: &Lua, id: i64) -> Result<Table> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let p = s.piece(pid);
        let t = lua.create_table()?;
        t.set("id", lua_piece(pid))?;
        t.set("kind", g.kind(p.kind).name.as_str())?;
        t.set("owner", p.owner.map(|o| g.player_id(o).to_string()))?;
        t.set("at", location_name(g, p.loc))?;
        t.set("on_board", p.loc.space().is_some())?;
        t.set("public", p.is_public())?;
        t.set("attrs", super::vars_to_table(lua, &p.attrs)?)?;
        Ok(t)
    })
}

fn move_to(lua: &Lua, (id, place): (i64, String)) -> Result<()> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let to = location_arg(g, &place)?;
        let from = s.piece(pid).loc;
        s.set_location(pid, to);
        match (from, to) {
            (Location::Space(f), Location::Space(t)) => s.events.push(Event::Moved {
                piece: pid,
                from: f,
                to: t,
            }),
            (_, Location::Space(t)) => s.events.push(Event::Placed { piece: pid, to: t }),
            _ => {}
        }
        Ok(())
    })
}

/// Destroys a piece: it goes to the `eliminated` pool (or the pool given).
fn remove(lua: &Lua, (id, pool): (i64, Option<String>)) -> Result<()> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let to = match pool {
            Some(p) => Location::Pool(
                g.pool_index(&p)
                    .ok_or_else(|| mlua::Error::runtime(format!("no pool '{p}'")))?,
            ),
            None => Location::Pool(ELIMINATED),
        };
        let from = s.piece(pid).loc;
        s.set_location(pid, to);
        s.events.push(Event::Removed { piece: pid, from });
        Ok(())
    })
}

/// Shows a piece's face to every player, or to one player.
fn reveal(lua: &Lua, (id, player): (i64, Option<String>)) -> Result<()> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let seen = match player {
            Some(p) => s.piece(pid).seen_by | player_bit(player_arg(g, &p)?),
            None => EVERYONE,
        };
        s.reveal(pid, seen);
        Ok(())
    })
}

fn set_kind(lua: &Lua, (id, kind): (i64, String)) -> Result<()> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let k = g
            .kind_index(&kind)
            .ok_or_else(|| mlua::Error::runtime(format!("no piece kind '{kind}'")))?;
        s.set_kind(pid, k);
        Ok(())
    })
}

fn set_owner(lua: &Lua, (id, owner): (i64, Option<String>)) -> Result<()> {
    with_state(lua, |g, s| {
        let pid = piece_arg(s, id)?;
        let o = owner.map(|o| player_arg(g, &o)).transpose()?;
        s.set_owner(pid, o);
        Ok(())
    })
}

fn attr(lua: &Lua, (id, name): (i64, String)) -> Result<mlua::Value> {
    with_state(lua, |_, s| {
        match s.piece(piece_arg(s, id)?).attrs.get(&name) {
            Some(v) => super::from_value(lua, v),
            None => Ok(mlua::Value::Nil),
        }
    })
}

fn set_attr(lua: &Lua, (id, name, value): (i64, String, mlua::Value)) -> Result<()> {
    let value = super::to_value(value)?;
    with_state(lua, |_, s| {
        let pid = piece_arg(s, id)?;
        s.set_piece_attr(pid, &name, value);
        Ok(())
    })
}

/// Creates a piece of a kind for an owner (or nobody) at a place; its face
/// is hidden from the others when the game hides faces.
fn create(lua: &Lua, (kind, owner, place): (String, Option<String>, String)) -> Result<i64> {
    let hidden = definition(lua)?.hidden;
    with_state(lua, |g, s| {
        let k = g
            .kind_index(&kind)
            .ok_or_else(|| mlua::Error::runtime(format!("no piece kind '{kind}'")))?;
        let owner = owner.map(|o| player_arg(g, &o)).transpose()?;
        let loc = location_arg(g, &place)?;
        let seen_by = match owner {
            Some(o) if hidden => player_bit(o),
            _ => EVERYONE,
        };
        let id = s.add_piece(Piece {
            kind: k,
            owner,
            loc,
            seen_by,
            attrs: g.kind(k).attrs.clone(),
        });
        Ok(lua_piece(id))
    })
}
