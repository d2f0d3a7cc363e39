//! Balance overlays: small edits of a game's data, laid on top of any
//! scenario. A designer tunes a side the way Britannia's notes do (give or
//! take a leader in a turn, change the armies that arrive, swap two
//! nations in the turn order) in a file of a few lines, and `balance`
//! measures the effect.
//!
//! An overlay names where to change (`path`, keys joined by dots, and in a
//! list the `item`s whose fields match) and one edit (`set`, `merge`,
//! `append`, `swap` or `remove`). Edits address the data as game.yaml
//! writes it, so an overlay reads like a margin note on the charts, and
//! every edit must find what it names: an overlay written for another
//! chart fails at its own line instead of changing nothing. Every key it
//! writes into the tables must be one the data knows ([`unknown`]), and a
//! change of data that no rule reads is reported as a warning
//! ([`unread`]).

mod edit;
mod shape;
mod unknown;
mod unread;

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::Ref;
use crate::data::locate::Outline;
use crate::data::package::{FILE_LIMIT, Package};
use crate::files::read_text;
use crate::untrusted::echo;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value as Json;
use shape::Shape;
use std::collections::BTreeSet;
use std::path::Path;

/// An overlay file as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverlayFile {
    pub game: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub changes: Vec<Change>,
}

/// One edit: where, and what to do there.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// Keys from the top of the data, joined by dots
    /// (`tables.arrivals.Huns`); a number picks a list's item (from 0).
    #[schemars(with = "String")]
    pub path: Ref,
    /// In the list at `path`: the items whose fields have these values
    /// (`{turn: 3}`), or the item at this number.
    #[serde(default)]
    pub item: Option<Json>,
    /// Replaces the value (or adds the key).
    #[serde(default)]
    pub set: Option<Json>,
    /// Merges keys into a map; a key given `null` is removed.
    #[serde(default)]
    pub merge: Option<serde_json::Map<String, Json>>,
    /// Adds one item at the end of a list.
    #[serde(default)]
    pub append: Option<Json>,
    /// Exchanges two items of a list, given by value.
    #[serde(default)]
    pub swap: Option<(Json, Json)>,
    /// Removes the key, or the selected items.
    #[serde(default)]
    pub remove: bool,
}

/// A loaded overlay: what the user called it, and its edits.
#[derive(Clone, Debug)]
pub struct Overlay {
    /// The name or path it was asked for by: reports and saves quote it.
    pub label: String,
    /// The file it was read from, for errors.
    pub path: String,
    pub file: OverlayFile,
    /// Where each key of the file was written, for errors inside a
    /// change's value.
    outline: Option<Outline>,
}

/// The folder of a package that holds its overlays.
const FOLDER: &str = "overlays/";

/// The overlays a package ships, by name.
pub fn names(package: &Package) -> Vec<String> {
    package
        .files
        .keys()
        .filter_map(|f| f.strip_prefix(FOLDER)?.strip_suffix(".yaml"))
        .filter(|name| !name.contains('/'))
        .map(String::from)
        .collect()
}

/// Finds an overlay of `game` (the package's id) the user asked for: a
/// file when the text has a `/` or ends in `.yaml`, else one the package
/// ships ([`shipped`]).
pub fn resolve(package: &Package, game: &str, asked: &str) -> Result<Overlay, DataErrors> {
    let is_file =
        asked.contains(['/', '\\']) || asked.ends_with(".yaml") || asked.ends_with(".yml");
    if !is_file {
        return shipped(package, game, asked);
    }
    let text = read_text(Path::new(asked), FILE_LIMIT)
        .map_err(|e| DataError::new(asked, format!("cannot read: {}", e.problem)))?;
    checked(Overlay::parse(asked, asked, &text)?, game)
}

/// An overlay the package ships in its `overlays/` folder, by name: all a
/// scenario or a save may name, so neither can make Portolan read a file
/// elsewhere.
pub fn shipped(package: &Package, game: &str, name: &str) -> Result<Overlay, DataErrors> {
    let file = format!("{FOLDER}{name}.yaml");
    let text = package.files.get(&file).ok_or_else(|| {
        let known = names(package);
        DataError::new(
            name,
            format!(
                "no overlay '{}' in {}/{FOLDER}: {} (an overlay of your own is \
                 given as a file, ./NAME.yaml, on the command line)",
                echo(name),
                package.root,
                suggest(name, known.iter().map(String::as_str)),
            ),
        )
    })?;
    checked(Overlay::parse(name, &package.path_of(&file), text)?, game)
}

