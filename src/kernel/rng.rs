//! The one random stream of a game.
//!
//! Every random draw in a game (dice, shuffles, bot choices that must be
//! replayable) goes through a [`GameRng`], so that the same seed and the same
//! actions give the same game on every platform and in every future version
//! of Portolan (design principle 2). Three choices make that promise hold:
//!
//! - **ChaCha8** (from `rand_chacha`) produces the words. It is a specified
//!   cipher with a fixed output for a given key and position, independent of
//!   endianness and word size, unlike `StdRng`, whose algorithm may change.
//!   Eight rounds are plenty for games and cheap enough for playouts.
//! - **Our own seed expansion.** The `u64` seed is stretched to ChaCha's
//!   32-byte key with SplitMix64 (four outputs, little-endian), written here
//!   rather than borrowed from `SeedableRng::seed_from_u64`, so no change in a
//!   library's convenience constructor can re-key old games.
//! - **Our own mapping from words to values.** [`GameRng::below`] turns 32-bit
//!   words into a bounded integer by rejection sampling, and everything else
//!   (dice, coins, shuffles, picks) is built on `below`. Library
//!   distributions are free to change their algorithms between versions;
//!   ours is pinned by the golden vectors in the tests below.
//!
//! The state is small and plain: the seed and the position in the stream,
//! counted in 32-bit words. That pair is what `Hash`, `Eq` and serde see, so a
//! saved game resumes the stream exactly where it stopped.

use std::collections::VecDeque;
use std::fmt;
use std::hash::{Hash, Hasher};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A seeded, replayable random stream; see the module docs for why it is
/// built this way.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "SavedRng", try_from = "SavedRng")]
pub struct GameRng {
    seed: u64,
    chacha: ChaCha8Rng,
    /// Faces that `die` and `coin` return before drawing from the stream:
    /// tests and designers use them to drive one branch of a table. They are
    /// scaffolding, not game state: saves and equality ignore them.
    forced: VecDeque<u32>,
}

/// ChaCha8's block counter is 64 bits over 16-word blocks, so positions at or
/// beyond 2^68 words wrap around; a saved position that large is corrupt.
const WORD_POS_LIMIT: u128 = 1 << 68;

impl GameRng {
    /// Starts the stream for `seed` at its first word.
    pub fn new(seed: u64) -> Self {
        GameRng {
            seed,
            chacha: ChaCha8Rng::from_seed(expand_seed(seed)),
            forced: VecDeque::new(),
        }
    }

    /// The seed this stream was started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn so far. This, not the number of
    /// calls, is the stream position: rejection sampling may draw more than
    /// one word per call.
    pub fn word_pos(&self) -> u128 {
        self.chacha.get_word_pos()
    }

    /// A uniform integer in `0..n`.
    ///
    /// Method: draw a 32-bit word `x`; let `limit` be the largest multiple of
    /// `n` not above 2^32; if `x < limit` return `x % n`, otherwise draw again.
    /// Every value then has exactly `limit / n` words mapping to it, so there
    /// is no modulo bias. At least one word is always drawn, even for `n == 1`,
    /// so the stream advances the same way whatever the bound.
    ///
    /// # Panics
    /// If `n == 0`: there is no integer in an empty range.
    #[inline] // a random playout draws once a ply: the call costs more than the draw
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "GameRng::below(0): the range 0..0 is empty");
        loop {
            if let Some(value) = accept(self.chacha.next_u32(), n) {
                return value;
            }
        }
    }

    /// One roll of a die with `sides` faces, in `1..=sides`: `1 + below(sides)`.
    ///
    /// # Panics
    /// If `sides == 0`.
    pub fn die(&mut self, sides: u32) -> u32 {
        match self.forced.pop_front() {
            Some(face) => face.clamp(1, sides.max(1)),
            None => 1 + self.below(sides),
        }
    }

    /// Queues faces for the next `die` and `coin` calls (a coin takes any
    /// non-zero face as heads). Faces outside a die's range are clamped.
    pub fn force(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.forced.extend(faces);
    }

    /// How many forced faces are still queued.
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    /// A fair coin: `below(2) == 1`.
    pub fn coin(&mut self) -> bool {
        match self.forced.pop_front() {
            Some(face) => face != 0,
            None => self.below(2) == 1,
        }
    }

    /// Shuffles `items` in place (Fisher–Yates from the back: for each `i`
    /// from the last index down to 1, swap item `i` with item `below(i + 1)`).
    /// Slices of zero or one item draw nothing.
    ///
    /// # Panics
    /// If `items` has more than `u32::MAX` elements.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).expect("cannot shuffle more than u32::MAX items");
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }

    /// One item of `items`, uniformly; `None` (and no draw) if it is empty.
    ///
    /// # Panics
    /// If `items` has more than `u32::MAX` elements.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let len = u32::try_from(items.len()).expect("cannot pick among more than u32::MAX items");
        items.get(self.below(len) as usize)
    }
}

