//! Saved games: data, not a memory dump. A save names the game, the rules'
//! fingerprint, the scenario and options, the seed, the seats, the seat it
//! was saved from, the actions in notation and any fresh random streams
//! (see `fresh_dice`). Loading replays the actions under the rules and
//! checks each one, so a save is also a test.
//!
//! A save is the whole record: with the seed and the actions it holds
//! every seat's secrets. The seat it names is a preference the screen's
//! gate weighs, never a way round it (see `gate`).
//!
//! Files are written atomically (see [`write_atomic`]), so a crash leaves
//! either the old save or the new one, never a broken one.
//!
//! A save is data from anywhere, so loading one trusts nothing in it: the
//! file must be a regular file of at most [`SAVE_LIMIT`], and a save never
//! chooses which code runs. It loads under the session's own rules: its
//! game must be the session's game, and its scenario the session's or one
//! of that game's scenarios in the session's catalog, from the same rules
//! package. The `target` it records is only quoted, to say what to start
//! when it belongs elsewhere.

use crate::data::catalog::Catalog;
use crate::data::overlay::{self, Overlay};
use crate::files::{Limit, read_text, write_atomic};
use crate::kernel::game::Game;
use crate::kernel::hash::{mix, str_key};
use crate::kernel::piece::PlayerId;
use crate::kernel::state::POSITION_HASH_VERSION;
use crate::kernel::state::Reseed;
use crate::kernel::view::Viewer;
use crate::load::{Loaded, Request, build};
use crate::repl::session::{Seat, Session};
use crate::repl::{confirm, replay};
use serde::{Deserialize, Serialize};

/// The save format's version; loading refuses newer ones. Version 2 added
/// `position_hash` and fresh random streams after undo (`reseeds`), so a
/// program that knows only version 1 says the save is newer instead of
/// misreading it.
pub const FORMAT: u32 = 2;

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
    /// The balance overlays laid on the data, as they were asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlays: Vec<String>,
    pub seed: u64,
    /// Who played each seat, by player id.
    pub seats: std::collections::BTreeMap<String, String>,
    /// The player whose eyes the game was shown through, if one seat.
    #[serde(default)]
    pub viewer: Option<String>,
    /// Every action, in notation, from the start.
    pub actions: Vec<String>,
    /// The fresh random streams put in place before actions (each `at` an
    /// action counted from 0, in increasing order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reseeds: Vec<Reseed>,
    /// The position hash after each action, in hex: `portolan replay`
    /// compares them to tell an action that now leads elsewhere. (Older
    /// saves have none; only illegal or failing actions show then.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// The version of the position hash that wrote `positions` (see
    /// [`POSITION_HASH_VERSION`]); 1 in saves from before it was recorded.
    /// Hashes of another version than this program's are not compared.
    #[serde(default = "first_position_hash")]
    pub position_hash: u32,
}

/// The position hash of saves that do not say theirs.
fn first_position_hash() -> u32 {
    1
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
    let mut out = format!("saved {} actions to {arg}\n", file.actions.len());
    if s.hot_seat() && s.state().result.is_none() {
        out += "the save holds every seat's secrets (hidden pieces, the seed): keep it from the other players' eyes\n";
    }
    Ok(out)
}

fn save_file(s: &Session) -> Result<SaveFile, String> {
    let engine = &s.loaded.engine;
    let steps = replay::transcript(engine, s.seed, s.state())?;
    let g = &engine.game;
    let humans: Vec<usize> = (0..s.seats.len())
        .filter(|&i| s.seats[i] == Seat::Human)
        .collect();
    let viewer = match (humans.as_slice(), s.own_eyes()) {
        ([one], _) => Some(g.players[*one].id.clone()),
        (_, Viewer::Player(p)) if humans.len() > 1 => Some(g.player_id(p).to_string()),
        _ => None,
    };
    Ok(SaveFile {
        game: g.id.clone(),
        rules_fingerprint: fingerprint(&s.loaded.package.files),
        target: s.request.target.clone(),
        scenario: s.loaded.scenario.as_ref().map(|sc| sc.id.clone()),
        options: s.loaded.options.clone(),
        overlays: s.loaded.overlays.iter().map(|o| o.label.clone()).collect(),
        seed: s.seed,
        seats: s
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| (g.players[i].id.clone(), seat.name().to_string()))
            .collect(),
        viewer,
        actions: replay::notations(&steps),
        positions: steps.iter().map(|s| format!("{:016x}", s.hash)).collect(),
        reseeds: s.state().reseeds.clone(),
        position_hash: POSITION_HASH_VERSION,
        format: FORMAT,
    })
}

