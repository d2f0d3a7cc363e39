//! Playing a thread's share of a run while counting its coverage
//! ([`super::coverage`] defines what is counted): an engine loaded to
//! count its scripts, and for each optional rule in play a shadow engine
//! without it that follows the same actions until the games differ.

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::game::PhaseKind;
use crate::kernel::movement;
use crate::kernel::piece::PlayerId;
use crate::kernel::state::GameState;
use crate::sim::coverage::Coverage;
use crate::sim::{GameResult, Run, for_playouts, game_seed, play_watched, result_of};

/// Which engine a coverage run asks its loader for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build<'a> {
    /// The run's rules, counting what its scripts do.
    Counted,
    /// The run's rules without this optional rule, not counting.
    Without(&'a str),
}

/// The game without one optional rule, following the game with it.
struct Shadow {
    engine: Engine,
    option: usize,
}

/// A thread's engines and counts.
pub struct Counter {
    engine: Engine,
    shadows: Vec<Shadow>,
    /// `[phase][attacker][defender]` attacks, for phases with combat.
    cells: Vec<Vec<Vec<u64>>>,
    games: u64,
    changed: Vec<u64>,
}

impl Counter {
    pub fn new(make: &dyn Fn(Build) -> Result<Engine, String>) -> Result<Counter, String> {
        let engine = make(Build::Counted)?;
        for_playouts(&engine);
        let game = &engine.game;
        let enabled: Vec<String> = game
            .enabled_options()
            .into_iter()
            .map(String::from)
            .collect();
        let shadows = enabled
            .iter()
            .enumerate()
            .map(|(option, id)| {
                let engine = make(Build::Without(id))?;
                for_playouts(&engine);
                Ok(Shadow { engine, option })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let kinds = game.kinds.len();
        let cells = game
            .phases
            .iter()
            .map(|p| match &p.kind {
                PhaseKind::Movement(m) if m.combat.is_some() => vec![vec![0; kinds]; kinds],
                _ => Vec::new(),
            })
            .collect();
        Ok(Counter {
            changed: vec![0; enabled.len()],
            engine,
            shadows,
            cells,
            games: 0,
        })
    }

    /// Plays game `index` of the run, counting.
    pub fn play(&mut self, run: &Run, index: u64) -> Result<GameResult, String> {
        let seed = game_seed(run.seed, index);
        let failed = |e: String| format!("game {index} (seed {seed}) failed: {e}");
        let mut followers: Vec<Option<GameState>> = self
            .shadows
            .iter()
            .map(|s| s.engine.new_game(seed).ok())
            .collect();
        let mut turns = (0, None);
        let (engine, shadows, cells) = (&self.engine, &self.shadows, &mut self.cells);
        let mut buffer = Vec::new();
        let state = play_watched(engine, seed, &run.bots, |player, state, legal, action| {
            if turns.1 != Some(player) {
                turns = (turns.0 + 1, Some(player));
            }
            count_attack(engine, cells, player, state, action);
            for (shadow, follower) in shadows.iter().zip(followers.iter_mut()) {
                let keeps_up = follower.as_mut().is_some_and(|f| {
                    same(f, state) && {
                        shadow.engine.legal_actions(f, &mut buffer);
                        buffer == legal.list() && shadow.engine.apply(f, action).is_ok()
                    }
                });
                if !keeps_up {
                    *follower = None;
                }
            }
        })
        .map_err(|e| failed(e.0))?;
        for (shadow, follower) in shadows.iter().zip(&followers) {
            if !follower.as_ref().is_some_and(|f| same(f, &state)) {
                self.changed[shadow.option] += 1;
            }
        }
        self.games += 1;
        Ok(result_of(index, state, turns.0))
    }

    /// The thread's coverage, once its games are played.
    pub fn finish(self) -> Result<Coverage, String> {
        let counts = self.engine.script_counts().unwrap_or_default();
        let mut coverage = Coverage::new(&self.engine.game, &counts);
        coverage.games = self.games;
        for (table, cells) in coverage
            .combat
            .iter_mut()
            .zip(self.cells.iter().filter(|c| !c.is_empty()))
        {
            for (cell, reads) in table.cells.iter_mut().zip(cells.iter().flatten()) {
                cell.reads = *reads;
            }
        }
        for (o, changed) in coverage.options.iter_mut().zip(&self.changed) {
            o.games_changed = *changed;
        }
        self.engine
            .check_scripts()
            .map_err(|e| format!("after the last game: {e}"))?;
        Ok(coverage)
    }
}

/// Counts the combat-table cell an attack is about to read.
fn count_attack(
    engine: &Engine,
    cells: &mut [Vec<Vec<u64>>],
    player: PlayerId,
    state: &GameState,
    action: Action,
) {
    let (Some(frame), Action::Move { piece, to }) = (state.stack.last(), action) else {
        return;
    };
    let table = &mut cells[frame.phase as usize];
    if table.is_empty()
        || !matches!(
            engine.game.phases[frame.phase as usize].kind,
            PhaseKind::Movement(_)
        )
    {
        return;
    }
    if let Some(defender) = movement::defender(state, player, to) {
        let (a, d) = (
            state.piece(piece).kind.0 as usize,
            state.piece(defender).kind.0 as usize,
        );
        table[a][d] += 1;
    }
}

/// Whether a game without an option is still the game with it: the same
/// position, the same point in the random stream, the same pending
/// choices and result.
fn same(a: &GameState, b: &GameState) -> bool {
    a.position_hash() == b.position_hash()
        && a.rng.word_pos() == b.rng.word_pos()
        && a.result == b.result
        && a.stack.last().map(|f| &f.choices) == b.stack.last().map(|f| &f.choices)
}
