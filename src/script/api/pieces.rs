//! `pieces`: find, read, move, reveal and remove pieces. Every list comes
//! back in id order, so no script can depend on hash order.

use super::link::Link;
use super::native::{ApiError, Native};
use super::vars::set;
use super::{
    fail, kind_arg, location_arg, location_name, lua_piece, natives, piece_arg, player_arg,
    vars_to_table,
};
use crate::kernel::event::Event;
use crate::kernel::piece::{ELIMINATED, EVERYONE, Location, Piece, player_bit};
use crate::kernel::script_data::Scope;
use mlua::{Lua, Table};
use std::rc::Rc;

pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<()> {
    let t = natives(
        lua,
        link,
        &[
            &AT, &WHERE, &KIND, &MOVE, &REMOVE, &REVEAL, &SEEN, &SET_KIND, &SET_OWNER, &ATTR,
            &SET_ATTR, &CREATE,
        ],
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "all",
        lua.create_function(move |lua, ()| {
            let ids = l
                .with_state(|_, s| Ok(s.piece_ids().map(lua_piece).collect::<Vec<_>>()))
                .map_err(|e| fail(lua, e))?;
            lua.create_sequence_from(ids)
        })?,
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "list",
        lua.create_function(move |lua, filter: Option<Table>| list(lua, &l, filter))?,
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "get",
        lua.create_function(move |lua, id: i64| get(lua, &l, id))?,
    )?;
    lua.globals().raw_set("pieces", t)
}

/// The pieces on a space, or in a pool.
static AT: Native = Native {
    name: "pieces.at",
    call: |link, a, out| {
        let place = a.str(1)?;
        link.with_state(|g, s| {
            match location_arg(g, place)? {
                Location::Space(space) => out.ints(s.pieces_at(space).map(lua_piece)),
                pool => out.ints(
                    s.piece_ids()
                        .filter(|&id| s.piece(id).loc == pool)
                        .map(lua_piece),
                ),
            }
            Ok(())
        })
    },
};

/// Where a piece is: a space's or a pool's name. Cheaper than
/// `pieces.get(id).at`, which builds a table of the whole piece.
static WHERE: Native = Native {
    name: "pieces.where",
    call: |link, a, out| {
        let id = a.int(1)?;
        link.with_state(|g, s| {
            out.str(location_name(g, s.piece(piece_arg(s, id)?).loc));
            Ok(())
        })
    },
};

/// A piece's kind (rules see every face), without building its table.
static KIND: Native = Native {
    name: "pieces.kind",
    call: |link, a, out| {
        let id = a.int(1)?;
        link.with_state(|g, s| {
            out.str(&g.kind(s.piece(piece_arg(s, id)?).kind).name);
            Ok(())
        })
    },
};

static MOVE: Native = Native {
    name: "pieces.move",
    call: |link, a, _| {
        let (id, place) = (a.int(1)?, a.str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            let to = location_arg(g, place)?;
            let from = s.piece(pid).loc;
            s.set_location(pid, to);
            match (from, to) {
                (Location::Space(f), Location::Space(t)) => s.record(|| Event::Moved {
                    piece: pid,
                    from: f,
                    to: t,
                }),
                (_, Location::Space(t)) => s.record(|| Event::Placed { piece: pid, to: t }),
                _ => {}
            }
            Ok(())
        })
    },
};

/// Destroys a piece: it goes to the `eliminated` pool (or the pool given).
static REMOVE: Native = Native {
    name: "pieces.remove",
    call: |link, a, _| {
        let (id, pool) = (a.int(1)?, a.opt_str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            let to = match pool {
                Some(p) => Location::Pool(g.pool_index(p).ok_or_else(|| {
                    ApiError(format!("no pool '{p}' (pools: {})", g.pools.join(", ")))
                })?),
                None => Location::Pool(ELIMINATED),
            };
            let from = s.piece(pid).loc;
            s.set_location(pid, to);
            s.record(|| Event::Removed { piece: pid, from });
            Ok(())
        })
    },
};

/// Shows a piece's face to every player, or to one player.
static REVEAL: Native = Native {
    name: "pieces.reveal",
    call: |link, a, _| {
        let (id, player) = (a.int(1)?, a.opt_str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            let seen = match player {
                Some(p) => s.piece(pid).seen_by | player_bit(player_arg(g, p)?),
                None => EVERYONE,
            };
            s.reveal(pid, seen);
            Ok(())
        })
    },
};

/// Whether a player may see a piece's face. Rules see every face; a
/// heuristic such as `rules.evaluate(player)` asks this to use only what its
/// player knows.
static SEEN: Native = Native {
    name: "pieces.seen",
    call: |link, a, out| {
        let (id, player) = (a.int(1)?, a.str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            out.bool(s.piece(pid).visible_to(player_arg(g, player)?));
            Ok(())
        })
    },
};

