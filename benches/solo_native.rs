//! Performance baseline: the Lua-scripted solitaire convoy (`solo-convoy`),
//! played by the generic kernel, against a hand-written native journey
//! that plays the identical journeys for the same seeds (DESIGN.md,
//! "Performance model").
//!
//! Run with `cargo bench --bench solo_native`. It first proves that both
//! sides play the same journeys: for every seed, through `sim::play_game`
//! and natively, the same score, plies, action log (the random bot's
//! picks) and final position of the game's random stream, so every draw
//! matched. The first difference is printed with its seed, then located by
//! a lock-step replay (the choices, the stream and the pick at every
//! decision). Each scenario that changes the tables is verified the same
//! way, since the native version reads them from the compiled game. Then
//! it times each side single-threaded, by wall clock and by on-CPU time,
//! and prints journeys/s and the ratio. Timing the same work on both sides
//! is the point: a faster native version that played other journeys would
//! measure nothing. `SOLO_VERIFY_GAMES` (5000 per target),
//! `SOLO_TIMED_GAMES` (20000) and `SOLO_ROUNDS` (3, the best is kept)
//! change the amounts. Last, when `python3` is on the PATH, it runs the
//! plain Python script (`benches/solo_convoy.py`, `SOLO_PYTHON_JOURNEYS`
//! journeys, 20000) and prints the engine's speed as a multiple of the
//! script's, both by CPU time in the same run.
//!
//! Under `cargo test --all-targets` (no `--bench` argument) it runs a short
//! smoke version, so the test suite keeps checking that the two agree.

mod solo_native {
    pub mod check;
    pub mod journey;
    pub mod python;
    pub mod tables;
}
#[path = "shared/mod.rs"]
mod shared;

use portolan::kernel::engine::Engine;
use portolan::sim::{game_seed, play_game};
use shared::plan::Plan;
use shared::timing::{Timing, report_engine_ratio};
use solo_native::check;
use solo_native::journey::{self, Journey};
use solo_native::python;
use solo_native::tables::{OPTIONS, Tables};
use std::hint::black_box;

const GAME: &str = "solo-convoy";

/// The run seed of every journey here: journey `i` plays
/// `game_seed(RUN, i)`, as `portolan simulate --seed 1` does.
const RUN: u64 = 1;

fn main() {
    let plan = Plan::from_env(
        "SOLO",
        Plan {
            verify: 5_000,
            timed: 20_000,
            rounds: 3,
        },
    );
    let (engine, tables) = load(GAME);
    verify(GAME, &engine, &tables, plan.verify);
    // The scenarios change the tables the native version reads: each one
    // that changes them is verified too, so the reading is checked, not
    // only the stock numbers.
    for name in shared::stock::catalog().scenario_ids(GAME) {
        let target = format!("{GAME}/{name}");
        let (scenario, scenario_tables) = load(&target);
        if scenario.game.tables == engine.game.tables {
            println!("{target}: the same tables as {GAME}, verified with it");
        } else {
            verify(&target, &scenario, &scenario_tables, plan.verify);
        }
    }
    let engine_speed = measure(&engine, &tables, &plan);
    // The script takes seconds: only a real bench run times it.
    if std::env::args().any(|a| a == "--bench") {
        python::report(engine_speed);
    }
}

/// A game or scenario's engine and the native tables read from it, once
/// the native version's assumptions about it are checked.
fn load(target: &str) -> (Engine, Tables) {
    let engine = shared::stock::engine(target);
    let tables = Tables::read(&engine.game.tables);
    check::assumptions(&engine, &tables);
    (engine, tables)
}

/// Plays `journeys` seeds both ways and panics unless every journey is
/// identical (see `check::differences`); the first difference is described
/// first. Prints both sides' mean score and what the journeys covered.
fn verify(target: &str, engine: &Engine, tables: &Tables, journeys: u64) {
    let bots = ["random".to_string()];
    let mut picks = Vec::new();
    let mut mismatches = 0u64;
    let mut sums = Sums::new();
    for i in 0..journeys {
        let seed = game_seed(RUN, i);
        let state = play_game(engine, seed, &bots).expect("the engine plays the journey");
        let ours = journey::play(tables, seed, &mut picks);
        let engine_score = state.result.as_ref().and_then(|r| r.scores.first());
        sums.add(tables, &ours, engine_score.copied().unwrap_or_default());
        let differences = check::differences(&state, &ours, &picks);
        if differences.is_empty() {
            continue;
        }
        if mismatches == 0 {
            println!(
                "MISMATCH {target} journey {i} (seed {seed:#018x}): {}",
                differences.join("; ")
            );
            match check::first_divergence(engine, tables, seed) {
                Some(why) => println!("  first difference: {why}"),
                None => println!("  (the lock-step replay agrees: nondeterminism?)"),
            }
        }
        mismatches += 1;
    }
    assert_eq!(
        mismatches, 0,
        "{mismatches} of {journeys} {target} journeys differ between the engine and the native journey"
    );
    println!(
        "{target}: verified {journeys} journeys identical (score, plies, action log, final random stream)"
    );
    sums.report(tables, journeys);
}

