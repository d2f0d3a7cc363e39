//! Performance baseline: the Lua-scripted Mediterranean Convoy, played by
//! the generic kernel, against a hand-written native Convoy that plays the
//! identical games for the same seeds (DESIGN.md, "Performance model").
//!
//! Run with `cargo bench --bench convoy_native`. It first proves that both
//! sides play the same games: for every seed the same winner and ply count
//! through `sim::play_game`, and, replayed in lock step, the same legal
//! actions, bot picks and position hash at every ply (the first difference
//! is printed with its seed and ply). Then it times each side
//! single-threaded, by wall clock and by on-CPU time, and prints games/s,
//! plies/game, ns/ply and the ratio. Timing the same work on both sides is
//! the point: a faster native version that played different games would
//! measure nothing. `CONVOY_VERIFY_GAMES` (2000), `CONVOY_TIMED_GAMES`
//! (20000) and `CONVOY_ROUNDS` (3, the best is kept) change the amounts.
//!
//! A third Convoy, `plain.rs`, written the way one might first write it
//! and free to play other games, is timed beside them: a yardstick that
//! shows the baseline is not slow for having to play the engine's games.
//!
//! Under `cargo test --all-targets` (no `--bench` argument) it runs a short
//! smoke version, so the test suite stays quick but still checks that the
//! two implementations agree.

mod convoy_native {
    pub mod check;
    pub mod native;
    pub mod plain;
}

use convoy_native::{check, native, plain};
use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::load::{Request, load};
use portolan::sim::{game_seed, play_game};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The run seed of every game here: game `i` plays `game_seed(RUN, i)`.
const RUN: u64 = 1;

/// How much work each mode does.
struct Plan {
    verify: u64,
    timed: u64,
    rounds: u32,
}

fn main() {
    // `cargo bench` passes `--bench` to a bench without the libtest harness;
    // `cargo test` does not.
    let full = std::env::args().any(|a| a == "--bench");
    let plan = if full {
        Plan {
            verify: env_or("CONVOY_VERIFY_GAMES", 2_000),
            timed: env_or("CONVOY_TIMED_GAMES", 20_000),
            rounds: env_or("CONVOY_ROUNDS", 3) as u32,
        }
    } else {
        Plan {
            verify: 100,
            timed: 100,
            rounds: 1,
        }
    };
    if !full {
        println!("smoke run (no --bench): a few games, figures not meaningful; use `cargo bench`");
    }
    let engine = med_convoy();
    let tables = native::Tables::new();
    check::assumptions(&engine, &tables);
    verify(&engine, &tables, plan.verify);
    measure(&engine, &tables, &plan);
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The stock med-convoy, base rules, from this repository's rules folder.
fn med_convoy() -> Engine {
    let catalog = Catalog::new(
        Some(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))),
        None,
    );
    let request = Request {
        target: "med-convoy".into(),
        options: vec![],
    };
    match load(&catalog, &request) {
        Ok(loaded) => loaded.engine,
        Err(e) => panic!("med-convoy does not load:\n{e}"),
    }
}

/// Plays `games` seeds both ways and panics unless every game has the same
/// winner and ply count through `sim::play_game`, and the same legal-action
/// lists, bot picks and position hashes at every ply when replayed in lock
/// step; the first difference is described first.
fn verify(engine: &Engine, tables: &native::Tables, games: u64) {
    let bots = ["random".to_string()];
    let mut history = Vec::new();
    let mut mismatches = 0u64;
    let mut plies = 0u64;
    // How the games end, by the engine's reason: what the timed work is.
    let mut endings = [
        ("far row", 0u64),
        ("last Merchant", 0),
        ("repetition", 0),
        ("other", 0),
    ];
    // Rare paths the comparison covered: games with an Air Strike, with a
    // pass, and the longest game.
    let (mut strikes, mut passes, mut longest) = (0u64, 0u64, 0u32);
    for i in 0..games {
        let seed = game_seed(RUN, i);
        let state = play_game(engine, seed, &bots).expect("the engine plays the game");
        let outcome = state.result.as_ref().expect("a finished game");
        let ours = native::play(tables, seed, &mut history);
        plies += u64::from(state.ply);
        let reason = &outcome.reason;
        let ending = if reason.contains("reached") {
            0
        } else if reason.contains("left") {
            1
        } else if reason.contains("repeated") {
            2
        } else {
            3
        };
        endings[ending].1 += 1;
        strikes += u64::from(
            state
                .log
                .iter()
                .any(|a| matches!(a, Action::Special { .. })),
        );
        passes += u64::from(state.log.contains(&Action::Pass));
        longest = longest.max(state.ply);
        let same_result = (outcome.winner.map(|p| p.0), state.ply) == (ours.winner, ours.plies);
        let divergence = check::first_divergence(engine, tables, seed);
        if same_result && divergence.is_none() {
            continue;
        }
        if mismatches == 0 {
            println!(
                "MISMATCH game {i} (seed {seed:#018x}): engine {:?} after {} plies ({}), native {:?} after {} plies",
                outcome.winner.map(|p| p.0),
                state.ply,
                outcome.reason,
                ours.winner,
                ours.plies
            );
            match divergence {
                Some(why) => println!("  first difference: {why}"),
                None => println!("  (the lock-step replay agrees: nondeterminism?)"),
            }
        }
        mismatches += 1;
    }
    assert_eq!(
        mismatches, 0,
        "{mismatches} of {games} games differ between the engine and the native Convoy"
    );
    println!(
        "verified: {games} games identical (winner, plies, and at every ply the legal actions, picks and position hash), {:.1} plies/game",
        plies as f64 / games as f64
    );
    let endings: Vec<String> = endings
        .iter()
        .map(|(name, n)| format!("{name} {:.1}%", 100.0 * *n as f64 / games as f64))
        .collect();
    println!("endings: {}", endings.join(", "));
    println!(
        "covered: {strikes} games with an Air Strike, {passes} with a pass; longest game {longest} plies"
    );
}

