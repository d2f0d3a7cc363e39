//! The native set-up phase: each player in turn places every piece of their
//! reserve, lowest id first, into zones with quotas (Convoy: seven ships on
//! the home row, three on the next).

use crate::kernel::action::Action;
use crate::kernel::event::Event;
use crate::kernel::game::{Game, Placement};
use crate::kernel::piece::{KindId, Location, PieceId, PlayerId, RESERVE};
use crate::kernel::state::{EMPTY, GameState};

/// Any piece the player still has to set up (the lowest-numbered one).
pub fn next_piece(state: &GameState, player: PlayerId) -> Option<PieceId> {
    state.piece_ids().find(|&id| {
        let p = state.piece(id);
        p.is_owned_by(player) && p.loc == Location::Pool(RESERVE)
    })
}

pub fn actions(
    game: &Game,
    p: &Placement,
    state: &GameState,
    player: PlayerId,
    out: &mut Vec<Action>,
) {
    // The lowest-numbered reserve piece of each kind stands for its kind:
    // the player chooses what to set up where, in any order.
    let mut kinds =
        (0..game.kinds.len() as u16).filter_map(|k| reserve_piece(state, player, KindId(k)));
    let Some(first) = kinds.next() else {
        return;
    };
    // The open cells of quotas not yet full, listed for the first kind, in
    // board order, once each even where zones overlap.
    let start = out.len();
    let mut full: u64 = 0;
    for (q, &(zone, quota)) in p.quotas.iter().enumerate() {
        let spaces = game.zones[zone].spaces(player);
        let placed = spaces
            .iter()
            .filter(|&&s| {
                state
                    .pieces_at(s)
                    .any(|id| state.piece(id).is_owned_by(player))
            })
            .count();
        full |= u64::from(placed >= usize::from(quota)) << q;
    }
    let mut last = None;
    for &(to, quota) in p.cells(player) {
        if full & (1 << quota) == 0 && state.top_owner(to) == EMPTY && last != Some(to) {
            out.push(Action::Place { piece: first, to });
            last = Some(to);
        }
    }
    let kept = out.len();
    // The same cells for every other kind.
    for piece in kinds {
        for i in start..kept {
            if let Action::Place { to, .. } = out[i] {
                out.push(Action::Place { piece, to });
            }
        }
    }
}

/// The player's lowest-numbered piece of a kind still in reserve.
fn reserve_piece(state: &GameState, player: PlayerId, kind: KindId) -> Option<PieceId> {
    state.piece_ids().find(|&id| {
        let p = state.piece(id);
        p.kind == kind && p.is_owned_by(player) && p.loc == Location::Pool(RESERVE)
    })
}

pub fn apply(_game: &Game, _p: &Placement, state: &mut GameState, action: Action) {
    if let Action::Place { piece, to } = action {
        state.set_location(piece, Location::Space(to));
        state.events.push(Event::Placed { piece, to });
    }
}

/// Hands the frame to the next player when one is done; true when all are.
pub fn advance(game: &Game, _p: &Placement, state: &mut GameState) -> bool {
    let players = game.players.len() as u32;
    loop {
        let frame = state.stack.last().expect("placement frame");
        if frame.step >= players {
            return true;
        }
        if next_piece(state, frame.player).is_some() {
            return false;
        }
        let frame = state.stack.last_mut().expect("placement frame");
        frame.step += 1;
        frame.player = game.next_player(frame.player);
    }
}
