//! One line of play with its undo and redo, kept in memory linear in its
//! length.
//!
//! A game state carries lists that grow with the game (the action log, the
//! events, the position history), so keeping a whole state per ply for undo
//! costs memory quadratic in the game's length: a 5,000-ply game took over
//! a gigabyte. A line keeps one whole state (the current one), the plies its
//! undo and redo steps lead to, the actions undone (for redo), and a bare
//! snapshot every [`SNAPSHOT_EVERY`] plies: a state without those lists,
//! which are prefixes of the current state's. Going back rebuilds the state
//! from the nearest snapshot at or before the target and replays at most
//! `SNAPSHOT_EVERY - 1` actions from the log; going forward replays the
//! actions undone. Play is deterministic (DESIGN principle 1), so a rebuilt
//! state is the state that was played.
//!
//! Positions are counted in actions from the start (the log's length).
//!
//! An action may be played on a fresh random stream (see
//! [`GameState::reseed`]); the line keeps every fresh stream it has, the
//! ones redo would replay included, and puts each back in place when it
//! rebuilds or replays past it, so undo and redo land on the dice that were
//! rolled.

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::{GameState, Reseed};
use std::mem::size_of;
use std::rc::Rc;

/// A bare snapshot is taken every this many plies, so undo replays at most
/// this many actions less one. At ~2 KB a snapshot for Convoy, 64 plies
/// keep snapshots near 30 bytes a ply, less than the log and events.
pub const SNAPSHOT_EVERY: usize = 64;

/// A line of play: where the game is, and how to step back and forth.
#[derive(Clone, Debug)]
pub struct Line {
    state: GameState,
    /// Actions taken back by undo, in play order: redo replays them.
    ahead: Vec<Action>,
    /// The position each undo step returns to, the next one last.
    undo: Vec<usize>,
    /// The position each redo step goes to, the next one last.
    redo: Vec<usize>,
    /// Bare snapshots by increasing position, the start's first. Shared
    /// with forks, which copy a line.
    snapshots: Vec<Rc<Snapshot>>,
    /// Every fresh random stream of the line, by position: the current
    /// state's, then the ones the actions undone were played on.
    reseeds: Vec<Reseed>,
}

/// A state without its growing lists, and their lengths then.
#[derive(Debug)]
struct Snapshot {
    bare: GameState,
    log: usize,
    events: usize,
    history: usize,
}

impl Snapshot {
    fn of(state: &mut GameState) -> Snapshot {
        let log = std::mem::take(&mut state.log);
        let events = std::mem::take(&mut state.events);
        let history = std::mem::take(&mut state.history);
        let bare = state.clone();
        let snapshot = Snapshot {
            bare,
            log: log.len(),
            events: events.len(),
            history: history.len(),
        };
        state.log = log;
        state.events = events;
        state.history = history;
        snapshot
    }
}

/// What a session keeps in memory for its lines of play (see
/// [`Line::kept`]), for tests and for the README's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Whole game states: one per line (the current one and each fork).
    pub states: usize,
    /// Bare snapshots, each counted once however many lines share it.
    pub snapshots: usize,
    /// An estimate of the bytes of game data held: the states' lists (by
    /// capacity), the snapshots, the undone actions and the step marks.
    /// Text inside events (rules' log lines) is not counted.
    pub bytes: usize,
}

impl Line {
    /// A line starting at `state`, with nothing to undo.
    pub fn new(mut state: GameState) -> Line {
        let start = Rc::new(Snapshot::of(&mut state));
        Line {
            reseeds: state.reseeds.clone(),
            state,
            ahead: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            snapshots: vec![start],
        }
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The position: actions played from the start.
    pub fn position(&self) -> usize {
        self.state.log.len()
    }

    /// Plays an action, on a fresh random stream started from `fresh` if
    /// given. On a rules error the line is as it was (the state is rebuilt
    /// from a snapshot) and the error is returned. A new action ends what
    /// redo could replay.
    pub fn play(
        &mut self,
        engine: &Engine,
        action: Action,
        fresh: Option<u64>,
    ) -> Result<(), RulesError> {
        let before = self.position();
        if let Some(seed) = fresh {
            self.state.reseed(seed);
        }
        if let Err(e) = engine.apply(&mut self.state, action) {
            self.state = self.rebuild(engine, before)?;
            return Err(e);
        }
        if !self.ahead.is_empty() || !self.redo.is_empty() {
            self.ahead.clear();
            self.redo.clear();
            self.snapshots.retain(|s| s.log <= before);
            self.reseeds.retain(|r| r.at < before);
        }
        if let Some(seed) = fresh {
            self.reseeds.push(Reseed { at: before, seed });
        }
        if self.position().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(Rc::new(Snapshot::of(&mut self.state)));
        }
        Ok(())
    }

    /// Plays an action as one undo step of its own (on a fresh random
    /// stream started from `fresh`, if given).
    pub fn step(
        &mut self,
        engine: &Engine,
        action: Action,
        fresh: Option<u64>,
    ) -> Result<(), RulesError> {
        let before = self.position();
        self.play(engine, action, fresh)?;
        self.undo.push(before);
        Ok(())
    }