/// One side's timing: the best of several rounds over the same seeds,
/// by wall clock and by time on a CPU. The machine may be busy: wall time
/// then includes waiting for a core, which on-CPU time leaves out.
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
    plies: u64,
    games: u64,
}

impl Timing {
    fn new() -> Timing {
        Timing {
            wall: Duration::MAX,
            cpu: None,
            plies: 0,
            games: 0,
        }
    }

    /// Times `play` over `games` seeds and keeps the better figures.
    fn round(&mut self, games: u64, mut play: impl FnMut(u64) -> u32) {
        let (wall, cpu) = (Instant::now(), thread_cpu());
        let mut plies = 0u64;
        for i in 0..games {
            plies += u64::from(play(black_box(game_seed(RUN, i))));
        }
        let wall = wall.elapsed();
        let cpu = cpu.zip(thread_cpu()).map(|(a, b)| b - a);
        self.wall = self.wall.min(wall);
        self.cpu = match (self.cpu, cpu) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (self.plies, self.games) = (plies, games);
    }

    /// How many times longer a ply of `other` takes than one of `self`, by
    /// on-CPU time or by wall clock (`None`: no CPU clock here).
    fn per_ply_ratio(&self, other: &Timing, cpu: bool) -> Option<f64> {
        let per_ply = |t: &Timing| {
            let time = if cpu { t.cpu? } else { t.wall };
            Some(time.as_secs_f64() / t.plies as f64)
        };
        Some(per_ply(other)? / per_ply(self)?)
    }

    fn report(&self, name: &str) {
        let line = |clock: &str, d: Duration| {
            let secs = d.as_secs_f64();
            println!(
                "{name:>6} ({clock}): {:>8.0} games/s  {:>6.1} plies/game  {:>6.1} ns/ply  ({} games in {:.3} s)",
                self.games as f64 / secs,
                self.plies as f64 / self.games as f64,
                secs * 1e9 / self.plies as f64,
                self.games,
                secs
            );
        };
        line("wall", self.wall);
        if let Some(cpu) = self.cpu {
            line(" cpu", cpu);
        }
    }
}

/// How long this thread has run on a CPU (Linux's schedstat, in ns);
/// `None` where that file does not exist.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Single-threaded games/s of both sides, rounds interleaved so a burst of
/// load elsewhere on the machine hits both alike.
fn measure(engine: &Engine, tables: &native::Tables, plan: &Plan) {
    let bots = ["random".to_string()];
    let mut history = Vec::new();
    let plain = plain::Plain::new();
    let (mut plain_t, mut native_t, mut engine_t) = (Timing::new(), Timing::new(), Timing::new());
    for _ in 0..plan.rounds {
        plain_t.round(plan.timed, |seed| black_box(plain.play(seed)));
        native_t.round(plan.timed, |seed| {
            black_box(native::play(tables, seed, &mut history)).plies
        });
        engine_t.round(plan.timed, |seed| {
            black_box(play_game(engine, seed, &bots).expect("the engine plays the game")).ply
        });
    }
    assert_eq!(
        native_t.plies, engine_t.plies,
        "both sides played the same plies"
    );
    println!(
        "single thread, best of {} round(s) of {} games (seeds game_seed({RUN}, 0..{})):",
        plan.rounds, plan.timed, plan.timed
    );
    plain_t.report("plain");
    native_t.report("native");
    engine_t.report("engine");
    for cpu in [false, true] {
        let clock = if cpu { "cpu" } else { "wall" };
        if let Some(r) = plain_t.per_ply_ratio(&native_t, cpu) {
            println!("native/plain time a ply ({clock}): {r:.2}x (plain plays other games)");
        }
        if let Some(r) = native_t.per_ply_ratio(&engine_t, cpu) {
            println!(
                "engine/native time ({clock}): {r:.2}x: the engine plays at {:.0}% of native speed (goal: at least 50%)",
                100.0 / r
            );
        }
    }
}
