//! A movement phase's actions counted, and the one at an index found,
//! without listing them: on a board of up to 64 spaces, where every piece
//! moves one step, a piece's moves are the spaces it reaches that it may
//! enter, so their count is a population count of two masks ANDed; the
//! special actions' targets likewise. Finding the action at an index
//! counts again up to its piece and walks that piece's reach (or that
//! special's zone) in the list's order.
//!
//! The list (`kernel::movement::actions`) stays what people, logs and
//! weighing bots read; this is the same list's length and items, in its
//! order (tests hold them to it), for bots that pick by number. It spares
//! a random playout writing and testing every target of every piece, the
//! larger part of a Convoy ply.

use crate::data::game_file::Target;
use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::game::{Game, Movement};
use crate::kernel::piece::{Location, PieceId, PlayerId};
use crate::kernel::state::{GameState, MAX_MASKED_SPACES, TopMasks};

/// A movement phase's reaches and special zones as masks of spaces.
#[derive(Debug)]
pub struct Masks {
    /// For each reach of the phase, `[player * (spaces + 1) + space]`:
    /// the spaces a piece there reaches in one step; each player's entry
    /// after them, 0, stands for a piece off the board
    /// ([`GameState::piece_spaces`] gives it the number of spaces).
    reaches: Vec<Vec<u64>>,
    /// For each special action, `[player]`: the spaces of its zone.
    zones: Vec<Vec<u64>>,
    spaces: usize,
}

impl Masks {
    /// The masks of a movement phase, or `None` when its moves are to be
    /// listed: a board of more than 64 spaces, a reach of more than one
    /// step, or a reach that names a space twice from one place (its
    /// count would not be the list's).
    pub fn new(game: &Game, m: &Movement) -> Option<Masks> {
        let spaces = game.board.len();
        let players = game.players.len();
        if spaces > MAX_MASKED_SPACES || m.reaches.iter().any(|r| r.steps != 1) {
            return None;
        }
        let mut reaches = Vec::with_capacity(m.reaches.len());
        for reach in &m.reaches {
            let mut rows = Vec::with_capacity(players * (spaces + 1));
            for player in 0..players {
                for from in 0..spaces {
                    let next = reach.next(PlayerId(player as u8), SpaceId(from as u16));
                    let mask = mask_of(next.iter().map(|s| usize::from(s.0)));
                    if mask.count_ones() as usize != next.len() {
                        return None;
                    }
                    rows.push(mask);
                }
                rows.push(0);
            }
            reaches.push(rows);
        }
        let zones = m
            .specials
            .iter()
            .map(|special| {
                (0..players)
                    .map(|p| {
                        let zone = game.zones[special.zone].spaces(PlayerId(p as u8));
                        mask_of(zone.iter().map(|s| usize::from(s.0)))
                    })
                    .collect()
            })
            .collect();
        Some(Masks {
            reaches,
            zones,
            spaces,
        })
    }

    /// A player's rows of a reach, indexed by [`GameState::piece_spaces`].
    #[inline]
    fn rows<'m>(&self, reach: &'m [u64], player: PlayerId) -> &'m [u64] {
        let stride = self.spaces + 1;
        &reach[usize::from(player.0) * stride..][..stride]
    }
}

/// What counting a movement phase's actions reads: the phase, its masks,
/// the position and the player to move. One value, so the entry points
/// and their twins built for the CPU's population count take the same
/// one argument.
#[derive(Clone, Copy)]
pub struct Query<'a> {
    pub game: &'a Game,
    pub masks: &'a Masks,
    pub movement: &'a Movement,
    pub state: &'a GameState,
    pub player: PlayerId,
}

/// How many actions the player has in the phase: moves, then specials
/// (0 when none: the decision's only action is then a pass).
pub fn count(q: &Query) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is built with.
        return unsafe { count_with_popcnt(q) };
    }
    count_moves_and_specials(q)
}

/// [`count`] built with the CPU's population count instruction: x86-64's
/// baseline lacks it, and its portable form (a dozen instructions) was
/// half the cost of counting a piece's moves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_with_popcnt(q: &Query) -> usize {
    count_moves_and_specials(q)
}

#[inline(always)]
fn count_moves_and_specials(q: &Query) -> usize {
    let (masks, m, state, player) = (q.masks, q.movement, q.state, q.player);
    let open = enterable(m, state.top_masks(), player);
    let (at, pieces) = (state.piece_spaces(), state.pieces_of(player));
    let moves: u32 = match masks.reaches.as_slice() {
        // Every kind moves alike (Convoy's ships): the rows are a
        // constant of the loop, and a piece's kind is not read.
        [reach] => {
            let rows = masks.rows(reach, player);
            pieces
                .iter()
                .map(|&piece| (rows[usize::from(at[usize::from(piece.0)])] & open).count_ones())
                .sum()
        }
        _ => pieces
            .iter()
            .map(|&piece| (piece_row(q, piece) & open).count_ones())
            .sum(),
    };
    moves as usize + count_specials(q)
}

/// The action at `index` of the list, for an index below [`count`]'s (a
/// pass when the count is 0).
pub fn nth(q: &Query, index: usize) -> Action {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is built with.
        return unsafe { nth_with_popcnt(q, index) };
    }
    find_nth(q, index)
}

/// [`nth`] built with the CPU's population count instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn nth_with_popcnt(q: &Query, index: usize) -> Action {
    find_nth(q, index)
}

