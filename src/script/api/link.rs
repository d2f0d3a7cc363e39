//! What ties the Lua API to the kernel: the game definition, the state
//! lent for one call, whether the game is narrated, and the host-side caches.
//!
//! Scripts never hold game state (DESIGN principle 1): for the length of
//! one call the host lends the state to the link ([`Link::lend`]), the API
//! functions read and change it there, and the host has it back when the
//! call returns. Every function reaches the state through
//! [`Link::with_state`], which refuses a second, nested use instead of
//! aliasing it, so no script trick (a metamethod calling the API from inside
//! an API call) can make the host panic or see a half-made change.

use super::known::Known;
use super::mirror_book::MirrorBook;
use super::native::{ApiError, Out};
use crate::kernel::dice::DiceExpr;
use crate::kernel::game::Game;
use crate::kernel::piece::{KindId, Location, PlayerId};
use crate::kernel::state::GameState;
use crate::kernel::value::NameHasher;
use std::cell::{Cell, OnceCell, RefCell, RefMut, UnsafeCell};
use std::collections::HashMap;
use std::ffi::c_int;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

/// Dice texts parsed once: rules roll the same few expressions all game.
/// Bounded, so a script inventing new texts cannot grow it without end.
const DICE_CACHE: usize = 256;

/// Registry references of the names natives return most (kinds, players,
/// spaces, pools), made once as Lua strings: pushing one is a registry read,
/// where pushing text would hash it and look it up in Lua's string table
/// every time.
#[derive(Default)]
pub struct NameRefs {
    pub kinds: Vec<c_int>,
    pub players: Vec<c_int>,
    pub spaces: Vec<c_int>,
    pub pools: Vec<c_int>,
}

/// Why the lent state cannot be had ([`Link::try_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The package is still loading: no game definition yet.
    Loading,
    /// No rule function is running, so no state is lent.
    NoGame,
    /// Another API call holds the state (a metamethod calling the API).
    Busy,
}

impl Refused {
    /// What the script is told.
    pub fn error(self) -> ApiError {
        ApiError::new(match self {
            Refused::Loading => {
                "the game definition is not available while the package is still loading"
            }
            Refused::NoGame => {
                "no game is in progress: game state can only be read inside a rule function, \
                 not while the package loads"
            }
            Refused::Busy => {
                "the game state is in use by another API call (an API function called from a \
                 metamethod of an argument?): call the API from plain code"
            }
        })
    }
}

pub struct Link {
    game: OnceCell<Rc<Game>>,
    state: Cell<*mut GameState>,
    busy: Cell<bool>,
    narrate: Cell<bool>,
    /// The phase-stack depth of the frame a phase function is working on.
    frame: Cell<Option<usize>>,
    dice: RefCell<HashMap<Box<str>, DiceExpr, BuildHasherDefault<NameHasher>>>,
    /// Registry references of each dice table's rows, by table index.
    rows: OnceCell<Vec<Vec<c_int>>>,
    /// Registry references of the game's names as Lua strings.
    names: OnceCell<NameRefs>,
    /// The data's dice texts and table names, by address (`known.rs`).
    known: OnceCell<Known>,
    /// Registry references of `frame.ctx` and its `pairs` iterator.
    frame_slots: Cell<(c_int, c_int)>,
    /// What the Lua-side mirror of the game variables holds.
    mirror: RefCell<MirrorBook>,
    /// The bytes scripts may keep in the state's variables.
    data_limit: usize,
    out: UnsafeCell<Out>,
    error: RefCell<String>,
    /// Rolls that read each dice table's row (the last slot: a gap), by
    /// table index; `None` unless the package was loaded to count.
    row_reads: RefCell<Option<Vec<Vec<u64>>>>,
}

