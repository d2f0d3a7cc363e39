//! The native set-up phase: each player in turn places every piece of their
//! reserve, lowest id first, into zones with quotas (Convoy: seven ships on
//! the home row, three on the next).

use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::event::Event;
use crate::kernel::game::{Game, Placement};
use crate::kernel::piece::{Location, PieceId, PlayerId, RESERVE};
use crate::kernel::state::GameState;

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
    let mut by_kind: Vec<Option<PieceId>> = vec![None; game.kinds.len()];
    for id in state.piece_ids() {
        let piece = state.piece(id);
        if piece.is_owned_by(player)
            && piece.loc == Location::Pool(RESERVE)
            && by_kind[piece.kind.0 as usize].is_none()
        {
            by_kind[piece.kind.0 as usize] = Some(id);
        }
    }
    let mut cells: Vec<SpaceId> = Vec::new();
    for &(zone, quota) in &p.quotas {
        let spaces = game.zones[zone].spaces(player);
        let placed = spaces
            .iter()
            .filter(|&&s| {
                state
                    .pieces_at(s)
                    .any(|q| state.piece(q).is_owned_by(player))
            })
            .count();
        if placed < usize::from(quota) {
            cells.extend(spaces.iter().filter(|&&s| state.first_at(s).is_none()));
        }
    }
    // Zones may overlap and come in any order: board order, once each.
    cells.sort_unstable();
    cells.dedup();
    for piece in by_kind.into_iter().flatten() {
        out.extend(cells.iter().map(|&to| Action::Place { piece, to }));
    }
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
