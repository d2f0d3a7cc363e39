//! What the screen shows: the position for one viewer (the board, the
//! rules' status block, whose decision it is) and the events in words.
//! Whose eyes it shows is the gate's to say (see `gate`).

use crate::kernel::game::PhaseKind;
use crate::kernel::piece::{Location, RESERVE};
use crate::kernel::view::{View, Viewer};
use crate::repl::session::Session;
use crate::repl::{narrate, render};

impl Session {
    /// Narrates events not yet shown, for the screen's viewer.
    pub(crate) fn narrate_new(&mut self) -> String {
        let start = self.shown.min(self.state().events.len());
        self.narrated_from.get_or_insert(start);
        self.shown = self.state().events.len();
        self.narrate_range(start)
    }

    /// Narrates the events from `start` on, for the screen's viewer.
    pub(crate) fn narrate_range(&self, start: usize) -> String {
        let view = self.view();
        let engine = &self.loaded.engine;
        let events: Vec<_> = self.state().events[start..]
            .iter()
            .filter(|e| view.events.contains(e))
            .cloned()
            .collect();
        narrate::narrate_all(engine, &view, &events)
            .iter()
            .map(|l| format!("  {l}\n"))
            .collect()
    }

    /// Marks the whole log as shown (after undo, load, new game).
    pub(crate) fn reset_narration(&mut self) {
        self.shown = self.state().events.len();
    }

    /// The board and whose decision it is.
    pub(crate) fn status(&self) -> String {
        let view = self.view();
        let engine = &self.loaded.engine;
        let mut out = String::new();
        let shown = self.shown_viewer();
        match shown {
            Viewer::All if self.peeking_now() || self.forced_view.is_some() => {
                out += "== GOD VIEW: every hidden face is shown ('view auto' to go back) ==\n"
            }
            Viewer::Player(p) if self.peeking_now() => {
                out += &format!(
                    "== PEEK: {}'s view, hidden from your seat ('view auto' to go back) ==\n",
                    engine.game.players[p.0 as usize].name
                )
            }
            _ => {}
        }
        out += &render::board(engine, &view, self.colour);
        let viewer_id = match shown {
            Viewer::Player(p) => engine.game.player_id(p).to_string(),
            Viewer::All | Viewer::Public => String::new(),
        };
        match engine.status_text(self.state(), &viewer_id) {
            Some(Ok(text)) => out += &text,
            Some(Err(e)) => {
                out += &format!("(rules.status failed: {e})\n");
                self.mark_failed();
            }
            None => {}
        }
        if let Some(o) = &self.state().result {
            out += &format!(
                "game over: {} ({}). 'new' starts another game, 'undo' steps back.\n",
                narrate::result(&engine.game, o),
                o.reason
            );
            if self.hot_seat() {
                out += &format!("seed: {} (hidden until now)\n", self.seed);
            }
            return out;
        }
        if let Some(p) = engine.to_move(self.state()) {
            let mut legal = Vec::new();
            engine.legal_actions(self.state(), &mut legal);
            out += &format!(
                "{} to {}: {} legal action{} ('moves' lists them)\n",
                engine.game.players[p.0 as usize].name,
                self.decision_word(),
                legal.len(),
                if legal.len() == 1 { "" } else { "s" }
            );
        }
        out
    }

    /// What the player to move is asked, in words: the phase by the name
    /// game.yaml gives it.
    pub(crate) fn decision_word(&self) -> String {
        let engine = &self.loaded.engine;
        let Some(f) = self.state().stack.last() else {
            return "wait".to_string();
        };
        let phase = &engine.game.phases[f.phase as usize];
        match &phase.kind {
            PhaseKind::Placement(_) => {
                let left = self
                    .state()
                    .pieces()
                    .iter()
                    .filter(|p| p.is_owned_by(f.player) && p.loc == Location::Pool(RESERVE))
                    .count();
                format!("set up a piece ({left} left in reserve)")
            }
            PhaseKind::Movement(_) => format!("move ({})", phase.label),
            PhaseKind::Script => format!("decide ({})", phase.label),
        }
    }

    /// The view the screen shows.
    pub(crate) fn view(&self) -> View {
        View::new(&self.loaded.engine.game, self.state(), self.shown_viewer())
    }
}
