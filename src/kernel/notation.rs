//! Actions in plain notation: `b2 b3` (move), `place b2` (set up),
//! `strike d5` (special action), a scripted choice's own words, `pass`.
//! Reading notation only ever matches against the legal actions, so a
//! parsed action is always legal.

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::game::PhaseKind;
use crate::kernel::state::GameState;

impl Engine {
    /// An action in notation, in the state it is legal in.
    pub fn notation(&self, state: &GameState, action: Action) -> String {
        let board = &self.game.board;
        match action {
            Action::Move { piece, to } => format!(
                "{} {}",
                self.location_name(state.piece(piece).loc),
                board.name(to)
            ),
            Action::Place { piece, to } => format!(
                "place {} {}",
                self.game.kind(state.piece(piece).kind).name,
                board.name(to)
            ),
            Action::Special { index, target } => {
                let name = state.stack.last().and_then(|f| {
                    match &self.game.phases[f.phase as usize].kind {
                        PhaseKind::Movement(m) => {
                            m.specials.get(index as usize).map(|s| s.name.as_str())
                        }
                        _ => None,
                    }
                });
                format!("{} {}", name.unwrap_or("special"), board.name(target))
            }
            Action::Choice(i) => state
                .stack
                .last()
                .and_then(|f| f.choices.get(i as usize))
                .cloned()
                .unwrap_or_else(|| format!("choice {i}")),
            Action::Pass => "pass".to_string(),
        }
    }

    /// Reads notation typed by a person (any case, extra spaces, `b2-b3`);
    /// a placement may leave out the word `place` (`cruiser b2`).
    pub fn parse_action(&self, state: &GameState, text: &str) -> Result<Action, String> {
        let wanted = normalise(text);
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        let found = legal.iter().find(|&&a| {
            let n = normalise(&self.notation(state, a));
            n == wanted
                || matches!(a, Action::Place { .. }) && n.strip_prefix("place ") == Some(&wanted)
        });
        found.copied().ok_or_else(|| {
            let close: Vec<String> = legal
                .iter()
                .map(|&a| self.notation(state, a))
                .filter(|n| {
                    wanted
                        .split(' ')
                        .next()
                        .is_some_and(|w| normalise(n).contains(w))
                })
                .take(6)
                .collect();
            let hint = if close.is_empty() {
                "type 'moves' to list the legal actions".to_string()
            } else {
                format!("legal actions like it: {}", close.join(", "))
            };
            format!("'{text}' is not a legal action now; {hint}")
        })
    }
}

/// Notation as compared: lower case, `-` and `,` as spaces, single spaces.
pub fn normalise(text: &str) -> String {
    text.to_ascii_lowercase()
        .replace(['-', ','], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
