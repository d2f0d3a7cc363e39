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
//! Where the seat sees the whole position (nothing hidden, no package
//! sampler), every sample is the position itself and only the dice
//! differ, so an action that rolls nothing is weighed once: Mediterranea's
//! greedy game cost ~67 random games, and ~23 since.
//!
//! Every try is written over one scratch state rather than a new copy
//! (`GameState::clone_from` keeps its buffers), each sample over the one
//! before, and where samples differ only in their dice, a sample is the
//! one before with its dice redealt.
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
        let differ = sight.samples_differ();
        let mut weighed: Vec<Weighed> = legal.iter().map(|_| Weighed::default()).collect();
        // Each try is written over this one scratch state (see
        // `kernel::state::copy`): no allocation of a whole state per try.
        let mut scratch: Option<GameState> = None;
        let mut sample = sight.sample(&mut self.rng)?;
        for round in 0..SAMPLES {
            if round > 0 {
                sight.resample(&mut sample, differ, &mut self.rng)?;
            }
            for (w, &action) in weighed.iter_mut().zip(legal) {
                if w.exact {
                    continue;
                }
                let next = match &mut scratch {
                    Some(next) => {
                        next.clone_from(&sample);
                        next
                    }
                    None => scratch.insert(sample.clone()),
                };
                let drawn_before = next.rng.word_pos();
                let value = quietly(engine, || -> Result<Option<f64>, RulesError> {
                    engine.apply(next, action)?;
                    value(engine, next, sight.seat).transpose()
                })?;
                let Some(v) = value else {
                    return self.random.choose(sight, legal);
                };
                w.total += v;
                w.tries += 1;
                w.exact = !differ && next.rng.word_pos() == drawn_before;
            }
            if weighed.iter().all(|w| w.exact) {
                break;
            }
        }
        let means: Vec<f64> = weighed.iter().map(Weighed::mean).collect();
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..legal.len()).filter(|&i| means[i] == best).collect();
        Ok(*self.rng.pick(&tied).expect("the best action is among them"))
    }
}

/// What the samples said of one action so far.
#[derive(Default)]
struct Weighed {
    total: f64,
    tries: u32,
    /// Every sample would give the same value: the seat sees the whole
    /// position and the action (with its evaluation) rolled no dice, so
    /// one try is the answer and the other samples are skipped.
    exact: bool,
}

impl Weighed {
    fn mean(&self) -> f64 {
        self.total / f64::from(self.tries)
    }
}

/// How good `state` is for `seat`: won or lost outright, else the rules'
/// heuristic; `None` when the rules have none.
pub(super) fn value(
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
