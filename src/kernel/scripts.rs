//! The kernel's side of the rule scripts: what it asks of them and when.
//!
//! The kernel calls scripts only where a rule needs a procedure (a special
//! action, a scripted phase, an unusual combat result, the end of a game by
//! repetition), so a ply that needs no script pays nothing for them
//! (DESIGN principle 7). The Lua host implements this trait.

use crate::kernel::board::SpaceId;
use crate::kernel::event::Resolved;
use crate::kernel::piece::{PieceId, PlayerId};
use crate::kernel::state::GameState;
use crate::kernel::value::VarLayout;
use std::fmt;
use std::rc::Rc;

/// An error raised by a rule script, already located and explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

/// What a scripted phase's `run` asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The phase is over: pop its frame.
    Done,
    /// A decision for the frame's player among these choices.
    Decide(Vec<String>),
    /// The script pushed or popped frames: look at the stack again.
    Continue,
}

pub trait Scripts {
    /// Calls the rule function `rules.<name>` for a special action.
    fn special(
        &self,
        state: &mut GameState,
        name: &str,
        player: PlayerId,
        target: SpaceId,
    ) -> Result<(), RulesError>;
    /// Calls `rules.<name>` to resolve an attack the table hands to a script.
    fn combat(
        &self,
        state: &mut GameState,
        name: &str,
        attacker: PieceId,
        defender: PieceId,
    ) -> Result<Resolved, RulesError>;
    /// Calls `rules.<name>` when a position repeats; it should end the game.
    fn repetition(&self, state: &mut GameState, name: &str) -> Result<(), RulesError>;
    /// Runs the scripted phase on top of the stack (phase index `phase`)
    /// until it needs a decision.
    fn run_phase(&self, state: &mut GameState, phase: u16) -> Result<Step, RulesError>;
    /// Gives the scripted phase on top of the stack its player's choice.
    fn choose(&self, state: &mut GameState, phase: u16, choice: &str) -> Result<(), RulesError>;
    /// Whether the rules' narration (log lines, roll details) is recorded:
    /// on for a game someone watches, off for simulations, where nobody
    /// reads it and building it would cost more than the rules.
    fn set_narration(&self, _on: bool) {}
    /// The game variables the rules keep by slot (their sheet), which a
    /// new game's variables then keep by slot too (`Vars::adopt`).
    fn var_layout(&self) -> Option<Rc<VarLayout>> {
        None
    }
    /// Puts the scripts back as they were when loaded: an error names what
    /// a script changed (rules keep no state between calls or games), after
    /// undoing it. It walks every table the rules built, so callers run it
    /// between runs or commands, not between the games of a simulation.
    fn reset(&self) -> Result<(), RulesError> {
        Ok(())
    }
    /// What the scripts did so far, if the package was loaded to count it.
    fn counts(&self) -> Option<ScriptCounts> {
        None
    }
    /// Evaluates designer code against a copy of the state (the REPL's
    /// `lua` command); games without scripts have nothing to evaluate.
    fn eval(&self, _state: &GameState, _code: &str) -> Result<String, RulesError> {
        Err(RulesError(
            "this game has no scripts to evaluate code in".into(),
        ))
    }
    /// The rules' heuristic value of a position for a player,
    /// `rules.evaluate(player)` (higher is better), if the rules define
    /// one. Bots call it only on a determinized sample of the game (see
    /// `kernel::determinize`), never on the real state; the rules may
    /// change `state`, which is the caller's scratch copy.
    fn evaluate(&self, _state: &mut GameState, _player: &str) -> Option<Result<f64, RulesError>> {
        None
    }
    /// Whether the rules define a sampler, `rules.sample(player)`.
    fn has_sampler(&self) -> bool {
        false
    }
    /// Calls `rules.sample(player)` on a determinized sample whose secrets
    /// `player` cannot see are blanked (see `kernel::determinize`): the
    /// sampler writes values consistent with what the player knows. Only
    /// called when [`Scripts::has_sampler`] says there is one.
    fn sample(&self, _state: &mut GameState, _player: &str) -> Result<(), RulesError> {
        Ok(())
    }
    /// A text the rules write about the game: `rules.sheet(format)` (the
    /// game sheet) or `rules.status(player)` (a status block for the REPL),
    /// if the rules define that function. Runs on a copy of the state.
    fn describe(
        &self,
        _state: &GameState,
        _function: &str,
        _arg: &str,
    ) -> Option<Result<String, RulesError>> {
        None
    }
    /// Lines the rules write about the game for a drawing of it:
    /// `rules.map_notes(player)` (the turn, victory points...), a list of
    /// strings, if the rules define it. Runs on a copy of the state.
    fn map_notes(
        &self,
        _state: &GameState,
        _player: &str,
    ) -> Option<Result<Vec<String>, RulesError>> {
        None
    }
}

/// What the rule scripts did over the games an engine played, when the
/// engine was loaded to count them (`simulate --coverage`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptCounts {
    /// (rule function, the file or optional rule that defined it, calls),
    /// in the order the package defined them.
    pub functions: Vec<(String, String, u64)>,
    /// Rolls that read each row of each dice table, by table index; the
    /// last entry of each list counts rolls that fell in a gap.
    pub rows: Vec<Vec<u64>>,
}
