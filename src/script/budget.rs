//! The per-call time budget: runaway scripts are stopped, well-behaved ones
//! run at full speed.
//!
//! # Why not a count hook
//!
//! The obvious budget is a Lua instruction-count hook, but any hook in Lua
//! 5.4 routes every instruction through `luaG_traceexec`, which halves the
//! interpreter's speed whatever the count (DESIGN.md, performance model).
//! Rules code runs inside bot playouts, so that cost would be paid millions
//! of times for scripts that never misbehave.
//!
//! # How it works
//!
//! * Arming a call costs two plain atomic stores, disarming one compare-exchange:
//!   the call gets a fresh id in [`Shared::phase`]; no clock is read and no
//!   syscall is made.
//! * One watchdog thread for the whole process scans the sandboxes a few
//!   times per budget. The first scan that sees a call id notes the time;
//!   a later scan that finds the same id still running after the budget
//!   swaps the phase to `KILLED` and installs a count hook (count 1) with
//!   `lua_sethook` on every `lua_State` the call is executing. Lua 5.4
//!   supports setting a hook asynchronously (its own `lua.c` does it from a
//!   SIGINT handler), and its VM rereads the trap flag on every backward
//!   jump, so even `while true do end` notices.
//! * The hook raises an error on *every* instruction while the call is
//!   killed. `pcall` or `xpcall` may catch one, but the very next
//!   instruction raises again, so the call unwinds to the host.
//! * Lua turns hooks off while a hook runs, and an error raised in a hook
//!   keeps them off until a protected call catches it. Script code that
//!   runs in that window could never be stopped, so the sandbox closes each
//!   way in: `xpcall` message handlers are skipped once the call is stopped
//!   ([`Budget::stop_probe`]); a coroutine that died of the stop error does
//!   not run its `__close` handlers ([`Budget::guarded_close`]); `__gc`
//!   finalizers, which Lua always runs with hooks off, are refused; and the
//!   string metatable is locked, since formatting the stop error (in the
//!   host's traceback handler) would call a `__tostring` on strings.
//! * Hooks are per `lua_State`, and a coroutine only copies its creator's
//!   hook when it is created. So `coroutine.resume` (and `coroutine.wrap`,
//!   which the prelude builds on it) is replaced by [`Budget::tracked_resume`]: it
//!   records the coroutine's state while it runs, so a kill hooks it too,
//!   and refuses to resume anything once the call is killed.
//! * When the call returns, normally or not, the host disarms; if it was
//!   killed it removes the hook from the call's root state, so the next
//!   call runs at full speed. A hook left on a suspended coroutine removes
//!   itself the next time it fires outside a killed call.
//!
//! # Pointer safety
//!
//! The watchdog only touches a `lua_State` after winning the compare-
//! exchange from the call's id to `KILLED`, and it does so while holding
//! [`Shared::running`]. Winning proves the call has not returned yet (the
//! host's disarm would have swapped the id out first), and a killed call
//! cannot return before it takes that same lock, so the root state is alive.
//! Coroutine states are pushed and popped under the lock by a Rust frame
//! that keeps the coroutine referenced. The stale root pointer kept between
//! calls is never dereferenced.
//!
//! The one residual race belongs to Lua, not to this module: `lua_sethook`
//! walks the running state's `CallInfo` chain to set trap flags, and from
//! another thread (unlike from a signal handler) that walk can in theory
//! meet a `CallInfo` that the running thread frees at the same instant
//! (`luaE_shrinkCI`, run after a caught error and by the GC). It needs the
//! watchdog to be preempted in the middle of a walk of a few nanoseconds
//! while the script returns from two or more frames and shrinks its call
//! list, and only ever happens to a call that is already being killed.
//!
//! # Cost
//!
//! Measured once by hand (release build, x86-64 dev machine, best of 7
//! runs): an empty `Sandbox::call` costs about 10 ns, and `Sandbox::call`
//! around a call of an empty Lua function about 34 ns against 28 ns for
//! the bare mlua call. A Lua `for` loop of 10^7 iterations takes 28 ms
//! inside `Sandbox::call` as bare (a `while` loop: 54 ms, same as bare);
//! with an mlua count hook installed (every 10^6 instructions) they take
//! 60 ms and 141 ms. The price is paid by coroutines instead: a tracked
//! resume goes through an mlua callback and a lock, about 310 ns against
//! 77 ns for stock `coroutine.wrap`, which rules code should rarely need
//! (decisions are data, not suspended coroutines: DESIGN.md, principle 5).

