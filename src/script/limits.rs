//! How much memory and time one rules package may use.

use std::time::Duration;

/// The resource limits of one [`Sandbox`](super::sandbox::Sandbox).
///
/// Rules packages come from other people, so a script that loops forever or
/// grows a table without bound must fail with a clear error instead of
/// freezing or exhausting the user's machine. The defaults are far above what
/// a rules procedure needs (a call usually takes microseconds and a few
/// kilobytes) yet low enough that a runaway script is stopped quickly.
///
/// ```
/// use std::time::Duration;
/// use portolan::script::limits::Limits;
///
/// let limits = Limits::new()
///     .with_memory(16 * 1024 * 1024)
///     .with_time_budget(Duration::from_millis(200));
/// assert_eq!(limits.memory(), 16 * 1024 * 1024);
/// assert_eq!(limits.time_budget(), Duration::from_millis(200));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    memory: usize,
    time_budget: Duration,
    host_data: usize,
}

impl Limits {
    /// Default memory limit: 64 MiB for the whole Lua state of a package.
    pub const DEFAULT_MEMORY: usize = 64 * 1024 * 1024;
    /// Default time budget: one second of wall-clock time per host call.
    pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(1);
    /// Default limit on what scripts keep in the game state: 16 MiB.
    pub const DEFAULT_HOST_DATA: usize = 16 * 1024 * 1024;

    /// The default limits ([`Self::DEFAULT_MEMORY`], [`Self::DEFAULT_TIME_BUDGET`]).
    pub const fn new() -> Self {
        Self {
            memory: Self::DEFAULT_MEMORY,
            time_budget: Self::DEFAULT_TIME_BUDGET,
            host_data: Self::DEFAULT_HOST_DATA,
        }
    }

    /// Caps the bytes the package's Lua state may hold (code, tables,
    /// strings, everything it allocates). Zero means no limit, which only
    /// makes sense for trusted packages.
    pub const fn with_memory(self, bytes: usize) -> Self {
        Self {
            memory: bytes,
            ..self
        }
    }

    /// Caps the wall-clock time of one host call into the package, nested
    /// calls included. The watchdog stops a call after `budget` and at most
    /// a quarter of it later (200 ms later for budgets over 800 ms; 2 ms
    /// for budgets under 8 ms), never earlier.
    pub const fn with_time_budget(self, budget: Duration) -> Self {
        Self {
            time_budget: budget,
            ..self
        }
    }

    /// Caps what scripts keep in the game state, outside the Lua state:
    /// variables, piece attributes, frame contexts, the pieces they create
    /// and the frames they push, in approximate bytes. A write past it fails
    /// with an error; ids never wrap (a game holds at most 65,535 pieces).
    pub const fn with_host_data(self, bytes: usize) -> Self {
        Self {
            host_data: bytes,
            ..self
        }
    }

    /// The limit on script data kept in the game state, in bytes.
    pub const fn host_data(&self) -> usize {
        self.host_data
    }

    /// The memory limit in bytes (zero: unlimited).
    pub const fn memory(&self) -> usize {
        self.memory
    }

    /// The time budget of one host call.
    pub const fn time_budget(&self) -> Duration {
        self.time_budget
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}
