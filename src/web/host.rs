//! `portolan host`: one game for players in their own browsers. Each
//! remote seat gets an address with an unguessable token; bots take their
//! seats here, on the server. The game lives on this thread, in a REPL
//! [`Session`] whose remote seats are its human seats, so an action from a
//! browser is read exactly as the REPL reads one, and a save is the
//! REPL's. After every change each seat's view is prepared again (see
//! `views`) and published to its door; the host's terminal narrates what
//! every player sees, and shows more only when asked.

use crate::data::catalog::Catalog;
use crate::kernel::piece::PlayerId;
use crate::kernel::view::{View, Viewer, visible_event};
use crate::load::Request;
use crate::repl::session::{Seat, Session};
use crate::repl::{narrate, play, render, save};
use crate::untrusted::echo;
use crate::web::server::{self, Door, Server, Submitted};
use crate::web::views::page_view;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

/// The page every seat loads; it reads its own view from the server.
pub const PAGE: &str = include_str!("page.html");

/// Who takes a seat of a hosted game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostSeat {
    Remote,
    Bot(String),
}

impl HostSeat {
    /// Reads `remote` or a bot's name (as `play --seat` reads one).
    pub fn parse(who: &str) -> HostSeat {
        match who {
            "remote" => HostSeat::Remote,
            bot => match Seat::parse(bot) {
                Seat::Bot(spec) => HostSeat::Bot(spec),
                Seat::Human => HostSeat::Remote,
            },
        }
    }
}

/// What `portolan host` was asked for.
pub struct Host {
    pub request: Request,
    pub seed: Option<u64>,
    /// Seats given on the command line; the others are remote.
    pub seats: Vec<(String, HostSeat)>,
    pub listen: SocketAddr,
    pub save: Option<PathBuf>,
}

/// What reaches the game's thread: a seat's action, or a line typed at
/// the host's terminal (`None` when the terminal closed).
enum Input {
    Seat(Submitted),
    Terminal(Option<String>),
}

