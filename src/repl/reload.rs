//! Hot reload: re-read the game's YAML and Lua, replay the game under the
//! new rules, and say whether it still plays the same.
//!
//! `reload` loads the package again with the same request. A rules error
//! changes nothing. If every action replays to the same positions the new
//! rules are adopted at once (with the undo stack and the forks rebuilt).
//! Otherwise the first action that is now illegal or leads elsewhere is
//! named and the reload waits for a choice, given as a sub-command (the
//! terminal asks for it at once): `reload keep` keeps the old rules and the
//! game; `reload truncate` adopts the new rules with the game cut before
//! that action; `reload restart` adopts them with a new game, same seed.

use crate::kernel::engine::Engine;
use crate::kernel::state::GameState;
use crate::load::{Loaded, load};
use crate::repl::line::Line;
use crate::repl::replay::{self, Replayed, Step};
use crate::repl::session::Session;
use std::time::Instant;

/// A reload waiting for the user's choice.
pub struct Pending {
    loaded: Loaded,
    /// The current line replayed under the new rules up to the stop.
    replayed: Replayed,
}

pub const CHOICES: &str = "reload keep | reload truncate | reload restart";

pub fn reload(s: &mut Session, arg: &str) -> Result<String, String> {
    match arg {
        "" => start(s),
        "keep" | "truncate" | "restart" => {
            let pending = s
                .pending
                .take()
                .ok_or_else(|| format!("no reload is waiting for a choice: 'reload {arg}' follows a 'reload' that stopped"))?;
            finish(s, pending, arg)
        }
        other => Err(format!(
            "'reload {other}': write 'reload', then, if asked, {CHOICES}"
        )),
    }
}

fn start(s: &mut Session) -> Result<String, String> {
    let clock = Instant::now();
    s.pending = None;
    let loaded = load(&s.catalog, &s.request).map_err(|e| {
        format!("the rules did not load; the game and its rules are unchanged.\n{e}")
    })?;
    let old = &s.loaded.engine;
    let new = &loaded.engine;
    let start_hash = old
        .new_game(s.seed)
        .map_err(|e| e.to_string())?
        .position_hash();
    let (steps, replayed) = replay_under(old, new, s.seed, s.state(), start_hash)?;
    let ms = clock.elapsed().as_secs_f64() * 1000.0;
    match &replayed.stop {
        None => {
            let notes = rebuild_forks(s, new, start_hash)?;
            s.line = rebase_line(&s.line, replayed);
            s.loaded = loaded;
            s.reset_narration();
            let done = format!(
                "reloaded {}: replayed {} actions, same positions ({ms:.1} ms)\n{notes}",
                s.loaded.package.root,
                steps.len(),
            );
            Ok(done + &s.after_change())
        }
        Some(stop) => {
            let text = format!(
                "reloaded {} ({ms:.1} ms): replayed {} of {} actions; {}.\nchoose: {CHOICES}\n  keep      the old rules, the game as it is\n  truncate  the new rules, the game cut before action {}\n  restart   the new rules, a new game with the same seed ({})\n",
                s.loaded.package.root,
                stop.replayed(),
                steps.len(),
                stop.describe(&steps, s.shown_viewer()),
                stop.replayed() + 1,
                s.seed_text()
            );
            s.pending = Some(Pending { loaded, replayed });
            Ok(text)
        }
    }
}

fn finish(s: &mut Session, pending: Pending, choice: &str) -> Result<String, String> {
    let Pending { loaded, replayed } = pending;
    match choice {
        "keep" => Ok(format!(
            "kept the old rules; the game is as it was\n{}",
            s.status()
        )),
        "truncate" => {
            let n = replayed.replayed();
            // The undo steps before the cut stay.
            s.line = rebase_line(&s.line, replayed);
            s.loaded = loaded;
            s.branches.clear();
            s.dirty = true;
            s.reset_narration();
            Ok(format!(
                "new rules; the game is cut to its first {n} actions (forks dropped)\n{}",
                s.after_change()
            ))
        }
        _ => {
            let state = loaded.engine.new_game(s.seed).map_err(|e| e.to_string())?;
            s.replace(loaded, Line::new(state));
            s.dirty = true;
            Ok(format!(
                "new rules; a new game with the same seed ({})\n{}",
                s.seed_text(),
                s.after_change()
            ))
        }
    }
}

/// The line under the new rules: the replay (to its end, or to where it
/// stopped), with the old line's undo steps before that point. The redo
/// steps are dropped.
fn rebase_line(line: &Line, replayed: Replayed) -> Line {
    let mut rebased = replayed.line;
    rebased.set_undo_marks(line.undo_marks().iter().copied());
    rebased
}

/// Replays every fork under the new rules; a fork that no longer replays
/// the same is dropped, with a note.
fn rebuild_forks(s: &mut Session, new: &Engine, start_hash: u64) -> Result<String, String> {
    let mut notes = String::new();
    let names: Vec<String> = s.branches.keys().cloned().collect();
    for name in names {
        let line = s.branches[&name].clone();
        let (steps, r) = replay_under(&s.loaded.engine, new, s.seed, line.state(), start_hash)?;
        match &r.stop {
            None => {
                s.branches.insert(name, rebase_line(&line, r));
            }
            Some(stop) => {
                let why = stop.describe(&steps, s.shown_viewer());
                notes += &format!("fork '{name}' dropped: {why}\n");
                s.branches.remove(&name);
            }
        }
    }
    Ok(notes)
}

/// Replays a line of play (from its seed to `state`, under the `old`
/// rules) under the `new` rules, comparing every position on the way.
/// Returns the line's steps and how the replay went.
fn replay_under(
    old: &Engine,
    new: &Engine,
    seed: u64,
    state: &GameState,
    start_hash: u64,
) -> Result<(Vec<Step>, Replayed), String> {
    let steps = replay::transcript(old, seed, state)?;
    let replayed = replay::replay(
        new,
        seed,
        &replay::notations(&steps),
        &state.reseeds,
        Some(start_hash),
        Some(&steps),
    )?;
    Ok((steps, replayed))
}