    /// Makes everything played since `position` one undo step (a random
    /// set-up, a human action with the bots' replies).
    pub fn close_step(&mut self, position: usize) {
        if position < self.position() {
            self.undo.push(position);
        }
    }

    /// The positions undo steps return to, oldest first.
    pub fn undo_marks(&self) -> &[usize] {
        &self.undo
    }

    /// Replaces the undo steps (after a replay under new rules, or a load);
    /// marks at or past the current position are dropped.
    pub fn set_undo_marks(&mut self, marks: impl IntoIterator<Item = usize>) {
        let end = self.position();
        self.undo = marks.into_iter().filter(|&m| m < end).collect();
    }

    /// Takes back up to `n` steps; how many, or `None` with nothing to undo.
    pub fn undo(&mut self, engine: &Engine, n: usize) -> Result<Option<usize>, RulesError> {
        self.shift(engine, n, Direction::Back)
    }

    /// Replays up to `n` steps taken back; how many, or `None` with none.
    pub fn redo(&mut self, engine: &Engine, n: usize) -> Result<Option<usize>, RulesError> {
        self.shift(engine, n, Direction::Forward)
    }

    /// Undo and redo are mirror images: each step moves a mark from one
    /// stack to the other, through the current position.
    fn shift(
        &mut self,
        engine: &Engine,
        n: usize,
        direction: Direction,
    ) -> Result<Option<usize>, RulesError> {
        let (from, to) = match direction {
            Direction::Back => (&mut self.undo, &mut self.redo),
            Direction::Forward => (&mut self.redo, &mut self.undo),
        };
        if from.is_empty() {
            return Ok(None);
        }
        let n = n.min(from.len());
        let mut target = self.state.log.len();
        for _ in 0..n {
            to.push(target);
            target = from.pop().expect("n is at most the marks left");
        }
        self.go_to(engine, target)?;
        Ok(Some(n))
    }

    /// Moves the current state to `target`: back by rebuilding it (the
    /// actions left behind go to `ahead`), forward by replaying `ahead`.
    fn go_to(&mut self, engine: &Engine, target: usize) -> Result<(), RulesError> {
        let here = self.position();
        if target < here {
            let behind = self.state.log[target..].to_vec();
            self.ahead.splice(0..0, behind);
            self.state = self.rebuild(engine, target)?;
        } else {
            for action in self.ahead.drain(..target - here) {
                self.state.reseed_as_recorded(&self.reseeds);
                engine.apply(&mut self.state, action)?;
            }
        }
        Ok(())
    }

    /// Cuts the line at `position`: what was played after it is forgotten,
    /// redo included.
    pub fn cut(&mut self, engine: &Engine, position: usize) -> Result<(), RulesError> {
        if position < self.position() {
            self.state = self.rebuild(engine, position)?;
        }
        self.ahead.clear();
        self.redo.clear();
        self.undo.retain(|&m| m < position);
        self.snapshots.retain(|s| s.log <= position);
        self.reseeds.retain(|r| r.at < position);
        Ok(())
    }

    /// The state at `target` (at most the current position): the nearest
    /// snapshot, its lists taken from the current state, then the log
    /// replayed from there.
    fn rebuild(&self, engine: &Engine, target: usize) -> Result<GameState, RulesError> {
        let at = self.snapshots.partition_point(|s| s.log <= target);
        let snapshot = &self.snapshots[at.max(1) - 1];
        let mut state = snapshot.bare.clone();
        state.log = self.state.log[..snapshot.log].to_vec();
        state.events = self.state.events[..snapshot.events].to_vec();
        state.history = self.state.history[..snapshot.history].to_vec();
        for &action in &self.state.log[snapshot.log..target] {
            state.reseed_as_recorded(&self.reseeds);
            engine.apply(&mut state, action)?;
        }
        Ok(state)
    }

    /// What this line keeps; `seen` holds the snapshots already counted
    /// (forks share theirs).
    pub fn kept(&self, seen: &mut std::collections::HashSet<*const ()>) -> Kept {
        let s = &self.state;
        let bare = |state: &GameState| {
            size_of::<GameState>()
                + std::mem::size_of_val(state.pieces())
                + state.stack.capacity() * size_of::<crate::kernel::state::Frame>()
        };
        let mut kept = Kept {
            states: 1,
            snapshots: 0,
            bytes: bare(s)
                + s.log.capacity() * size_of::<Action>()
                + s.events.capacity() * size_of::<crate::kernel::event::Event>()
                + s.history.capacity() * size_of::<u64>()
                + self.ahead.capacity() * size_of::<Action>()
                + self.reseeds.capacity() * size_of::<Reseed>()
                + (self.undo.capacity() + self.redo.capacity()) * size_of::<usize>(),
        };
        for snapshot in &self.snapshots {
            if seen.insert(Rc::as_ptr(snapshot).cast()) {
                kept.snapshots += 1;
                kept.bytes += size_of::<Snapshot>() + bare(&snapshot.bare);
            }
        }
        kept
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Back,
    Forward,
}
