//! A REPL session: one game at a time, its seats, its lines of play (the
//! current one with its undo and redo stacks, and named forks). It takes
//! command lines and returns what to print, so the terminal loop,
//! `--commands FILE` and the tests all drive the same code.

use crate::bots::{self, Bot, Sight, Watch};
use crate::data::catalog::Catalog;
use crate::kernel::action::Action;
use crate::kernel::piece::{Location, PlayerId};
use crate::kernel::rng::GameRng;
use crate::kernel::state::GameState;
use crate::kernel::view::Viewer;
use crate::load::{Loaded, Request, load};
use crate::repl::escape::for_terminal;
use crate::repl::fresh_dice::Drawn;
use crate::repl::line::{Kept, Line};
use crate::repl::{commands, confirm, reload, thinking};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::Arc;

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
            // A person waits for this seat: a search named without a
            // budget thinks for a bounded time.
            "ismcts" => Seat::Bot(bots::spec::INTERACTIVE_SEARCH.to_string()),
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

/// What the caller should do after a command. Every text in it is safe
/// to print (see [`crate::repl::escape`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
    /// The command failed, or a bot's move or a rules hook (`rules.status`)
    /// failed while it ran: a command
    /// file that meets one ends with a failure status.
    pub failed: bool,
    /// A handover (the screen moves to another player's eyes): hand the
    /// terminal to this player (clear the screen and wait for Enter), then
    /// print the text, which is for their eyes.
    pub pass: Option<(String, String)>,
    /// A question the terminal loop asks at once.
    pub ask: Option<Ask>,
}

