//! Saved games: data, not a memory dump. A save names the game, the rules'
//! fingerprint, the scenario and options, the seed, the seats, the seat it
//! was saved from, and the actions in notation. Loading replays the actions
//! under the rules and checks each one, so a save is also a test.
//!
//! Files are written atomically (see [`write_atomic`]), so a crash leaves
//! either the old save or the new one, never a broken one. `load` reads
//! only a regular file of at most [`SAVE_LIMIT`].

use crate::files::{Limit, read_text, write_atomic};
use crate::kernel::hash::{mix, str_key};
use crate::kernel::view::Viewer;
use crate::load::{Request, load};
use crate::repl::replay;
use crate::repl::session::{Seat, Session};
use serde::{Deserialize, Serialize};

/// The save format's version; loading refuses newer ones.
pub const FORMAT: u32 = 1;

/// The largest save `load` reads: a long game's save is a few hundred KiB.
pub const SAVE_LIMIT: Limit = Limit {
    bytes: 8 << 20,
    what: "a save",
};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub format: u32,
    pub game: String,
    /// A hash of every file of the rules package, in hex.
    pub rules_fingerprint: String,
    /// What was asked to play: a game id, a scenario id, a folder or a file.
    pub target: String,
    #[serde(default)]
    pub scenario: Option<String>,
    /// The optional rules switched on.
    pub options: Vec<String>,
    pub seed: u64,
    /// Who played each seat, by player id.
    pub seats: std::collections::BTreeMap<String, String>,
    /// The player whose eyes the game was shown through, if one seat.
    #[serde(default)]
    pub viewer: Option<String>,
    /// Every action, in notation, from the start.
    pub actions: Vec<String>,
}

/// The fingerprint of a package: its files' paths and contents, hashed.
pub fn fingerprint(files: &std::collections::BTreeMap<String, String>) -> String {
    let h = files.iter().fold(0u64, |h, (path, text)| {
        mix(h ^ str_key(path)).wrapping_add(str_key(text))
    });
    format!("{h:016x}")
}

/// A path as typed: `~/` stands for the home folder.
pub fn typed_path(arg: &str) -> std::path::PathBuf {
    match (arg.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => std::path::PathBuf::from(home).join(rest),
        _ => std::path::PathBuf::from(arg),
    }
}

/// `save FILE`
pub fn save(s: &mut Session, arg: &str) -> Result<String, String> {
    if arg.is_empty() {
        return Err("usage: save FILE (e.g. save game.json)".into());
    }
    let file = save_file(s)?;
    let text = serde_json::to_string_pretty(&file).expect("a save serializes") + "\n";
    write_atomic(&typed_path(arg), text.as_bytes())
        .map_err(|e| format!("cannot save to {arg}: {}", e.problem))?;
    s.dirty = false;
    Ok(format!("saved {} actions to {arg}\n", file.actions.len()))
}

fn save_file(s: &Session) -> Result<SaveFile, String> {
    let engine = &s.loaded.engine;
    let steps = replay::transcript(engine, s.seed, s.state())?;
    let g = &engine.game;
    let humans: Vec<usize> = (0..s.seats.len())
        .filter(|&i| s.seats[i] == Seat::Human)
        .collect();
    let viewer = match (humans.as_slice(), s.screen) {
        ([one], _) => Some(g.players[*one].id.clone()),
        (_, Viewer::Player(p)) if humans.len() > 1 => Some(g.player_id(p).to_string()),
        _ => None,
    };
    Ok(SaveFile {
        format: FORMAT,
        game: g.id.clone(),
        rules_fingerprint: fingerprint(&s.loaded.package.files),
        target: s.request.target.clone(),
        scenario: s.loaded.scenario.as_ref().map(|sc| sc.id.clone()),
        options: s.loaded.options.clone(),
        seed: s.seed,
        seats: s
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| (g.players[i].id.clone(), seat.name().to_string()))
            .collect(),
        viewer,
        actions: replay::notations(&steps),
    })
}

/// `load FILE`: replaces the game only if the whole save checks out.
pub fn load_game(s: &mut Session, arg: &str) -> Result<String, String> {
    if arg.is_empty() {
        return Err("usage: load FILE (a file written by 'save')".into());
    }
    let fail = |m: String| format!("cannot load {arg}: {m}; the current game is unchanged");
    let text = read_text(&typed_path(arg), SAVE_LIMIT).map_err(|e| fail(e.problem))?;
    let file: SaveFile =
        serde_json::from_str(&text).map_err(|e| fail(format!("not a Portolan save ({e})")))?;
    if file.format > FORMAT {
        return Err(fail(format!(
            "save format {} is newer than this program's ({FORMAT})",
            file.format
        )));
    }
    let request = Request {
        target: file.target.clone(),
        options: request_options(s, &file),
    };
    let loaded = load(&s.catalog, &request).map_err(|e| fail(e.to_string()))?;
    let g = &loaded.engine.game;
    if g.id != file.game {
        return Err(fail(format!(
            "it is a save of '{}', but '{}' loads '{}'",
            file.game, file.target, g.id
        )));
    }
    let mut seats = Vec::new();
    for p in &g.players {
        let who = file.seats.get(&p.id).map_or("human", String::as_str);
        seats.push(Seat::parse(who));
    }
    let viewer = match &file.viewer {
        Some(id) => Some(
            g.player_index(id)
                .ok_or_else(|| fail(format!("no player '{id}' in this game")))?,
        ),
        None => None,
    };
    let r = replay::replay(&loaded.engine, file.seed, &file.actions, None, None).map_err(fail)?;
    if let Some(stop) = &r.stop {
        let steps: Vec<replay::Step> = file
            .actions
            .iter()
            .map(|n| replay::Step {
                notation: n.clone(),
                hash: 0,
            })
            .collect();
        return Err(fail(format!(
            "the save does not replay: {}",
            stop.describe(&steps)
        )));
    }
    let mut notes = String::new();
    if fingerprint(&loaded.package.files) != file.rules_fingerprint {
        notes += "note: the rules changed since this game was saved; every action still replays\n";
    }
    for seat in &seats {
        if let Seat::Bot(b) = seat
            && !crate::bots::BOT_NAMES.contains(&b.as_str())
        {
            return Err(fail(format!("seat played by an unknown bot '{b}'")));
        }
    }
    // Everything checked: now the session changes.
    s.seed = file.seed;
    s.set_seats(seats).map_err(fail)?;
    s.request = request;
    let n = r.states.len() - 1;
    let mut states = r.states;
    let state = states.pop().expect("start state");
    s.replace(loaded, state);
    s.line.undo = states;
    s.forced_view = None;
    s.screen = viewer.map_or_else(|| s.wanted_viewer(), Viewer::Player);
    s.reset_narration();
    s.dirty = false;
    Ok(format!(
        "loaded {arg}: {} after {n} actions (seed {}, seats: {})\n{notes}{}",
        file.game,
        file.seed,
        s.seat_summary(),
        s.status()
    ))
}

/// The request options that give exactly the saved set: each option of the
/// game on or off explicitly.
fn request_options(s: &Session, file: &SaveFile) -> Vec<String> {
    let mut out: Vec<String> = file.options.clone();
    if let Ok(package) = s.catalog.package(&file.game)
        && let Ok(gf) = package.game_file()
    {
        for o in gf.options {
            if !file.options.contains(&o.id) {
                out.push(format!("-{}", o.id));
            }
        }
    }
    out
}
