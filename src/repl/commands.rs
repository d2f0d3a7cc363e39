//! The REPL's commands: a table of names, usage, help and examples, and
//! the dispatch to their implementations (one module per concern). Any
//! line that is not a command is read as an action, by its number in
//! `moves` or in notation.

use crate::repl::escape::{ERROR_CHARS, clip_middle, quote};
use crate::repl::session::{Ask, Reply, Session};
use crate::repl::{branches, confirm, move_help, odds, play, reload, save, setup, show};

/// One command: name, usage, one-line summary, examples.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    pub summary: &'static str,
    pub examples: &'static [&'static str],
}

const fn cmd(
    name: &'static str,
    usage: &'static str,
    summary: &'static str,
    examples: &'static [&'static str],
) -> Command {
    Command {
        name,
        usage,
        summary,
        examples,
    }
}

pub const COMMANDS: &[Command] = &[
    cmd(
        "help",
        "help [COMMAND]",
        "list the commands, or explain one",
        &["help", "help reload"],
    ),
    cmd(
        "moves",
        "moves",
        "list the legal actions, numbered, in notation ('help moves' explains them)",
        &["moves", "help moves"],
    ),
    cmd(
        "board",
        "board [full|web [ADDR]]",
        "show the board from the current point of view (a long one summed up; 'board full' draws it whole, 'board web' serves it live to a browser)",
        &["board", "board full", "board web"],
    ),
    cmd(
        "show",
        "show PIECE|SPACE",
        "details of a piece (#ID; 'show SPACE' names the ids there) or of a space",
        &["show c4", "show #12"],
    ),
    cmd(
        "log",
        "log [N]",
        "the last N events in plain words (default 10)",
        &["log", "log 30"],
    ),
    cmd(
        "place",
        "place random",
        "during set-up, place the rest of your pieces at random (also: autoplace)",
        &["place random", "autoplace"],
    ),
    cmd(
        "undo",
        "undo [N]",
        "take back your last N actions (and the bots' replies)",
        &["undo", "undo 3"],
    ),
    cmd(
        "redo",
        "redo [N]",
        "replay N actions taken back by undo",
        &["redo", "redo 2"],
    ),
    cmd(
        "fork",
        "fork NAME",
        "keep a copy of the game as a named branch",
        &["fork before-attack"],
    ),
    cmd(
        "branches",
        "branches",
        "list the branches of the game",
        &["branches"],
    ),
    cmd(
        "switch",
        "switch NAME",
        "go to a branch (the current line is kept under its name)",
        &["switch before-attack", "switch main"],
    ),
    cmd(
        "save",
        "save FILE",
        "save the game (rules, options, seed, seats, actions) atomically",
        &["save convoy.json"],
    ),
    cmd(
        "load",
        "load FILE",
        "load a saved game, replaying and checking every action",
        &["load convoy.json"],
    ),
    cmd(
        "reload",
        "reload [keep|truncate|restart]",
        "re-read the rules' YAML and Lua and replay the game under them",
        &["reload", "reload truncate"],
    ),
    cmd(
        "options",
        "options",
        "list the optional rules, on or off, with descriptions",
        &["options"],
    ),
    cmd(
        "scenarios",
        "scenarios",
        "list this game's scenarios",
        &["scenarios"],
    ),
    cmd(
        "overlays",
        "overlays",
        "list the balance overlays this game ships, and the ones laid on this game",
        &["overlays"],
    ),
    cmd(
        "new",
        "new [SCENARIO] [+OPTION] [-OPTION] [@OVERLAY] [-@OVERLAY]...",
        "start a new game (same seats), switching optional rules on or off, laying overlays on or off",
        &[
            "new",
            "new radical",
            "new standard +no-backward -coin-equal",
            "new @white-up",
        ],
    ),
    cmd(
        "seat",
        "seat PLAYER human|BOT",
        "give a seat to a human or a bot: random, greedy, ismcts (a second a move), ismcts:ITERATIONS, ismcts:MSms, ismcts:Ss",
        &[
            "seat red random",
            "seat red ismcts:1000",
            "seat red greedy",
            "seat red human",
        ],
    ),
    cmd(
        "view",
        "view PLAYER|all|auto",
        "look through one player's eyes, all (god view), or the player to move",
        &["view red", "view all", "view auto"],
    ),
    cmd(
        "lua",
        "lua EXPR",
        "evaluate Lua in the rules' sandbox against a copy of the game",
        &[
            "lua #pieces.list{owner='red', on_board=true}",
            "lua game.players()",
        ],
    ),
    cmd(
        "roll",
        "roll DICE",
        "roll dice (not the game's dice) and show their exact odds",
        &["roll 2D6", "roll coin"],
    ),
    cmd(
        "odds",
        "odds DICE|TABLE [+N]",
        "the exact distribution of dice, or of a combat table under the current options",
        &["odds 3D6", "odds attack"],
    ),
    cmd(
        "sheet",
        "sheet [FILE]",
        "the rules' game sheet; with FILE, written as Markdown",
        &["sheet", "sheet game.md"],
    ),
    cmd(
        "map",
        "map FILE.svg",
        "draw the board as SVG, as the screen shows it (whose eyes: see 'view')",
        &["map board.svg"],
    ),
    cmd(
        "quit",
        "quit",
        "leave the REPL (also: exit, Ctrl-D)",
        &["quit"],
    ),
];

