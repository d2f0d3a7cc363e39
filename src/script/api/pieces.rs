//! `pieces`: find, read, move, reveal and remove pieces. Every list comes
//! back in id order, so no script can depend on hash order.

use super::link::Link;
use super::native::{self, ApiError, Native};
use super::piece_filter;
use super::vars::set;
use super::{
    fail, kind_arg, location_arg, location_name, lua_piece, natives, piece_arg, player_arg,
    push_str, push_vars,
};
use crate::kernel::event::Event;
use crate::kernel::piece::{ELIMINATED, EVERYONE, Location, Piece, PieceId, player_bit};
use crate::kernel::script_data::Scope;
use crate::kernel::secrets;
use crate::kernel::state::GameState;
use crate::kernel::value::Value;
use mlua::{Lua, Table, ffi};
use std::ffi::c_int;
use std::rc::Rc;

pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<()> {
    let t = natives(
        lua,
        link,
        &[
            &AT, &KINDS_AT, &WHERE, &KIND, &OWNER, &MOVE, &REMOVE, &REVEAL, &SEEN, &SET_KIND,
            &SET_OWNER, &ATTR, &SET_ATTR, &CREATE,
        ],
    )?;
    t.raw_set("all", native::function(lua, link, &ALL)?)?;
    t.raw_set(
        "list",
        native::with_fields(lua, link, &LIST, &piece_filter::FIELDS)?,
    )?;
    t.raw_set(
        "places",
        native::with_fields(lua, link, &PLACES, &piece_filter::FIELDS)?,
    )?;
    t.raw_set(
        "count",
        native::with_fields(lua, link, &COUNT, &piece_filter::FIELDS)?,
    )?;
    let l = Rc::clone(link);
    t.raw_set(
        "get",
        lua.create_function(move |lua, id: i64| get(lua, &l, id))?,
    )?;
    lua.globals().raw_set("pieces", t)
}

/// Every piece, in id order.
static ALL: Native = Native {
    name: "pieces.all",
    call: |link, _, out| {
        link.with_state(|_, s| {
            out.ints(s.piece_ids().map(lua_piece));
            Ok(())
        })
    },
};

/// The pieces matching every field given (`owner`, `kind`, `at`,
/// `on_board`; `kind` may be a list: any of those kinds), in id order. The
/// filter is read raw (its metatable is not consulted): it is data, not an
/// object.
static LIST: Native = Native {
    name: "pieces.list",
    call: |link, a, out| {
        piece_filter::with_matching(link, a, |_, ids| out.ints(ids.map(lua_piece)))
    },
};

/// How many pieces `pieces.list` would give, without the list: a greedy
/// bot's `rules.evaluate` counts a faction's armies for every move it
/// weighs, and the list it made only to take its length cost some 3,000
/// instructions a call.
static COUNT: Native = Native {
    name: "pieces.count",
    call: |link, a, out| piece_filter::with_matching(link, a, |_, ids| out.int(ids.count() as i64)),
};

/// Where the pieces matching a filter (as `pieces.list` reads it) stand:
/// each place once, spaces in board order then pools in the game's order,
/// and a second list of how many of them are at each. Rules that ask where
/// a nation's armies are made a `pieces.where` per army.
static PLACES: Native = Native {
    name: "pieces.places",
    call: |link, a, out| {
        piece_filter::with_matching(link, a, |s, ids| {
            let mut places: Vec<(Location, i64)> = Vec::new();
            for id in ids {
                let loc = s.piece(id).loc;
                match places.iter_mut().find(|(at, _)| *at == loc) {
                    Some((_, count)) => *count += 1,
                    None => places.push((loc, 1)),
                }
            }
            places.sort_unstable_by_key(|&(loc, _)| match loc {
                Location::Space(space) => (0, space.0),
                Location::Pool(pool) => (1, u16::from(pool.0)),
            });
            out.registry_list(places.iter().map(|&(loc, _)| link.place_name(loc)));
            out.ints(places.iter().map(|&(_, count)| count));
        })
    },
};

/// The pieces on a space, or in a pool.
static AT: Native = Native {
    name: "pieces.at",
    call: |link, a, out| {
        let place = a.str(1)?;
        link.with_state(|g, s| {
            out.ints(pieces_in(s, location_arg(g, place)?).map(lua_piece));
            Ok(())
        })
    },
};

