//! The one gate for the screen (DESIGN principle 6): whose eyes the
//! screen follows, and every change of them.
//!
//! The screen has a holder: the human whose eyes it follows (in hot-seat
//! play, the one at the terminal), or everyone when no seat is human.
//! Commands never move the screen themselves. They change the game, the
//! seats or the line of play, and draw what they show through
//! [`Session::shown_viewer`], which only ever gives the holder's own eyes,
//! a peek the holder said yes to, or, when the holder's seat is no longer
//! a human's, what every player sees. After each command [`Session::
//! follow_the_turn`] moves the screen to whoever should hold it now (the
//! human to move; a save's viewer only as a preference), and a move from
//! one player's eyes to another's is always a handover: the terminal is
//! passed, and the new holder's screen comes after it.
//!
//! A peek (another player's view, the god view, `lua`) on a screen a human
//! holds in a game of several players asks first (see `confirm`): in
//! hot-seat play the yes holds until the terminal passes; against bots it
//! is asked once a game, and the screen marks every peek.

use crate::kernel::piece::PlayerId;
use crate::kernel::view::Viewer;
use crate::repl::session::{Reply, Seat, Session};

impl Session {
    /// Two or more human seats share the terminal.
    pub(crate) fn hot_seat(&self) -> bool {
        self.humans().len() >= 2
    }

    /// The human seats, by player.
    pub(crate) fn humans(&self) -> Vec<PlayerId> {
        (0..self.seats.len())
            .filter(|&i| self.seats[i] == Seat::Human)
            .map(|i| PlayerId(i as u8))
            .collect()
    }

    /// The holder's own eyes: the holder's, while their seat is a
    /// human's or the last human seat went to a bot (the person at the
    /// terminal watches on with the eyes they had: a god view now would
    /// show them what they may use if they take a seat back); everyone's in
    /// a game of bots from the start; else what every player sees (a seat
    /// just given to a bot in hot-seat play, a game just loaded, until the
    /// gate hands the screen on).
    pub(crate) fn own_eyes(&self) -> Viewer {
        let humans = self.humans();
        match self.screen {
            Viewer::Player(p) if humans.contains(&p) || humans.is_empty() => self.screen,
            _ if humans.is_empty() => Viewer::All,
            _ => Viewer::Public,
        }
    }

    /// Whether a view other than the holder's own is a peek that needs a
    /// yes: a player holds the screen in a game of several players.
    pub(crate) fn peek_needs_yes(&self) -> bool {
        self.seats.len() > 1 && matches!(self.own_eyes(), Viewer::Player(_))
    }

    /// Whether a yes to peek holds now: in hot-seat play until the
    /// terminal passes, against bots for the rest of the game.
    pub(crate) fn peek_granted(&self) -> bool {
        if self.hot_seat() {
            self.peeking
        } else {
            self.peeked
        }
    }

    /// Whose eyes the screen shows: a view chosen with `view` while it is
    /// allowed, else the holder's own.
    pub(crate) fn shown_viewer(&self) -> Viewer {
        let own = self.own_eyes();
        match self.forced_view {
            Some(v) if v == own || !self.peek_needs_yes() || self.peek_granted() => v,
            _ => own,
        }
    }

    /// Whether the screen now shows the holder what their seat may not see
    /// (marked on every screen that does).
    pub(crate) fn peeking_now(&self) -> bool {
        self.peek_needs_yes() && self.shown_viewer() != self.own_eyes()
    }

    /// Whose eyes the screen should follow: the human to move; else the
    /// only human; else the holder, while a human; else the viewer a save
    /// was made through, if a human; else the first human. When no seat is
    /// human: the holder's, if a player held the screen; else everyone's.
    fn wanted_viewer(&self) -> Viewer {
        let humans = self.humans();
        let human = |v: Viewer| matches!(v, Viewer::Player(p) if humans.contains(&p));
        let to_move = self.loaded.engine.to_move(self.state()).map(Viewer::Player);
        let preferred = self.preferred.map(Viewer::Player);
        match (to_move, humans.as_slice(), preferred) {
            (_, [], _) if matches!(self.screen, Viewer::Player(_)) => self.screen,
            (_, [], _) => Viewer::All,
            (Some(v), _, _) if human(v) => v,
            (_, [only], _) => Viewer::Player(*only),
            _ if human(self.screen) => self.screen,
            (_, _, Some(v)) if human(v) => v,
            (_, [first, ..], _) => Viewer::Player(*first),
        }
    }

    /// Moves the screen to whoever should hold it now (see the module
    /// doc). A view no longer allowed ends here; a move from one player's
    /// eyes to another's is a handover: the reply's `pass` carries what
    /// happened since the command began and the position, for the new
    /// holder's eyes.
    pub(crate) fn follow_the_turn(&mut self, reply: &mut Reply) {
        if self.forced_view.is_some_and(|v| v != self.shown_viewer()) {
            self.forced_view = None;
        }
        let wanted = self.wanted_viewer();
        self.preferred = None;
        if wanted == self.screen {
            return;
        }
        let from = std::mem::replace(&mut self.screen, wanted);
        self.peeking = false;
        let (Viewer::Player(a), Viewer::Player(b)) = (from, wanted) else {
            return;
        };
        if a == b {
            return;
        }
        self.forced_view = None;
        let start = self.narrated_from.unwrap_or(self.shown);
        let mut text = self.narrate_range(start.min(self.state().events.len()));
        self.shown = self.state().events.len();
        text += &self.status();
        let name = self.loaded.engine.game.players[b.0 as usize]
            .name
            .to_uppercase();
        reply.pass = Some((name, text));
    }

    /// Whether the seed may show: not on a screen two players share while
    /// their game goes on, since the hidden set-up and every die to come
    /// follow from it.
    pub(crate) fn seed_shown(&self) -> bool {
        !self.hot_seat() || self.state().result.is_some()
    }

    /// The seed in words, or why it is not shown.
    pub(crate) fn seed_text(&self) -> String {
        if self.seed_shown() {
            self.seed.to_string()
        } else {
            "hidden until the game ends".into()
        }
    }
}
