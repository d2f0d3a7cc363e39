//! Undo that cannot see the future.
//!
//! The game's dice follow from its seed, so after `undo` the same action
//! would roll the same dice again: a player could undo, try, look at the
//! roll and undo again, and know the dice to come. So when a human plays
//! against anyone (a bot, or another human at the same terminal) and an
//! action is played from a point of a random stream that the screen has
//! already been shown further, the action gets a fresh stream, seeded
//! from the REPL's own entropy. The state records it
//! ([`crate::kernel::state::GameState::reseed`]), and so do saves, so a
//! replay still draws exactly what the game drew; `redo` returns to the
//! dice that were rolled. A game of one player keeps its dice on undo:
//! nobody can be cheated, and a designer may compare two choices on the
//! same dice.

use crate::kernel::hash::mix;
use crate::kernel::rng::GameRng;
use crate::repl::session::{Seat, Session};

/// How far each random stream has been drawn, known by its seed: the
/// current line's, a fork's and every stream an undone action was played
/// on.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    furthest: Vec<(u64, u128)>,
}

impl Drawn {
    /// Notes how far `rng` has been drawn (after each command: as far as
    /// the screen may have shown).
    pub fn note(&mut self, rng: &GameRng) {
        let (seed, at) = (rng.seed(), rng.word_pos());
        match self.furthest.iter_mut().find(|(s, _)| *s == seed) {
            Some((_, far)) => *far = (*far).max(at),
            None => self.furthest.push((seed, at)),
        }
    }

    /// Whether dice beyond where `rng` stands have been drawn already.
    pub fn seen_beyond(&self, rng: &GameRng) -> bool {
        let (seed, at) = (rng.seed(), rng.word_pos());
        self.furthest.iter().any(|&(s, far)| s == seed && far > at)
    }
}

impl Session {
    /// The seed of a fresh stream for the next new action, when its dice
    /// would be dice already seen and someone could be cheated by them
    /// (see the module doc); `None` to play on.
    pub(crate) fn fresh_dice(&mut self) -> Option<u64> {
        let against = self.seats.len() > 1 && self.seats.contains(&Seat::Human);
        if !against || !self.drawn.seen_beyond(&self.state().rng) {
            return None;
        }
        let high = u64::from(self.repl_rng.below(u32::MAX));
        let low = u64::from(self.repl_rng.below(u32::MAX));
        Some(mix(high << 32 | low))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_seen_beyond_a_point_once_drawn_past_it() {
        let mut rng = GameRng::new(7);
        let start = rng.clone();
        let mut drawn = Drawn::default();
        drawn.note(&rng);
        assert!(!drawn.seen_beyond(&start), "nothing drawn yet");
        rng.die(6);
        drawn.note(&rng);
        assert!(drawn.seen_beyond(&start));
        assert!(
            !drawn.seen_beyond(&rng),
            "nothing beyond the furthest point"
        );
        drawn.note(&start);
        assert!(drawn.seen_beyond(&start), "a step back forgets nothing");
        assert!(!drawn.seen_beyond(&GameRng::new(8)), "another stream");
    }
}
