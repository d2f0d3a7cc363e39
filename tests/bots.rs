//! Bots: specs, fairness under hidden information, and strength.

mod common;

use common::engine;
use portolan::kernel::engine::Engine;
use portolan::sim::{game_seed, play_game};

/// Plays `games` Convoy games between two bot specs, swapping seats every
/// game; returns (wins of `a`, wins of `b`, draws).
fn match_up(engine: &Engine, a: &str, b: &str, games: u64, seed: u64) -> (u32, u32, u32) {
    engine.set_narration(false);
    let (mut wa, mut wb, mut draws) = (0, 0, 0);
    for g in 0..games {
        let a_seat = (g % 2) as u8;
        let seats: Vec<String> = if a_seat == 0 { vec![a.into(), b.into()] } else { vec![b.into(), a.into()] };
        let end = play_game(engine, game_seed(seed, g), &seats).expect("the game plays");
        match end.result.and_then(|r| r.winner) {
            Some(w) if w.0 == a_seat => wa += 1,
            Some(_) => wb += 1,
            None => draws += 1,
        }
    }
    (wa, wb, draws)
}

#[test]
#[ignore = "a measurement: cargo test --release --test bots -- --ignored --nocapture"]
fn measure() {
    let e = engine(&[]);
    let a = std::env::var("BOT_A").unwrap_or("ismcts:300".into());
    let b = std::env::var("BOT_B").unwrap_or("random".into());
    let n: u64 = std::env::var("GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(200);
    let t = std::time::Instant::now();
    let (wa, wb, d) = match_up(&e, &a, &b, n, 1);
    println!("{a} vs {b}, {n} games: {wa} wins, {wb} losses, {d} draws ({:.1} s)", t.elapsed().as_secs_f64());
}
