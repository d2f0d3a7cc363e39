//! A decision's legal actions as a count and an index.
//!
//! Bots pick among the legal actions by number, and the random bot (and
//! ISMCTS's random playouts) need no more than how many there are and the
//! one drawn. [`Legal`] counts
//! a decision's actions without listing them where it can (a scripted
//! decision's choices: the action at an index is that choice; a movement
//! phase's moves on a board of up to 64 spaces: [`moves`]; a set-up
//! phase's placements on such a board: [`places`]), and lists the
//! others ([`Engine::legal_actions`]) at once, or any decision's when a
//! reader asks ([`Legal::list`]): people, logs and the bots that weigh
//! every action. The count and the action at an index are always those
//! of the list, in its order (tests hold them to it), so a bot's pick is
//! the same whichever way it was made.

mod moves;
mod places;

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::game::{Game, PhaseKind};
use crate::kernel::state::GameState;

/// What the kernel keeps, for each phase of a game, to count its actions
/// without listing them (built once, with the engine).
#[derive(Debug)]
pub struct Counting {
    /// By phase index: how the phase's actions are counted, when they can
    /// be.
    phases: Vec<Option<Counter>>,
}

/// What counts one phase's actions.
#[derive(Debug)]
enum Counter {
    /// A movement phase's reaches and special zones as masks.
    Moves(moves::Masks),
    /// A set-up phase's quota zones as masks.
    Places(places::Zones),
}

impl Counting {
    pub fn new(game: &Game) -> Counting {
        let phases = game
            .phases
            .iter()
            .map(|phase| match &phase.kind {
                PhaseKind::Movement(m) => moves::Masks::new(game, m).map(Counter::Moves),
                PhaseKind::Placement(p) => places::Zones::new(game, p).map(Counter::Places),
                PhaseKind::Script => None,
            })
            .collect();
        Counting { phases }
    }

    /// Whether some phase's actions are counted by masks: only then does a
    /// game's state keep its occupancy as masks
    /// ([`GameState::keep_top_masks`]).
    pub fn needs_masks(&self) -> bool {
        self.phases.iter().any(Option::is_some)
    }
}

/// How the actions at an index are found.
enum Source<'a> {
    /// In the list, made at once.
    Listed,
    /// A scripted decision's choices (the rest of the count is a pass).
    Choices(usize),
    /// A movement phase's, counted by masks.
    Moves(moves::Query<'a>),
    /// A set-up phase's, counted by masks.
    Places(places::Open),
}

/// The legal actions of the decision in `state`: counted at once, listed
/// only when asked ([`Legal::list`]) or when only listing counts them.
pub struct Legal<'a> {
    engine: &'a Engine,
    state: &'a GameState,
    count: usize,
    list: &'a mut Vec<Action>,
    /// Whether `list` holds the actions: always for a listed source, and
    /// for a counted one once a reader asked ([`Legal::list`]).
    listed: bool,
    source: Source<'a>,
    /// What counting a movement phase's moves kept for finding one.
    tally: moves::Tally,
}

impl<'a> Legal<'a> {
    /// The decision's actions, listed into `buffer` when they cannot be
    /// counted without it (or later, when asked).
    pub fn new(engine: &'a Engine, state: &'a GameState, buffer: &'a mut Vec<Action>) -> Self {
        let source = source(engine, state);
        let mut tally = moves::Tally::default();
        let count = match &source {
            Source::Listed => {
                engine.legal_actions(state, buffer);
                buffer.len()
            }
            Source::Choices(choices) => (*choices).max(1),
            Source::Moves(query) => moves::count(query, &mut tally).max(1),
            Source::Places(open) => open.count().max(1),
        };
        Legal {
            engine,
            state,
            count,
            list: buffer,
            listed: matches!(source, Source::Listed),
            source,
            tally,
        }
    }

    /// How many legal actions there are (none once the game is over).
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The action at `index` of the list (below [`Legal::len`]): from the
    /// list when there is one, else found by the source that counted.
    /// Always inlined: as a call (which a plain hint did not always
    /// spare) it cost a Convoy ply some 23 instructions.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Action {
        assert!(index < self.count, "legal action {index} of {}", self.count);
        match &self.source {
            Source::Listed => self.list[index],
            Source::Choices(choices) if index < *choices => Action::Choice(index as u32),
            // A decision with nothing else to do offers a pass.
            Source::Choices(_) => Action::Pass,
            Source::Moves(_) if self.listed => self.list[index],
            Source::Moves(query) => moves::nth(query, &self.tally, index),
            Source::Places(open) => open.nth(self.state, index),
        }
    }

    /// Every legal action, in canonical order ([`Engine::legal_actions`]).
    pub fn list(&mut self) -> &[Action] {
        if !self.listed {
            self.engine.legal_actions(self.state, self.list);
            self.listed = true;
        }
        self.list
    }
}

/// Where the actions of the decision pending in `state` come from: a
/// scripted decision's choices, a movement or set-up phase the engine
/// counts, or the list (a phase it cannot count, no decision).
fn source<'a>(engine: &'a Engine, state: &'a GameState) -> Source<'a> {
    let Some(frame) = state.stack.last().filter(|_| state.result.is_none()) else {
        return Source::Listed;
    };
    let phase = frame.phase as usize;
    let game = &engine.game;
    // A state read back from a file keeps no masks: it lists.
    let counter = engine.counting().phases[phase]
        .as_ref()
        .filter(|_| state.keeps_top_masks());
    match (&game.phases[phase].kind, counter) {
        (PhaseKind::Script, _) => Source::Choices(frame.choices.len()),
        (PhaseKind::Movement(movement), Some(Counter::Moves(masks))) => {
            Source::Moves(moves::Query {
                game,
                masks,
                movement,
                state,
                player: frame.player,
            })
        }
        (PhaseKind::Placement(p), Some(Counter::Places(zones))) => {
            Source::Places(places::Open::new(p, zones, state, frame.player))
        }
        _ => Source::Listed,
    }
}
