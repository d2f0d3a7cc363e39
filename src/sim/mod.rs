//! Playouts: many games between bots, summed up into a balance report.
//!
//! Games are independent, each with its own seed derived from the run's
//! seed and its number, so a run spreads over threads (each with its own
//! engine: a Lua VM belongs to one thread) and still gives the same report
//! for the same seed, whatever the thread count.

pub mod report;
pub mod stats;

use crate::bots::{self, Bot, Sight};
use crate::kernel::engine::Engine;
use crate::kernel::event::Outcome;
use crate::kernel::hash::mix;
use crate::kernel::piece::PlayerId;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::GameState;
pub use report::Report;
use std::time::Instant;

/// Room for the legal actions of a typical decision (Convoy has up to 54),
/// so a playout does not grow its list step by step.
const TYPICAL_CHOICES: usize = 64;

/// The seed of game number `index` of a run.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    mix(run_seed ^ mix(index.wrapping_add(0x5EED)))
}

/// Plays one game to its end with a bot in every seat.
pub fn play_game(
    engine: &Engine,
    seed: u64,
    bot_names: &[String],
) -> Result<GameState, RulesError> {
    let mut seats: Vec<Box<dyn Bot>> = (0..engine.game.players.len())
        .map(|p| {
            let name = bot_names
                .get(p)
                .or(bot_names.last())
                .map_or("random", String::as_str);
            bots::make(name, bots::seat_seed(seed, PlayerId(p as u8))).map_err(RulesError)
        })
        .collect::<Result<_, _>>()?;
    let mut state = engine.new_game(seed)?;
    let mut legal = Vec::with_capacity(TYPICAL_CHOICES);
    while let Some(player) = engine.to_move(&state) {
        engine.legal_actions(&state, &mut legal);
        let pick = seats[player.0 as usize].choose(&Sight::new(engine, &state, player), &legal)?;
        engine.apply(&mut state, legal[pick])?;
    }
    Ok(state)
}

/// What a run keeps of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    pub plies: u32,
}

/// A simulation run's settings.
#[derive(Clone, Debug)]
pub struct Run {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub bots: Vec<String>,
}

impl Run {
    /// The threads a run plays on: as many as asked, but at least one,
    /// at most 64, and no more than there are games.
    pub fn threads_used(&self) -> usize {
        self.threads.clamp(1, 64).min(self.games.max(1) as usize)
    }
}

/// Plays a run. `make_engine` builds an engine for each thread.
pub fn run<F>(make_engine: F, run: &Run) -> Result<(Vec<GameResult>, f64), String>
where
    F: Fn() -> Result<Engine, String> + Sync,
{
    let start = Instant::now();
    let threads = run.threads_used();
    let chunks: Vec<Result<Vec<(u64, GameResult)>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let make_engine = &make_engine;
                scope.spawn(move || -> Result<Vec<(u64, GameResult)>, String> {
                    let engine = make_engine()?;
                    // Nobody reads a simulated game's log.
                    engine.set_narration(false);
                    let mut out = Vec::new();
                    for i in (t as u64..run.games).step_by(threads) {
                        let seed = game_seed(run.seed, i);
                        let state = play_game(&engine, seed, &run.bots)
                            .map_err(|e| format!("game {i} (seed {seed}) failed: {e}"))?;
                        let outcome = state.result.clone().expect("a finished game has a result");
                        out.push((
                            i,
                            GameResult {
                                outcome,
                                plies: state.ply,
                            },
                        ));
                    }
                    // A script that changed the rules' own tables fails the run.
                    engine
                        .check_scripts()
                        .map_err(|e| format!("after the last game: {e}"))?;
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a simulation thread panicked".into()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(run.games as usize);
    for c in chunks {
        all.extend(c?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok((
        all.into_iter().map(|(_, r)| r).collect(),
        start.elapsed().as_secs_f64(),
    ))
}
