//! Playouts: many games between bots, summed up into a balance report.
//!
//! Games are independent, each with its own seed derived from the run's
//! seed and its number, so a run spreads over threads (each with its own
//! engine: a Lua VM belongs to one thread) and over machines (`--shard`,
//! [`shard`]) and still gives the same report for the same seed, whatever
//! the thread or machine count.

pub mod command;
pub mod counter;
pub mod coverage;
pub mod metrics;
pub mod progress;
pub mod report;
pub mod seats;
pub mod shard;
pub mod shard_check;
pub mod significance;
pub mod stats;
pub mod thinking;

use crate::bots::{self, Bot, Sight};
use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::event::Outcome;
use crate::kernel::hash::mix;
use crate::kernel::legal::Legal;
use crate::kernel::piece::PlayerId;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::GameState;
pub use report::Report;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use thinking::Thinking;

/// The most games one run plays: a run keeps every game's result (about
/// a hundred bytes) for its medians and percentiles, so the cap keeps a
/// run within a gigabyte or so.
pub const MAX_GAMES: u64 = 10_000_000;

/// The most threads a run plays on.
pub const MAX_THREADS: usize = 64;

/// Room for the legal actions of a typical decision (Convoy has up to 54),
/// so a playout does not grow its list step by step.
const TYPICAL_CHOICES: usize = 64;

/// The seed of game number `index` of a run.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    mix(run_seed ^ mix(index.wrapping_add(0x5EED)))
}

/// Plays one game to its end with a bot in every seat (`bot_names` by
/// seat; a short list repeats its last name).
pub fn play_game(
    engine: &Engine,
    seed: u64,
    bot_names: &[String],
) -> Result<GameState, RulesError> {
    play_watched(engine, seed, bot_names, |_, _, _, _| {})
}

/// [`play_game`], showing `watch` each decision before it is applied: who
/// decides, the game, the legal actions (listed only if `watch` or the
/// bot asks: see `kernel::legal`) and the one picked.
pub fn play_watched(
    engine: &Engine,
    seed: u64,
    bot_names: &[String],
    watch: impl FnMut(PlayerId, &GameState, &mut Legal, Action),
) -> Result<GameState, RulesError> {
    play_timed(engine, seed, bot_names, &mut Thinking::default(), watch)
}

/// [`play_watched`], adding each seat's thinking to `thinking`.
fn play_timed(
    engine: &Engine,
    seed: u64,
    bot_names: &[String],
    thinking: &mut Thinking,
    mut watch: impl FnMut(PlayerId, &GameState, &mut Legal, Action),
) -> Result<GameState, RulesError> {
    let names: Vec<&str> = (0..engine.game.players.len())
        .map(|p| {
            bot_names
                .get(p)
                .or(bot_names.last())
                .map_or("random", String::as_str)
        })
        .collect();
    let mut seats: Vec<Box<dyn Bot>> = names
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let seat = PlayerId(p as u8);
            bots::seat(engine, name, seat, bots::seat_seed(seed, seat)).map_err(RulesError)
        })
        .collect::<Result<_, _>>()?;
    // Only bots that weigh their moves are timed: reading the clock for a
    // random seat cost some 150 instructions a ply, 6% of a random Convoy
    // run (callgrind, `simulate med-convoy --games 2000`).
    let timed: Vec<bool> = names
        .iter()
        .map(|name| bots::Spec::parse(name).is_ok_and(|s| s.samples()))
        .collect();
    let mut state = engine.new_game(seed)?;
    let mut buffer = Vec::with_capacity(TYPICAL_CHOICES);
    while let Some(player) = engine.to_move(&state) {
        let mut legal = Legal::new(engine, &state, &mut buffer);
        let sight = Sight::new(engine, &state, player);
        let seat = player.0 as usize;
        let started = (timed[seat] && legal.len() > 1).then(Instant::now);
        let pick = seats[seat].choose_among(&sight, &mut legal)?;
        if let Some(started) = started {
            thinking.decided(seat, started.elapsed());
        }
        let action = legal.get(pick);
        watch(player, &state, &mut legal, action);
        engine.apply(&mut state, action)?;
    }
    for (seat, bot) in seats.iter().enumerate() {
        thinking.searched(seat, bot.iterations());
    }
    Ok(state)
}

/// What a run keeps of one game: enough to compute every measure of a
/// report, and small enough to write to a shard's result file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number in the run (its seed is derived from it).
    pub index: u64,
    pub outcome: Outcome,
    pub plies: u32,
    /// Runs of consecutive decisions by one player.
    pub turns: u32,
    /// The player who moved first.
    pub first: u8,
}

/// Which of a run's games this process plays: game `i` belongs to shard
/// `i % count`. The whole run is shard 0 of 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `I/N`, counted from 0 (as Slurm's array ids and Kubernetes'
    /// completion indexes are).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "--shard {text}: write I/N, the shard's number from 0 to N-1 and the number of shards (0/4 .. 3/4)"
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The numbers of the run's games in this shard, in order.
    pub fn games(self, total: u64) -> impl Iterator<Item = u64> {
        (self.index..total).step_by(self.count as usize)
    }

    /// How many of a run's `total` games this shard plays.
    pub fn game_count(self, total: u64) -> u64 {
        match total.checked_sub(self.index) {
            Some(after) if after > 0 => (after - 1) / self.count + 1,
            _ => 0,
        }
    }
}