use std::cell::Cell;
use std::ffi::CStr;
use std::iter;
use std::sync::atomic::Ordering::{Relaxed, Release, SeqCst};
use std::sync::atomic::{AtomicPtr, AtomicU64, fence};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mlua::thread::ThreadStatus;
use mlua::{Function, IntoLuaMulti, Lua, MultiValue, Value, ffi};

use super::error::ScriptError;

mod hook;
mod watchdog;

/// `Shared::phase` when no call is armed.
const IDLE: u64 = 0;
/// `Shared::phase` once the watchdog has stopped the armed call.
const KILLED: u64 = u64::MAX;
/// The error Lua code sees (and may catch, briefly) when it is stopped.
const STOP_MESSAGE: &CStr = c"time budget exhausted: the host stopped this script";

/// The host side of one sandbox's budget: arms and disarms calls.
pub(crate) struct Budget {
    shared: Arc<Shared>,
    /// Calls in progress on this sandbox; only the outermost one is armed,
    /// so a Rust callback calling back into Lua stays within its budget.
    depth: Cell<u32>,
    /// Id of the last armed call; ids are never reused.
    last_call: Cell<u64>,
    _watched: watchdog::Registration,
}

/// What the host and the watchdog thread share about one sandbox.
struct Shared {
    limit: Duration,
    /// `IDLE`, `KILLED`, or the id of the armed call.
    phase: AtomicU64,
    /// The state the armed call started on; valid only while it is armed.
    root: AtomicPtr<ffi::lua_State>,
    running: Mutex<Running>,
    /// Where the hook first stopped the script, for the error message.
    stopped_at: Mutex<Option<String>>,
}

/// Guarded by one lock because the watchdog must see a consistent set of
/// states while it installs hooks.
struct Running {
    /// States of the coroutines currently resumed through
    /// [`Budget::tracked_resume`].
    coroutines: Vec<StatePtr>,
    /// The call id the watchdog last saw armed, and when it first saw it.
    seen: Option<(u64, Instant)>,
}

/// A `lua_State` pointer that may be sent to the watchdog thread; see the
/// module docs for when it may be dereferenced.
#[derive(Clone, Copy, PartialEq, Eq)]
struct StatePtr(*mut ffi::lua_State);

// SAFETY: the pointer is only dereferenced under the protocol described in
// the module docs, which guarantees the state is alive at that moment.
unsafe impl Send for StatePtr {}

/// A call in progress; [`Self::finish`] tells whether it was stopped.
pub(crate) struct BudgetedCall<'a> {
    budget: &'a Budget,
    /// Set for the outermost call only: its id and root state.
    armed: Option<(u64, StatePtr)>,
}

/// How a stopped call ended, for [`ScriptError::Timeout`].
pub(crate) struct Stopped {
    pub(crate) limit: Duration,
    pub(crate) location: Option<String>,
}

impl Budget {
    /// Sets up the budget of a fresh Lua state and registers it with the
    /// watchdog (started on first use).
    pub(crate) fn new(lua: &Lua, limit: Duration) -> Result<Self, ScriptError> {
        let shared = Arc::new(Shared {
            limit,
            phase: AtomicU64::new(IDLE),
            root: AtomicPtr::new(std::ptr::null_mut()),
            running: Mutex::new(Running {
                coroutines: Vec::new(),
                seen: None,
            }),
            stopped_at: Mutex::new(None),
        });
        hook::link(lua, &shared).map_err(|err| ScriptError::Setup(err.to_string()))?;
        let watched = watchdog::watch(&shared).map_err(|err| {
            ScriptError::Setup(format!("cannot start the watchdog thread: {err}"))
        })?;
        Ok(Self {
            shared,
            depth: Cell::new(0),
            last_call: Cell::new(IDLE),
            _watched: watched,
        })
    }