/// One step of [`GameRng::below`]'s rejection sampling: `Some(word % n)` if
/// `word` lies below the largest multiple of `n` not above 2^32, else `None`.
/// Kept apart from the loop so the rejection boundary can be tested exactly.
#[inline]
fn accept(word: u32, n: u32) -> Option<u32> {
    // The rejected tail has `2^32 mod n < n` words, so it lies above
    // `2^32 - n`: a word at or below that is accepted without computing the
    // limit, one division instead of two on all but a vanishing few draws.
    if word <= u32::MAX - (n - 1) {
        return Some(word % n);
    }
    let (word, n) = (u64::from(word), u64::from(n));
    let limit = (1u64 << 32) / n * n;
    // `word % n < n <= u32::MAX`, so the cast cannot truncate.
    (word < limit).then(|| (word % n) as u32)
}

/// Stretches a `u64` seed into ChaCha's 32-byte key with SplitMix64: four
/// successive outputs, each written little-endian. SplitMix64 gives distinct,
/// well-mixed keys even for seeds like 0, 1 and 2. Changing this function
/// changes every game ever seeded, so it must never change.
fn expand_seed(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        chunk.copy_from_slice(&z.to_le_bytes());
    }
    key
}

/// The internals of ChaCha are noise to a reader; the seed and position say
/// everything about the stream.
impl fmt::Debug for GameRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameRng")
            .field("seed", &self.seed)
            .field("word_pos", &self.word_pos())
            .finish()
    }
}

/// Two streams are equal when they will produce the same words from now on,
/// which is exactly when seed and position agree.
impl PartialEq for GameRng {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed && self.word_pos() == other.word_pos()
    }
}

impl Eq for GameRng {}

/// Hashes the same pair that equality compares, so a game state holding the
/// RNG can be hashed for repetition checks and transposition tables.
impl Hash for GameRng {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.seed.hash(state);
        self.word_pos().hash(state);
    }
}

/// The saved form `{ seed, word_pos }`. The position is a decimal string
/// because a `u128` does not survive every format a game state passes
/// through: `serde_json::Value`, Lua (64-bit integers) and JavaScript readers
/// of save files would all lose or reject it, while a string round-trips
/// through JSON, YAML and Lua unchanged.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedRng {
    seed: u64,
    word_pos: String,
}

impl From<GameRng> for SavedRng {
    fn from(rng: GameRng) -> Self {
        SavedRng {
            seed: rng.seed,
            word_pos: rng.word_pos().to_string(),
        }
    }
}

impl TryFrom<SavedRng> for GameRng {
    type Error = String;

