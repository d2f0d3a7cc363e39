//! Counting a position's occurrences for repetition rules, without
//! scanning the history every action.
//!
//! Most positions of a game are new, yet telling so took a pass over
//! every hash since the last irreversible change (some 55 instructions of
//! a Convoy ply). [`SeenBits`] keeps one bit per value of a hash's top
//! byte for every hash recorded since the floor: a position whose bit is
//! off has not occurred, and only one whose bit is on is counted by the
//! scan. The bits are a cache: they describe `history[floor..len]` for
//! the floor, length and last hash they were made at, and are made again
//! from the history whenever one differs (a state read from a file, a
//! history cleared, cut back or replaced), so the count is the scan's.
//! (A history replaced by another of the same length that ends in the
//! same hash would pass unseen: add to it through `record_position`.)

use crate::kernel::state::GameState;

/// The top bytes of the hashes recorded since a floor, as a 256-bit set.
#[derive(Clone, Debug, Default)]
pub(super) struct SeenBits {
    bits: [u64; 4],
    /// The `history_floor`, history length and last hash the bits
    /// describe.
    floor: usize,
    len: usize,
    last: Option<u64>,
}

/// Equality of states ignores the cache: two states with the same history
/// are the same whatever their bits remember.
impl PartialEq for SeenBits {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SeenBits {}

/// The word and the bit of a hash in the set.
#[inline]
fn slot(hash: u64) -> (usize, u64) {
    ((hash >> 62) as usize, 1 << (hash >> 56 & 63))
}

impl SeenBits {
    /// The bits of `hashes`, recorded since `floor` in a history of `len`
    /// that ends in `last`.
    fn of(hashes: &[u64], floor: usize, len: usize, last: Option<u64>) -> SeenBits {
        let mut bits = [0; 4];
        for &hash in hashes {
            let (word, bit) = slot(hash);
            bits[word] |= bit;
        }
        SeenBits {
            bits,
            floor,
            len,
            last,
        }
    }
}

impl GameState {
    /// How many times a position (by hash) has occurred since the last
    /// irreversible change, counting this one.
    pub fn occurrences(&self, hash: u64) -> usize {
        1 + self.since_floor().iter().filter(|&&h| h == hash).count()
    }

    /// Records the position reached (by hash) in the history, and returns
    /// how many times it has now occurred since the last irreversible
    /// change, as [`GameState::occurrences`] counts it before the record.
    /// Always inlined into the engine's record after each action: as a
    /// call it cost a Convoy ply 12 instructions.
    #[inline(always)]
    pub fn record_position(&mut self, hash: u64) -> usize {
        let floor = self.history_floor.min(self.history.len());
        let (len, last) = (self.history.len(), self.history.last().copied());
        let seen = &self.seen_bits;
        if (seen.floor, seen.len, seen.last) != (floor, len, last) {
            self.seen_bits = SeenBits::of(self.since_floor(), floor, len, last);
        }
        let (word, bit) = slot(hash);
        let count = if self.seen_bits.bits[word] & bit == 0 {
            1
        } else {
            self.occurrences(hash)
        };
        self.seen_bits.bits[word] |= bit;
        self.history.push(hash);
        self.seen_bits.len = self.history.len();
        self.seen_bits.last = Some(hash);
        count
    }

    /// The hashes recorded since the last irreversible change.
    fn since_floor(&self) -> &[u64] {
        &self.history[self.history_floor.min(self.history.len())..]
    }
}

#[cfg(test)]
mod tests {
    use crate::kernel::rng::GameRng;
    use crate::kernel::state::GameState;

    /// Hashes that share top bytes (so the bits alone cannot tell them
    /// apart) and ones that do not.
    const HASHES: [u64; 5] = [
        0x0100_0000_0000_0001,
        0x0100_0000_0000_0002,
        0xFF00_0000_0000_0000,
        0x0100_0000_0000_0001,
        0x7700_0000_0000_0000,
    ];

    fn state() -> GameState {
        GameState::new(Vec::new(), 4, 2, GameRng::new(1))
    }

    /// Records `hashes` and checks each count against the scan's.
    fn record_all(state: &mut GameState, hashes: &[u64]) {
        for &hash in hashes {
            let scanned = state.occurrences(hash);
            assert_eq!(state.record_position(hash), scanned, "{hash:#x}");
        }
    }

    #[test]
    fn a_record_counts_as_the_scan_does() {
        let mut s = state();
        record_all(&mut s, &HASHES);
        record_all(&mut s, &HASHES);
        assert_eq!(s.occurrences(HASHES[0]), 5);
        assert_eq!(s.history.len(), 10);
    }

    #[test]
    fn a_floor_raised_forgets_what_came_before_it() {
        let mut s = state();
        record_all(&mut s, &HASHES);
        // A reveal raises the floor: the earlier hashes no longer count.
        s.history_floor = s.history.len();
        assert_eq!(s.record_position(HASHES[0]), 1);
        assert_eq!(s.record_position(HASHES[0]), 2);
    }

    #[test]
    fn a_history_cut_back_or_replaced_is_counted_from_what_it_holds() {
        let mut s = state();
        record_all(&mut s, &HASHES);
        // Undo cuts the history back: HASHES[4]'s bit must not count.
        s.history.truncate(2);
        assert_eq!(s.record_position(HASHES[4]), 1);
        // A history replaced by another of another length (a load).
        s.history = vec![HASHES[4], HASHES[4]];
        assert_eq!(s.record_position(HASHES[4]), 3);
        // Replaced by one of the same length, ending in another hash.
        s.history = vec![HASHES[0], HASHES[4], HASHES[2]];
        assert_eq!(s.record_position(HASHES[2]), 2);
        // Cleared (a sample, a phase begun by hand).
        s.history.clear();
        assert_eq!(s.record_position(HASHES[4]), 1);
        // A clone keeps the bits with the history they describe.
        let mut copy = s.clone();
        assert_eq!(copy.record_position(HASHES[4]), 2);
    }
}
