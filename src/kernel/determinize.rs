//! Determinization: a full game state a seat could be in, sampled from
//! what it may see (DESIGN principle 6). Search bots play their lines on
//! such samples, never on the real state, so nothing they compute can
//! depend on a face their seat has not seen.
//!
//! A sample is the state with everything the seat cannot see replaced:
//!
//! - **Hidden faces.** Each owner's pieces whose face the seat cannot see
//!   get that owner's hidden kinds shuffled among them (their attributes,
//!   hidden too, become the new kind's starting ones). The kinds still
//!   hidden are taken as known: the counts each side fields are in the
//!   rules, and the faces already seen tell which remain. A rule that lets
//!   a player pick a hidden piece's kind (Convoy's marked ship) is the
//!   exception: the sample keeps the picked kind among the hidden ones.
//! - **Private attributes** (`pieces.private_attrs`: cargo in a hold)
//!   of pieces the seat does not own go back to their kind's starting
//!   value, face seen or not: the seat has not seen them.
//! - **Cards.** Face-down cards (the `cards` API: neutral pieces whose
//!   face nobody or only their holder sees) are hidden neutral pieces, so
//!   the deck and the other players' hands are dealt anew from the cards
//!   the seat has not seen.
//! - **The dice.** Future rolls are unknown too: the sample's random
//!   stream is reseeded from the searcher's own stream.
//! - **The repetition history.** Recorded position hashes include the
//!   true faces, so when anything was resampled the sample starts a new
//!   count (earlier positions do not count toward a repetition in it).
//!
//! Other players' variables are kept: a game that keeps secrets should keep
//! them as hidden pieces or private attributes, which views and samples
//! both handle.

use crate::kernel::game::Game;
use crate::kernel::piece::{PieceId, PlayerId};
use crate::kernel::rng::GameRng;
use crate::kernel::state::GameState;

/// A full state consistent with what `seat` sees of `state`, drawn with
/// `rng`. Two states that `seat` sees alike give the same sample for the
/// same stream: only the view, never a hidden face, steers the draw.
pub fn sample(game: &Game, state: &GameState, seat: PlayerId, rng: &mut GameRng) -> GameState {
    let mut sample = state.clone();
    let owners =
        std::iter::once(None).chain((0..game.players.len()).map(|p| Some(PlayerId(p as u8))));
    let mut resampled = false;
    for owner in owners {
        let hidden: Vec<PieceId> = state
            .piece_ids()
            .filter(|&id| {
                let p = state.piece(id);
                p.owner == owner && !p.visible_to(seat)
            })
            .collect();
        resampled |= !hidden.is_empty();
        // Sorted first, so the draw does not depend on which piece held
        // which kind.
        let mut kinds: Vec<_> = hidden.iter().map(|&id| state.piece(id).kind).collect();
        kinds.sort_unstable();
        rng.shuffle(&mut kinds);
        for (&id, kind) in hidden.iter().zip(kinds) {
            sample.set_kind(id, kind);
            sample.set_piece_attrs(id, game.kind(kind).attrs.clone());
        }
    }
    if !game.private_attrs.is_empty() {
        for id in state.piece_ids() {
            let p = state.piece(id);
            if p.is_owned_by(seat) || !p.visible_to(seat) {
                continue;
            }
            let start = &game.kind(p.kind).attrs;
            for name in &game.private_attrs {
                let value = start.get(name).cloned();
                if p.attrs.get(name) != value.as_ref() {
                    sample.set_piece_attr(id, name, value);
                    resampled = true;
                }
            }
        }
    }
    sample.rng =
        GameRng::new((u64::from(rng.below(u32::MAX)) << 32) | u64::from(rng.below(u32::MAX)));
    sample.events.clear();
    sample.narrated = false;
    if resampled {
        sample.history.clear();
        sample.history_floor = 0;
    }
    sample
}
