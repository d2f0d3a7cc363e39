//! Where packages and scenarios come from: a rules folder on disk when
//! there is one (a designer's edits take effect without recompiling), else
//! the stock files embedded in the binary.
//!
//! A game id or a scenario name is a name, never a path: `../x`, `a/b` or
//! `/etc/x` names nothing, so neither a target nor a scenario's `extends`
//! can reach a file outside the rules and scenarios folders. A scenario
//! file on disk is read like a package's files (see [`read_inside`]): a
//! regular file, really inside its game's scenarios folder, of at most
//! [`FILE_LIMIT`].

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::package::{FILE_LIMIT, Package};
use crate::data::scenario::{self, Scenario};
use crate::files::{read_inside, read_text};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod stock {
    include!(concat!(env!("OUT_DIR"), "/stock.rs"));
}

/// A scenario chain longer than this is surely a cycle.
const MAX_EXTENDS: usize = 16;

/// The packages and scenarios a session can load.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    rules_dir: Option<PathBuf>,
    scenarios_dir: Option<PathBuf>,
}

impl Catalog {
    /// Disk folders win over the embedded files: the given ones, else
    /// `PORTOLAN_RULES` / `PORTOLAN_SCENARIOS`, else `./rules` and
    /// `./scenarios` when they exist (running from the repository).
    pub fn new(rules_dir: Option<PathBuf>, scenarios_dir: Option<PathBuf>) -> Catalog {
        let pick = |given: Option<PathBuf>, var: &str, local: &str| {
            given
                .or_else(|| std::env::var_os(var).map(PathBuf::from))
                .or_else(|| Some(PathBuf::from(local)).filter(|p| p.is_dir()))
        };
        Catalog {
            rules_dir: pick(rules_dir, "PORTOLAN_RULES", "rules"),
            scenarios_dir: pick(scenarios_dir, "PORTOLAN_SCENARIOS", "scenarios"),
        }
    }

    /// Only the embedded stock files, whatever is on disk.
    pub fn embedded() -> Catalog {
        Catalog::default()
    }

    pub fn game_ids(&self) -> Vec<String> {
        let mut ids: BTreeSet<String> = stock_dirs("rules/").into_iter().collect();
        if let Some(dir) = &self.rules_dir {
            ids.extend(
                subdirs(dir)
                    .into_iter()
                    .filter(|d| dir.join(d).join("game.yaml").is_file()),
            );
        }
        ids.into_iter().collect()
    }

    pub fn package(&self, id: &str) -> Result<Package, DataErrors> {
        if !is_name(id) {
            return Err(DataError::new(
                id,
                "no such game: a game id is a name like 'med-convoy', not a path \
                 (give a package folder as a path that exists)",
            )
            .into());
        }
        if let Some(dir) = self
            .rules_dir
            .as_ref()
            .map(|d| d.join(id))
            .filter(|d| d.join("game.yaml").is_file())
        {
            return Package::from_dir(&dir);
        }
        let prefix = format!("rules/{id}/");
        let files: BTreeMap<String, String> = stock::FILES
            .iter()
            .filter_map(|(p, text)| {
                p.strip_prefix(&prefix)
                    .map(|rel| (rel.to_string(), text.to_string()))
            })
            .collect();
        if files.is_empty() {
            let known = self.game_ids();
            let hint = suggest(id, known.iter().map(String::as_str));
            return Err(DataError::new(
                id,
                format!("no such game: {hint} ('portolan list' shows them all)"),
            )
            .into());
        }
        Ok(Package {
            root: format!("rules/{id}"),
            files,
        })
    }

    pub fn scenario_ids(&self, game: &str) -> Vec<String> {
        let prefix = format!("scenarios/{game}/");
        let mut ids: BTreeSet<String> = stock::FILES
            .iter()
            .filter_map(|(p, _)| {
                p.strip_prefix(&prefix)?
                    .strip_suffix(".yaml")
                    .map(String::from)
            })
            .collect();
        if let Some(dir) = &self.scenarios_dir
            && let Ok(entries) = std::fs::read_dir(dir.join(game))
        {
            ids.extend(entries.flatten().filter_map(|e| {
                e.file_name()
                    .to_str()?
                    .strip_suffix(".yaml")
                    .map(String::from)
            }));
        }
        ids.into_iter().collect()
    }

    /// A scenario by game and name, with its `extends` chain folded in.
    pub fn scenario(&self, game: &str, name: &str) -> Result<Scenario, DataErrors> {
        let (path, text) = self.scenario_text(game, name)?;
        self.fold(game, name, &path, &text, 0)
    }