/// A simulation run's settings.
#[derive(Clone, Debug)]
pub struct Run {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// The bot spec of each seat, by player index.
    pub bots: Vec<String>,
    pub shard: Shard,
    /// Draw a progress bar (on a terminal, for runs over a second).
    pub progress: bool,
}

impl Run {
    /// A whole run without a progress bar: what tests and libraries want.
    pub fn new(games: u64, seed: u64, threads: usize, bots: Vec<String>) -> Run {
        Run {
            games,
            seed,
            threads,
            bots,
            shard: Shard::WHOLE,
            progress: false,
        }
    }

    /// The threads a run plays on: as many as asked, but at least one,
    /// at most [`MAX_THREADS`], and no more than there are games in its
    /// shard.
    pub fn threads_used(&self) -> usize {
        let games = usize::try_from(self.shard.game_count(self.games)).unwrap_or(usize::MAX);
        self.threads.clamp(1, MAX_THREADS).min(games.max(1))
    }
}

/// Sets an engine up for a run's games: nobody reads their narration or
/// their action log, so neither is kept, and a game's memory does not
/// grow with its length (a repetition rule's position history aside: one
/// hash a ply, as long as no face is revealed).
pub fn for_playouts(engine: &Engine) {
    engine.set_narration(false);
    engine.set_action_log(false);
}

/// What a run keeps of a finished game.
fn result_of(index: u64, state: GameState, turns: u32) -> GameResult {
    let outcome = state.result.expect("a finished game has a result");
    GameResult {
        index,
        outcome,
        plies: state.ply,
        turns,
        first: state.first_player.0,
    }
}

/// Plays one game of a run and keeps its result; its seats' thinking
/// goes to `thinking`.
fn play_one(
    engine: &Engine,
    run: &Run,
    index: u64,
    thinking: &mut Thinking,
) -> Result<GameResult, String> {
    let seed = game_seed(run.seed, index);
    let mut turns = 0;
    let mut last = None;
    let state = play_timed(engine, seed, &run.bots, thinking, |player, _, _, _| {
        if last != Some(player) {
            turns += 1;
            last = Some(player);
        }
    })
    .map_err(|e| format!("game {index} (seed {seed}) failed: {e}"))?;
    Ok(result_of(index, state, turns))
}

/// Plays a run (its shard's games). `make_engine` builds an engine for
/// each thread. Returns the results by game number, the seconds taken
/// and how long each seat's bot thought.
pub fn run<F>(make_engine: F, run: &Run) -> Result<(Vec<GameResult>, f64, Thinking), String>
where
    F: Fn() -> Result<Engine, String> + Sync,
{
    let (results, parts, seconds) = on_threads(
        run,
        || {
            let engine = make_engine()?;
            for_playouts(&engine);
            Ok((engine, Thinking::default()))
        },
        |(engine, thinking), i| play_one(engine, run, i, thinking),
        // A script that changed the rules' own tables fails the run.
        |(engine, thinking)| {
            engine
                .check_scripts()
                .map_err(|e| format!("after the last game: {e}"))?;
            Ok(thinking)
        },
    )?;
    let mut thinking = Thinking::default();
    for part in &parts {
        thinking.add(part);
    }
    Ok((results, seconds, thinking))
}

/// [`run`], counting coverage ([`coverage`]): `make` builds the engines
/// [`counter::Build`] names.
pub fn run_covered<F>(
    make: F,
    run: &Run,
) -> Result<(Vec<GameResult>, coverage::Coverage, f64), String>
where
    F: Fn(counter::Build) -> Result<Engine, String> + Sync,
{
    let (results, parts, seconds) = on_threads(
        run,
        || counter::Counter::new(&make),
        |c, i| c.play(run, i),
        counter::Counter::finish,
    )?;
    let mut parts = parts.into_iter();
    let mut total = parts.next().ok_or("a run needs a thread")?;
    for part in parts {
        total.add(&part)?;
    }
    Ok((results, total, seconds))
}

/// Spreads a run's games over threads: each thread sets up its own
/// `worker` (engines are not shared: a Lua VM belongs to one thread),
/// plays every `threads`-th game of the shard, and `finish`es. Returns
/// the results by game number, each thread's finish, and the seconds.
fn on_threads<W, T: Send>(
    run: &Run,
    setup: impl Fn() -> Result<W, String> + Sync,
    play: impl Fn(&mut W, u64) -> Result<GameResult, String> + Sync,
    finish: impl Fn(W) -> Result<T, String> + Sync,
) -> Result<(Vec<GameResult>, Vec<T>, f64), String> {
    let start = Instant::now();
    let games: Vec<u64> = run.shard.games(run.games).collect();
    let threads = run.threads_used();
    let done = AtomicU64::new(0);
    let chunks: Vec<Result<(Vec<GameResult>, T), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (setup, play, finish, games, done) = (&setup, &play, &finish, &games, &done);
                scope.spawn(move || {
                    let mut worker = setup()?;
                    let mut out = Vec::new();
                    for &i in games.iter().skip(t).step_by(threads) {
                        out.push(play(&mut worker, i)?);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok((out, finish(worker)?))
                })
            })
            .collect();
        if run.progress {
            progress::watch(games.len() as u64, &done, || {
                handles.iter().all(|h| h.is_finished())
            });
        }
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a simulation thread panicked".into()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(games.len());
    let mut finished = Vec::with_capacity(threads);
    for c in chunks {
        let (results, t) = c?;
        all.extend(results);
        finished.push(t);
    }
    all.sort_by_key(|r| r.index);
    Ok((all, finished, start.elapsed().as_secs_f64()))
}
