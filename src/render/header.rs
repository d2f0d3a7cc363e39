//! The lines above the board: the game, the scenario, the ply, whose turn
//! it is or how the game ended, whose eyes the drawing shows, and the
//! rules' own notes (`rules.map_notes(player)`: the turn, victory points).

use crate::kernel::state::GameState;
use crate::kernel::view::{View, Viewer};
use crate::load::Loaded;
use crate::repl::narrate::result;

/// The most lines of notes a drawing shows, and the most characters of
/// each: the notes come from a package's script.
const MOST_NOTES: usize = 20;
const NOTE_CHARS: usize = 160;

/// The header: its title, its other lines, and a problem the rules' notes
/// hook had (the drawing is made without its notes then).
pub struct Header {
    pub title: String,
    pub lines: Vec<String>,
    pub notes: Vec<String>,
    pub problem: Option<String>,
}

pub fn header(loaded: &Loaded, state: &GameState, view: &View, viewer: Viewer) -> Header {
    let engine = &loaded.engine;
    let g = &engine.game;
    let mut lines = Vec::new();
    if let Some(s) = &loaded.scenario {
        lines.push(format!("Scenario: {}", s.title));
    }
    let turn = match (&view.result, view.to_move) {
        (Some(outcome), _) => format!("game over: {}", result(g, outcome)),
        (None, Some(p)) => format!("{} to move", g.players[usize::from(p.0)].name),
        (None, None) => "nobody to move".to_string(),
    };
    lines.push(format!("Ply {}, {turn}", view.ply));
    let (seen_by, player) = match viewer {
        Viewer::Player(p) => (
            format!("as {} sees it", g.players[usize::from(p.0)].name),
            g.player_id(p).to_string(),
        ),
        Viewer::Public => (
            "as every player sees it (hidden faces are ?)".to_string(),
            String::new(),
        ),
        Viewer::All => ("every face shown (god view)".to_string(), String::new()),
    };
    lines.push(seen_by);
    let (notes, problem) = match engine.map_notes(state, &player) {
        None => (Vec::new(), None),
        Some(Ok(notes)) => (cut_notes(notes), None),
        Some(Err(e)) => (Vec::new(), Some(e.to_string())),
    };
    Header {
        title: g.title.clone(),
        lines,
        notes,
        problem,
    }
}

/// At most [`MOST_NOTES`] lines of at most [`NOTE_CHARS`] characters.
fn cut_notes(notes: Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = notes
        .iter()
        .take(MOST_NOTES)
        .map(|n| match n.char_indices().nth(NOTE_CHARS) {
            Some((at, _)) => format!("{}...", &n[..at]),
            None => n.clone(),
        })
        .collect();
    if notes.len() > MOST_NOTES {
        kept.push(format!("(and {} more notes)", notes.len() - MOST_NOTES));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_notes_are_cut_and_counted() {
        let many: Vec<String> = (0..25).map(|i| "x".repeat(i * 10)).collect();
        let kept = cut_notes(many);
        assert_eq!(kept.len(), MOST_NOTES + 1);
        assert_eq!(kept[19].chars().count(), NOTE_CHARS + 3);
        assert_eq!(kept[20], "(and 5 more notes)");
    }
}
