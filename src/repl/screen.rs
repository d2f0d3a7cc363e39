//! What the screen shows: the position for one viewer (the board, the
//! rules' status block, whose decision it is) and the events in words.
//! Whose eyes it shows is the gate's to say (see `gate`).

use crate::kernel::game::PhaseKind;
use crate::kernel::piece::{Location, RESERVE};
use crate::kernel::view::{View, Viewer};
use crate::repl::session::Session;
use crate::repl::{narrate, render, summary};

impl Session {
    /// Narrates events not yet shown, for the screen's viewer.
    /// On a screen whose board is summed up, only the last lines show
    /// (`log` has them all), so the screen still fits a terminal.
    pub(crate) fn narrate_new(&mut self) -> String {
        let start = self.shown.min(self.state().events.len());
        self.narrated_from.get_or_insert(start);
        self.shown = self.state().events.len();
        let narration = self.narrate_range(start);
        if self.board_too_long() {
            summary::last_lines(&narration)
        } else {
            narration
        }
    }

    /// Whether the board, drawn whole, is too long for a screen.
    fn board_too_long(&self) -> bool {
        summary::too_long(&render::board(&self.loaded.engine, &self.view(), false))
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

    /// The board (summed up when it is too long for a screen) and whose
    /// decision it is.
    pub(crate) fn status(&self) -> String {
        self.screen(false)
    }

    /// `board full`: the screen with the whole board, however long.
    pub(crate) fn full_screen(&self) -> String {
        self.screen(true)
    }

    fn screen(&self, full: bool) -> String {
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
        let board = render::board(engine, &view, self.colour);
        let before = self
            .last_screen
            .replace(Some(view.pieces.iter().map(|p| p.loc).collect()));
        if full || !summary::too_long(&board) {
            out += &board;
        } else {
            out += &summary::summary(engine, &view, before.as_deref(), self.colour);
        }
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
