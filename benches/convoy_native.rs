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
#[path = "shared/mod.rs"]
mod shared;

use convoy_native::{check, native, plain};
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::sim::{game_seed, play_game};
use shared::plan::Plan;
use shared::timing::{Timing, ratios, report_engine_ratio};
use std::hint::black_box;

/// The run seed of every game here: game `i` plays `game_seed(RUN, i)`.
const RUN: u64 = 1;

fn main() {
    let plan = Plan::from_env(
        "CONVOY",
        Plan {
            verify: 2_000,
            timed: 20_000,
            rounds: 3,
        },
    );
    let engine = shared::stock::engine("med-convoy");
    let tables = native::Tables::new();
    check::assumptions(&engine, &tables);
    verify(&engine, &tables, plan.verify);
    measure(&engine, &tables, &plan);
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

/// Single-threaded games/s of both sides, rounds interleaved so a burst of
/// load elsewhere on the machine hits both alike.
fn measure(engine: &Engine, tables: &native::Tables, plan: &Plan) {
    let bots = ["random".to_string()];
    let mut history = Vec::new();
    let seeds: Vec<u64> = (0..plan.timed).map(|i| game_seed(RUN, i)).collect();
    let plain = plain::Plain::new();
    let (mut plain_t, mut native_t, mut engine_t) = (Timing::new(), Timing::new(), Timing::new());
    for _ in 0..plan.rounds {
        plain_t.round(&seeds, |seed| black_box(plain.play(seed)));
        native_t.round(&seeds, |seed| {
            black_box(native::play(tables, seed, &mut history)).plies
        });
        engine_t.round(&seeds, |seed| {
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
    plain_t.report("plain", "game", "games");
    native_t.report("native", "game", "games");
    engine_t.report("engine", "game", "games");
    for (clock, r) in ratios(&native_t, &plain_t) {
        println!("native/plain time a ply ({clock}): {r:.2}x (plain plays other games)");
    }
    report_engine_ratio(&engine_t, &native_t, " (goal: at least 50%)");
}