/// Every name a command answers to, aliases included (for completion).
pub const ALIASES: &[&str] = &["?", "exit", "autoplace", "yes", "no"];

/// Runs one command line: the reply to print, whether it failed, and any
/// question to ask at once.
pub fn execute(s: &mut Session, line: &str) -> Reply {
    let word = command_word(s, line);
    // A reload waiting for its choice is dropped by anything that changes
    // the game (its replay would be stale); looking around keeps it.
    const LOOKING: &[&str] = &[
        "",
        "reload",
        "help",
        "?",
        "moves",
        "board",
        "show",
        "log",
        "options",
        "scenarios",
        "overlays",
        "branches",
        "view",
        "lua",
        "roll",
        "odds",
        "sheet",
        "map",
    ];
    if !word.as_deref().is_some_and(|w| LOOKING.contains(&w)) {
        s.pending = None;
    }
    // A question is answered by the next command, or dropped by it.
    if !matches!(word.as_deref(), Some("yes" | "no")) {
        s.question = None;
    }
    if matches!(word.as_deref(), Some("quit" | "exit")) {
        return Reply {
            quit: true,
            ..Reply::default()
        };
    }
    let result = dispatch(s, line, word.as_deref());
    let ask = if word.as_deref() == Some("reload") && s.pending.is_some() {
        Some(Ask {
            prefix: "reload".into(),
            question: "keep, truncate or restart? ".into(),
            default: "keep".into(),
        })
    } else {
        s.question.as_ref().map(|_| Ask {
            prefix: String::new(),
            question: "yes or no? ".into(),
            default: "no".into(),
        })
    };
    Reply {
        failed: result.is_err(),
        text: result.unwrap_or_else(|e| format!("error: {}\n", clip_middle(&e, ERROR_CHARS))),
        ask,
        ..Reply::default()
    }
}

/// The command word of a line, in lower case; none when the line is a
/// legal action exactly as `moves` lists it. Every listed action can be
/// typed as listed, even one that starts with a command's word (the
/// solitaire game's `no option` is an action, not an answer).
fn command_word(s: &Session, line: &str) -> Option<String> {
    if play::listed(s, line).is_some() {
        return None;
    }
    Some(
        line.split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase(),
    )
}

/// Dispatches a command line to its implementation.
pub fn run(s: &mut Session, line: &str) -> Result<String, String> {
    let word = command_word(s, line);
    dispatch(s, line, word.as_deref())
}

/// Runs a line whose command word (`None`: a listed action) is known.
fn dispatch(s: &mut Session, line: &str, word: Option<&str>) -> Result<String, String> {
    let Some(word) = word else {
        return play::action(s, line);
    };
    let rest = line
        .split_once(char::is_whitespace)
        .map_or("", |(_, r)| r.trim());
    match word {
        "" => Ok(String::new()),
        "help" | "?" => help(s, rest),
        "moves" => Ok(play::moves(s)),
        "board" if rest.is_empty() => Ok(s.status()),
        "board" if rest == "full" => Ok(s.full_screen()),
        "board" if rest.split_whitespace().next() == Some("web") => {
            crate::web::board::open(s, rest["web".len()..].trim())
        }
        "board" => Err(format!(
            "'board {rest}': 'board' shows the screen, 'board full' the whole board, 'board web' a live board in a browser"
        )),
        "show" if rest.is_empty() => Ok(s.status()),
        "show" => show::show(s, rest),
        "log" => show::log(s, rest),
        "place" if rest == "random" => play::autoplace(s),
        "autoplace" => play::autoplace(s),
        "undo" => play::undo(s, rest),
        "redo" => play::redo(s, rest),
        "fork" => branches::fork(s, rest),
        "branches" => Ok(branches::list(s)),
        "switch" => branches::switch(s, rest),
        "save" => save::save(s, rest),
        "load" => save::load_game(s, line, rest),
        "reload" => reload::reload(s, rest),
        "options" => Ok(setup::options(s)),
        "scenarios" => Ok(setup::scenarios(s)),
        "overlays" => Ok(setup::overlays(s)),
        "new" => setup::new_game(s, line, rest),
        "seat" => setup::seat(s, rest),
        "view" => setup::view(s, line, rest),
        "lua" => lua(s, line, rest),
        "roll" => odds::roll(s, rest),
        "odds" => odds::odds(s, rest),
        "sheet" => show::sheet(s, rest),
        "map" => show::map(s, rest),
        "yes" | "no" => confirm::answer(s, word),
        _ => play::action(s, line),
    }
}

