//! `portolan replay`: saved games replayed under the current rules, a
//! designer's regression suite. Each save is replayed from its seed; the
//! first action that is now illegal, fails in a script, or leads to another
//! position than the one the save recorded is named (as "a hidden action"
//! when the save's players could not all see it: see `save::reader`).
//!
//! A save never chooses which code runs: its game and scenario are looked
//! up by id in the catalog (the stock rules, or `--rules DIR`), never at
//! the path it was played from.

use crate::data::catalog::Catalog;
use crate::kernel::state::POSITION_HASH_VERSION;
use crate::load::build;
use crate::repl::save::{SaveFile, read_save, reader, saved_overlays};
use crate::replay::{Step, replay};
use std::path::Path;

/// How one save fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every action replayed (to the recorded positions, when it has them).
    Same { actions: usize, checked: Positions },
    /// The game goes another way now, or the save could not be replayed.
    Diverged(String),
}

/// Whether a replay compared the positions a save recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    Compared,
    /// The save records none (it is older than position hashes in saves).
    NoneRecorded,
    /// The save's hashes are of another version of the position hash, so
    /// they cannot match this program's: comparing them would call every
    /// such save diverged.
    OtherHash(u32),
}

impl Positions {
    /// What a `same` line says about the positions.
    fn words(self) -> String {
        match self {
            Positions::Compared => " to the same positions".into(),
            Positions::NoneRecorded => " (no positions recorded to compare)".into(),
            Positions::OtherHash(v) => format!(
                " (its positions were recorded with position hash {v}, this portolan's is {}, \
                 so they are not compared: load it and save it again to record them)",
                POSITION_HASH_VERSION
            ),
        }
    }
}

/// Replays every save in `path` (a save file, or a folder of `.json`
/// saves, in name order): one line each, and whether all replayed alike.
pub fn replay_saves(catalog: &Catalog, path: &Path) -> Result<(String, bool), String> {
    let saves = if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("no saves (.json files) in {}", path.display()));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = String::new();
    let mut all_same = true;
    for save in &saves {
        let line = match replay_save(catalog, save) {
            Verdict::Same { actions, checked } => format!(
                "same      {}: {actions} actions replay{}",
                save.display(),
                checked.words()
            ),
            Verdict::Diverged(why) => {
                all_same = false;
                format!("diverged  {}: {why}", save.display())
            }
        };
        out += &line;
        out.push('\n');
    }
    Ok((out, all_same))
}

/// Replays one save under the catalog's rules.
pub fn replay_save(catalog: &Catalog, path: &Path) -> Verdict {
    match try_replay(catalog, path) {
        Ok(v) => v,
        Err(why) => Verdict::Diverged(why),
    }
}

fn try_replay(catalog: &Catalog, path: &Path) -> Result<Verdict, String> {
    let file = read_save(path)?;
    let target = match &file.scenario {
        Some(id) if id.starts_with(&format!("{}/", file.game)) => id.clone(),
        Some(id) => return Err(format!("its scenario '{id}' is not one of {}'s", file.game)),
        None => file.game.clone(),
    };
    let (package, scenario) = catalog.resolve(&target).map_err(|e| e.to_string())?;
    let overlays = saved_overlays(&file, &package, &[])?;
    let engine = build(&package, scenario.as_ref(), &file.options, &overlays)
        .map_err(|e| format!("the rules do not load: {e}"))?;
    // Replayed narrated, as the game was played and its positions recorded:
    // rules may keep narration in the state (the solitaire game's sheet
    // notes are variables), and a quiet replay would never reach them.
    engine.set_narration(true);
    let (recorded, positions) = recorded_steps(&file)?;
    let checked = recorded.is_some();
    let steps = recorded.unwrap_or_else(|| {
        file.actions
            .iter()
            .map(|n| Step {
                notation: n.clone(),
                hash: 0,
            })
            .collect()
    });
    let replayed = replay(
        &engine,
        file.seed,
        &file.actions,
        &file.reseeds,
        None,
        checked.then_some(&steps[..]),
    )?;
    Ok(match replayed.stop {
        Some(stop) => Verdict::Diverged(stop.describe(&steps, reader(&file, &engine.game))),
        None => Verdict::Same {
            actions: file.actions.len(),
            checked: positions,
        },
    })
}

/// The save's actions with the positions it recorded, to compare: `None`
/// for a save from before positions were recorded or with hashes of
/// another version (and which), an error for one whose count does not
/// match its actions (damaged or edited by hand).
fn recorded_steps(file: &SaveFile) -> Result<(Option<Vec<Step>>, Positions), String> {
    if file.positions.is_empty() {
        return Ok((None, Positions::NoneRecorded));
    }
    if file.position_hash != POSITION_HASH_VERSION {
        return Ok((None, Positions::OtherHash(file.position_hash)));
    }
    if file.positions.len() != file.actions.len() {
        return Err(format!(
            "the save records {} positions for {} actions: it is damaged",
            file.positions.len(),
            file.actions.len()
        ));
    }
    file.actions
        .iter()
        .zip(&file.positions)
        .map(|(notation, hex)| {
            let hash = u64::from_str_radix(hex, 16)
                .map_err(|_| format!("'{hex}' is not a position hash"))?;
            Ok(Step {
                notation: notation.clone(),
                hash,
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(|steps| (Some(steps), Positions::Compared))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn save(actions: &[&str], positions: &[&str]) -> SaveFile {
        SaveFile {
            format: 2,
            game: "g".into(),
            rules_fingerprint: String::new(),
            target: "g".into(),
            scenario: None,
            options: vec![],
            overlays: vec![],
            seed: 1,
            seats: Default::default(),
            viewer: None,
            actions: actions.iter().map(|a| a.to_string()).collect(),
            positions: positions.iter().map(|p| p.to_string()).collect(),
            reseeds: vec![],
            position_hash: POSITION_HASH_VERSION,
        }
    }

    #[test]
    fn positions_are_all_there_or_absent() {
        assert_eq!(
            recorded_steps(&save(&["a", "b"], &[])),
            Ok((None, Positions::NoneRecorded))
        );
        let steps = recorded_steps(&save(&["a", "b"], &["1f", "2e"]))
            .unwrap()
            .0
            .unwrap();
        assert_eq!(steps[1].hash, 0x2e);
        let e = recorded_steps(&save(&["a", "b"], &["1f"])).unwrap_err();
        assert!(e.contains("1 positions for 2 actions"), "{e}");
        let e = recorded_steps(&save(&["a"], &["xyz"])).unwrap_err();
        assert!(e.contains("'xyz' is not a position hash"), "{e}");
    }

    #[test]
    fn positions_of_another_hash_are_not_compared() {
        let old = SaveFile {
            position_hash: 1,
            ..save(&["a"], &["1f"])
        };
        assert_eq!(recorded_steps(&old), Ok((None, Positions::OtherHash(1))));
    }
}
