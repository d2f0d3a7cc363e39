//! A set-up phase's placements counted, and the one at an index found,
//! without listing them, on a board of up to 64 spaces with up to 64
//! kinds of piece.
//!
//! The list (`kernel::placement::actions`) is every kind the player still
//! has in reserve (by kind, each standing for its lowest-numbered piece)
//! times every open cell (in board order, once each), kind by kind. So
//! its length is a product of two population counts, and its item at an
//! index is the kind and the cell that the quotient and the remainder
//! name: the `n`th set bit of two masks. Counting spares a random set-up
//! writing some forty actions a decision, an eighth of a Convoy game's
//! decisions.

use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::game::{Game, Placement};
use crate::kernel::piece::{KindId, Location, PlayerId, RESERVE};
use crate::kernel::placement::reserve_piece;
use crate::kernel::state::{GameState, MAX_MASKED_SPACES};

/// The most kinds of piece a game may have for its placements to be
/// counted (one bit each).
const MAX_KINDS: usize = u64::BITS as usize;

/// Each player's quota zones as masks of spaces.
#[derive(Debug)]
pub struct Zones {
    /// `[player][quota]`: the cells of the quota's zone.
    by_quota: Vec<Vec<u64>>,
}

impl Zones {
    /// The masks of a set-up phase, or `None` when its placements are to
    /// be listed: a board of more than 64 spaces, or more than 64 kinds.
    pub fn new(game: &Game, p: &Placement) -> Option<Zones> {
        if game.board.len() > MAX_MASKED_SPACES || game.kinds.len() > MAX_KINDS {
            return None;
        }
        let by_quota = (0..game.players.len())
            .map(|player| {
                let mut masks = vec![0u64; p.quotas.len()];
                for &(cell, quota) in p.cells(PlayerId(player as u8)) {
                    masks[quota] |= 1 << cell.0;
                }
                masks
            })
            .collect();
        Some(Zones { by_quota })
    }
}

/// What a player may place now: the kinds in reserve and the open cells.
#[derive(Clone, Copy, Debug)]
pub struct Open {
    player: PlayerId,
    /// Bit `k`: the player has a piece of kind `k` in reserve.
    kinds: u64,
    /// Bit `s`: space `s` is an empty cell of a quota not yet full.
    cells: u64,
}

impl Open {
    /// The placements open to `player` in `state` (the state keeps its
    /// occupancy as masks).
    pub fn new(p: &Placement, zones: &Zones, state: &GameState, player: PlayerId) -> Open {
        let kinds = state
            .pieces_of(player)
            .iter()
            .map(|&id| state.piece(id))
            .filter(|piece| piece.loc == Location::Pool(RESERVE))
            .fold(0u64, |kinds, piece| kinds | 1 << piece.kind.0);
        let quotas = &zones.by_quota[usize::from(player.0)];
        let full = full_quotas(p, quotas, state, player);
        let zoned = quotas
            .iter()
            .enumerate()
            .filter(|&(q, _)| (full >> q) & 1 == 0)
            .fold(0, |cells, (_, &zone)| cells | zone);
        Open {
            player,
            kinds,
            cells: zoned & state.top_masks().empty_spaces(),
        }
    }

    /// How many placements there are (0 when none: the decision's only
    /// action is then a pass).
    pub fn count(&self) -> usize {
        (self.kinds.count_ones() * self.cells.count_ones()) as usize
    }

    /// The placement at `index` of the list, for an index below
    /// [`Open::count`]'s (a pass when the count is 0).
    pub fn nth(&self, state: &GameState, index: usize) -> Action {
        let per_kind = self.cells.count_ones() as usize;
        if per_kind == 0 || self.kinds == 0 {
            return Action::Pass;
        }
        let kind = KindId(nth_bit(self.kinds, index / per_kind) as u16);
        let piece = reserve_piece(state, self.player, kind).expect("the kind is in reserve");
        Action::Place {
            piece,
            to: SpaceId(nth_bit(self.cells, index % per_kind) as u16),
        }
    }
}

/// Bit `q` is set when the player has filled quota `q` (`quotas`, its
/// zones' masks): as many spaces of its zone hold a piece of theirs as
/// the quota allows. `kernel::placement` counts the same by a walk of
/// each zone; here the spaces whose first piece is theirs are a mask, and
/// only those where another's piece stands first are walked (none in a
/// set-up whose players have zones apart, as Convoy's).
fn full_quotas(p: &Placement, quotas: &[u64], state: &GameState, player: PlayerId) -> u64 {
    let tops = state.top_masks();
    let mine = tops.of(player.0);
    let others_first = !mine & !tops.empty_spaces();
    let mut full = 0;
    for (q, (&zone, &(_, quota))) in quotas.iter().zip(&p.quotas).enumerate() {
        let beneath = bits(zone & others_first)
            .filter(|&s| {
                state
                    .pieces_at(SpaceId(s))
                    .any(|id| state.piece(id).is_owned_by(player))
            })
            .count();
        let placed = (zone & mine).count_ones() as usize + beneath;
        full |= u64::from(placed >= usize::from(quota)) << q;
    }
    full
}

/// The positions of a mask's set bits, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        let bit = (mask != 0).then(|| mask.trailing_zeros() as u16);
        mask &= mask.wrapping_sub(1);
        bit
    })
}

/// The position of the `n`th set bit of `mask`, counted from the lowest
/// (below its population count).
fn nth_bit(mut mask: u64, n: usize) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::nth_bit;

    #[test]
    fn the_nth_set_bit_counts_from_the_lowest() {
        let mask = 0b1011_0100;
        let bits: Vec<u32> = (0..4).map(|n| nth_bit(mask, n)).collect();
        assert_eq!(bits, [2, 4, 5, 7]);
        assert_eq!(nth_bit(1 << 63, 0), 63);
    }
}