    /// Resolves a CLI target: a game id (`med-convoy`), a scenario id
    /// (`med-convoy/radical`), a package folder or a scenario file.
    pub fn resolve(&self, target: &str) -> Result<(Package, Option<Scenario>), DataErrors> {
        let path = Path::new(target);
        if path.is_dir() {
            return Ok((Package::from_dir(path)?, None));
        }
        if path.symlink_metadata().is_ok() {
            let text = read_text(path, FILE_LIMIT)
                .map_err(|e| DataError::new(target, format!("cannot read: {}", e.problem)))?;
            let file = scenario::parse(target, &text)?;
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("scenario")
                .to_string();
            let s = self
                .beside(path, &file.game)
                .fold(&file.game, &name, target, &text, 0)?;
            return Ok((self.package(&file.game)?, Some(s)));
        }
        match target.split_once('/') {
            Some((game, name)) => Ok((self.package(game)?, Some(self.scenario(game, name)?))),
            None => Ok((self.package(target)?, None)),
        }
    }

    /// This catalog, with the scenarios of `game` taken from beside a
    /// scenario file when the file sits in a folder named after its game
    /// (`my-scenarios/med-convoy/wolves.yaml`), so its `extends` finds its
    /// siblings; elsewhere, from the catalog's own scenarios.
    fn beside(&self, file: &Path, game: &str) -> Catalog {
        let folder = file
            .parent()
            .filter(|f| f.file_name() == Some(game.as_ref()));
        match folder.and_then(Path::parent) {
            Some(scenarios) => Catalog {
                scenarios_dir: Some(scenarios.to_path_buf()),
                ..self.clone()
            },
            None => self.clone(),
        }
    }

    fn scenario_text(&self, game: &str, name: &str) -> Result<(String, String), DataErrors> {
        if !is_name(game) || !is_name(name) {
            return Err(DataError::new(
                &format!("{game}/{name}"),
                "no such scenario: a scenario is named by its game and its name \
                 ('med-convoy/radical'), not by a path",
            )
            .into());
        }
        if let Some((folder, p)) = self.scenarios_dir.as_ref().and_then(|d| {
            let folder = d.join(game);
            let p = folder.join(format!("{name}.yaml"));
            p.symlink_metadata().is_ok().then_some((folder, p))
        }) {
            let shown = p.display().to_string();
            let text = read_inside(&folder, &p, FILE_LIMIT)
                .map_err(|e| DataError::new(&shown, format!("cannot read: {}", e.problem)))?;
            return Ok((shown, text));
        }
        let path = format!("scenarios/{game}/{name}.yaml");
        match stock::FILES.iter().find(|(p, _)| *p == path) {
            Some((_, text)) => Ok((path, text.to_string())),
            None => {
                let known = self.scenario_ids(game);
                let hint = suggest(name, known.iter().map(String::as_str));
                Err(DataError::new(
                    &format!("{game}/{name}"),
                    format!("no such scenario: {hint}"),
                )
                .into())
            }
        }
    }

    fn fold(
        &self,
        game: &str,
        name: &str,
        path: &str,
        text: &str,
        depth: usize,
    ) -> Result<Scenario, DataErrors> {
        let file = scenario::parse(path, text)?;
        if file.game != game {
            return Err(DataError::new(
                path,
                format!("this scenario is for '{}', not '{game}'", file.game),
            )
            .into());
        }
        let base = match &file.extends {
            Some(_) if depth >= MAX_EXTENDS => {
                return Err(DataError::new(
                    path,
                    "'extends' goes more than 16 deep: is there a cycle?",
                )
                .into());
            }
            Some(parent) => {
                let (ppath, ptext) = self.scenario_text(game, &parent.value).map_err(|mut e| {
                    e.0.insert(
                        0,
                        DataError::at(
                            path,
                            parent,
                            format!("extends unknown scenario '{}'", parent.value),
                        ),
                    );
                    e
                })?;
                Some(self.fold(game, &parent.value, &ppath, &ptext, depth + 1)?)
            }
            None => None,
        };
        Ok(scenario::fold(base, &format!("{game}/{name}"), &file, path))
    }
}

/// A game id or a scenario name: one path component that is not `.` or
/// `..`, so joining it to a folder stays in that folder.
fn is_name(s: &str) -> bool {
    !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '\\', '\0'])
}

fn stock_dirs(prefix: &str) -> Vec<String> {
    stock::FILES
        .iter()
        .filter_map(|(p, _)| {
            p.strip_prefix(prefix)?
                .split_once('/')
                .map(|(d, _)| d.to_string())
        })
        .collect()
}

fn subdirs(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(String::from))
        .collect()
}
