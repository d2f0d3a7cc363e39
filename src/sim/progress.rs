//! The progress bar of a long run, drawn on standard error at a terminal.
//!
//! Workers only bump an atomic counter per game (a few nanoseconds); the
//! thread that started them draws. The bar appears once a run has taken a
//! second, so quick runs print nothing but their report, and it is never
//! drawn when standard error is not a terminal (a log file, a CI job).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a run goes before its bar appears.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(50);

/// Whether a progress bar would be seen: standard error is a terminal.
pub fn wanted() -> bool {
    std::io::stderr().is_terminal()
}

/// Shows `done` of `total` games until `finished` says the workers are
/// done (drawing only after [`QUIET_FOR`]), then clears the bar.
pub fn watch(total: u64, done: &AtomicU64, finished: impl Fn() -> bool) {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    while !finished() {
        std::thread::sleep(TICK);
        if bar.is_none() && start.elapsed() >= QUIET_FOR {
            let style =
                ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, {eta} left")
                    .expect("a valid template");
            bar = Some(ProgressBar::new(total).with_style(style));
        }
        if let Some(b) = &bar {
            b.set_position(done.load(Ordering::Relaxed));
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