/// Totals over the verified journeys: the score on each side, the work
/// a journey is, and the rarer paths the comparison went through.
struct Sums {
    engine_score: i64,
    native_score: i64,
    lowest: i64,
    highest: i64,
    plies: u64,
    /// 32-bit words drawn from the game's random stream: the dice rolled.
    words: u128,
    most_plies: u32,
    longest: i64,
    /// Journeys where each option was taken.
    taken: [u64; OPTIONS],
    /// Journeys where a carrier went home halfway.
    carrier_home: u64,
    /// Journeys where every ship of a type that sailed was lost.
    all_lost: u64,
}

impl Sums {
    fn new() -> Sums {
        Sums {
            engine_score: 0,
            native_score: 0,
            lowest: i64::MAX,
            highest: i64::MIN,
            plies: 0,
            words: 0,
            most_plies: 0,
            longest: 0,
            taken: [0; OPTIONS],
            carrier_home: 0,
            all_lost: 0,
        }
    }

    fn add(&mut self, t: &Tables, ours: &Journey, engine_score: i64) {
        let score = ours.score.expect("a finished journey");
        self.engine_score += engine_score;
        self.native_score += score;
        self.lowest = self.lowest.min(score);
        self.highest = self.highest.max(score);
        self.plies += u64::from(ours.plies);
        self.words += ours.rng.word_pos();
        self.most_plies = self.most_plies.max(ours.plies);
        self.longest = self.longest.max(ours.length);
        for (taken, used) in self.taken.iter_mut().zip(ours.used_on) {
            *taken += u64::from(used.is_some());
        }
        self.carrier_home += u64::from(ours.fleets[t.carrier].home > 0);
        self.all_lost += u64::from(
            ours.fleets
                .iter()
                .any(|f| f.sailed > 0 && f.lost == f.sailed),
        );
    }

    fn report(&self, t: &Tables, journeys: u64) {
        let mean = |sum: i64| sum as f64 / journeys as f64;
        println!(
            "a journey: {:.2} decisions (plies), {:.1} random words drawn",
            self.plies as f64 / journeys as f64,
            self.words as f64 / journeys as f64
        );
        println!(
            "mean score: engine {:.3}, native {:.3} (scores {} to {})",
            mean(self.engine_score),
            mean(self.native_score),
            self.lowest,
            self.highest
        );
        let taken: Vec<String> = t
            .options
            .iter()
            .zip(self.taken)
            .map(|(o, n)| format!("{} {n}", o.id))
            .collect();
        println!(
            "covered: options taken in ({}) journeys; {} with a carrier gone home, {} with every ship of a type lost; up to {} turns and {} decisions",
            taken.join(", "),
            self.carrier_home,
            self.all_lost,
            self.longest,
            self.most_plies
        );
    }
}

/// Single-threaded journeys/s of both sides, rounds interleaved so a burst
/// of load elsewhere on the machine hits both alike; returns the engine's
/// journeys per CPU second, where the CPU time is known.
fn measure(engine: &Engine, tables: &Tables, plan: &Plan) -> Option<f64> {
    let bots = ["random".to_string()];
    let mut picks = Vec::new();
    let seeds: Vec<u64> = (0..plan.timed).map(|i| game_seed(RUN, i)).collect();
    let (mut native_t, mut engine_t) = (Timing::new(), Timing::new());
    for _ in 0..plan.rounds {
        native_t.round(&seeds, |seed| {
            black_box(journey::play(tables, seed, &mut picks)).plies
        });
        engine_t.round(&seeds, |seed| {
            black_box(play_game(engine, seed, &bots).expect("the engine plays the journey")).ply
        });
    }
    assert_eq!(
        native_t.plies, engine_t.plies,
        "both sides played the same plies"
    );
    println!(
        "single thread, best of {} round(s) of {} journeys (seeds game_seed({RUN}, 0..{})):",
        plan.rounds, plan.timed, plan.timed
    );
    native_t.report("native", "journey", "journeys");
    engine_t.report("engine", "journey", "journeys");
    report_engine_ratio(&engine_t, &native_t, "");
    engine_t
        .cpu
        .map(|d| engine_t.games as f64 / d.as_secs_f64())
}