fn checked(overlay: Overlay, game: &str) -> Result<Overlay, DataErrors> {
    if overlay.file.game != game {
        return Err(DataError::new(
            &overlay.path,
            format!(
                "this overlay is for '{}', not '{game}'",
                echo(&overlay.file.game)
            ),
        )
        .into());
    }
    Ok(overlay)
}

impl Overlay {
    /// Reads an overlay's text; `label` is how the user named it.
    pub fn parse(label: &str, path: &str, text: &str) -> Result<Overlay, DataErrors> {
        let file: OverlayFile = crate::data::yaml::parse(path, text)?;
        let errors: Vec<DataError> = file
            .changes
            .iter()
            .filter_map(|c| c.check().err().map(|m| DataError::at(path, &c.path, m)))
            .collect();
        if !errors.is_empty() {
            return Err(DataErrors(errors));
        }
        Ok(Overlay {
            label: label.to_string(),
            path: path.to_string(),
            file,
            outline: Outline::of(text),
        })
    }

    /// Applies every edit to the data, in order; every edit that cannot
    /// apply, and every key written into the tables that the data does not
    /// know, is reported at its line. `names` are the names the package's
    /// Lua reads the data by ([`crate::script::lint::read_by_name`]).
    /// Returns the warnings: changes of data that no rule reads.
    pub fn apply(
        &self,
        data: &mut Json,
        names: &BTreeSet<String>,
    ) -> Result<Vec<DataError>, DataErrors> {
        let shape = Shape::of(data);
        let mut errors: Vec<DataError> = self
            .file
            .changes
            .iter()
            .filter_map(|c| {
                c.apply(data)
                    .err()
                    .map(|m| DataError::at(&self.path, &c.path, m))
            })
            .collect();
        if errors.is_empty() {
            let tables = data.get("tables").unwrap_or(&Json::Null);
            errors = unknown::unknown_keys(&shape, tables, names)
                .into_iter()
                .map(|u| DataError {
                    file: self.path.clone(),
                    at: self.key_at(&u.path),
                    message: u.message,
                })
                .collect();
        }
        if !errors.is_empty() {
            errors.sort_by_key(|e| e.at);
            return Err(DataErrors(errors));
        }
        Ok(self
            .file
            .changes
            .iter()
            .filter_map(|c| {
                let unread = unread::unread_fields(c, &shape, names);
                (!unread.is_empty())
                    .then(|| DataError::at(&self.path, &c.path, unread_message(&unread)))
            })
            .collect())
    }

    /// Where the change that wrote a path of the data wrote its last key:
    /// the key inside the change's value, or the change's `path`.
    fn key_at(&self, path: &[String]) -> Option<(u64, u64)> {
        let (index, change) = self.writer(path)?;
        let mut rest = &path[change.keys().len()..];
        // The item a selector or an append reached is not written in the file.
        if (change.item.is_some() || change.append.is_some()) && !rest.is_empty() {
            rest = &rest[1..];
        }
        if rest.is_empty() {
            return change.path_at();
        }
        let index = index.to_string();
        let keys = ["changes", index.as_str(), change.edit_name()]
            .into_iter()
            .chain(rest.iter().map(String::as_str));
        self.outline
            .as_ref()
            .and_then(|o| o.find_key(keys))
            .or_else(|| change.path_at())
    }

    /// Where this overlay wrote a path of the data, if one of its edits
    /// covers it (the last such edit), for errors found in the result.
    pub fn place(&self, path: &[String]) -> Option<(String, Option<(u64, u64)>)> {
        let (_, change) = self.writer(path)?;
        Some((self.path.clone(), change.path_at()))
    }

    /// The last change whose path covers a path of the data, and its
    /// number in the file.
    fn writer(&self, path: &[String]) -> Option<(usize, &Change)> {
        self.file.changes.iter().enumerate().rev().find(|(_, c)| {
            let keys = c.keys();
            keys.len() <= path.len() && keys.iter().zip(path).all(|(k, p)| k == p)
        })
    }
}

impl Change {
    /// Where the change's `path` was written.
    fn path_at(&self) -> Option<(u64, u64)> {
        let at = self.path.referenced;
        (at.line() > 0).then(|| (at.line(), at.column()))
    }
}

/// The warning for a change that writes fields no rule reads.
fn unread_message(fields: &[String]) -> String {
    let quoted: Vec<String> = fields.iter().map(|f| format!("'{}'", echo(f))).collect();
    format!(
        "no rule reads {} (no Lua file of the package names it): this change edits data \
         that changes nothing in a game",
        quoted.join(", ")
    )
}
