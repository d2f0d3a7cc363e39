//! A movement phase's actions counted, and the one at an index found,
//! without listing them: on a board of up to 64 spaces, where every piece
//! moves one step, a piece's moves are the spaces it reaches that it may
//! enter, so their count is a population count of two masks ANDed; the
//! special actions' targets likewise. Counting keeps a running total
//! after each piece (a [`Tally`]), so finding the action at an index
//! compares the totals with it to find its piece, then walks that piece's
//! reach (or that special's zone) in the list's order.
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

/// The running total of moves after each of the player's pieces, in the
/// order of [`GameState::pieces_of`], kept by [`count`] for [`nth`]: the
/// piece that holds a move's index is the first whose total exceeds it,
/// found by comparing totals instead of counting every piece's moves
/// again (that second count was a fifth of a Convoy ply). A player with
/// more pieces than it holds is counted again instead.
#[derive(Clone, Copy)]
pub struct Tally {
    /// `ends[i]`: the moves of the first `i + 1` pieces, and [`PAST`]
    /// after the last: all of them are compared with an index at once
    /// (a few vector instructions; comparing the kept ones took a branch
    /// and a loop), and none past the pieces is ever below one. Signed,
    /// for SSE2's compare; a total is at most 32 x 64.
    ends: [i16; TALLIED_PIECES],
    /// How many of `ends` are kept: every piece's, or none (a tally made
    /// before counting keeps none).
    kept: usize,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            ends: [PAST; TALLIED_PIECES],
            kept: 0,
        }
    }
}

/// [`Tally::ends`] past the last piece's: above any index.
const PAST: i16 = i16::MAX;

/// The most pieces a [`Tally`] keeps the totals of (a Convoy side has
/// ten); each moves to at most 64 spaces, so a total fits 16 bits.
const TALLIED_PIECES: usize = 32;

/// How many actions the player has in the phase: moves, then specials
/// (0 when none: the decision's only action is then a pass), with the
/// running totals that [`nth`] reads written into `tally`. Inlined, as
/// [`nth`] is: a dispatch to the build for the CPU, whose own call and
/// frame the compiler kept in some builds (some 20 instructions a ply).
#[inline]
pub fn count(q: &Query, tally: &mut Tally) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is built with.
        return unsafe { count_with_popcnt(q, tally) };
    }
    count_moves_and_specials(q, tally)
}

/// [`count`] built with the CPU's population count instruction: x86-64's
/// baseline lacks it, and its portable form (a dozen instructions) was
/// half the cost of counting a piece's moves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_with_popcnt(q: &Query, tally: &mut Tally) -> usize {
    count_moves_and_specials(q, tally)
}

#[inline(always)]
fn count_moves_and_specials(q: &Query, tally: &mut Tally) -> usize {
    let (masks, m, state, player) = (q.masks, q.movement, q.state, q.player);
    let open = enterable(m, state.top_masks(), player);
    let at = state.piece_spaces();
    let pieces = state.pieces_of(player);
    let moves = match masks.reaches.as_slice() {
        // Every kind moves alike (Convoy's ships): the rows are a
        // constant of the loop, and a piece's kind is not read.
        [reach] => {
            let rows = masks.rows(reach, player);
            tally.keep(pieces, |piece| {
                rows[usize::from(at[usize::from(piece.0)])] & open
            })
        }
        _ => tally.keep(pieces, |piece| piece_row(q, piece) & open),
    };
    moves + count_specials(q)
}

impl Tally {
    /// How many moves `pieces` have (`moves_of` a piece, a mask), keeping
    /// their running totals when they fit.
    #[inline(always)]
    fn keep(&mut self, pieces: &[PieceId], moves_of: impl Fn(PieceId) -> u64) -> usize {
        if pieces.len() > TALLIED_PIECES {
            self.kept = 0;
            let moves: u32 = pieces.iter().map(|&p| moves_of(p).count_ones()).sum();
            return moves as usize;
        }
        let mut total = 0;
        for (end, &piece) in self.ends.iter_mut().zip(pieces) {
            total += moves_of(piece).count_ones() as i16;
            *end = total;
        }
        // `nth` compares all the totals at once: the ones past the last
        // piece must read as past any index. A tally is made afresh for
        // each count (`Legal::new`), so they do; filling them here cost a
        // Convoy ply 53 instructions.
        debug_assert!(
            self.ends[pieces.len()..].iter().all(|&end| end == PAST),
            "a tally is counted once"
        );
        self.kept = pieces.len();
        total as usize
    }
}

/// The action at `index` of the list, for an index below [`count`]'s (a
/// pass when the count is 0); `tally` is what that count kept.
#[inline]
pub fn nth(q: &Query, tally: &Tally, index: usize) -> Action {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is built with.
        return unsafe { nth_with_popcnt(q, tally, index) };
    }
    find_nth(q, tally, index)
}

/// [`nth`] built with the CPU's population count instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn nth_with_popcnt(q: &Query, tally: &Tally, index: usize) -> Action {
    find_nth(q, tally, index)
}

#[inline(always)]
fn find_nth(q: &Query, tally: &Tally, index: usize) -> Action {
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
        _ if tally.kept == pieces.len() => tallied(pieces, tally, index),
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

/// [`select`] from the totals a [`Tally`] kept of every piece: the
/// pieces whose total is at most `index` come before the one that holds
/// it (totals never fall, so they are the first ones). Each total is
/// compared, with no branch on where a random index falls.
#[inline(always)]
fn tallied(pieces: &[PieceId], tally: &Tally, index: usize) -> (Option<PieceId>, usize, usize) {
    // Any index from PAST - 1 up is past every piece's moves alike.
    let at = index.min(PAST as usize - 1) as i16;
    let before = tally.ends.iter().map(|&e| i16::from(e <= at)).sum::<i16>() as usize;
    let start = before.checked_sub(1).map_or(0, |b| tally.ends[b] as usize);
    match pieces.get(before) {
        Some(&piece) => (Some(piece), index - start, 0),
        // Past every move: a special's target, counted after the moves.
        None => (None, 0, start),
    }
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