/// `load FILE`: replaces the game only if the whole save checks out.
pub fn load_game(s: &mut Session, line: &str, arg: &str) -> Result<String, String> {
    if arg.is_empty() {
        return Err("usage: load FILE (a file written by 'save')".into());
    }
    let fail = |m: String| format!("cannot load {arg}: {m}; the current game is unchanged");
    let current = Current {
        catalog: &s.catalog,
        loaded: &s.loaded,
        target: &s.request.target,
        reader: s.shown_viewer(),
    };
    let r = restore(&current, &typed_path(arg)).map_err(fail)?;
    // Everything checked: a save that cannot load is refused at once, and
    // only one that can asks before dropping an unsaved game.
    if let Some(question) = confirm::before_discarding(s, line) {
        return Ok(question);
    }
    s.seed = r.seed;
    s.set_seats(r.seats).map_err(fail)?;
    s.request = r.request;
    let n = r.replayed.replayed();
    s.replace(r.loaded, r.replayed.line);
    // Only the gate moves the screen; the save's viewer is a preference.
    s.preferred = r.viewer;
    s.reset_narration();
    s.dirty = false;
    Ok(format!(
        "loaded {arg}: {} after {n} actions (seed {}, seats: {})\n{}{}",
        r.game,
        s.seed_text(),
        s.seat_summary(),
        r.notes,
        s.status()
    ))
}

/// The game a save is loaded over: its rules are the only ones a save
/// may replay under (see the module doc).
pub struct Current<'a> {
    pub catalog: &'a Catalog,
    pub loaded: &'a Loaded,
    /// What was asked to play it (a game id, a scenario, a folder).
    pub target: &'a str,
    /// Whose eyes read what goes wrong: an action of the save they may not
    /// see is told as "a hidden action".
    pub reader: Viewer,
}

/// A save read, checked and replayed under the current game's rules,
/// ready to take its place.
pub struct Restored {
    pub game: String,
    pub loaded: Loaded,
    /// The request that reloads the saved game.
    pub request: Request,
    pub seed: u64,
    pub seats: Vec<Seat>,
    /// The player whose eyes the game was shown through, if one seat.
    pub viewer: Option<PlayerId>,
    pub replayed: replay::Replayed,
    /// Remarks for the user (the rules changed since, say), one a line.
    pub notes: String,
}

/// Reads a save file (within its size limit) and checks that this program
/// knows its format; every problem is an error in words.
pub fn read_save(path: &std::path::Path) -> Result<SaveFile, String> {
    let text = read_text(path, SAVE_LIMIT).map_err(|e| e.problem)?;
    let file: SaveFile =
        serde_json::from_str(&text).map_err(|e| format!("not a Portolan save ({e})"))?;
    if file.format > FORMAT {
        return Err(format!(
            "save format {} is newer than this program's ({FORMAT})",
            file.format
        ));
    }
    reseeds_in_place(&file)?;
    Ok(file)
}

/// Refuses fresh random streams out of order or past the last action: a
/// save edited by hand or damaged, which would not replay the game played.
fn reseeds_in_place(file: &SaveFile) -> Result<(), String> {
    let mut after = None;
    for r in &file.reseeds {
        if r.at >= file.actions.len() || after.is_some_and(|a| r.at <= a) {
            return Err(format!(
                "the save puts a fresh random stream at action {} out of place \
                 (it has {} actions, and the streams go in order): it is damaged",
                r.at.saturating_add(1),
                file.actions.len()
            ));
        }
        after = Some(r.at);
    }
    Ok(())
}

/// Whose eyes read a save's story away from the REPL (`portolan replay`):
/// its one human's, the table's when several humans shared a screen,
/// everyone's for a game of bots.
pub fn reader(file: &SaveFile, game: &Game) -> Viewer {
    let humans: Vec<PlayerId> = file
        .seats
        .iter()
        .filter(|(_, seat)| seat.as_str() == "human")
        .filter_map(|(player, _)| game.player_index(player))
        .collect();
    match humans.as_slice() {
        [] => Viewer::All,
        [one] => Viewer::Player(*one),
        _ => Viewer::Public,
    }
}

/// Reads the save at `path` and replays it under the rules of `current`:
/// what `load` does before it replaces the game, and what `portolan
/// render --save` draws. Every problem is an error in words.
pub fn restore(current: &Current, path: &std::path::Path) -> Result<Restored, String> {
    let file = read_save(path)?;
    plain_text(&file)?;
    let (loaded, request) = under_current_rules(current, &file)?;
    let g = &loaded.engine.game;
    if g.id != file.game {
        return Err(format!(
            "it is a save of '{}', but its scenario makes the game '{}'",
            file.game, g.id
        ));
    }
    let mut seats = Vec::new();
    for p in &g.players {
        let who = file.seats.get(&p.id).map_or("human", String::as_str);
        seats.push(Seat::parse(who));
    }
    let viewer = match &file.viewer {
        Some(id) => Some(
            g.player_index(id)
                .ok_or_else(|| format!("no player '{id}' in this game"))?,
        ),
        None => None,
    };
    let r = replay::replay(
        &loaded.engine,
        file.seed,
        &file.actions,
        &file.reseeds,
        None,
        None,
    )?;
    if let Some(stop) = &r.stop {
        let steps: Vec<replay::Step> = file
            .actions
            .iter()
            .map(|n| replay::Step {
                notation: n.clone(),
                hash: 0,
            })
            .collect();
        return Err(format!(
            "the save does not replay: {}",
            stop.describe(&steps, current.reader)
        ));
    }
    let mut notes = String::new();
    if fingerprint(&loaded.package.files) != file.rules_fingerprint {
        notes += "note: the rules changed since this game was saved; every action still replays\n";
    }
    for seat in &seats {
        if let Seat::Bot(b) = seat
            && let Err(e) = crate::bots::Spec::parse(b)
        {
            return Err(format!("a seat is played by an unknown bot: {e}"));
        }
    }
    Ok(Restored {
        game: file.game,
        loaded,
        request,
        seed: file.seed,
        seats,
        viewer,
        replayed: r,
        notes,
    })
}

