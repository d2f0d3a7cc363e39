//! The occupancy index as bit masks: on a board of up to 64 spaces, one
//! mask per owner of a space's first piece (each player, nobody, and no
//! piece at all), kept up to date with the index's bytes.
//!
//! Counting a player's moves then takes, per piece, the mask of the
//! spaces it reaches, the mask of the spaces it may enter and a
//! population count (`kernel::legal::moves`), instead of writing and
//! testing every target. Larger boards keep no masks and list their
//! moves.

use crate::kernel::board::SpaceId;
use crate::kernel::piece::MAX_PLAYERS;
use crate::kernel::state::{EMPTY, NOBODY};

/// The most spaces a board may have for its occupancy to be kept as masks.
pub const MAX_SPACES: usize = u64::BITS as usize;

/// Slots of the masks: "nobody" and "empty", then one per player, and
/// unused ones up to a power of two, so a slot is an owner's byte plus
/// two, masked (see [`slot`]).
const SLOTS: usize = 16;
const EMPTY_SLOT: usize = slot(EMPTY);
// `slot` counts on "nobody" and "empty" being the two highest bytes, so
// they wrap round to slots 0 and 1, and on every player's fitting after.
const _: () = assert!(NOBODY == u8::MAX - 1 && EMPTY == u8::MAX);
const _: () = assert!(MAX_PLAYERS + 2 <= SLOTS);

/// Each space's bit under the owner of its first piece
/// ([`crate::kernel::state::GameState::top_owner`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TopMasks {
    by_top: [u64; SLOTS],
}

impl TopMasks {
    /// The masks of a board of `spaces` empty spaces (none past
    /// [`MAX_SPACES`]).
    pub fn empty(spaces: usize) -> TopMasks {
        let mut by_top = [0; SLOTS];
        by_top[EMPTY_SLOT] = match spaces {
            0 => 0,
            n if n >= MAX_SPACES => u64::MAX,
            n => u64::MAX >> (MAX_SPACES - n),
        };
        TopMasks { by_top }
    }

    /// Moves a space's bit from the slot of its old first owner to the
    /// new one's. A space past [`MAX_SPACES`] has no bit.
    #[inline]
    pub fn moved(&mut self, space: SpaceId, old: u8, new: u8) {
        if let Some(bit) = 1u64.checked_shl(u32::from(space.0)) {
            self.by_top[slot(old)] &= !bit;
            self.by_top[slot(new)] |= bit;
        }
    }

    /// The spaces whose first piece is `top`'s (a player's index,
    /// [`EMPTY`] or [`NOBODY`]).
    #[inline]
    pub fn of(&self, top: u8) -> u64 {
        self.by_top[slot(top)]
    }

    /// The spaces with no piece.
    #[inline]
    pub fn empty_spaces(&self) -> u64 {
        self.by_top[EMPTY_SLOT]
    }
}

/// The slot of a first piece's owner byte, without a branch (the owner
/// of a space a random move leaves or enters is no branch to predict):
/// the byte plus two, so [`NOBODY`] and [`EMPTY`] wrap round to 0 and 1,
/// masked to the slots, which spares a bounds check (a select and two
/// checks were half of keeping the masks as a move changes them).
#[inline]
const fn slot(top: u8) -> usize {
    top.wrapping_add(2) as usize & (SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bit_follows_its_space_from_owner_to_owner() {
        let mut masks = TopMasks::empty(35);
        assert_eq!(masks.empty_spaces(), (1 << 35) - 1);
        masks.moved(SpaceId(3), EMPTY, 1);
        assert_eq!(masks.of(1), 1 << 3);
        assert_eq!(masks.empty_spaces() & (1 << 3), 0);
        masks.moved(SpaceId(3), 1, NOBODY);
        assert_eq!((masks.of(1), masks.of(NOBODY)), (0, 1 << 3));
        masks.moved(SpaceId(3), NOBODY, EMPTY);
        assert_eq!(masks, TopMasks::empty(35));
    }

    #[test]
    fn spaces_past_the_masks_have_no_bit() {
        let mut masks = TopMasks::empty(100);
        masks.moved(SpaceId(70), EMPTY, 0);
        assert_eq!(masks, TopMasks::empty(100));
        assert_eq!(TopMasks::empty(64).empty_spaces(), u64::MAX);
    }
}