    /// Starts a call; the outermost one is armed on the state `lua` runs on.
    pub(crate) fn start(&self, lua: &Lua) -> BudgetedCall<'_> {
        let depth = self.depth.get();
        self.depth.set(depth + 1);
        let armed = (depth == 0).then(|| {
            let id = self.last_call.get() + 1;
            self.last_call.set(id);
            let root = StatePtr(lua.state());
            // Plain stores (no locked instruction): the watchdog reads the
            // phase with acquire ordering, then the root.
            self.shared.root.store(root.0, Relaxed);
            self.shared.phase.store(id, Release);
            (id, root)
        });
        BudgetedCall {
            budget: self,
            armed,
        }
    }

    /// `coroutine.resume` with its coroutine tracked, so that the watchdog
    /// can stop a loop inside it; see the module docs.
    pub(crate) fn tracked_resume(&self, lua: &Lua) -> mlua::Result<Function> {
        let resume = coroutine_library_function(lua, "resume")?;
        let shared = Arc::clone(&self.shared);
        lua.create_function(move |_, args: MultiValue| {
            let Some(Value::Thread(coroutine)) = args.front() else {
                return resume.call::<MultiValue>(args); // let Lua report the bad argument
            };
            // `args` keeps the coroutine referenced until the guard is gone.
            let _tracked = shared.enter(StatePtr(coroutine.state()))?;
            resume.call::<MultiValue>(args)
        })
    }

    /// `coroutine.close` that skips the `__close` handlers of a coroutine
    /// the budget stopped. The stop error is raised inside the hook, where
    /// Lua has turned hooks off, and a coroutine that dies of it never turns
    /// them back on: its handlers would run beyond the budget's reach. Such a
    /// coroutine still carries the stop hook, since a hook only removes itself
    /// when it fires, which needs hooks on.
    ///
    /// Closing runs the coroutine's pending `__close` handlers on its own
    /// state, so that state is tracked while they run, like a resume: a
    /// handler that loops is stopped with the call.
    pub(crate) fn guarded_close(&self, lua: &Lua) -> mlua::Result<Function> {
        let close = coroutine_library_function(lua, "close")?;
        let shared = Arc::clone(&self.shared);
        lua.create_function(move |lua, args: MultiValue| {
            let Some(Value::Thread(coroutine)) = args.front() else {
                return close.call::<MultiValue>(args); // let Lua report the bad argument
            };
            if coroutine.status() == ThreadStatus::Error
                // SAFETY: a coroutine that died of an error is not running.
                && unsafe { hook::is_installed(StatePtr(coroutine.state())) }
            {
                return (false, STOP_MESSAGE.to_string_lossy()).into_lua_multi(lua);
            }
            // `args` keeps the coroutine referenced until the guard is gone.
            let _tracked = shared.enter(StatePtr(coroutine.state()))?;
            close.call::<MultiValue>(args)
        })
    }

    /// `stopped()`: whether the current call has been stopped. The prelude
    /// skips `xpcall` message handlers then, because Lua runs the handler
    /// for an error raised in a hook before it re-enables hooks, where a
    /// looping handler would be out of the budget's reach.
    pub(crate) fn stop_probe(&self, lua: &Lua) -> mlua::Result<Function> {
        let shared = Arc::clone(&self.shared);
        lua.create_function(move |_, ()| Ok(shared.phase.load(SeqCst) == KILLED))
    }
}

