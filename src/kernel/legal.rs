//! A decision's legal actions as a count and an index.
//!
//! Bots pick among the legal actions by number, and the random bot needs
//! no more than how many there are and the one it drew. [`Legal`] counts
//! a scripted decision's choices without listing them (the action at an
//! index is that choice) and lists the actions of native phases
//! ([`Engine::legal_actions`]) at once, or any decision's when a reader
//! asks ([`Legal::list`]): people, logs and the bots that weigh every
//! action. The count and the action at an index are always those of the
//! list, in its order (tests hold them to it), so a bot's pick is the
//! same whichever way it was made.
//!
//! Native moves are listed, not counted: counting Convoy's one-step moves
//! by masks of the spaces each piece reaches and a population count, then
//! walking to the picked one, ran no faster than the list, which is
//! written without a branch (measured: README, Speed).

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::game::PhaseKind;
use crate::kernel::state::GameState;

/// The legal actions of the decision in `state`: counted at once, listed
/// only when asked ([`Legal::list`]) or when only listing counts them.
pub struct Legal<'a> {
    engine: &'a Engine,
    state: &'a GameState,
    count: usize,
    list: &'a mut Vec<Action>,
    listed: bool,
}

impl<'a> Legal<'a> {
    /// The decision's actions, listed into `buffer` when they cannot be
    /// counted without it (or later, when asked).
    pub fn new(engine: &'a Engine, state: &'a GameState, buffer: &'a mut Vec<Action>) -> Self {
        let (count, listed) = match choices(engine, state) {
            Some(choices) => (choices.max(1), false),
            None => {
                engine.legal_actions(state, buffer);
                (buffer.len(), true)
            }
        };
        Legal {
            engine,
            state,
            count,
            list: buffer,
            listed,
        }
    }

    /// How many legal actions there are (none once the game is over).
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The action at `index` of the list (below [`Legal::len`]).
    pub fn get(&self, index: usize) -> Action {
        assert!(index < self.count, "legal action {index} of {}", self.count);
        match self.listed {
            true => self.list[index],
            false if index < choices(self.engine, self.state).unwrap_or(0) => {
                Action::Choice(index as u32)
            }
            // A decision with nothing else to do offers a pass.
            false => Action::Pass,
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

/// How many choices the scripted decision pending in `state` offers, or
/// `None` when the decision is a native phase's (or there is none).
fn choices(engine: &Engine, state: &GameState) -> Option<usize> {
    let frame = state.stack.last().filter(|_| state.result.is_none())?;
    let phase = &engine.game.phases[frame.phase as usize];
    matches!(phase.kind, PhaseKind::Script).then_some(frame.choices.len())
}