/// Hosts the game until `quit` at the host's terminal (or Ctrl-C).
pub fn host(catalog: Catalog, host: &Host) -> Result<(), String> {
    let mut session = Session::start(catalog, host.request.clone(), host.seed, &[])?;
    // Every seat not named is remote.
    let mut seats = vec![Seat::Human; session.seats.len()];
    for (player, seat) in &host.seats {
        let p = session
            .loaded
            .engine
            .game
            .player_index(player)
            .ok_or_else(|| format!("--seat: no player '{}'", echo(player)))?;
        seats[p.0 as usize] = match seat {
            HostSeat::Remote => Seat::Human,
            HostSeat::Bot(spec) => Seat::Bot(spec.clone()),
        };
    }
    session.set_seats(seats)?;
    let remote: Vec<PlayerId> = session.humans();
    if remote.is_empty() {
        return Err("--seat: every seat is a bot; give at least one PLAYER=remote".into());
    }
    // The bots play up to the first remote decision.
    let opening = session.after_change();
    let doors = remote
        .iter()
        .map(|&p| {
            Ok(Door {
                token: token()?,
                acts_as: Some(p),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (tx, rx) = mpsc::channel();
    let seats_tx = tx.clone();
    let server = server::start(
        host.listen,
        doors.clone(),
        views(&session, &doors),
        PAGE,
        Some(Box::new(move |s| seats_tx.send(Input::Seat(s)).is_ok())),
    )?;
    let game = &session.loaded.engine.game;
    println!(
        "{} ({}): hosting at http://{}",
        game.title, game.id, server.addr
    );
    println!("seats: {}", seat_summary(&session));
    for d in &doors {
        let p = d.acts_as.expect("a seat's door acts");
        println!(
            "{:<10}http://{}/seat/{}",
            game.player_id(p),
            server.addr,
            d.token
        );
    }
    println!("give each player their own address; type 'help' for the host's commands");
    report_errors(&opening);
    std::thread::spawn(move || read_terminal(&tx));
    let mut host_loop = HostLoop {
        session,
        doors,
        server,
        save: host.save.clone(),
        narrated: 0,
    };
    host_loop.narrate_public();
    host_loop.run(&rx)
}

/// A seat's token: 128 bits from the system's entropy, in hex.
pub fn token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no entropy for the seats' tokens: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Each door's view, in door order.
fn views(session: &Session, doors: &[Door]) -> Vec<String> {
    doors
        .iter()
        .map(|d| match d.acts_as {
            Some(p) => page_view(session, Viewer::Player(p), Some(p)),
            None => page_view(session, Viewer::Public, None),
        })
        .collect()
}

fn read_terminal(tx: &mpsc::Sender<Input>) {
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if tx.send(Input::Terminal(Some(line))).is_err() {
            return;
        }
    }
    let _ = tx.send(Input::Terminal(None));
}

/// Who plays each seat, in the host's words: a remote seat is a person
/// at a browser, not at this terminal.
fn seat_summary(s: &Session) -> String {
    let g = &s.loaded.engine.game;
    s.seats
        .iter()
        .zip(&g.players)
        .map(|(seat, p)| match seat {
            Seat::Human => format!("{} remote", p.id),
            Seat::Bot(spec) => format!("{} {spec}", p.id),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lines of a REPL answer that report a failure, for the host's terminal.
fn report_errors(text: &str) {
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with("error:"))
    {
        println!("{}", line.trim_start());
    }
}

struct HostLoop {
    session: Session,
    doors: Vec<Door>,
    server: Server,
    save: Option<PathBuf>,
    /// Events already narrated on the host's terminal.
    narrated: usize,
}

impl HostLoop {
    fn run(&mut self, rx: &Receiver<Input>) -> Result<(), String> {
        while let Ok(input) = rx.recv() {
            match input {
                Input::Seat(s) => {
                    let answer = self.try_action(s.player, &s.text);
                    // Saved and published before the answer: a client
                    // that reads its view after the answer finds the move.
                    if answer.is_ok() {
                        self.changed();
                    }
                    let _ = s.answer.send(answer);
                }
                Input::Terminal(Some(line)) => {
                    if !self.command(line.trim()) {
                        return Ok(());
                    }
                }
                // The terminal closed: the game goes on until Ctrl-C.
                Input::Terminal(None) => {}
            }
        }
        Ok(())
    }

    /// Tries `text` as `player`'s action, as the REPL would read it.
    fn try_action(&mut self, player: PlayerId, text: &str) -> Result<(), (u16, String)> {
        let s = &mut self.session;
        let game = &s.loaded.engine.game;
        if s.state().result.is_some() {
            return Err((409, "the game is over".into()));
        }
        match s.loaded.engine.to_move(s.state()) {
            Some(p) if p == player => {}
            Some(p) => {
                return Err((
                    409,
                    format!(
                        "it is {}'s turn, not yours",
                        game.players[p.0 as usize].name
                    ),
                ));
            }
            None => return Err((409, "nobody is to decide".into())),
        }
        let answer = play::action(s, text).map_err(|reason| (422, reason))?;
        report_errors(&answer);
        Ok(())
    }

    /// After an action: narrate, save, and publish every seat's view.
    fn changed(&mut self) {
        self.narrate_public();
        if let Some(path) = &self.save {
            let path = path.to_string_lossy().into_owned();
            if let Err(e) = save::save(&mut self.session, &path) {
                println!("error: {e}");
            }
        }
        self.server
            .shared
            .publish(views(&self.session, &self.doors));
    }

    /// What every player sees happen, on the host's terminal.
    fn narrate_public(&mut self) {
        let s = &self.session;
        let engine = &s.loaded.engine;
        let view = s.view_as(Viewer::Public);
        let events = &s.state().events;
        let start = self.narrated.min(events.len());
        let new: Vec<_> = events[start..]
            .iter()
            .filter(|e| visible_event(e, Viewer::Public))
            .cloned()
            .collect();
        for line in narrate::narrate_all(engine, &view, &new) {
            println!("  {}", echo(&line));
        }
        self.narrated = events.len();
        println!("{}", self.turn_line());
    }

    fn turn_line(&self) -> String {
        let s = &self.session;
        let game = &s.loaded.engine.game;
        match (&s.state().result, s.loaded.engine.to_move(s.state())) {
            (Some(o), _) => format!(
                "game over: {} ({}); 'quit' ends the hosting",
                narrate::result(game, o),
                o.reason
            ),
            (None, Some(p)) => format!(
                "ply {}: {} to decide",
                s.state().ply,
                game.players[p.0 as usize].name
            ),
            (None, None) => format!("ply {}", s.state().ply),
        }
    }

    /// A command typed at the host's terminal; `false` ends the hosting.
    fn command(&mut self, line: &str) -> bool {
        let s = &mut self.session;
        let engine = &s.loaded.engine;
        match line {
            "" => {}
            "quit" | "exit" => return false,
            "board" => print!(
                "{}",
                render::board(engine, &s.view_as(Viewer::Public), false)
            ),
            "board all" => {
                println!("== GOD VIEW: every hidden face is shown: keep it from the players ==");
                print!("{}", render::board(engine, &s.view_as(Viewer::All), false));
            }
            "seats" => println!("seats: {}", seat_summary(s)),
            _ if line.starts_with("save ") => match save::save(s, line["save ".len()..].trim()) {
                Ok(text) => print!("{text}"),
                Err(e) => println!("error: {e}"),
            },
            "help" => println!(
                "host commands: board (what every player sees), board all (every hidden face), \
                 seats, save FILE, quit"
            ),
            _ => println!("'{}' is not a host command: type 'help'", echo(line)),
        }
        true
    }
}

impl Session {
    /// The game as `viewer` sees it, whoever holds the screen.
    pub(crate) fn view_as(&self, viewer: Viewer) -> View {
        View::new(&self.loaded.engine.game, self.state(), viewer)
    }
}
