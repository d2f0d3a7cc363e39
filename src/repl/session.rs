//! A REPL session: one game at a time, its seats, its lines of play (the
//! current one with its undo and redo stacks, and named forks). It takes
//! command lines and returns what to print, so the terminal loop,
//! `--commands FILE` and the tests all drive the same code.

use crate::bots::{self, Bot, Sight};
use crate::data::catalog::Catalog;
use crate::kernel::action::Action;
use crate::kernel::piece::PlayerId;
use crate::kernel::rng::GameRng;
use crate::kernel::state::GameState;
use crate::kernel::view::Viewer;
use crate::load::{Loaded, Request, load};
use crate::repl::{commands, reload};
use std::collections::BTreeMap;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Bot(String),
}

impl Seat {
    /// Reads `human` or a bot's name.
    pub fn parse(who: &str) -> Seat {
        match who {
            "human" => Seat::Human,
            bot => Seat::Bot(bot.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Seat::Human => "human",
            Seat::Bot(b) => b,
        }
    }
}

/// What the caller should do after a command.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
    /// Hot-seat: hand the terminal to this player (clear the screen and
    /// wait for Enter), then print the text, which is for their eyes.
    pub pass: Option<(String, String)>,
    /// A question the terminal loop asks at once (reload's choice); the
    /// answer becomes the next command line, prefixed by the question's
    /// command word.
    pub ask: Option<(String, String)>,
}

/// One line of play: a position with its undo and redo stacks.
#[derive(Clone, Debug)]
pub struct Line {
    pub state: GameState,
    /// States before each human action, for undo; redo holds undone ones.
    pub undo: Vec<GameState>,
    pub redo: Vec<GameState>,
}

