//! The REPL's commands: a table of names, usage and help, and their
//! implementations. Anything that is not a command is read as an action,
//! by its number in `moves` or in notation.

use crate::kernel::action::Action;
use crate::kernel::view::Viewer;
use crate::load::{Request, load};
use crate::repl::narrate::narrate;
use crate::repl::session::{Reply, Seat, Session};

/// One command: name, usage, one-line summary, an example.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    pub summary: &'static str,
    pub example: &'static str,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        usage: "help [COMMAND]",
        summary: "list the commands, or explain one",
        example: "help undo",
    },
    Command {
        name: "moves",
        usage: "moves",
        summary: "list the legal actions, numbered, in notation",
        example: "moves",
    },
    Command {
        name: "board",
        usage: "board",
        summary: "show the board from the current point of view",
        example: "board",
    },
    Command {
        name: "log",
        usage: "log [N]",
        summary: "show the last N events (default 10)",
        example: "log 20",
    },
    Command {
        name: "undo",
        usage: "undo [N]",
        summary: "take back your last N actions (and the bots' replies)",
        example: "undo",
    },
    Command {
        name: "redo",
        usage: "redo [N]",
        summary: "replay actions taken back by undo",
        example: "redo",
    },
    Command {
        name: "options",
        usage: "options",
        summary: "list the optional rules, on or off, with descriptions",
        example: "options",
    },
    Command {
        name: "new",
        usage: "new [+OPTION] [-OPTION]...",
        summary: "start a new game, switching optional rules on or off",
        example: "new +no-backward",
    },
    Command {
        name: "seat",
        usage: "seat PLAYER human|random",
        summary: "give a seat to a human or a bot",
        example: "seat red random",
    },
    Command {
        name: "view",
        usage: "view PLAYER|all|auto",
        summary: "look through one player's eyes, all (god view), or the player to move",
        example: "view all",
    },
    Command {
        name: "lua",
        usage: "lua EXPR",
        summary: "evaluate Lua against a copy of the game (nothing changes)",
        example: "lua #pieces.list{owner='red', on_board=true}",
    },
    Command {
        name: "quit",
        usage: "quit",
        summary: "leave the REPL (also: exit, Ctrl-D)",
        example: "quit",
    },
];

pub fn execute(s: &mut Session, line: &str) -> Reply {
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    let text = match word.to_ascii_lowercase().as_str() {
        "" => Ok(String::new()),
        "help" | "?" => help(rest),
        "moves" => Ok(moves(s)),
        "board" | "show" => Ok(s.status()),
        "log" => log(s, rest),
        "undo" => undo(s, rest),
        "redo" => redo(s, rest),
        "options" => Ok(options(s)),
        "new" => new_game(s, rest),
        "seat" => seat(s, rest),
        "view" => view(s, rest),
        "lua" => s
            .loaded
            .engine
            .lua_eval(&s.state, rest)
            .map(|v| format!("{v}\n"))
            .map_err(|e| e.to_string()),
        "quit" | "exit" => {
            return Reply {
                text: String::new(),
                quit: true,
            };
        }
        _ => action(s, line),
    };
    Reply {
        text: text.unwrap_or_else(|e| format!("error: {e}\n")),
        quit: false,
    }
}

fn help(topic: &str) -> Result<String, String> {
    if topic.is_empty() {
        let mut out = String::from(
            "Commands (an action is entered by its number from 'moves' or in notation, e.g. 'b2 b3', 'strike d5'):\n",
        );
        for c in COMMANDS {
            out += &format!("  {:<28} {}\n", c.usage, c.summary);
        }
        return Ok(out);
    }
    COMMANDS
        .iter()
        .find(|c| c.name == topic)
        .map(|c| format!("{}\n  {}\n  example: {}\n", c.usage, c.summary, c.example))
        .ok_or_else(|| {
            format!(
                "no command '{topic}': {}",
                crate::data::error::suggest(topic, COMMANDS.iter().map(|c| c.name))
            )
        })
}

fn legal(s: &Session) -> Vec<Action> {
    let mut legal = Vec::new();
    s.loaded.engine.legal_actions(&s.state, &mut legal);
    legal
}

fn moves(s: &Session) -> String {
    if s.state.result.is_some() {
        return "the game is over: 'new' starts another, 'undo' steps back\n".into();
    }
    legal(s)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            format!(
                "  {:>3}. {}\n",
                i + 1,
                s.loaded.engine.notation(&s.state, a)
            )
        })
        .collect()
}

/// An action typed by number or notation, by the human whose turn it is.
fn action(s: &mut Session, line: &str) -> Result<String, String> {
    let Some(player) = s.loaded.engine.to_move(&s.state) else {
        return Err(format!(
            "'{line}' is not a command, and the game is over ('help' lists the commands)"
        ));
    };
    if s.seats[player.0 as usize] != Seat::Human {
        return Err(format!(
            "it is a bot's turn ({}); 'seat' gives it to a human",
            s.loaded.engine.game.player_id(player)
        ));
    }
    let legal = legal(s);
    let chosen = match line.parse::<usize>() {
        Ok(n) if (1..=legal.len()).contains(&n) => legal[n - 1],
        Ok(n) => {
            return Err(format!(
                "there is no action {n}: 'moves' lists 1 to {}",
                legal.len()
            ));
        }
        Err(_) => {
            let word = line.split_whitespace().next().unwrap_or("");
            s.loaded.engine.parse_action(&s.state, line).map_err(|e| {
                let is_command_like = word.chars().all(|c| c.is_ascii_alphabetic())
                    && word.len() > 3
                    && !legal
                        .iter()
                        .any(|&a| s.loaded.engine.notation(&s.state, a).starts_with(word));
                if is_command_like {
                    format!(
                        "unknown command '{word}': {} ('help' lists the commands)",
                        crate::data::error::suggest(word, COMMANDS.iter().map(|c| c.name))
                    )
                } else {
                    e
                }
            })?
        }
    };
    s.act(chosen)
}

