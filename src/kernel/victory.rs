//! The end conditions the kernel checks natively, declared under `victory`
//! in game.yaml: reaching a zone with a kind, and being the last player
//! with a kind. Anything subtler is a rule script calling `game.finish`.

use crate::kernel::engine::Engine;
use crate::kernel::event::Outcome;
use crate::kernel::game::Game;
use crate::kernel::piece::{ELIMINATED, Location, PieceId, PlayerId};
use crate::kernel::state::GameState;

/// After a piece moved: did it reach its goal? Inlined into every move,
/// where the answer is almost always no; the ending is written out of
/// line (its text's formatting made the check's frame cost a Convoy ply
/// some 20 instructions).
#[inline]
pub fn after_move(game: &Game, state: &mut GameState, piece: PieceId) {
    let Some((kind, zone)) = game.victory.reach else {
        return;
    };
    let p = state.piece(piece);
    if let (true, Some(owner), Location::Space(s)) = (p.kind == kind, p.owner, p.loc)
        && game.zones[zone].contains(owner, s)
    {
        reached(game, state, owner);
    }
}

/// The game won by `owner`, whose piece reached the goal.
#[cold]
#[inline(never)]
fn reached(game: &Game, state: &mut GameState, owner: PlayerId) {
    let (kind, zone) = game.victory.reach.expect("a goal was reached");
    let reason = format!(
        "{} {} reached {}",
        game.players[owner.0 as usize].name,
        game.kind(kind).name,
        game.zones[zone].label
    );
    Engine::finish(
        state,
        Outcome {
            winner: Some(owner),
            reason,
            scores: vec![],
            by_limit: false,
        },
    );
}

/// After pieces were removed: is only one player left with the kind?
pub fn after_removal(game: &Game, state: &mut GameState) {
    let Some(kind) = game.victory.last_with else {
        return;
    };
    // Players are bits (at most MAX_PLAYERS of them): no list to allocate.
    let mut has: u32 = 0;
    for p in state.pieces() {
        if let (true, Some(owner), false) =
            (p.kind == kind, p.owner, p.loc == Location::Pool(ELIMINATED))
        {
            has |= 1 << owner.0;
        }
    }
    let kind_name = &game.kind(kind).name;
    match has.count_ones() {
        0 => Engine::finish(
            state,
            Outcome {
                winner: None,
                reason: format!("no player has a {kind_name} left"),
                scores: vec![],
                by_limit: false,
            },
        ),
        1 if game.players.len() > 1 => {
            let only = has.trailing_zeros() as usize;
            let reason = format!("only {} has a {kind_name} left", game.players[only].name);
            Engine::finish(
                state,
                Outcome {
                    winner: Some(PlayerId(only as u8)),
                    reason,
                    scores: vec![],
                    by_limit: false,
                },
            );
        }
        _ => {}
    }
}

/// Every condition, for after a script changed the board in unknown ways.
pub fn check_all(game: &Game, state: &mut GameState) {
    for id in state.piece_ids().collect::<Vec<_>>() {
        after_move(game, state, id);
    }
    after_removal(game, state);
}
