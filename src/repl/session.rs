//! A REPL session: one game at a time, its seats, its undo history. It
//! takes command lines and returns what to print, so the terminal loop,
//! `--commands FILE` and the tests all drive the same code.

use crate::bots::{self, Bot, Sight};
use crate::data::catalog::Catalog;
use crate::kernel::action::Action;
use crate::kernel::piece::PlayerId;
use crate::kernel::state::GameState;
use crate::kernel::view::{View, Viewer};
use crate::load::{Loaded, Request, load};
use crate::repl::{commands, narrate, render};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Bot(String),
}

/// What the caller should do after a command.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
}

pub struct Session {
    pub(crate) catalog: Catalog,
    pub(crate) request: Request,
    pub(crate) loaded: Loaded,
    pub(crate) state: GameState,
    pub(crate) seats: Vec<Seat>,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// States before each human action, for undo; redo holds undone ones.
    pub(crate) undo: Vec<GameState>,
    pub(crate) redo: Vec<GameState>,
    /// A viewer forced by the `view` command; otherwise the human to move.
    pub(crate) forced_view: Option<Viewer>,
    pub(crate) seed: u64,
    /// How many events have been narrated already.
    shown: usize,
    pub colour: bool,
}

impl Session {
    /// Loads the target and starts a game. Seats default to a human for
    /// the first player and a random bot for the others.
    pub fn start(
        catalog: Catalog,
        request: Request,
        seed: Option<u64>,
        seats: &[(String, Seat)],
    ) -> Result<Session, String> {
        let loaded = load(&catalog, &request).map_err(|e| e.to_string())?;
        let seed = seed.or(loaded.scenario_seed()).unwrap_or_else(fresh_seed);
        let state = loaded.engine.new_game(seed).map_err(|e| e.to_string())?;
        let game = &loaded.engine.game;
        let mut seat_list: Vec<Seat> = (0..game.players.len())
            .map(|i| {
                if i == 0 {
                    Seat::Human
                } else {
                    Seat::Bot("random".into())
                }
            })
            .collect();
        for (player, seat) in seats {
            let p = game.player_index(player).ok_or_else(|| {
                format!(
                    "--seat: no player '{player}' (players: {})",
                    player_ids(&loaded)
                )
            })?;
            seat_list[p.0 as usize] = seat.clone();
        }
        let mut session = Session {
            catalog,
            request,
            loaded,
            state,
            seats: Vec::new(),
            bots: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            forced_view: None,
            seed,
            shown: 0,
            colour: false,
        };
        session.set_seats(seat_list)?;
        Ok(session)
    }