impl Link {
    pub fn new(data_limit: usize) -> Link {
        Link {
            game: OnceCell::new(),
            state: Cell::new(std::ptr::null_mut()),
            busy: Cell::new(false),
            narrate: Cell::new(true),
            frame: Cell::new(None),
            dice: RefCell::new(HashMap::default()),
            rows: OnceCell::new(),
            names: OnceCell::new(),
            known: OnceCell::new(),
            frame_slots: Cell::new((0, 0)),
            mirror: RefCell::new(MirrorBook::default()),
            data_limit,
            out: UnsafeCell::new(Out::default()),
            error: RefCell::new(String::new()),
            row_reads: RefCell::new(None),
        }
    }

    /// Hands the compiled game to the API (once, when the package is ready).
    pub fn attach(&self, game: Rc<Game>, rows: Vec<Vec<c_int>>, names: NameRefs, known: Known) {
        self.game.set(game).ok();
        self.rows.set(rows).ok();
        self.names.set(names).ok();
        self.known.set(known).ok();
    }

    /// The data's dice texts and table names, once the game is attached.
    pub fn known(&self) -> Option<&Known> {
        self.known.get()
    }

    fn names(&self) -> &NameRefs {
        self.names.get().expect("names are set with the game")
    }

    /// The registry reference of a piece kind's name.
    pub fn kind_name(&self, kind: KindId) -> c_int {
        self.names().kinds[usize::from(kind.0)]
    }

    /// The registry reference of a player's id.
    pub fn player_name(&self, player: PlayerId) -> c_int {
        self.names().players[usize::from(player.0)]
    }

    /// The registry reference of a space's or a pool's name.
    pub fn place_name(&self, place: Location) -> c_int {
        match place {
            Location::Space(s) => self.names().spaces[usize::from(s.0)],
            Location::Pool(p) => self.names().pools[usize::from(p.0)],
        }
    }

    /// Counts the rows `dice.on` reads from now on (coverage).
    pub fn count_rows(&self, game: &Game) {
        let tables = game.dice_tables.iter().map(|t| vec![0; t.rows.len() + 1]);
        *self.row_reads.borrow_mut() = Some(tables.collect());
    }

    /// Notes that a roll on dice table `table` read `row` (`None`: a gap),
    /// when counting.
    pub fn row_read(&self, table: usize, row: Option<usize>) {
        if let Some(reads) = self.row_reads.borrow_mut().as_mut() {
            let slots = &mut reads[table];
            let last = slots.len() - 1;
            slots[row.unwrap_or(last)] += 1;
        }
    }

    /// The rows read so far, when counting.
    pub fn rows_read(&self) -> Option<Vec<Vec<u64>>> {
        self.row_reads.borrow().clone()
    }

    pub fn game(&self) -> Result<&Rc<Game>, ApiError> {
        self.game.get().ok_or_else(|| Refused::Loading.error())
    }

