//! The one watchdog thread of the process, which looks at every sandbox's
//! armed call a few times per budget.
//!
//! One thread for all sandboxes, because simulations run one sandbox per
//! worker thread, and a thread per sandbox would double the thread count
//! for nothing. It never exits; it blocks without waking up while there are
//! no sandboxes.

use std::io;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::{Shared, lock};

/// Keeps a sandbox watched until dropped.
pub(super) struct Registration(Arc<Shared>);

/// Starts watching `shared`; starts the watchdog thread on first use.
pub(super) fn watch(shared: &Arc<Shared>) -> io::Result<Registration> {
    WATCHDOG.register(shared)
}

struct Watchdog {
    registry: Mutex<Registry>,
    changed: Condvar,
}

struct Registry {
    watched: Vec<Arc<Shared>>,
    started: bool,
}

static WATCHDOG: Watchdog = Watchdog {
    registry: Mutex::new(Registry {
        watched: Vec::new(),
        started: false,
    }),
    changed: Condvar::new(),
};

impl Watchdog {
    fn register(&'static self, shared: &Arc<Shared>) -> io::Result<Registration> {
        let mut registry = lock(&self.registry);
        if !registry.started {
            thread::Builder::new()
                .name("portolan-script-watchdog".into())
                .spawn(|| self.run())?;
            registry.started = true;
        }
        registry.watched.push(Arc::clone(shared));
        self.changed.notify_all();
        Ok(Registration(Arc::clone(shared)))
    }

    /// Looks at the watched sandboxes every tick, holding the registry lock
    /// only while it looks (a look is a load, or a lock and a few stores).
    fn run(&self) {
        let mut registry = lock(&self.registry);
        loop {
            let Some(tick) = registry.tick() else {
                registry = self
                    .changed
                    .wait(registry)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            let now = Instant::now();
            for shared in &registry.watched {
                shared.check(now);
            }
            registry = match self.changed.wait_timeout(registry, tick) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

impl Registry {
    /// An eighth of the smallest budget: a call is stopped between its budget
    /// and a quarter more, never early. Bounded so that idle sandboxes cost
    /// at most ten wake-ups a second.
    fn tick(&self) -> Option<Duration> {
        let smallest = self.watched.iter().map(|shared| shared.limit).min()?;
        Some((smallest / 8).clamp(Duration::from_millis(1), Duration::from_millis(100)))
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut registry = lock(&WATCHDOG.registry);
        registry
            .watched
            .retain(|shared| !Arc::ptr_eq(shared, &self.0));
        WATCHDOG.changed.notify_all();
    }
}
