//! Timing one side of a native-baseline bench: the best of several rounds
//! over the same seeds, by wall clock and by time on a CPU. The machine
//! may be busy: wall time then includes waiting for a core, which on-CPU
//! time leaves out.

use std::hint::black_box;
use std::time::{Duration, Instant};

pub struct Timing {
    pub wall: Duration,
    pub cpu: Option<Duration>,
    pub plies: u64,
    pub games: u64,
}

impl Timing {
    pub fn new() -> Timing {
        Timing {
            wall: Duration::MAX,
            cpu: None,
            plies: 0,
            games: 0,
        }
    }

    /// Times `play` (which returns a game's plies) over `seeds` and keeps
    /// the better figures.
    pub fn round(&mut self, seeds: &[u64], mut play: impl FnMut(u64) -> u32) {
        let (wall, cpu) = (Instant::now(), thread_cpu());
        let mut plies = 0u64;
        for &seed in seeds {
            plies += u64::from(play(black_box(seed)));
        }
        let wall = wall.elapsed();
        // A round shorter than the scheduler's accounting step reads 0.
        let cpu = cpu
            .zip(thread_cpu())
            .map(|(a, b)| b - a)
            .filter(|d| !d.is_zero());
        self.wall = self.wall.min(wall);
        self.cpu = match (self.cpu, cpu) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (self.plies, self.games) = (plies, seeds.len() as u64);
    }

    /// Prints games/s, plies a game and ns a ply, by each clock; `one` and
    /// `many` name a game (`game`/`games`, `journey`/`journeys`).
    pub fn report(&self, name: &str, one: &str, many: &str) {
        let line = |clock: &str, d: Duration| {
            let secs = d.as_secs_f64();
            println!(
                "{name:>6} ({clock}): {:>8.0} {many}/s  {:>6.1} plies/{one}  {:>6.1} ns/ply  ({} {many} in {:.3} s)",
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

/// How many times longer `engine` took than `native`, by each clock both
/// have: `("wall", r)` and, where the CPU time is known, `("cpu", r)`.
pub fn ratios(engine: &Timing, native: &Timing) -> Vec<(&'static str, f64)> {
    let ratio = |e: Duration, n: Duration| e.as_secs_f64() / n.as_secs_f64();
    let mut clocks = vec![("wall", ratio(engine.wall, native.wall))];
    if let (Some(e), Some(n)) = (engine.cpu, native.cpu) {
        clocks.push(("cpu", ratio(e, n)));
    }
    clocks
}

/// Prints how many times longer the engine took than the native version,
/// by each clock, and the share of native speed the engine reached;
/// `goal` is said after it when there is one.
pub fn report_engine_ratio(engine: &Timing, native: &Timing, goal: &str) {
    for (clock, r) in ratios(engine, native) {
        println!(
            "engine/native time ({clock}): {r:.2}x: the engine plays at {:.1}% of native speed{goal}",
            100.0 / r
        );
    }
}

/// How long this thread has run on a CPU (Linux's schedstat, in ns);
/// `None` where that file does not exist.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