    /// Lends `state` to the API while `f` runs (calls may nest: the state
    /// lent before is restored after).
    pub fn lend<R>(&self, state: &mut GameState, frame: Option<usize>, f: impl FnOnce() -> R) -> R {
        struct Restore<'a>(&'a Link, *mut GameState, Option<usize>);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.state.set(self.1);
                self.0.frame.set(self.2);
            }
        }
        let _restore = Restore(self, self.state.replace(state), self.frame.replace(frame));
        f()
    }

    /// Whether a state is lent (a rule function is running).
    pub fn lent(&self) -> bool {
        !self.state.get().is_null()
    }

    /// Runs `f` on the definition and the lent state. `f` must not call Lua.
    pub fn with_state<R>(
        &self,
        f: impl FnOnce(&Game, &mut GameState) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        self.try_state(f)
            .unwrap_or_else(|refused| Err(refused.error()))
    }

    /// Runs `f` on the definition and the lent state, or says why not:
    /// [`Link::with_state`] without building an error, for the quick paths
    /// that hand a refused call to the ordinary path (which then explains
    /// the refusal). `f` must not call Lua.
    #[inline]
    pub fn try_state<R>(&self, f: impl FnOnce(&Game, &mut GameState) -> R) -> Result<R, Refused> {
        struct Release<'a>(&'a Cell<bool>);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.set(false);
            }
        }
        let game = self.game.get().ok_or(Refused::Loading)?;
        let state = self.state.get();
        if state.is_null() {
            return Err(Refused::NoGame);
        }
        if self.busy.replace(true) {
            return Err(Refused::Busy);
        }
        let _release = Release(&self.busy);
        // SAFETY: `lend` set the pointer from a `&mut GameState` its caller
        // does not use until `lend` returns, and `busy` makes this the only
        // reference made from it.
        Ok(f(game, unsafe { &mut *state }))
    }

    /// The depth of the frame the running phase function works on.
    pub fn frame(&self) -> Result<usize, ApiError> {
        self.frame.get().ok_or_else(|| {
            ApiError::new(
                "no phase frame here: `frame` is only valid inside a phase's run or choose",
            )
        })
    }

    pub fn narrating(&self) -> bool {
        self.narrate.get()
    }

    pub fn set_narration(&self, on: bool) {
        self.narrate.set(on);
    }

    /// A dice text, parsed (from the cache when it was parsed before).
    pub fn dice(&self, text: &str) -> Result<DiceExpr, ApiError> {
        if let Some(d) = self.dice.borrow().get(text) {
            return Ok(*d);
        }
        let parsed: DiceExpr = text.parse().map_err(|e| ApiError(format!("{e}")))?;
        let mut cache = self.dice.borrow_mut();
        if cache.len() < DICE_CACHE {
            cache.insert(text.into(), parsed);
        }
        Ok(parsed)
    }

    /// The registry reference of a dice table's row.
    #[inline]
    pub fn row(&self, table: usize, row: usize) -> c_int {
        self.rows.get().expect("rows are set with the game")[table][row]
    }

    pub(super) fn set_frame_slots(&self, ctx: c_int, next: c_int) {
        self.frame_slots.set((ctx, next));
    }

    pub(super) fn frame_slots(&self) -> (c_int, c_int) {
        self.frame_slots.get()
    }

    /// The book of the Lua-side mirror of the game variables.
    pub fn mirror(&self) -> RefMut<'_, MirrorBook> {
        self.mirror.borrow_mut()
    }

    /// A native changed the game variable `name` (and the Lua side will
    /// mirror the new value): the mirror follows if it held the state's.
    pub fn cache_follows<'a>(
        &self,
        before: u64,
        after: u64,
        names: impl IntoIterator<Item = &'a str>,
    ) {
        self.mirror().changed(before, after, names);
    }

    /// Marks the mirror stale while it is being changed; returns what
    /// [`Link::resume_cache`] puts back once the change is made.
    pub fn suspend_cache(&self) -> Option<u64> {
        self.mirror().suspend()
    }

    pub fn resume_cache(&self, holds: Option<u64>) {
        self.mirror().resume(holds);
    }

    pub fn data_limit(&self) -> usize {
        self.data_limit
    }

    /// The native trampoline's result buffer.
    ///
    /// # Safety
    /// Only the trampoline may call this, and never while another `&mut`
    /// from it lives (natives never call Lua, so they never nest).
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn out(&self) -> &mut Out {
        // SAFETY: guaranteed by the caller.
        unsafe { &mut *self.out.get() }
    }

    pub(super) fn set_error(&self, message: &str) {
        self.set_error_args(format_args!("{message}"));
    }

    /// Stores an error message written from `args`, allocating nothing new
    /// once the buffer is large enough.
    pub(super) fn set_error_args(&self, args: std::fmt::Arguments) {
        use std::fmt::Write;
        let mut e = self.error.borrow_mut();
        e.clear();
        // Writing into a String cannot fail.
        let _ = e.write_fmt(args);
    }

    /// The last error a native raised; read only by the trampoline, right
    /// before it raises it.
    pub(super) fn error(&self) -> &str {
        // SAFETY: nothing writes the error between `set_error` and the raise
        // that reads it, and the raise leaves this frame for good.
        unsafe { (*self.error.as_ptr()).as_str() }
    }
}