    pub(crate) fn set_seats(&mut self, seats: Vec<Seat>) -> Result<(), String> {
        self.bots = seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Human => Ok(None),
                Seat::Bot(name) => bots::make(name, bots::seat_seed(self.seed, PlayerId(i as u8)))
                    .map(Some)
                    .ok_or_else(|| {
                        format!(
                            "no bot named '{name}' (bots: {})",
                            bots::BOT_NAMES.join(", ")
                        )
                    }),
            })
            .collect::<Result<_, _>>()?;
        self.seats = seats;
        Ok(())
    }

    /// The opening screen: title, seats, and the first position.
    pub fn welcome(&mut self) -> String {
        let g = &self.loaded.engine.game;
        let mut out = format!("{} ({})\n", g.title, g.id);
        if let Some(s) = &self.loaded.scenario {
            out += &format!("scenario: {} ({})\n", s.title, s.id);
        }
        let on: Vec<&str> = g
            .options
            .iter()
            .filter(|o| o.enabled)
            .map(|o| o.id.as_str())
            .collect();
        out += &format!(
            "optional rules: {}\n",
            if on.is_empty() {
                "none".to_string()
            } else {
                on.join(", ")
            }
        );
        out += &format!("seed: {}\n", self.seed);
        out += &format!("seats: {}\n", self.seat_summary());
        out += "type 'help' for commands\n\n";
        out += &self.after_change();
        out
    }

    pub fn prompt(&self) -> String {
        match self.loaded.engine.to_move(&self.state) {
            Some(p) => format!("{}> ", self.loaded.engine.game.player_id(p)),
            None => "game over> ".to_string(),
        }
    }

    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Reply {
        commands::execute(self, line.trim())
    }

    /// Applies a human's action, keeping the state before it for undo.
    pub(crate) fn act(&mut self, action: Action) -> Result<String, String> {
        let next = self
            .loaded
            .engine
            .try_apply(&self.state, action)
            .map_err(|e| e.to_string())?;
        self.undo.push(std::mem::replace(&mut self.state, next));
        self.redo.clear();
        Ok(self.after_change())
    }

    /// After the game changed: let the bots play until a human decides,
    /// then narrate what happened and show the position.
    pub(crate) fn after_change(&mut self) -> String {
        let mut error = None;
        let mut legal = Vec::new();
        while let Some(p) = self.loaded.engine.to_move(&self.state) {
            let Some(bot) = self.bots[p.0 as usize].as_mut() else {
                break;
            };
            self.loaded.engine.legal_actions(&self.state, &mut legal);
            let pick = bot.choose(&Sight::new(&self.loaded.engine, &self.state, p), &legal);
            match self.loaded.engine.try_apply(&self.state, legal[pick]) {
                Ok(next) => self.state = next,
                Err(e) => {
                    error = Some(format!("a rule script failed during the bot's move: {e}"));
                    break;
                }
            }
        }
        let mut out = self.narrate_new();
        if let Some(e) = error {
            out += &format!("error: {e}\n");
        }
        out += &self.status();
        out
    }

    /// Narrates events not yet shown, for the current viewer.
    fn narrate_new(&mut self) -> String {
        let view = self.view();
        let start = self.shown.min(self.state.events.len());
        self.shown = self.state.events.len();
        let engine = &self.loaded.engine;
        // The view filters private lines; index through the unfiltered log.
        let fresh = &self.state.events[start..];
        fresh
            .iter()
            .filter(|e| view.events.contains(e))
            .filter_map(|e| narrate::narrate(engine, &view, e))
            .map(|l| format!("  {l}\n"))
            .collect()
    }

    /// Marks the whole log as shown (after undo, load, new game).
    pub(crate) fn reset_narration(&mut self) {
        self.shown = self.state.events.len();
    }

    /// The board and whose decision it is.
    pub(crate) fn status(&self) -> String {
        let view = self.view();
        let engine = &self.loaded.engine;
        let mut out = render::board(engine, &view, self.colour);
        let viewer_id = match self.viewer() {
            Viewer::Player(p) => engine.game.player_id(p).to_string(),
            Viewer::All => String::new(),
        };
        match engine.status_text(&self.state, &viewer_id) {
            Some(Ok(text)) => out += &text,
            Some(Err(e)) => out += &format!("(rules.status failed: {e})\n"),
            None => {}
        }
        if let Some(o) = &self.state.result {
            let who = o.winner.map_or("no winner".to_string(), |w| {
                format!("{} wins", engine.game.players[w.0 as usize].name)
            });
            out += &format!(
                "game over: {who} ({}). 'new' starts another game, 'undo' steps back.\n",
                o.reason
            );
            return out;
        }
        if let Some(p) = engine.to_move(&self.state) {
            let mut legal = Vec::new();
            engine.legal_actions(&self.state, &mut legal);
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

    fn decision_word(&self) -> String {
        let engine = &self.loaded.engine;
        match self.state.stack.last() {
            Some(f) => {
                let phase = &engine.game.phases[f.phase as usize];
                match &phase.kind {
                    crate::kernel::game::PhaseKind::Placement(_) => {
                        match crate::kernel::placement::next_piece(&self.state, f.player) {
                            Some(p) => format!(
                                "set up their {}",
                                engine.game.kind(self.state.piece(p).kind).name
                            ),
                            None => "set up".to_string(),
                        }
                    }
                    _ => format!("decide ({})", phase.name),
                }
            }
            None => "wait".to_string(),
        }
    }

    /// The view for the current viewer.
    pub(crate) fn view(&self) -> View {
        View::new(&self.loaded.engine.game, &self.state, self.viewer())
    }

    pub(crate) fn viewer(&self) -> Viewer {
        if let Some(v) = self.forced_view {
            return v;
        }
        let humans: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.seats[i] == Seat::Human)
            .collect();
        match (self.loaded.engine.to_move(&self.state), humans.as_slice()) {
            (_, []) => Viewer::All,
            (Some(p), _) if self.seats[p.0 as usize] == Seat::Human => Viewer::Player(p),
            (_, [first, ..]) => Viewer::Player(PlayerId(*first as u8)),
        }
    }

    pub(crate) fn seat_summary(&self) -> String {
        let g = &self.loaded.engine.game;
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Human => format!("{} human", g.players[i].id),
                Seat::Bot(b) => format!("{} {b}", g.players[i].id),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Replaces the game (new game, reload): the undo history goes with it.
    pub(crate) fn replace(&mut self, loaded: Loaded, state: GameState) {
        self.loaded = loaded;
        self.state = state;
        self.undo.clear();
        self.redo.clear();
        self.shown = 0;
    }
}

fn player_ids(loaded: &Loaded) -> String {
    loaded
        .engine
        .game
        .players
        .iter()
        .map(|p| p.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A seed for games the user did not seed: the clock, printed so the game
/// can be replayed.
fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    crate::kernel::hash::mix(now as u64) % 1_000_000_000
}