impl BudgetedCall<'_> {
    /// Ends the call; `Some` if the watchdog stopped it (for a nested call:
    /// if the enclosing call has been stopped).
    pub(crate) fn finish(mut self) -> Option<Stopped> {
        let shared = &self.budget.shared;
        match self.armed.take() {
            Some((id, root)) => shared.disarm(id, root),
            None => (shared.phase.load(SeqCst) == KILLED).then(|| Stopped {
                limit: shared.limit,
                location: lock(&shared.stopped_at).clone(),
            }),
        }
    }
}

impl Drop for BudgetedCall<'_> {
    /// Disarms even when the host's closure panics, so the sandbox stays usable.
    fn drop(&mut self) {
        if let Some((id, root)) = self.armed.take() {
            self.budget.shared.disarm(id, root);
        }
        self.budget.depth.set(self.budget.depth.get() - 1);
    }
}

impl Shared {
    /// Disarms call `id`; `Some` if it had been killed, in which case the
    /// hook is removed from its root state so the next call is not slowed.
    fn disarm(&self, id: u64, root: StatePtr) -> Option<Stopped> {
        if self
            .phase
            .compare_exchange(id, IDLE, SeqCst, SeqCst)
            .is_ok()
        {
            return None;
        }
        // Killed: wait for the watchdog to finish installing hooks, then stop
        // it from touching this call's states ever again.
        let running = lock(&self.running);
        self.phase.store(IDLE, SeqCst);
        drop(running);
        // SAFETY: `root` is the state this call ran on, on this very thread.
        unsafe { hook::remove(root) };
        Some(Stopped {
            limit: self.limit,
            location: lock(&self.stopped_at).take(),
        })
    }

    /// Records a coroutine as running until the guard drops; refuses once the
    /// call is killed, since a resumed coroutine would not carry the hook.
    fn enter(&self, state: StatePtr) -> mlua::Result<TrackedCoroutine<'_>> {
        let mut running = lock(&self.running);
        if self.phase.load(SeqCst) == KILLED {
            return Err(mlua::Error::runtime(STOP_MESSAGE.to_string_lossy()));
        }
        running.coroutines.push(state);
        Ok(TrackedCoroutine {
            shared: self,
            state,
        })
    }

    /// One watchdog look at this sandbox: note a new call, or kill a call
    /// that has been running for longer than the budget.
    fn check(&self, now: Instant) {
        let id = self.phase.load(SeqCst);
        if id == IDLE || id == KILLED {
            return;
        }
        let mut running = lock(&self.running);
        match running.seen {
            Some((seen, since)) if seen == id => {
                if now.saturating_duration_since(since) >= self.limit {
                    self.kill(id, &running);
                }
            }
            _ => running.seen = Some((id, now)),
        }
    }

    /// Hooks every state of call `id`, unless it has returned meanwhile.
    fn kill(&self, id: u64, running: &Running) {
        if self
            .phase
            .compare_exchange(id, KILLED, SeqCst, SeqCst)
            .is_err()
        {
            return;
        }
        // Make `KILLED` visible before any hook is: the hook reads the phase.
        fence(SeqCst);
        let root = StatePtr(self.root.load(SeqCst));
        for state in iter::once(root).chain(running.coroutines.iter().copied()) {
            // SAFETY: see "Pointer safety" in the module docs: the call is
            // live and `running` is locked.
            unsafe { hook::install(state) };
        }
    }
}

/// Pops a tracked coroutine when its resume returns (or errors).
struct TrackedCoroutine<'a> {
    shared: &'a Shared,
    state: StatePtr,
}

impl Drop for TrackedCoroutine<'_> {
    fn drop(&mut self) {
        let mut running = lock(&self.shared.running);
        if let Some(at) = running.coroutines.iter().rposition(|s| *s == self.state) {
            running.coroutines.remove(at);
        }
    }
}

fn coroutine_library_function(lua: &Lua, name: &str) -> mlua::Result<Function> {
    lua.globals().get::<mlua::Table>("coroutine")?.get(name)
}

/// Locks, ignoring poisoning: no critical section here can leave its data
/// half-updated, and a panicking host thread must not wedge the watchdog.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