    fn try_from(saved: SavedRng) -> Result<Self, Self::Error> {
        let word_pos: u128 = saved
            .word_pos
            .parse()
            .ok()
            .filter(|&pos| pos < WORD_POS_LIMIT)
            .ok_or_else(|| {
                format!(
                    "RNG word_pos '{}' is not a whole number below 2^68; \
                     the saved game's random stream cannot be restored",
                    saved.word_pos
                )
            })?;
        let mut rng = GameRng::new(saved.seed);
        rng.chacha.set_word_pos(word_pos);
        Ok(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(seed: u64, sides: u32, count: usize) -> Vec<u32> {
        let mut rng = GameRng::new(seed);
        (0..count).map(|_| rng.die(sides)).collect()
    }

    fn below(seed: u64, n: u32, count: usize) -> Vec<u32> {
        let mut rng = GameRng::new(seed);
        (0..count).map(|_| rng.below(n)).collect()
    }

    /// If any of these numbers change, every recorded game changes with them.
    /// Do not "fix" this test by updating the numbers: find what changed.
    #[test]
    fn forced_faces_come_first_and_leave_the_stream_alone() {
        let mut rng = GameRng::new(1);
        let mut plain = GameRng::new(1);
        rng.force([6, 0, 9]);
        assert_eq!(rng.die(6), 6);
        assert!(!rng.coin());
        assert_eq!(rng.die(6), 6, "a face beyond the die is clamped");
        assert_eq!(rng.forced_left(), 0);
        assert_eq!(rng.die(6), plain.die(6));
    }

    #[test]
    fn golden_vectors_never_change() {
        assert_eq!(
            dice(1, 6, 20),
            [3, 1, 4, 2, 1, 3, 5, 3, 1, 2, 5, 1, 6, 5, 4, 6, 2, 6, 5, 1]
        );
        assert_eq!(below(1, 100, 10), [24, 76, 7, 11, 42, 66, 28, 4, 48, 65]);
        assert_eq!(
            dice(42, 6, 20),
            [3, 4, 6, 5, 4, 6, 1, 4, 6, 4, 2, 6, 5, 5, 4, 4, 6, 5, 4, 3]
        );
        assert_eq!(below(42, 100, 10), [4, 37, 37, 8, 31, 31, 6, 57, 5, 7]);
    }

    #[test]
    fn seed_expansion_is_reference_splitmix64() {
        // The published first output of SplitMix64 from state 0.
        let key = expand_seed(0);
        let first = u64::from_le_bytes(key[..8].try_into().unwrap());
        assert_eq!(first, 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn clone_and_save_continue_the_same_stream() {
        // ChaCha buffers 64 words, so positions at its edges are the risky ones.
        for skip in [0, 1, 37, 63, 64, 65, 128] {
            let mut rng = GameRng::new(9);
            for _ in 0..skip {
                rng.below(1000);
            }
            let json = serde_json::to_string(&rng).unwrap();
            assert_eq!(json, format!(r#"{{"seed":9,"word_pos":"{skip}"}}"#));
            let yaml = serde_saphyr::to_string(&rng).unwrap();
            let from_json: GameRng = serde_json::from_str(&json).unwrap();
            let from_yaml: GameRng = serde_saphyr::from_str(&yaml).unwrap();
            assert_eq!(from_json, rng);
            assert_eq!(from_yaml, rng);
            let ahead = below(9, 1000, skip + 50)[skip..].to_vec();
            for mut copy in [rng.clone(), from_json, from_yaml] {
                let next: Vec<u32> = (0..50).map(|_| copy.below(1000)).collect();
                assert_eq!(next, ahead, "after {skip} words");
            }
        }
    }

    #[test]
    fn corrupt_positions_are_rejected() {
        for bad in [r#""-1""#, r#""ten""#, r#""295147905179352825856""#] {
            let json = format!(r#"{{"seed":1,"word_pos":{bad}}}"#);
            let err = serde_json::from_str::<GameRng>(&json).unwrap_err();
            assert!(err.to_string().contains("cannot be restored"), "{err}");
        }
    }

    #[test]
    fn equal_streams_hash_equal() {
        use std::collections::hash_map::DefaultHasher;
        let hash = |rng: &GameRng| {
            let mut h = DefaultHasher::new();
            rng.hash(&mut h);
            h.finish()
        };
        let mut a = GameRng::new(3);
        let mut b = GameRng::new(3);
        a.coin();
        assert_ne!(a, b);
        b.coin();
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(a, GameRng::new(4));
    }

    #[test]
    fn d6_is_uniform() {
        let mut rng = GameRng::new(2024);
        let mut faces = [0u32; 6];
        for _ in 0..60_000 {
            faces[rng.die(6) as usize - 1] += 1;
        }
        for (face, &n) in faces.iter().enumerate() {
            assert!((9_500..=10_500).contains(&n), "face {}: {n}", face + 1);
        }
    }

    #[test]
    fn shuffle_is_a_permutation_and_pick_is_a_member() {
        let mut rng = GameRng::new(5);
        let mut items: Vec<u32> = (0..52).collect();
        rng.shuffle(&mut items);
        assert_ne!(items, (0..52).collect::<Vec<_>>());
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<_>>());
        let picked = *rng.pick(&items).unwrap();
        assert!(items.contains(&picked));
        let before = rng.word_pos();
        assert_eq!(rng.pick::<u32>(&[]), None);
        rng.shuffle(&mut [1]);
        assert_eq!(rng.word_pos(), before);
    }

    #[test]
    fn below_rejects_exactly_the_biased_tail() {
        // 2^32 = 3 * 1431655765 + 1: only the top word is rejected for n = 3.
        assert_eq!(accept(u32::MAX, 3), None);
        assert_eq!(accept(u32::MAX - 1, 3), Some(2));
        assert_eq!(accept(u32::MAX, 1), Some(0));
        assert_eq!(accept(u32::MAX, 2), Some(1));
        // For n = 2^31 + 1 the largest multiple is n itself: half is rejected.
        let n = (1 << 31) + 1;
        assert_eq!(accept(n - 1, n), Some(n - 1));
        assert_eq!(accept(n, n), None);
    }

    #[test]
    fn the_shortcut_accepts_what_the_definition_accepts() {
        let definition = |word: u32, n: u32| {
            let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
            (u64::from(word) < limit).then_some(word % n)
        };
        for n in [
            1,
            2,
            3,
            7,
            40,
            54,
            1000,
            (1 << 31) - 1,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX,
        ] {
            let edge = u32::MAX - (n - 1);
            for word in [
                0,
                1,
                n - 1,
                edge - 1,
                edge,
                edge.saturating_add(1),
                u32::MAX,
            ] {
                assert_eq!(accept(word, n), definition(word, n), "word {word}, n {n}");
            }
        }
    }
}
