//! The command-line commands behind `main.rs`: list, check, play and render
//! (simulate and merge are in `sim::command`, balance in `balance`).
//! Each returns the text to print or an error for people;
//! [`crate::output::finish`] writes either. Text from packages and from
//! the command line is echoed through [`crate::untrusted`].

mod folders;
mod render;

pub use folders::catalog;
pub use render::{Render, render};

use crate::data::catalog::Catalog;
use crate::data::overlay;
use crate::files::{Limit, read_text};
use crate::load::{Request, check as check_target};
use crate::repl::{self, Seat, Session};
use crate::untrusted::echo;
use std::io::IsTerminal;
use std::path::Path;

/// `portolan list`: games, their optional rules, their scenarios.
pub fn list(catalog: &Catalog) -> Result<String, String> {
    let mut out = String::new();
    for id in catalog.game_ids() {
        let package = catalog.package(&id).map_err(|e| e.to_string())?;
        let shown = echo(&id);
        match package.game_file() {
            Ok(f) => {
                out += &format!(
                    "{shown}  {}  ({} player{})\n",
                    echo(&f.title),
                    f.players.len(),
                    if f.players.len() == 1 { "" } else { "s" }
                );
                for o in &f.options {
                    out += &format!(
                        "    option {:>2}  {:<18} {}\n",
                        o.number,
                        echo(&o.id),
                        echo(&o.title)
                    );
                }
            }
            Err(e) => out += &format!("{shown}  (broken: {})\n", echo(&e.to_string())),
        }
        for s in catalog.scenario_ids(&id) {
            let title = catalog
                .scenario(&id, &s)
                .map(|sc| sc.title)
                .unwrap_or_else(|e| format!("(broken: {e})"));
            out += &format!("    scenario {shown}/{}  {}\n", echo(&s), echo(&title));
        }
        for name in overlay::names(&package) {
            let title = overlay::shipped(&package, &id, &name)
                .map(|o| o.file.title)
                .unwrap_or_else(|e| format!("(broken: {e})"));
            out += &format!("    overlay  {:<18} {}\n", echo(&name), echo(&title));
        }
    }
    Ok(out)
}

/// `portolan check TARGET...`: every error of every target, or a summary.
pub fn check(catalog: &Catalog, targets: &[String], overlays: &[String]) -> Result<String, String> {
    let mut out = String::new();
    let mut errors = Vec::new();
    for t in targets {
        match check_target(catalog, t, overlays) {
            Ok(checked) => {
                for c in checked.passed {
                    out += &format!("ok  {}\n", echo(&c));
                }
                for w in checked.warnings {
                    out += &format!("warning: {w}\n");
                }
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(format!("{out}{}", errors.join("\n")))
    }
}

/// The largest command file `play --commands` reads.
const COMMANDS_LIMIT: Limit = Limit {
    bytes: 16 << 20,
    what: "a command file",
};

/// `portolan play`: the REPL, interactive at a terminal, else reading
/// commands from a file or from standard input.
pub fn play(
    catalog: Catalog,
    request: Request,
    seed: Option<u64>,
    seats: &[(String, Seat)],
    commands: Option<&Path>,
    board: Option<std::net::SocketAddr>,
) -> Result<(), String> {
    let mut session = Session::start(catalog, request, seed, seats)?;
    if let Some(addr) = board {
        print!(
            "{}",
            crate::web::board::open(&mut session, &addr.to_string())?
        );
    }
    match commands {
        Some(path) => {
            let commands =
                read_text(path, COMMANDS_LIMIT).map_err(|e| format!("--commands {e}"))?;
            repl::scripted(session, commands.as_bytes())
        }
        None if std::io::stdin().is_terminal() => repl::interactive(session),
        None => repl::scripted(session, std::io::stdin().lock()),
    }
}

/// Reads a `--seat PLAYER=WHO` value.
pub fn seat(value: &str) -> Result<(String, Seat), String> {
    let (player, who) = value.split_once('=').ok_or_else(|| {
        format!(
            "--seat {}: write PLAYER=human or PLAYER=BOT (random, greedy, ismcts:1000)",
            echo(value)
        )
    })?;
    Ok((player.to_string(), Seat::parse(who)))
}

/// Reads a `host --seat PLAYER=WHO` value: `remote` or a bot.
pub fn host_seat(value: &str) -> Result<(String, crate::web::host::HostSeat), String> {
    let (player, who) = value.split_once('=').ok_or_else(|| {
        format!(
            "--seat {}: write PLAYER=remote or PLAYER=BOT (random, greedy, ismcts:1000)",
            echo(value)
        )
    })?;
    Ok((player.to_string(), crate::web::host::HostSeat::parse(who)))
}
