//! The native set-up phase: each player in turn places every piece of their
//! reserve, lowest id first, into zones with quotas (Convoy: seven ships on
//! the home row, three on the next).

use crate::kernel::action::Action;
use crate::kernel::event::Event;
use crate::kernel::game::{Game, Placement};
use crate::kernel::piece::{Location, PieceId, PlayerId, RESERVE};
use crate::kernel::state::GameState;

/// The piece the player sets up next: their lowest-numbered one in reserve.
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
    let Some(piece) = next_piece(state, player) else {
        return;
    };
    for space in game.board.ids() {
        let open = state.first_at(space).is_none();
        if open
            && p.quotas.iter().any(|&(zone, quota)| {
                game.zones[zone].contains(player, space)
                    && placed_in(game, state, player, zone) < quota
            })
        {
            out.push(Action::Place { piece, to: space });
        }
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

fn placed_in(game: &Game, state: &GameState, player: PlayerId, zone: usize) -> u16 {
    state
        .pieces()
        .iter()
        .filter(|p| {
            p.is_owned_by(player)
                && p.loc
                    .space()
                    .is_some_and(|s| game.zones[zone].contains(player, s))
        })
        .count() as u16
}
