//! The filter `pieces.list` and `pieces.places` read: `{owner=, kind=,
//! at=, on_board=}`, every field optional, `kind` one kind or a list of
//! them (any matches). Read raw from the argument table (no metamethod
//! runs: it is data, not an object), resolved against the game's names,
//! and the matching pieces walked in id order.

use super::link::Link;
use super::native::{ApiError, Args};
use super::{kind_arg, location_arg, player_arg};
use crate::kernel::piece::{Piece, PieceId};
use crate::kernel::state::GameState;

/// The filter's fields, in the order [`with_matching`] reads them (the
/// natives that take a filter hold these names: `native::with_fields`).
pub const FIELDS: [&str; 4] = ["owner", "kind", "at", "on_board"];

/// Runs `each` on the state and the ids of the pieces the filter at
/// argument 1 matches, in id order. Every name is checked before any piece
/// is looked at, so a wrong name is an error even when no piece is there.
pub fn with_matching(
    link: &Link,
    a: &Args,
    each: impl FnOnce(&GameState, &mut dyn Iterator<Item = PieceId>),
) -> Result<(), ApiError> {
    if !a.is_nil(1) && a.type_name(1) != "table" {
        return Err(a.bad(1, "table or nil"));
    }
    let owner = a.field_str(1, 0, FIELDS[0])?;
    let kinds = a.field_texts(1, 1, FIELDS[1])?;
    let at = a.field_str(1, 2, FIELDS[2])?;
    let on_board = a.field_bool(1, 3);
    link.with_state(|g, s| {
        let owner = owner.map(|o| player_arg(g, o)).transpose()?;
        let kinds = kinds
            .map(|names| {
                names
                    .into_iter()
                    .map(|k| kind_arg(g, k))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let at = at.map(|a| location_arg(g, a)).transpose()?;
        let keep = |p: &Piece| {
            owner.is_none_or(|o| p.owner == Some(o))
                && kinds.as_ref().is_none_or(|k| k.contains(&p.kind))
                && at.is_none_or(|a| p.loc == a)
                && (!on_board || p.loc.space().is_some())
        };
        let s: &GameState = s;
        // One pass over the pieces in id order (a greedy bot's
        // `rules.evaluate` lists a faction's pieces for every move it
        // weighs); over the owner's own pieces only when the filter names
        // one (the kernel files them by owner, in id order).
        match owner {
            Some(owner) => each(
                s,
                &mut s
                    .pieces_of(owner)
                    .iter()
                    .copied()
                    .filter(|&id| keep(s.piece(id))),
            ),
            None => each(
                s,
                &mut s
                    .piece_ids()
                    .zip(s.pieces())
                    .filter(|(_, p)| keep(p))
                    .map(|(id, _)| id),
            ),
        }
        Ok(())
    })
}
