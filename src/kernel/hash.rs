//! Position hashing, for repetition rules and for bots that search.
//!
//! Keys are computed, not tabled: a SplitMix64 finaliser over the fields, so
//! any board size works without a key table and the values never change
//! between versions (a saved game's repetition history stays valid).

/// Mixes a 64-bit value into a well-distributed key (SplitMix64's finaliser).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of one piece standing somewhere with some visibility. Pieces are
/// keyed by identity, so two hidden ships that swap places make a new
/// position, as they do for the players who know their faces.
pub fn piece_key(piece: u16, kind: u16, location: u32, seen_by: u8) -> u64 {
    mix((u64::from(piece) << 48)
        ^ (u64::from(kind) << 32)
        ^ (u64::from(location) << 8)
        ^ u64::from(seen_by))
}

/// The key of a string, for variable names and values (FNV-1a, then mixed).
pub fn str_key(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_pinned() {
        // Saved games keep their repetition history; these must never move.
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(piece_key(1, 2, 3, 4), 0x1f84_520f_72c7_f3db);
        assert_eq!(str_key("Merchant"), 0xe815_d0ed_05bb_74ca);
    }

    #[test]
    fn every_field_changes_a_piece_key() {
        let base = piece_key(1, 2, 3, 4);
        for other in [
            piece_key(0, 2, 3, 4),
            piece_key(1, 0, 3, 4),
            piece_key(1, 2, 0, 4),
            piece_key(1, 2, 3, 0),
        ] {
            assert_ne!(base, other);
        }
        assert_ne!(str_key("a"), str_key("b"));
    }
}