/// `lua EXPR`: evaluates against a copy of the game. Scripts see every
/// face, so on a shared screen it asks first.
fn lua(s: &mut Session, line: &str, code: &str) -> Result<String, String> {
    if code.is_empty() {
        return Err("usage: lua EXPR (e.g. lua game.players())".into());
    }
    if let Some(question) =
        confirm::before_peeking(s, line, "'lua' reads the game as the rules do: it")
    {
        return Ok(question);
    }
    s.loaded
        .engine
        .lua_eval(s.state(), code)
        .map(|v| format!("{v}\n"))
        .map_err(|e| {
            // The traceback runs through the sandbox's own code: noise for
            // a one-line expression.
            let e = e.to_string();
            e.split("\nstack traceback:")
                .next()
                .unwrap_or(&e)
                .to_string()
        })
}

fn help(s: &Session, topic: &str) -> Result<String, String> {
    if topic.is_empty() {
        let examples: Vec<String> = play::examples(s).iter().map(|e| format!("'{e}'")).collect();
        let now = if examples.is_empty() {
            String::new()
        } else {
            format!(" (now, e.g. {})", examples.join(", "))
        };
        let mut out = format!(
            "Commands. An action is typed by its number from 'moves' or in notation{now}.\n"
        );
        for c in COMMANDS {
            out += &format!("  {:<38} {}\n", c.usage, c.summary);
        }
        out += "Tab completes commands, spaces, pieces, options, scenarios and files; Ctrl-C cancels a line, Ctrl-D leaves.\n";
        return Ok(out);
    }
    let topic = topic.trim().to_ascii_lowercase();
    let topic = match topic.as_str() {
        "?" => "help",
        "exit" => "quit",
        "autoplace" => "place",
        t => t,
    };
    COMMANDS
        .iter()
        .find(|c| c.name == topic)
        .map(|c| {
            let mut out = format!("{}\n  {}\n", c.usage, c.summary);
            for e in c.examples {
                out += &format!("  example: {e}\n");
            }
            if let Some(more) = details(c.name) {
                out += more;
            }
            if c.name == "moves" {
                out += &move_help::text(&s.loaded.engine.game);
            }
            out
        })
        .ok_or_else(|| {
            format!(
                "no command '{}': {}",
                quote(topic),
                crate::data::error::suggest(topic, COMMANDS.iter().map(|c| c.name))
            )
        })
}

/// Longer notes for the commands that need them.
fn details(name: &str) -> Option<&'static str> {
    Some(match name {
        "reload" => {
            "  When every action replays to the same positions, the new rules are taken at once.\n  Otherwise the first action now illegal or leading elsewhere is named, and you choose:\n    reload keep      keep the old rules and the game\n    reload truncate  take the new rules, cut the game before that action\n    reload restart   take the new rules, start again with the same seed\n  A rules error changes nothing and names the file and line.\n"
        }
        "view" => {
            "  The screen follows the human to move; in hot-seat play (two human seats) a\n  'pass to PLAYER' pause stands between turns. Another player's view, the god\n  view and 'lua' are peeks: they ask first (in hot-seat play the yes holds until\n  the turn passes; against bots it is asked once a game) and are marked.\n"
        }
        "save" => {
            "  A save holds the game id, the rules' fingerprint, scenario, options, seed,\n  seats, the actions in notation and any fresh dice (JSON): every seat's secrets.\n  Loading replays and checks them.\n"
        }
        "undo" => {
            "  Against a bot or in hot-seat play, an action played again after undo rolls\n  fresh dice, so undo never shows the dice to come; redo brings back the dice\n  that were rolled. Saves record the fresh dice: the game replays exactly.\n"
        }
        "odds" => {
            "  DICE: 2D6, 1D6x5+2, D100, coin. TABLE: 'attack' or a combat table's name\n  (coin entries count 50/50, script entries are named, not counted), or a dice\n  table with rows by roll, optionally with a modifier: odds contact +2.\n"
        }
        _ => return None,
    })
}
