//! Replaying a game from its seed and its actions in notation: what save
//! files, hot reload and forks are built on. A replay under other rules
//! stops at the first action that no longer parses as legal, fails in a
//! script, or (when the old position hashes are given) leads elsewhere.

use crate::kernel::engine::Engine;
use crate::kernel::state::GameState;
use crate::repl::line::Line;

/// One action of a game as notation, with the position hash it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub notation: String,
    pub hash: u64,
}

/// Why a replay stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The start position differs (other pieces, another first player).
    Start,
    /// Action `index` (from 0) does not parse as a legal action.
    Illegal { index: usize, why: String },
    /// Action `index` is legal but leads to another position.
    Elsewhere { index: usize },
    /// A rule script failed while applying action `index`.
    Failed { index: usize, why: String },
}

impl Stop {
    /// How many actions replayed before the stop.
    pub fn replayed(&self) -> usize {
        match self {
            Stop::Start => 0,
            Stop::Illegal { index, .. }
            | Stop::Elsewhere { index }
            | Stop::Failed { index, .. } => *index,
        }
    }

    /// The stop in words; actions are numbered from 1 for people.
    pub fn describe(&self, steps: &[Step]) -> String {
        let named = |i: usize| {
            format!(
                "action {} ('{}')",
                i + 1,
                steps.get(i).map_or("?", |s| s.notation.as_str())
            )
        };
        match self {
            Stop::Start => "the start position is no longer the same".into(),
            Stop::Illegal { index, why } => format!("{} is now illegal: {why}", named(*index)),
            Stop::Elsewhere { index } => {
                format!(
                    "{} now leads to another position (the game diverges there)",
                    named(*index)
                )
            }
            Stop::Failed { index, why } => format!("{} fails: {why}", named(*index)),
        }
    }
}

/// The result of a replay: the line as far as it went (with every action
/// as one undo step of its own, so a loaded game steps back action by
/// action), and the stop if it did not reach the end.
pub struct Replayed {
    pub line: Line,
    pub stop: Option<Stop>,
}

impl Replayed {
    pub fn last(&self) -> &GameState {
        self.line.state()
    }

    /// How many actions replayed.
    pub fn replayed(&self) -> usize {
        self.line.position()
    }
}

/// The actions of a game in notation with the hashes they led to, by
/// replaying its log from the seed under the engine that played it.
pub fn transcript(engine: &Engine, seed: u64, state: &GameState) -> Result<Vec<Step>, String> {
    let mut s = engine.new_game(seed).map_err(|e| e.to_string())?;
    let mut steps = Vec::with_capacity(state.log.len());
    for &action in &state.log {
        let notation = engine.notation(&s, action);
        engine
            .apply(&mut s, action)
            .map_err(|e| format!("the game no longer replays under its own rules: {e}"))?;
        steps.push(Step {
            notation,
            hash: s.position_hash(),
        });
    }
    Ok(steps)
}

/// Replays actions in notation from a seed. With `start` and `check`, a
/// different start hash or a different hash after an action stops it.
pub fn replay(
    engine: &Engine,
    seed: u64,
    notations: &[String],
    start: Option<u64>,
    check: Option<&[Step]>,
) -> Result<Replayed, String> {
    let first = engine.new_game(seed).map_err(|e| e.to_string())?;
    let mut line = Line::new(first);
    if start.is_some_and(|h| h != line.state().position_hash()) {
        return Ok(Replayed {
            line,
            stop: Some(Stop::Start),
        });
    }
    for (index, text) in notations.iter().enumerate() {
        let action = match engine.parse_action(line.state(), text) {
            Ok(a) => a,
            Err(why) => {
                let stop = Stop::Illegal { index, why };
                return Ok(Replayed {
                    line,
                    stop: Some(stop),
                });
            }
        };
        if let Err(e) = line.step(engine, action) {
            let stop = Stop::Failed {
                index,
                why: e.to_string(),
            };
            return Ok(Replayed {
                line,
                stop: Some(stop),
            });
        }
        if check.is_some_and(|c| {
            c.get(index)
                .is_some_and(|st| st.hash != line.state().position_hash())
        }) {
            line.cut(engine, index).map_err(|e| e.to_string())?;
            return Ok(Replayed {
                line,
                stop: Some(Stop::Elsewhere { index }),
            });
        }
    }
    Ok(Replayed { line, stop: None })
}

/// The notations of a transcript.
pub fn notations(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.notation.clone()).collect()
}