#[inline(always)]
fn find_nth(q: &Query, index: usize) -> Action {
    let &Query {
        game,
        masks,
        movement: m,
        state,
        player,
    } = q;
    let tops = state.top_masks();
    let open = enterable(m, tops, player);
    let pieces = state.pieces_of(player);
    let (chosen, rank, before) = match masks.reaches.as_slice() {
        [reach] => {
            let (rows, at) = (masks.rows(reach, player), state.piece_spaces());
            select(pieces, index, |piece| {
                rows[usize::from(at[usize::from(piece.0)])] & open
            })
        }
        _ => select(pieces, index, |piece| piece_row(q, piece) & open),
    };
    if let Some(piece) = chosen {
        let p = state.piece(piece);
        let Location::Space(from) = p.loc else {
            unreachable!("a piece off the board has no moves");
        };
        let (row, real) = m.reach(p.kind).padded(player, from);
        return Action::Move {
            piece,
            to: nth_open(row, real, open, rank),
        };
    }
    let mut left = index - before;
    for (index, special) in m.specials.iter().enumerate() {
        if used(state, player, index, special.once_per_game) {
            continue;
        }
        let allowed = targets(special.target, tops, player);
        let zone = game.zones[special.zone].spaces(player);
        let here = (masks.zones[index][usize::from(player.0)] & allowed).count_ones() as usize;
        if left < here {
            return Action::Special {
                index: index as u8,
                target: nth_open(zone, zone.len(), allowed, left),
            };
        }
        left -= here;
    }
    Action::Pass
}

/// The piece among `pieces` whose moves (`moves_of` it, a mask) hold
/// `index` when they are counted in order, with the rank of the move in
/// its own, and how many moves all the pieces have. Every piece is looked
/// at, the one kept by a select, not a branch: where a random index falls
/// is no branch to mispredict.
#[inline(always)]
fn select(
    pieces: &[PieceId],
    index: usize,
    moves_of: impl Fn(PieceId) -> u64,
) -> (Option<PieceId>, usize, usize) {
    let (mut before, mut chosen, mut rank) = (0, None, 0);
    for &piece in pieces {
        let here = moves_of(piece).count_ones() as usize;
        let inside = index.wrapping_sub(before) < here;
        chosen = if inside { Some(piece) } else { chosen };
        rank = if inside { index - before } else { rank };
        before += here;
    }
    (chosen, rank, before)
}

/// The mask of the spaces a piece reaches from where it stands (none
/// off the board).
#[inline(always)]
fn piece_row(q: &Query, piece: PieceId) -> u64 {
    let kind = q.state.piece(piece).kind;
    let reach = &q.masks.reaches[q.movement.kind_reach[usize::from(kind.0)]];
    q.masks.rows(reach, q.player)[usize::from(q.state.piece_spaces()[usize::from(piece.0)])]
}

/// The special actions' targets, each special's kept by its rule.
#[inline(always)]
fn count_specials(q: &Query) -> usize {
    let (masks, m, state, player) = (q.masks, q.movement, q.state, q.player);
    let tops = state.top_masks();
    let mut targets_left = 0;
    for (index, special) in m.specials.iter().enumerate() {
        if !used(state, player, index, special.once_per_game) {
            let zone = masks.zones[index][usize::from(player.0)];
            targets_left += (zone & targets(special.target, tops, player)).count_ones();
        }
    }
    targets_left as usize
}

/// The spaces a piece of `player`'s may end a move on: empty ones, or,
/// when the phase has attacks, any whose first piece is not its side's
/// (as `kernel::movement` lists them).
#[inline]
fn enterable(m: &Movement, tops: &TopMasks, player: PlayerId) -> u64 {
    if m.combat.is_some() {
        !tops.of(player.0)
    } else {
        tops.empty_spaces()
    }
}

/// The spaces a special action may target, by its rule
/// (`kernel::movement`'s `target_allowed` as a mask).
fn targets(target: Target, tops: &TopMasks, player: PlayerId) -> u64 {
    let occupied = !tops.empty_spaces();
    match target {
        Target::Any => u64::MAX,
        Target::Occupied => occupied,
        Target::Empty => tops.empty_spaces(),
        Target::Enemy => occupied & !tops.of(player.0),
    }
}

/// Whether a once-a-game special has been used by the player.
fn used(state: &GameState, player: PlayerId, index: usize, once_per_game: bool) -> bool {
    once_per_game && state.players[usize::from(player.0)].used_specials & (1 << index) != 0
}

/// The `n`th of the first `real` spaces of `spaces`, in their order,
/// whose bit is set in `mask`: all are looked at, the one kept by a
/// select.
#[inline(always)]
fn nth_open(spaces: &[SpaceId], real: usize, mask: u64, n: usize) -> SpaceId {
    let (mut rank, mut found) = (0, None);
    for (i, &space) in spaces.iter().enumerate() {
        let open = (i < real) & (mask >> space.0 & 1 == 1);
        found = if open & (rank == n) {
            Some(space)
        } else {
            found
        };
        rank += usize::from(open);
    }
    found.expect("the count said the space is there")
}

/// A mask of spaces by their indices.
fn mask_of(spaces: impl Iterator<Item = usize>) -> u64 {
    spaces.fold(0, |mask, s| mask | 1u64 << s)
}