/// Refuses a save with a control character in any of its words: they are
/// all shown on the terminal, where an escape sequence could rewrite the
/// screen or the terminal's title.
fn plain_text(file: &SaveFile) -> Result<(), String> {
    let words = [&file.game, &file.rules_fingerprint, &file.target]
        .into_iter()
        .chain(&file.scenario)
        .chain(&file.viewer)
        .chain(&file.options)
        .chain(&file.overlays)
        .chain(file.seats.iter().flat_map(|(player, seat)| [player, seat]))
        .chain(&file.actions);
    match words.into_iter().find(|w| w.chars().any(char::is_control)) {
        Some(w) => Err(format!(
            "not a Portolan save (a control character in {w:?})"
        )),
        None => Ok(()),
    }
}

/// The save's game, built under the current game's rules (see the module doc),
/// and the request that reloads it. A save of another game, or one whose
/// scenario comes from another rules package, is refused before any of its
/// rules' scripts run.
fn under_current_rules(s: &Current, file: &SaveFile) -> Result<(Loaded, Request), String> {
    let game = &s.loaded.engine.game.id;
    let elsewhere = || format!("start 'portolan play {}' and load it there", file.target);
    if file.game != *game {
        return Err(format!(
            "it is a save of '{}', and this session plays '{game}': {}",
            file.game,
            elsewhere()
        ));
    }
    let current = s.loaded.scenario.as_ref().map(|sc| sc.id.as_str());
    let target = match file.scenario.as_deref() {
        same if same == current => s.target.to_string(),
        None => game.clone(),
        Some(id) => {
            let known = s.catalog.scenario_ids(game);
            id.strip_prefix(&format!("{game}/"))
                .filter(|name| known.iter().any(|k| k == name))
                .map(|name| format!("{game}/{name}"))
                .ok_or_else(|| {
                    format!(
                        "it was played in scenario '{id}', which is not one of {game}'s scenarios here: {}",
                        elsewhere()
                    )
                })?
        }
    };
    let (package, scenario) = s.catalog.resolve(&target).map_err(|e| e.to_string())?;
    if package.root != s.loaded.package.root {
        return Err(format!(
            "its scenario comes with the rules in {}, but this session plays the rules in {}, \
             and a save never switches rules: {}",
            package.root,
            s.loaded.package.root,
            elsewhere()
        ));
    }
    let overlays = saved_overlays(file, &package, &s.loaded.overlays)?;
    let engine =
        build(&package, scenario.as_ref(), &file.options, &overlays).map_err(|e| e.to_string())?;
    let request = Request {
        target,
        options: every_option(&engine.game, &file.options),
        overlays: file.overlays.clone(),
    };
    let loaded = Loaded {
        engine,
        package,
        scenario,
        options: file.options.clone(),
        overlays,
        // The overlays' warnings were shown when the game was first played.
        warnings: Vec::new(),
    };
    Ok((loaded, request))
}

/// The overlays a save was played with: each one the session plays with
/// too, or one the rules package ships. A save never names a file to
/// read, so an overlay from a file must be given to the session first.
pub fn saved_overlays(
    file: &SaveFile,
    package: &crate::data::package::Package,
    current: &[Overlay],
) -> Result<Vec<Overlay>, String> {
    let shipped = overlay::names(package);
    file.overlays
        .iter()
        .map(|label| match current.iter().find(|o| &o.label == label) {
            Some(o) => Ok(o.clone()),
            None if shipped.contains(label) => {
                overlay::shipped(package, &file.game, label).map_err(|e| e.to_string())
            }
            None => Err(format!(
                "it was played with the overlay '{label}', which is not one {} ships: \
                 start 'portolan play {} --overlay {label}' and load it there",
                package.root, file.target
            )),
        })
        .collect()
}

/// The request options that give exactly the saved set, whatever the
/// scenario switches on: each option of the game on or off explicitly.
fn every_option(game: &Game, on: &[String]) -> Vec<String> {
    let off = game
        .options
        .iter()
        .filter(|o| !on.contains(&o.id))
        .map(|o| format!("-{}", o.id));
    on.iter().cloned().chain(off).collect()
}
