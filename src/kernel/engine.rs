//! The turn loop: who decides what now, among which legal actions; apply
//! the answer; log it; check for the end (DESIGN principle 5).
//!
//! The phase stack in the state says where the game is. Native phases
//! (placement, movement) answer from compiled data; scripted phases run their
//! Lua procedure until it asks for a decision, and that pending decision is
//! stored in the state, so listing legal actions never calls a script.

use crate::kernel::action::Action;
use crate::kernel::event::{Event, Outcome};
use crate::kernel::game::{FirstPlayer, Game, PhaseKind};
use crate::kernel::legal::Counting;
use crate::kernel::piece::{EVERYONE, Location, Piece, PlayerId, player_bit};
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::{RulesError, Scripts, Step};
use crate::kernel::state::{Frame, GameState, PartKeys};
use crate::kernel::value::Vars;
use crate::kernel::view::Viewer;
use crate::kernel::{movement, placement, secrets};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A game definition with its scripts: plays any number of games.
pub struct Engine {
    pub game: Rc<Game>,
    scripts: Box<dyn Scripts>,
    /// Whether new games record their events (`set_narration`).
    narrated: Cell<bool>,
    /// Whether new games keep their action log (`set_action_log`).
    logged: Cell<bool>,
    /// The game's starting variables, with room for a scripted game's
    /// others: each new game shares them until its first write copies
    /// them, at their room (copying a map keeps its size; growing one to
    /// make room after copying it rehashed every name, every game).
    start_vars: Vars,
    /// What counts the game's legal actions without listing them (bots
    /// pick by number: `kernel::legal`).
    counting: Counting,
    /// The position hash's keys of parts that seldom change, kept by
    /// their inputs for every game this engine plays (the hash is taken
    /// after every action).
    part_keys: RefCell<PartKeys>,
}

/// Room reserved in a new game's logs: a typical game never reallocates
/// them. (Only here: the state the Lua host borrows as a placeholder
/// during a script call must stay free to build.)
const EXPECTED_PLIES: usize = 256;

/// Room reserved for a new game's variables (a scripted game keeps a few
/// dozen), so the map does not grow step by step while the rules set up.
const EXPECTED_VARS: usize = 64;

/// How many script steps one decision may take before the engine calls the
/// rules broken (a scripted phase that never asks and never ends).
const MAX_SCRIPT_STEPS: usize = 100_000;

/// How a game ends when its flow has no phase left to start.
const FLOW_RAN_OUT: &str = "the flow of play ran out";

impl Engine {
    pub fn new(game: Rc<Game>, scripts: Box<dyn Scripts>) -> Engine {
        let mut start_vars = game.vars.clone();
        if let Some(layout) = scripts.var_layout() {
            // The rules' sheet: its names kept by slot (`Vars::adopt`).
            start_vars.adopt(&layout);
        }
        if game
            .phases
            .iter()
            .any(|p| matches!(p.kind, PhaseKind::Script))
        {
            // Scripted phases keep a few dozen variables: make room once.
            start_vars.reserve(EXPECTED_VARS);
        }
        let counting = Counting::new(&game);
        Engine {
            game,
            scripts,
            narrated: Cell::new(true),
            logged: Cell::new(true),
            start_vars,
            counting,
            part_keys: RefCell::default(),
        }
    }

    /// A new game from a seed: pieces in their start places, the first player
    /// chosen, and the flow advanced to the first decision.
    pub fn new_game(&self, seed: u64) -> Result<GameState, RulesError> {
        let g = &self.game;
        let mut rng = GameRng::new(seed);
        let mut pieces: Vec<Piece> = g
            .start
            .iter()
            .map(|s| Piece {
                kind: s.kind,
                owner: s.owner,
                loc: s.at,
                seen_by: match s.owner {
                    Some(o) if g.hidden => player_bit(o),
                    _ => EVERYONE,
                },
                attrs: g.kind(s.kind).attrs.clone(),
            })
            .collect();
        // Piece ids are visible to everyone; when faces are hidden they must
        // not follow the kinds, or an id would give a hidden type away.
        if g.hidden {
            rng.shuffle(&mut pieces);
        }
        let mut state = GameState::new(pieces, g.board.len(), g.players.len(), rng);
        if self.counting.needs_masks() {
            state.keep_top_masks();
        }
        state.narrated = self.narrated.get();
        state.logged = self.logged.get();
        state.reserve_plies(EXPECTED_PLIES);
        *state.vars_mut() = self.start_vars.clone();
        state.first_player = match g.first_player {
            FirstPlayer::Fixed(p) => p,
            FirstPlayer::Coin => PlayerId(state.rng.below(g.players.len() as u32) as u8),
        };
        self.advance(&mut state)?;
        Ok(state)
    }