impl Line {
    pub fn new(state: GameState) -> Line {
        Line {
            state,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

pub struct Session {
    pub(crate) catalog: Catalog,
    pub(crate) request: Request,
    pub(crate) loaded: Loaded,
    pub(crate) line: Line,
    /// Named forks of the game, and the name of the line being played.
    pub(crate) branches: BTreeMap<String, Line>,
    pub(crate) branch: String,
    pub(crate) seats: Vec<Seat>,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// A viewer forced by the `view` command; otherwise the human to move.
    pub(crate) forced_view: Option<Viewer>,
    /// Whose eyes the screen shows now.
    pub(crate) screen: Viewer,
    pub(crate) seed: u64,
    /// How many events have been narrated already.
    pub(crate) shown: usize,
    pub colour: bool,
    /// The game changed since it was last saved or loaded.
    pub(crate) dirty: bool,
    /// A reload waiting for the user's choice (keep, truncate, restart).
    pub(crate) pending: Option<reload::Pending>,
    /// The REPL's own random stream (autoplace, roll): never the game's
    /// dice, so replays stay exact.
    pub(crate) repl_rng: GameRng,
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
            line: Line::new(state),
            branches: BTreeMap::new(),
            branch: "main".into(),
            seats: Vec::new(),
            bots: Vec::new(),
            forced_view: None,
            screen: Viewer::All,
            seed,
            shown: 0,
            colour: false,
            dirty: false,
            pending: None,
            repl_rng: GameRng::new(crate::kernel::hash::mix(seed ^ 0x5EE_D0E)),
        };
        session.set_seats(seat_list)?;
        session.screen = session.wanted_viewer();
        Ok(session)
    }

    pub(crate) fn state(&self) -> &GameState {
        &self.line.state
    }

    pub(crate) fn set_seats(&mut self, seats: Vec<Seat>) -> Result<(), String> {
        self.bots = seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Human => Ok(None),
                Seat::Bot(spec) => {
                    bots::make(spec, bots::seat_seed(self.seed, PlayerId(i as u8))).map(Some)
                }
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
        let on: Vec<&str> = g.enabled_options();
        let on = if on.is_empty() {
            "none".to_string()
        } else {
            on.join(", ")
        };
        out += &format!("optional rules: {on}\nseed: {}\n", self.seed);
        out += &format!("seats: {}\n", self.seat_summary());
        out += "type 'help' for commands\n\n";
        out += &self.after_change();
        out
    }

    pub fn prompt(&self) -> String {
        let branch = if self.branches.is_empty() {
            String::new()
        } else {
            format!("[{}] ", self.branch)
        };
        match self.loaded.engine.to_move(self.state()) {
            Some(p) => format!("{branch}{}> ", self.loaded.engine.game.player_id(p)),
            None => format!("{branch}game over> "),
        }
    }

    /// Runs one command line. In hot-seat play, when the command leaves the
    /// decision with another human, the reply says to pass the terminal.
    pub fn execute(&mut self, line: &str) -> Reply {
        let events_before = self.state().events.len();
        let mut reply = commands::execute(self, line.trim());
        let wanted = self.wanted_viewer();
        if wanted != self.screen && self.forced_view.is_none() {
            self.screen = wanted;
            if self.hot_seat() {
                let start = events_before.min(self.state().events.len());
                let mut text = self.narrate_range(start);
                self.shown = self.state().events.len();
                text += &self.status();
                reply.pass = Some((self.player_name_upper(wanted), text));
            }
        }
        reply
    }

    fn player_name_upper(&self, v: Viewer) -> String {
        match v {
            Viewer::Player(p) => self.loaded.engine.game.players[p.0 as usize]
                .name
                .to_uppercase(),
            Viewer::All => "EVERYONE".into(),
        }
    }

    /// Two or more human seats share the terminal.
    pub(crate) fn hot_seat(&self) -> bool {
        self.seats.iter().filter(|s| **s == Seat::Human).count() >= 2
    }

    /// Applies a human's action, keeping the state before it for undo.
    pub(crate) fn act(&mut self, action: Action) -> Result<String, String> {
        self.apply_human(action)?;
        Ok(self.after_change())
    }

    /// Applies one human action without narrating (autoplace batches them).
    pub(crate) fn apply_human(&mut self, action: Action) -> Result<(), String> {
        let next = self
            .loaded
            .engine
            .try_apply(self.state(), action)
            .map_err(|e| e.to_string())?;
        let before = std::mem::replace(&mut self.line.state, next);
        self.line.undo.push(before);
        self.line.redo.clear();
        self.dirty = true;
        Ok(())
    }

    /// After the game changed: let the bots play until a human decides,
    /// then narrate what happened and show the position.
    pub(crate) fn after_change(&mut self) -> String {
        let error = self.run_bots().err();
        let mut out = self.narrate_new();
        if let Some(e) = error {
            out += &format!("error: {e}\n");
        }
        out += &self.status();
        out
    }

    /// Lets bot seats play until a human decides or the game ends.
    fn run_bots(&mut self) -> Result<(), String> {
        let mut legal = Vec::new();
        // With no human seat, each bot action is a step of its own to undo.
        let record = !self.seats.contains(&Seat::Human);
        while let Some(p) = self.loaded.engine.to_move(self.state()) {
            let Some(bot) = self.bots[p.0 as usize].as_mut() else {
                break;
            };
            let engine = &self.loaded.engine;
            engine.legal_actions(&self.line.state, &mut legal);
            let pick = bot
                .choose(&Sight::new(engine, &self.line.state, p), &legal)
                .map_err(|e| format!("a rule script failed during the bot's move: {e}"))?;
            let next = engine
                .try_apply(&self.line.state, legal[pick])
                .map_err(|e| format!("a rule script failed during the bot's move: {e}"))?;
            let before = std::mem::replace(&mut self.line.state, next);
            if record {
                self.line.undo.push(before);
                self.line.redo.clear();
            }
            self.dirty = true;
        }
        Ok(())
    }

    pub(crate) fn seat_summary(&self) -> String {
        let g = &self.loaded.engine.game;
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {}", g.players[i].id, s.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Replaces the game (new game, load): undo history and forks go too.
    pub(crate) fn replace(&mut self, loaded: Loaded, state: GameState) {
        self.loaded = loaded;
        self.line = Line::new(state);
        self.branches.clear();
        self.branch = "main".into();
        self.pending = None;
        self.shown = 0;
        self.screen = self.wanted_viewer();
    }
}

pub(crate) fn player_ids(loaded: &Loaded) -> String {
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
