//! The command-line commands behind `main.rs`: list, check and play
//! (simulate and merge are in `sim::command`). Each returns the text to
//! print or an error for people.

use crate::data::catalog::Catalog;
use crate::files::{Limit, read_text};
use crate::load::{Request, check as check_target};
use crate::repl::{self, Seat, Session};
use std::io::IsTerminal;
use std::path::Path;

/// `portolan list`: games, their optional rules, their scenarios.
pub fn list(catalog: &Catalog) -> Result<String, String> {
    let mut out = String::new();
    for id in catalog.game_ids() {
        let package = catalog.package(&id).map_err(|e| e.to_string())?;
        match package.game_file() {
            Ok(f) => {
                out += &format!(
                    "{id}  {}  ({} player{})\n",
                    f.title,
                    f.players.len(),
                    if f.players.len() == 1 { "" } else { "s" }
                );
                for o in &f.options {
                    out += &format!("    option {:>2}  {:<18} {}\n", o.number, o.id, o.title);
                }
            }
            Err(e) => out += &format!("{id}  (broken: {e})\n"),
        }
        for s in catalog.scenario_ids(&id) {
            let title = catalog
                .scenario(&id, &s)
                .map(|sc| sc.title)
                .unwrap_or_else(|e| format!("(broken: {e})"));
            out += &format!("    scenario {id}/{s}  {title}\n");
        }
    }
    Ok(out)
}

/// `portolan check TARGET...`: every error of every target, or a summary.
pub fn check(catalog: &Catalog, targets: &[String]) -> Result<String, String> {
    let mut out = String::new();
    let mut errors = Vec::new();
    for t in targets {
        match check_target(catalog, t) {
            Ok(checked) => {
                for c in checked {
                    out += &format!("ok  {c}\n");
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
) -> Result<(), String> {
    let session = Session::start(catalog, request, seed, seats)?;
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