    /// The player who decides now; `None` once the game is over.
    pub fn to_move(&self, state: &GameState) -> Option<PlayerId> {
        if state.result.is_some() {
            return None;
        }
        state.stack.last().map(|f| f.player)
    }

    /// What counts this game's legal actions without listing them.
    pub(crate) fn counting(&self) -> &Counting {
        &self.counting
    }

    /// Fills `out` with the legal actions, in canonical order.
    pub fn legal_actions(&self, state: &GameState, out: &mut Vec<Action>) {
        out.clear();
        let Some(frame) = state.stack.last().filter(|_| state.result.is_none()) else {
            return;
        };
        match &self.game.phases[frame.phase as usize].kind {
            PhaseKind::Placement(p) => placement::actions(&self.game, p, state, frame.player, out),
            PhaseKind::Movement(m) => movement::actions(&self.game, m, state, frame.player, out),
            PhaseKind::Script => out.extend((0..frame.choices.len() as u32).map(Action::Choice)),
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// Applies a legal action in place. On an error (only a script can raise
    /// one) the state may be half changed: callers that must keep the game
    /// use [`Engine::try_apply`].
    pub fn apply(&self, state: &mut GameState, action: Action) -> Result<(), RulesError> {
        let Some(frame) = state.stack.last() else {
            return Err(RulesError(
                "the game is over: no action can be applied".into(),
            ));
        };
        let (phase, player) = (frame.phase as usize, frame.player);
        if state.logged {
            state.log.push(action);
        }
        state.ply += 1;
        match (&self.game.phases[phase].kind, action) {
            (_, Action::Pass) => {
                state.record(|| Event::Passed { player });
                self.pass_turn(state, phase);
            }
            (PhaseKind::Placement(p), a) => placement::apply(&self.game, p, state, a),
            (PhaseKind::Movement(m), a) => {
                movement::apply(&self.game, m, &*self.scripts, state, a)?
            }
            (PhaseKind::Script, Action::Choice(i)) => {
                let top = state.stack.last_mut().expect("a frame is on the stack");
                // The list's buffer stays with the frame: a bot's scratch
                // state copies the next decision's choices into it.
                let choice = std::mem::take(&mut top.choices[i as usize]);
                top.choices.clear();
                self.scripts.choose(state, phase as u16, &choice)?;
            }
            (PhaseKind::Script, a) => {
                return Err(RulesError(format!("a scripted phase cannot take {a:?}")));
            }
        }
        // The flow moves on first, so the position counted for repetition
        // is the one the next decision is taken in (the last placement
        // records the first position of the next phase).
        self.advance(state)?;
        self.after_action(state)
    }

    /// Applies an action to a copy; the original is untouched on error.
    pub fn try_apply(&self, state: &GameState, action: Action) -> Result<GameState, RulesError> {
        let mut next = state.clone();
        self.apply(&mut next, action)?;
        Ok(next)
    }

    /// Ends the game now (for scripts and for the REPL's resign).
    pub fn finish(state: &mut GameState, outcome: Outcome) {
        if state.result.is_none() {
            state.record(|| Event::Finished(outcome.clone()));
            state.result = Some(outcome);
        }
    }

    fn pass_turn(&self, state: &mut GameState, phase: usize) {
        if let PhaseKind::Movement(_) = self.game.phases[phase].kind {
            let top = state.stack.last_mut().expect("a frame is on the stack");
            top.player = self.game.next_player(top.player);
        } else if let Some(top) = state.stack.last_mut() {
            // A frame whose player can do nothing is finished.
            top.step = u32::MAX;
        }
    }

    /// Repetition and the ply limit, checked after every action.
    fn after_action(&self, state: &mut GameState) -> Result<(), RulesError> {
        if state.result.is_some() {
            return Ok(());
        }
        if let Some((count, script)) = &self.game.victory.repetition {
            let hash = state.position_hash_with(&mut self.part_keys.borrow_mut());
            let seen = state.record_position(hash);
            if seen >= usize::from(*count) {
                self.scripts.repetition(state, script)?;
                if state.result.is_none() {
                    Self::finish(
                        state,
                        Outcome {
                            winner: None,
                            reason: format!("position repeated {seen} times"),
                            scores: vec![],
                            by_limit: false,
                        },
                    );
                }
                return Ok(());
            }
        }
        if state.ply >= self.game.max_plies {
            Self::finish(
                state,
                Outcome {
                    winner: None,
                    reason: format!(
                        "no result after {} actions (max_plies)",
                        self.game.max_plies
                    ),
                    scores: vec![],
                    by_limit: true,
                },
            );
        }
        Ok(())
    }

    /// Moves the flow on until someone has a decision or the game ends.
    /// A movement frame still under way (most plies of a war game) has
    /// its next decision already: that is answered here, inlined, before
    /// the loop, whose frame setup alone cost a Convoy ply some 40
    /// instructions.
    #[inline(always)]
    fn advance(&self, state: &mut GameState) -> Result<(), RulesError> {
        let moving = |f: &Frame| {
            f.step != u32::MAX
                && matches!(
                    self.game.phases[f.phase as usize].kind,
                    PhaseKind::Movement(_)
                )
        };
        if state.result.is_none() && state.stack.last().is_some_and(moving) {
            return Ok(());
        }
        self.advance_flow(state)
    }

    /// [`Engine::advance`]'s loop: frames popped, pushed and run (kept
    /// out of line, so the callers of the inlined check stay small).
    #[inline(never)]
    fn advance_flow(&self, state: &mut GameState) -> Result<(), RulesError> {
        for _ in 0..MAX_SCRIPT_STEPS {
            if state.result.is_some() {
                return Ok(());
            }
            let Some(frame) = state.stack.last() else {
                let Some(&phase) = self.game.flow.get(state.flow as usize) else {
                    Self::finish(
                        state,
                        Outcome {
                            winner: None,
                            reason: FLOW_RAN_OUT.into(),
                            scores: vec![],
                            by_limit: true,
                        },
                    );
                    return Ok(());
                };
                state.flow += 1;
                state.stack.push(Frame::new(phase, state.first_player));
                continue;
            };
            let phase = &self.game.phases[frame.phase as usize];
            let done = match &phase.kind {
                PhaseKind::Placement(p) => placement::advance(&self.game, p, state),
                // (`advance` answers a movement frame under way before
                // this loop: what is done here for one must be done there.)
                PhaseKind::Movement(_) => frame.step == u32::MAX,
                PhaseKind::Script if frame.step == u32::MAX => true,
                PhaseKind::Script if !frame.choices.is_empty() => return Ok(()),
                PhaseKind::Script => match self.scripts.run_phase(state, frame.phase)? {
                    Step::Done => true,
                    Step::Continue => continue,
                    Step::Decide(choices) if choices.is_empty() => true,
                    Step::Decide(choices) => {
                        state.stack.last_mut().expect("frame").choices = choices;
                        return Ok(());
                    }
                },
            };
            if !done {
                return Ok(());
            }
            state.stack.pop();
        }
        Err(RulesError(format!(
            "the rules ran {MAX_SCRIPT_STEPS} steps without asking for a decision: is a scripted phase looping?"
        )))
    }

    /// Where a piece is, in words.
    pub fn location_name(&self, loc: Location) -> &str {
        match loc {
            Location::Space(s) => self.game.board.name(s),
            Location::Pool(p) => &self.game.pools[p.0 as usize],
        }
    }

    /// Checks that no script changed the rules' own tables since they
    /// loaded, and undoes any change (see [`Scripts::reset`]). Simulations
    /// check at the end of a run, the REPL after every command.
    pub fn check_scripts(&self) -> Result<(), RulesError> {
        self.scripts.reset()
    }

    /// Records the game's events and the rules' narration or not (see
    /// [`Scripts::set_narration`]) in the games it starts from now on:
    /// simulations switch it off, since nobody reads them.
    pub fn set_narration(&self, on: bool) {
        self.narrated.set(on);
        self.scripts.set_narration(on);
    }

    /// Keeps the action log (or not) in the games it starts from now on.
    /// Simulations switch it off: they count plies and never replay, so
    /// a game's memory then does not grow with its length (a game that
    /// never ends grew by 8 bytes a ply, ~18 MB a second, to its cap).
    pub fn set_action_log(&self, on: bool) {
        self.logged.set(on);
    }

    /// Whether new games are narrated (see [`Engine::set_narration`]).
    pub fn narrating(&self) -> bool {
        self.narrated.get()
    }

    /// The rules' heuristic value of `state` for `player`
    /// (`rules.evaluate`), or `None` when the rules have none. `state` is
    /// a scratch copy the rules may change: bots pass determinized samples.
    pub fn evaluate(
        &self,
        state: &mut GameState,
        player: PlayerId,
    ) -> Option<Result<f64, RulesError>> {
        self.scripts.evaluate(state, self.game.player_id(player))
    }

    /// Whether the package samples the secrets the kernel cannot
    /// (`rules.sample`; see `kernel::secrets`).
    pub fn has_sampler(&self) -> bool {
        self.scripts.has_sampler()
    }

    /// Runs the package's sampler for `seat` on a determinized sample
    /// (`kernel::determinize` blanks what the seat cannot see first).
    pub fn run_sampler(&self, sample: &mut GameState, seat: PlayerId) -> Result<(), RulesError> {
        self.scripts.sample(sample, self.game.player_id(seat))
    }

    /// What the rule scripts did in the games played so far, when the
    /// package was loaded to count it (`simulate --coverage`).
    pub fn script_counts(&self) -> Option<crate::kernel::scripts::ScriptCounts> {
        self.scripts.counts()
    }

    /// Evaluates designer code against a copy of the state (REPL `lua`).
    pub fn lua_eval(&self, state: &GameState, code: &str) -> Result<String, RulesError> {
        self.scripts.eval(state, code)
    }
}

impl Engine {
    /// Jumps to a phase: the stack is cleared, the flow moves past that
    /// phase, and a frame for `player` starts it. Tests and designers use it
    /// to set up a position by hand and play from it.
    pub fn begin_phase(
        &self,
        state: &mut GameState,
        phase: &str,
        player: PlayerId,
    ) -> Result<(), RulesError> {
        self.begin_phase_with(state, phase, player, Vars::new())
    }

    /// [`Engine::begin_phase`] with the frame's context set, for a scripted
    /// phase that reads its situation from `frame.ctx` (a combat in one
    /// area, say): a test or a designer starts it in the middle of a turn.
    pub fn begin_phase_with(
        &self,
        state: &mut GameState,
        phase: &str,
        player: PlayerId,
        ctx: Vars,
    ) -> Result<(), RulesError> {
        let index = self
            .game
            .phase_index(phase)
            .ok_or_else(|| RulesError(format!("no phase '{phase}'")))?;
        state.stack.clear();
        state.result = None;
        state.flow = self
            .game
            .flow
            .iter()
            .position(|&p| p == index)
            .map_or(self.game.flow.len(), |i| i + 1) as u16;
        let mut frame = Frame::new(index, player);
        frame.ctx = ctx;
        state.stack.push(frame);
        state.history.clear();
        state.history_floor = 0;
        self.advance(state)?;
        // The position set up by hand is the first one of the phase: it
        // counts for repetition like the one after a last placement.
        if self.game.victory.repetition.is_some() {
            let hash = state.position_hash_with(&mut self.part_keys.borrow_mut());
            state.record_position(hash);
        }
        Ok(())
    }

    /// The game sheet the rules write for a running or finished game
    /// (`rules.sheet(format)` in Lua, format `text` or `markdown`), if the
    /// game has one.
    pub fn sheet(&self, state: &GameState, format: &str) -> Option<Result<String, RulesError>> {
        self.scripts.describe(state, "sheet", format)
    }

    /// The rules' status block for a player (`rules.status(player)`), shown
    /// by the REPL under the board: a solitaire game's convoy and turn track,
    /// say. `None` when the rules write none.
    pub fn status_text(
        &self,
        state: &GameState,
        player: &str,
    ) -> Option<Result<String, RulesError>> {
        let seen = self.seen_by(state, player);
        self.scripts.describe(&seen, "status", player)
    }

    /// The lines the rules write for a drawing of the game as `player`
    /// sees it (`rules.map_notes(player)`; `player` is empty for what every
    /// player sees). `None` when the rules write none.
    pub fn map_notes(
        &self,
        state: &GameState,
        player: &str,
    ) -> Option<Result<Vec<String>, RulesError>> {
        let seen = self.seen_by(state, player);
        self.scripts.map_notes(&seen, player)
    }

    /// The state with the script data `player` may not see taken out
    /// (other players' private variables, hidden frame contexts), for the
    /// rules to write about on that player's screen; `""` is what every
    /// player sees. A status block or a map's notes then cannot show
    /// another seat's secret kept there, whatever the script reads.
    fn seen_by(&self, state: &GameState, player: &str) -> GameState {
        let viewer = match self.game.player_index(player) {
            Some(p) => Viewer::Player(p),
            None => Viewer::Public,
        };
        let mut seen = state.clone();
        secrets::blank_script_data(&self.game, &mut seen, viewer);
        seen
    }
}