/// A question asked at once at the terminal (reload's choice, a yes or
/// no); in a command file the next line answers it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// Put before the answer to make the command line it becomes.
    pub prefix: String,
    pub question: String,
    /// The answer an empty line (or Ctrl-C) gives.
    pub default: String,
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
    /// A viewer chosen with `view`, shown instead of [`Session::screen`]
    /// while the gate allows it (see `gate`); it ends at a handover.
    pub(crate) forced_view: Option<Viewer>,
    /// Whose eyes the screen follows, its holder: the human to move (in
    /// hot-seat play, the one at the terminal), or everyone when no seat is
    /// human. Only the gate changes it.
    pub(crate) screen: Viewer,
    /// In hot-seat play, a peek may show until the terminal passes on (the
    /// holder said yes; see `confirm`).
    pub(crate) peeking: bool,
    /// Against bots, the human said yes to peek in this game: asked once,
    /// marked on every screen that peeks.
    pub(crate) peeked: bool,
    /// The player a loaded save was shown through: a preference the gate
    /// weighs once, never a way round it.
    pub(crate) preferred: Option<PlayerId>,
    /// A command waiting for a yes or no.
    pub(crate) question: Option<confirm::Question>,
    /// The command being run may drop an unsaved game (the user said yes).
    pub(crate) discarding: bool,
    /// A bot's move or a rules hook the screen calls (`rules.status`)
    /// failed since the last reply. A cell, because drawing the screen
    /// (which only reads the game) is where a failing hook is found.
    failed: Cell<bool>,
    /// Each piece's location on the last screen drawn, so that a summed-up
    /// board can say which spaces changed since (see `summary`). A cell:
    /// drawing the screen only reads the game.
    pub(crate) last_screen: RefCell<Option<Vec<Location>>>,
    pub(crate) seed: u64,
    /// How many events have been narrated already.
    pub(crate) shown: usize,
    /// Where this command's narration began, for the next holder after a
    /// handover (`None` when it narrated nothing).
    pub(crate) narrated_from: Option<usize>,
    pub colour: bool,
    /// Seen by the bot that thinks, and by Ctrl-C, which stops it.
    pub(crate) watch: Arc<Watch>,
    /// Whether a thinking bot's progress is drawn (at a terminal only).
    pub show_thinking: bool,
    /// The game changed since it was last saved or loaded.
    pub(crate) dirty: bool,
    /// A reload waiting for the user's choice (keep, truncate, restart).
    pub(crate) pending: Option<reload::Pending>,
    /// The REPL's own random stream (autoplace, roll, a new game's seed,
    /// fresh dice after undo): never the game's dice, so replays stay
    /// exact. It follows from a seed the user gave, for command files that
    /// replay alike; else it is drawn from the system's entropy, so a seed
    /// shown at a game's end tells nothing of the next game.
    pub(crate) repl_rng: GameRng,
    /// How far each random stream has been drawn on screen (see
    /// `fresh_dice`).
    pub(crate) drawn: Drawn,
    /// The live board in a browser, once `board web` or `--board` started it.
    pub(crate) board: Option<crate::web::board::LiveBoard>,
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
        let given = seed.or(loaded.scenario_seed());
        let seed = given.unwrap_or_else(|| entropy() % 1_000_000_000);
        let repl_rng = GameRng::new(match given {
            Some(seed) => crate::kernel::hash::mix(seed ^ 0x5EE_D0E),
            None => entropy(),
        });
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
            peeking: false,
            peeked: false,
            preferred: None,
            question: None,
            discarding: false,
            failed: Cell::new(false),
            last_screen: RefCell::new(None),
            seed,
            shown: 0,
            narrated_from: None,
            colour: false,
            watch: Arc::default(),
            show_thinking: false,
            dirty: false,
            pending: None,
            repl_rng,
            drawn: Drawn::default(),
            board: None,
        };
        session.set_seats(seat_list)?;
        // The opening screen has nobody to hand over from.
        session.follow_the_turn(&mut Reply::default());
        Ok(session)
    }

    pub fn state(&self) -> &GameState {
        self.line.state()
    }

    /// What the session keeps in memory for the game and its forks.
    pub fn kept(&self) -> Kept {
        let mut seen = std::collections::HashSet::new();
        let lines = std::iter::once(&self.line).chain(self.branches.values());
        lines.fold(Kept::default(), |sum, line| {
            let k = line.kept(&mut seen);
            Kept {
                states: sum.states + k.states,
                snapshots: sum.snapshots + k.snapshots,
                bytes: sum.bytes + k.bytes,
            }
        })
    }

    pub(crate) fn set_seats(&mut self, seats: Vec<Seat>) -> Result<(), String> {
        self.bots = seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Human => Ok(None),
                Seat::Bot(spec) => {
                    let seat = PlayerId(i as u8);
                    let seed = bots::seat_seed(self.seed, seat);
                    bots::seat(&self.loaded.engine, spec, seat, seed).map(Some)
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
        out += &format!("optional rules: {on}\n");
        if !self.loaded.overlays.is_empty() {
            let labels: Vec<String> = self
                .loaded
                .overlays
                .iter()
                .map(|o| crate::untrusted::echo(&o.label).into_owned())
                .collect();
            out += &format!("overlays: {}\n", labels.join(", "));
            out += &self.loaded.warning_lines();
        }
        out += &format!("seed: {}\n", self.seed_text());
        out += &format!("seats: {}\n", self.seat_summary());
        out += "type 'help' for commands\n\n";
        out += &self.after_change();
        self.drawn.note(&self.line.state().rng);
        out
    }

    pub fn prompt(&self) -> String {
        let branch = if self.branches.is_empty() {
            String::new()
        } else {
            format!("[{}] ", self.branch)
        };
        let prompt = match self.loaded.engine.to_move(self.state()) {
            Some(p) => format!("{branch}{}> ", self.loaded.engine.game.player_id(p)),
            None => format!("{branch}game over> "),
        };
        for_terminal(&prompt, false)
    }

    /// Runs one command line. Afterwards the rules' own tables are checked
    /// (a script or the `lua` command may have changed one: the change is
    /// undone and reported). When the command moves the screen to another
    /// player's eyes, the reply says to pass the terminal (see `gate`).
    pub fn execute(&mut self, line: &str) -> Reply {
        self.narrated_from = None;
        let mut reply = commands::execute(self, line.trim());
        if let Err(e) = self.loaded.engine.check_scripts() {
            reply.text += &format!("error: {e}\n");
            reply.failed = true;
        }
        self.follow_the_turn(&mut reply);
        self.publish_board(reply.pass.as_ref().map(|(who, _)| who.as_str()));
        reply.failed |= self.failed.take();
        self.drawn.note(&self.line.state().rng);
        reply.text = for_terminal(&reply.text, self.colour);
        if let Some((who, text)) = &mut reply.pass {
            *who = for_terminal(who, false);
            *text = for_terminal(text, self.colour);
        }
        reply
    }

    /// A rules hook the screen calls failed: the command that drew the
    /// screen counts as failed, so a command file ends with a failure status.
    pub(crate) fn mark_failed(&self) {
        self.failed.set(true);
    }

    /// Whether a bot's move or a rules hook failed since the last command
    /// (the opening screen's bots play before any command).
    pub fn take_failed(&mut self) -> bool {
        self.failed.take()
    }

    /// Applies a human's action, keeping the state before it for undo.
    pub(crate) fn act(&mut self, action: Action) -> Result<String, String> {
        self.apply_human(action)?;
        Ok(self.after_change())
    }

    /// Applies one human action as an undo step, without narrating.
    fn apply_human(&mut self, action: Action) -> Result<(), String> {
        let fresh = self.fresh_dice();
        self.line
            .step(&self.loaded.engine, action, fresh)
            .map_err(|e| e.to_string())?;
        self.dirty = true;
        Ok(())
    }

    /// After the game or its rules changed: let the bots play until a
    /// human decides, then narrate what happened and show the position.
    /// A bot whose move failed is tried again here, so new rules or a new
    /// seat get it going.
    pub(crate) fn after_change(&mut self) -> String {
        let error = self.run_bots().err();
        let mut out = self.narrate_new();
        if let Some(e) = error {
            out += &format!("error: {e}\n");
            self.failed.set(true);
        }
        out += &self.status();
        out
    }

    /// After stepping through the game (undo, redo, switch): as
    /// [`Session::after_change`] when a human plays, but a game of bots
    /// only is left where it is, for looking at.
    pub(crate) fn after_stepping(&mut self) -> String {
        if self.seats.contains(&Seat::Human) {
            self.after_change()
        } else {
            self.status()
        }
    }

    /// The game holds play that no file has and the seed alone does not
    /// give back: steps to undo (a human's actions; each bot's, when no
    /// seat is human) or forks, since it was last saved or loaded.
    pub(crate) fn unsaved(&self) -> bool {
        self.dirty && (!self.line.undo_marks().is_empty() || !self.branches.is_empty())
    }

    /// Lets bot seats play until a human decides or the game ends.
    fn run_bots(&mut self) -> Result<(), String> {
        let mut legal = Vec::new();
        // With no human seat, each bot action is a step of its own to undo.
        let record = !self.seats.contains(&Seat::Human);
        while let Some(p) = self.loaded.engine.to_move(self.state()) {
            if self.seats[p.0 as usize] == Seat::Human {
                break;
            }
            let fresh = self.fresh_dice();
            let Some(bot) = self.bots[p.0 as usize].as_mut() else {
                break;
            };
            let engine = &self.loaded.engine;
            engine.legal_actions(self.line.state(), &mut legal);
            let sight = Sight::new(engine, self.line.state(), p);
            let shown = self
                .show_thinking
                .then(|| engine.game.players[p.0 as usize].id.as_str());
            let pick = thinking::choose(bot.as_mut(), sight, &legal, &self.watch, shown)
                .map_err(|e| format!("the bot could not choose its move: {e}"))?;
            let played = if record {
                self.line.step(engine, legal[pick], fresh)
            } else {
                self.line.play(engine, legal[pick], fresh)
            };
            played.map_err(|e| format!("a rule script failed during the bot's move: {e}"))?;
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

    /// Replaces the game (new game, load) with a line of play under other
    /// rules: the old undo history and forks go, and so does a yes to
    /// peek. The screen stays with its holder until the gate moves it.
    pub(crate) fn replace(&mut self, loaded: Loaded, line: Line) {
        self.loaded = loaded;
        self.line = line;
        self.branches.clear();
        self.branch = "main".into();
        self.pending = None;
        self.question = None;
        self.peeking = false;
        self.peeked = false;
        self.forced_view = None;
        self.shown = 0;
        self.drawn = Drawn::default();
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

/// Randomness nobody at the table can predict, for what the user did not
/// seed: the system's entropy (the clock, should the system have none).
fn entropy() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        crate::kernel::hash::mix(now as u64)
    })
}
