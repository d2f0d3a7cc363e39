//! The native set-up phase: each player in turn places every piece of their
//! reserve, lowest id first, into zones with quotas (Convoy: seven ships on
//! the home row, three on the next).

use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::event::Event;
use crate::kernel::game::{Game, Placement};
use crate::kernel::piece::{KindId, Location, PieceId, PlayerId, RESERVE};
use crate::kernel::state::{EMPTY, GameState};

/// Any piece the player still has to set up (the lowest-numbered one).
pub fn next_piece(state: &GameState, player: PlayerId) -> Option<PieceId> {
    reserve_pieces(state, player).next()
}

/// The player's pieces still to set up, by increasing id.
fn reserve_pieces(state: &GameState, player: PlayerId) -> impl Iterator<Item = PieceId> + '_ {
    state
        .pieces_of(player)
        .iter()
        .copied()
        .filter(|&id| state.piece(id).loc == Location::Pool(RESERVE))
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
    // board order, once each even where zones overlap. Set-up goes cell by
    // cell at random, so whether a cell is open is no branch: every cell
    // is written, and the list keeps the open ones.
    let full = full_quotas(game, p, state, player);
    let cells = p.cells(player);
    let start = out.len();
    out.resize(start + cells.len(), Action::ROOM);
    let (slots, tops) = (&mut out[start..], state.top_owners());
    let (mut kept, mut last) = (0, None);
    for &(to, quota) in cells {
        slots[kept] = Action::Place { piece: first, to };
        let open = (full >> quota) & 1 == 0;
        let keep = open & (tops[to.0 as usize] == EMPTY) & (last != Some(to));
        last = if keep { Some(to) } else { last };
        kept += usize::from(keep);
    }
    let end = start + kept;
    out.truncate(end);
    // The same cells for every other kind.
    for piece in kinds {
        let copy = out.len();
        out.extend_from_within(start..end);
        for action in &mut out[copy..] {
            if let Action::Place { piece: p, .. } = action {
                *p = piece;
            }
        }
    }
}

/// Bit `q` is set when the player has filled quota `q`: a piece of
/// theirs stands on as many spaces of its zone as the quota allows.
fn full_quotas(game: &Game, p: &Placement, state: &GameState, player: PlayerId) -> u64 {
    let mut full = 0;
    for (q, &(zone, quota)) in p.quotas.iter().enumerate() {
        let placed: usize = game.zones[zone]
            .spaces(player)
            .iter()
            .map(|&s| usize::from(holds_own_piece(state, s, player)))
            .sum();
        full |= u64::from(placed >= usize::from(quota)) << q;
    }
    full
}

/// Whether one of the player's pieces stands on a space. The first piece
/// answers in most cases without a walk down the space's list (a branch
/// that random set-up makes unpredictable).
fn holds_own_piece(state: &GameState, space: SpaceId, player: PlayerId) -> bool {
    let top = state.top_owner(space);
    let mine_first = top == player.0;
    let others_first = (top != EMPTY) & !mine_first;
    mine_first
        | (others_first
            && state
                .pieces_at(space)
                .any(|id| state.piece(id).is_owned_by(player)))
}

/// The player's lowest-numbered piece of a kind still in reserve.
pub(crate) fn reserve_piece(state: &GameState, player: PlayerId, kind: KindId) -> Option<PieceId> {
    reserve_pieces(state, player).find(|&id| state.piece(id).kind == kind)
}

pub fn apply(_game: &Game, _p: &Placement, state: &mut GameState, action: Action) {
    if let Action::Place { piece, to } = action {
        state.set_location(piece, Location::Space(to));
        state.record(|| Event::Placed { piece, to });
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
