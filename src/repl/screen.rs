//! What the screen shows: the position for one viewer (the board, the
//! rules' status block, whose decision it is), the events in words, and
//! whose eyes the screen should follow (hot-seat, `view`).

use crate::kernel::game::PhaseKind;
use crate::kernel::piece::PlayerId;
use crate::kernel::piece::{Location, RESERVE};
use crate::kernel::view::{View, Viewer};
use crate::repl::session::{Seat, Session};
use crate::repl::{narrate, render};

impl Session {
    /// Narrates events not yet shown, for the screen's viewer.
    pub(crate) fn narrate_new(&mut self) -> String {
        let start = self.shown.min(self.state().events.len());
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
        let humans = self.seats.contains(&Seat::Human);
        let shown = self.shown_viewer();
        if shown == Viewer::All && (humans || self.forced_view.is_some()) {
            out += "== GOD VIEW: every hidden face is shown ('view auto' to go back) ==\n";
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
    fn decision_word(&self) -> String {
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

    /// Whose eyes the screen shows: a viewer chosen with `view`, else the
    /// one it follows.
    pub(crate) fn shown_viewer(&self) -> Viewer {
        self.forced_view.unwrap_or(self.screen)
    }

    /// Whose eyes the screen should follow: the human to move, else the
    /// screen's viewer as it is (game over, bots' turn).
    pub(crate) fn wanted_viewer(&self) -> Viewer {
        let humans: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.seats[i] == Seat::Human)
            .collect();
        match (self.loaded.engine.to_move(self.state()), humans.as_slice()) {
            (_, []) => Viewer::All,
            (Some(p), _) if self.seats[p.0 as usize] == Seat::Human => Viewer::Player(p),
            (_, [only]) => Viewer::Player(PlayerId(*only as u8)),
            _ if self.screen != Viewer::All => self.screen,
            (_, [first, ..]) => Viewer::Player(PlayerId(*first as u8)),
        }
    }
}
