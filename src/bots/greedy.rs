//! The greedy bot: one ply of lookahead, scored by the rules' heuristic.
//!
//! For each legal action it plays the action on a few determinized samples
//! of the game (hidden faces and dice drawn from what its seat knows, see
//! `kernel::determinize`) and asks the package's `rules.evaluate(player)`
//! how good the result is; the action with the best average wins, ties
//! broken by the bot's own stream. A game that ends on the action counts as
//! won or lost outright; one that ends without a winner (a draw, a scored
//! solitaire game) is evaluated like any position. A package without
//! `rules.evaluate` gets random play.
//!
//! The heuristic runs on a sample, never on the real state, so it cannot
//! read a hidden face: it may read the sample's, which are guesses, and
//! should ask `pieces.seen(id, player)` to use only what its player knows.

use super::{Bot, RandomBot, Sight, quietly};
use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::piece::PlayerId;
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::GameState;

/// Samples per decision: enough to average out the dice and guesses of a
/// single ply, few enough to stay cheap (one `evaluate` call per sample
/// and action).
const SAMPLES: usize = 8;

/// The value of a game won outright: above any heuristic.
const WON: f64 = 1e12;

pub struct GreedyBot {
    rng: GameRng,
    /// Plays when the rules have no heuristic.
    random: RandomBot,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        let mut rng = GameRng::new(seed);
        let random = RandomBot::new(u64::from(rng.below(u32::MAX)));
        GreedyBot { rng, random }
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, sight: &Sight, legal: &[Action]) -> Result<usize, RulesError> {
        if legal.len() == 1 {
            return Ok(0);
        }
        let engine = sight.engine();
        let mut totals = vec![0.0; legal.len()];
        for _ in 0..SAMPLES {
            let sample = sight.sample(&mut self.rng)?;
            for (total, &action) in totals.iter_mut().zip(legal) {
                let mut next = sample.clone();
                let value = quietly(engine, || -> Result<Option<f64>, RulesError> {
                    engine.apply(&mut next, action)?;
                    value(engine, &mut next, sight.seat).transpose()
                })?;
                match value {
                    Some(v) => *total += v,
                    None => return self.random.choose(sight, legal),
                }
            }
        }
        let best = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..legal.len()).filter(|&i| totals[i] == best).collect();
        Ok(*self.rng.pick(&tied).expect("the best action is among them"))
    }
}

/// How good `state` is for `seat`: won or lost outright, else the rules'
/// heuristic; `None` when the rules have none.
fn value(
    engine: &Engine,
    state: &mut GameState,
    seat: PlayerId,
) -> Option<Result<f64, RulesError>> {
    match state.result.as_ref().and_then(|r| r.winner) {
        Some(w) if w == seat => Some(Ok(WON)),
        Some(_) => Some(Ok(-WON)),
        None => engine.evaluate(state, seat),
    }
}