static SET_KIND: Native = Native {
    name: "pieces.set_kind",
    call: |link, a, _| {
        let (id, kind) = (a.int(1)?, a.str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            s.set_kind(pid, kind_arg(g, kind)?);
            Ok(())
        })
    },
};

static SET_OWNER: Native = Native {
    name: "pieces.set_owner",
    call: |link, a, _| {
        let (id, owner) = (a.int(1)?, a.opt_str(2)?);
        link.with_state(|g, s| {
            let pid = piece_arg(s, id)?;
            let o = owner.map(|o| player_arg(g, o)).transpose()?;
            s.set_owner(pid, o);
            Ok(())
        })
    },
};

static ATTR: Native = Native {
    name: "pieces.attr",
    call: |link, a, out| {
        let (id, name) = (a.int(1)?, a.str(2)?);
        link.with_state(|_, s| {
            let pid = piece_arg(s, id)?;
            out.value(s.script_var(Scope::Piece(pid), name));
            Ok(())
        })
    },
};

static SET_ATTR: Native = Native {
    name: "pieces.set_attr",
    call: |link, a, _| {
        let (id, name, value) = (a.int(1)?, a.str(2)?, a.value(3)?);
        link.with_state(|_, s| {
            let pid = piece_arg(s, id)?;
            set(link, s, Scope::Piece(pid), name, value)
        })
    },
};

/// Creates a piece of a kind for an owner (or nobody) at a place; its face
/// is hidden from the others when the game hides faces.
static CREATE: Native = Native {
    name: "pieces.create",
    call: |link, a, out| {
        let (kind, owner, place) = (a.str(1)?, a.opt_str(2)?, a.str(3)?);
        link.with_state(|g, s| {
            let k = kind_arg(g, kind)?;
            let owner = owner.map(|o| player_arg(g, o)).transpose()?;
            let loc = location_arg(g, place)?;
            let seen_by = match owner {
                Some(o) if g.hidden => player_bit(o),
                _ => EVERYONE,
            };
            let piece = Piece {
                kind: k,
                owner,
                loc,
                seen_by,
                attrs: g.kind(k).attrs.clone(),
            };
            let id = s
                .add_script_piece(piece, link.data_limit())
                .map_err(ApiError)?;
            out.int(lua_piece(id));
            Ok(())
        })
    },
};

/// Pieces matching a filter: `{owner=, kind=, at=, on_board=}`, all
/// optional. The filter is read before the state is touched.
fn list(lua: &Lua, link: &Link, filter: Option<Table>) -> mlua::Result<Table> {
    let field = |k: &str| -> mlua::Result<Option<String>> {
        filter.as_ref().map_or(Ok(None), |f| f.get(k))
    };
    let (owner, kind, at) = (field("owner")?, field("kind")?, field("at")?);
    let on_board: bool = filter
        .as_ref()
        .map_or(Ok(None), |f| f.get("on_board"))?
        .unwrap_or(false);
    let ids = link
        .with_state(|g, s| {
            let owner = owner.map(|o| player_arg(g, &o)).transpose()?;
            let kind = kind.map(|k| kind_arg(g, &k)).transpose()?;
            let at = at.map(|a| location_arg(g, &a)).transpose()?;
            let keep = |p: &Piece| {
                owner.is_none_or(|o| p.owner == Some(o))
                    && kind.is_none_or(|k| p.kind == k)
                    && at.is_none_or(|a| p.loc == a)
                    && (!on_board || p.loc.space().is_some())
            };
            Ok(s.piece_ids()
                .filter(|&id| keep(s.piece(id)))
                .map(lua_piece)
                .collect::<Vec<_>>())
        })
        .map_err(|e| fail(lua, e))?;
    lua.create_sequence_from(ids)
}

/// One piece as a table: id, kind, owner, at, on_board, public (face shown
/// to all), attrs. Scripts see every face: hiding is for views, not rules.
fn get(lua: &Lua, link: &Link, id: i64) -> mlua::Result<Table> {
    let piece = link
        .with_state(|_, s| Ok(s.piece(piece_arg(s, id)?).clone()))
        .map_err(|e| fail(lua, e))?;
    let g = link.game().map_err(|e| fail(lua, e))?;
    let t = lua.create_table()?;
    t.raw_set("id", id)?;
    t.raw_set("kind", g.kind(piece.kind).name.as_str())?;
    t.raw_set("owner", piece.owner.map(|o| g.player_id(o).to_string()))?;
    t.raw_set("at", location_name(g, piece.loc))?;
    t.raw_set("on_board", piece.loc.space().is_some())?;
    t.raw_set("public", piece.is_public())?;
    t.raw_set("attrs", vars_to_table(lua, &piece.attrs)?)?;
    Ok(t)
}
