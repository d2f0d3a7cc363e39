//! A bot's thinking seen from outside: how far a search has got, and a
//! request to stop it. The REPL shows the progress while a bot thinks
//! and stops it on Ctrl-C; the search then plays the best move it has.
//! Shared between threads (a progress line, a signal handler), so it is
//! all atomics.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[derive(Default)]
pub struct Watch {
    thinking: AtomicBool,
    stop: AtomicBool,
    iterations: AtomicU64,
}

impl Watch {
    /// A decision begins: no stop asked yet, no iterations done.
    pub fn begin(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.iterations.store(0, Ordering::Relaxed);
        self.thinking.store(true, Ordering::Relaxed);
    }

    /// The decision is made.
    pub fn end(&self) {
        self.thinking.store(false, Ordering::Relaxed);
    }

    /// Whether a bot is deciding now.
    pub fn thinking(&self) -> bool {
        self.thinking.load(Ordering::Relaxed)
    }

    /// Asks the search to end now and play the best move it has found.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Search iterations done on this decision.
    pub fn iterations(&self) -> u64 {
        self.iterations.load(Ordering::Relaxed)
    }

    pub(super) fn count_iteration(&self) {
        self.iterations.fetch_add(1, Ordering::Relaxed);
    }
}