/// The pieces at a place, in id order: a space's from the kernel's index,
/// a pool's by a pass over the pieces.
fn pieces_in(s: &GameState, place: Location) -> impl Iterator<Item = PieceId> + '_ {
    let (space, pool) = match place {
        Location::Space(space) => (Some(space), None),
        pool => (None, Some(pool)),
    };
    let on_space = space.into_iter().flat_map(|space| s.pieces_at(space));
    let in_pool = pool
        .into_iter()
        .flat_map(move |pool| s.piece_ids().filter(move |&id| s.piece(id).loc == pool));
    on_space.chain(in_pool)
}

/// The kinds of the pieces on a space or in a pool, in id order: what
/// `pieces.kind` says of each of `pieces.at`'s pieces, in one call. Rules
/// that weigh who stands where (Mediterranea counts each nation's armies in
/// every area a move may enter) made a call per piece.
static KINDS_AT: Native = Native {
    name: "pieces.kinds_at",
    call: |link, a, out| {
        let place = a.str(1)?;
        link.with_state(|g, s| {
            let place = location_arg(g, place)?;
            out.registry_list(pieces_in(s, place).map(|id| link.kind_name(s.piece(id).kind)));
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
        link.with_state(|_, s| {
            out.registry(link.place_name(s.piece(piece_arg(s, id)?).loc));
            Ok(())
        })
    },
};

/// A piece's kind (rules see every face), without building its table.
static KIND: Native = Native {
    name: "pieces.kind",
    call: |link, a, out| {
        let id = a.int(1)?;
        link.with_state(|_, s| {
            out.registry(link.kind_name(s.piece(piece_arg(s, id)?).kind));
            Ok(())
        })
    },
};

/// A piece's owner (nil for a neutral piece), without building its table:
/// `pieces.get(id).owner` built some 20,000 instructions' worth of table
/// to read one field (Treasure Fleet asks it in every battle).
static OWNER: Native = Native {
    name: "pieces.owner",
    call: |link, a, out| {
        let id = a.int(1)?;
        link.with_state(|_, s| {
            match s.piece(piece_arg(s, id)?).owner {
                Some(owner) => out.registry(link.player_name(owner)),
                None => out.nil(),
            }
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
            let kind = kind_arg(g, kind)?;
            secrets::check_kind_change(g, s.piece(pid).seen_by, "pieces.set_kind")
                .map_err(ApiError)?;
            s.set_kind(pid, kind);
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
            if s.piece(pid).owner != o {
                secrets::check_kind_change(g, s.piece(pid).seen_by, "pieces.set_owner")
                    .map_err(ApiError)?;
                s.set_owner(pid, o);
            }
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
            secrets::check_kind_change(g, seen_by, "pieces.create").map_err(ApiError)?;
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
/// One piece as a table: id, kind, owner, at, on_board, public (face shown
/// to all), attrs. Scripts see every face: hiding is for views, not rules.
/// Built in one protected call, with room for its fields from the start
/// (see `vars_to_table`).
fn get(lua: &Lua, link: &Link, id: i64) -> mlua::Result<Table> {
    let piece = link
        .with_state(|_, s| Ok(s.piece(piece_arg(s, id)?).clone()))
        .map_err(|e| fail(lua, e))?;
    let g = link.game().map_err(|e| fail(lua, e))?;
    let kind = g.kind(piece.kind).name.as_str();
    let owner = piece.owner.map(|o| g.player_id(o));
    let at = location_name(g, piece.loc);
    let attrs: Vec<(&str, &Value)> = piece.attrs.iter().collect();
    // SAFETY: pushes the table and its fields, leaving the table, the one
    // value returned; every Rust value read is owned out here and dropped
    // after the call.
    unsafe {
        lua.exec_raw((), |l| {
            let field = |name: &std::ffi::CStr| ffi::lua_setfield(l, -2, name.as_ptr());
            ffi::lua_createtable(l, 0, 7);
            ffi::lua_pushinteger(l, id);
            field(c"id");
            push_str(l, kind);
            field(c"kind");
            if let Some(owner) = owner {
                push_str(l, owner);
                field(c"owner");
            }
            push_str(l, at);
            field(c"at");
            ffi::lua_pushboolean(l, c_int::from(piece.loc.space().is_some()));
            field(c"on_board");
            ffi::lua_pushboolean(l, c_int::from(piece.is_public()));
            field(c"public");
            push_vars(l, &attrs);
            field(c"attrs");
        })
    }
}