fn count(arg: &str, what: &str) -> Result<usize, String> {
    if arg.is_empty() {
        return Ok(1);
    }
    arg.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{what} {arg}': give a positive number of steps"))
}

fn undo(s: &mut Session, arg: &str) -> Result<String, String> {
    let n = count(arg, "undo")?;
    if s.undo.is_empty() {
        return Err("nothing to undo".into());
    }
    for _ in 0..n.min(s.undo.len()) {
        let prev = s.undo.pop().expect("checked");
        s.redo.push(std::mem::replace(&mut s.state, prev));
    }
    s.reset_narration();
    Ok(format!("took back to ply {}\n{}", s.state.ply, s.status()))
}

fn redo(s: &mut Session, arg: &str) -> Result<String, String> {
    let n = count(arg, "redo")?;
    if s.redo.is_empty() {
        return Err("nothing to redo".into());
    }
    for _ in 0..n.min(s.redo.len()) {
        let next = s.redo.pop().expect("checked");
        s.undo.push(std::mem::replace(&mut s.state, next));
    }
    s.reset_narration();
    Ok(format!("replayed to ply {}\n{}", s.state.ply, s.status()))
}

fn log(s: &Session, arg: &str) -> Result<String, String> {
    let n: usize = if arg.is_empty() {
        10
    } else {
        arg.parse()
            .map_err(|_| format!("'log {arg}': give a number of events"))?
    };
    let view = s.view();
    let lines: Vec<String> = view
        .events
        .iter()
        .filter_map(|e| narrate(&s.loaded.engine, &view, e))
        .collect();
    Ok(lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| format!("  {l}\n"))
        .collect())
}

fn options(s: &Session) -> String {
    let g = &s.loaded.engine.game;
    if g.options.is_empty() {
        return "this game has no optional rules\n".into();
    }
    g.options
        .iter()
        .map(|o| {
            format!(
                "  [{}] {:>2}. {:<18} {}: {}\n",
                if o.enabled { "on " } else { "off" },
                o.number,
                o.id,
                o.title,
                o.description
            )
        })
        .collect()
}

/// `new [+opt] [-opt]`: a new game with the same target and seats.
fn new_game(s: &mut Session, args: &str) -> Result<String, String> {
    let mut options = s.loaded.options.clone();
    for a in args.split_whitespace() {
        match (a.strip_prefix('-'), a.strip_prefix('+')) {
            (Some(off), _) => options.retain(|o| o != off),
            (_, Some(on)) | (None, Some(on)) if !options.iter().any(|o| o == on) => {
                options.push(on.to_string())
            }
            (None, None) => {
                return Err(format!(
                    "'new {a}': write +{a} to switch an optional rule on, -{a} to switch it off"
                ));
            }
            _ => {}
        }
    }
    let request = Request {
        target: s.request.target.clone(),
        options,
    };
    let loaded = load(&s.catalog, &request).map_err(|e| e.to_string())?;
    s.seed = crate::kernel::hash::mix(s.seed) % 1_000_000_000;
    let state = loaded.engine.new_game(s.seed).map_err(|e| e.to_string())?;
    s.request = request;
    s.replace(loaded, state);
    let seats = s.seats.clone();
    s.set_seats(seats)?;
    Ok(s.welcome())
}

fn seat(s: &mut Session, args: &str) -> Result<String, String> {
    let mut parts = args.split_whitespace();
    let (Some(player), Some(who)) = (parts.next(), parts.next()) else {
        return Err(format!(
            "usage: seat PLAYER human|random (seats now: {})",
            s.seat_summary()
        ));
    };
    let p = s
        .loaded
        .engine
        .game
        .player_index(player)
        .ok_or_else(|| format!("no player '{player}'"))?;
    let mut seats = s.seats.clone();
    seats[p.0 as usize] = if who == "human" {
        Seat::Human
    } else {
        Seat::Bot(who.to_string())
    };
    s.set_seats(seats)?;
    Ok(format!("seats: {}\n{}", s.seat_summary(), s.after_change()))
}

fn view(s: &mut Session, arg: &str) -> Result<String, String> {
    s.forced_view = match arg {
        "all" => Some(Viewer::All),
        "auto" | "" => None,
        p => Some(Viewer::Player(
            s.loaded
                .engine
                .game
                .player_index(p)
                .ok_or_else(|| format!("no player '{p}': use a player id, all or auto"))?,
        )),
    };
    let banner = if s.forced_view == Some(Viewer::All) {
        "GOD VIEW: every face is shown\n"
    } else {
        ""
    };
    Ok(format!("{banner}{}", s.status()))
}
