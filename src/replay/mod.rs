//! Replaying a game from its seed, its actions in notation and its fresh
//! random streams: what save files, hot reload, forks and `portolan
//! replay` (see [`saves`]) are built on. A replay under other rules
//! stops at the first action that no longer parses as legal, fails in a
//! script, or (when the old position hashes are given) leads elsewhere.
//! Where the stop is told to one seat, another seat's secret action is
//! named only as "a hidden action" (see [`secrecy`]).

pub mod saves;
pub mod secrecy;

use crate::kernel::engine::Engine;
use crate::kernel::state::{GameState, Reseed};
use crate::kernel::view::Viewer;
use crate::repl::line::Line;
use secrecy::{readers, sees};

/// One action of a game as notation, with the position hash it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub notation: String,
    pub hash: u64,
}

/// Why a replay stopped early. Each stop at an action says who may read
/// it (`readers`: bit `i` for player `i`, see [`secrecy::readers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The start position differs (other pieces, another first player).
    Start,
    /// Action `index` (from 0) does not parse as a legal action; only its
    /// mover may read it, since what it was cannot be told.
    Illegal {
        index: usize,
        why: String,
        readers: u8,
    },
    /// Action `index` is legal but leads to another position.
    Elsewhere { index: usize, readers: u8 },
    /// A rule script failed while applying action `index`.
    Failed {
        index: usize,
        why: String,
        readers: u8,
    },
}

impl Stop {
    /// How many actions replayed before the stop.
    pub fn replayed(&self) -> usize {
        match self {
            Stop::Start => 0,
            Stop::Illegal { index, .. }
            | Stop::Elsewhere { index, .. }
            | Stop::Failed { index, .. } => *index,
        }
    }

    /// The stop in words for `viewer`; actions are numbered from 1 for
    /// people. An action the viewer may not read is "a hidden action",
    /// told without its reason (which would name it).
    pub fn describe(&self, steps: &[Step], viewer: Viewer) -> String {
        let (index, readers, what, why) = match self {
            Stop::Start => return "the start position is no longer the same".into(),
            Stop::Illegal {
                index,
                why,
                readers,
            } => (*index, *readers, "is now illegal", Some(why)),
            Stop::Elsewhere { index, readers } => (
                *index,
                *readers,
                "now leads to another position (the game diverges there)",
                None,
            ),
            Stop::Failed {
                index,
                why,
                readers,
            } => (*index, *readers, "fails", Some(why)),
        };
        let open = sees(viewer, readers);
        let named = if open {
            let notation = steps.get(index).map_or("?", |s| s.notation.as_str());
            format!("action {} ('{notation}')", index + 1)
        } else {
            format!("action {} (a hidden action)", index + 1)
        };
        match why.filter(|_| open) {
            Some(why) => format!("{named} {what}: {why}"),
            None => format!("{named} {what}"),
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
/// replaying its log (and its fresh streams) from the seed under the
/// engine that played it.
pub fn transcript(engine: &Engine, seed: u64, state: &GameState) -> Result<Vec<Step>, String> {
    let mut s = engine.new_game(seed).map_err(|e| e.to_string())?;
    let mut steps = Vec::with_capacity(state.log.len());
    for &action in &state.log {
        s.reseed_as_recorded(&state.reseeds);
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

/// Replays actions in notation from a seed, each fresh random stream of
/// `reseeds` put in place before its action. With `start` and `check`, a
/// different start hash or a different hash after an action stops it.
pub fn replay(
    engine: &Engine,
    seed: u64,
    notations: &[String],
    reseeds: &[Reseed],
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
                let readers = secrecy::mover(engine, line.state());
                let stop = Stop::Illegal {
                    index,
                    why,
                    readers,
                };
                return Ok(Replayed {
                    line,
                    stop: Some(stop),
                });
            }
        };
        let readers = readers(engine, line.state(), action);
        let fresh = reseeds.iter().find(|r| r.at == index).map(|r| r.seed);
        if let Err(e) = line.step(engine, action, fresh) {
            let stop = Stop::Failed {
                index,
                why: e.to_string(),
                readers,
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
                stop: Some(Stop::Elsewhere { index, readers }),
            });
        }
    }
    Ok(Replayed { line, stop: None })
}

/// The notations of a transcript.
pub fn notations(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.notation.clone()).collect()
}
