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

mod shape;
mod unknown;
mod unread;

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::Ref;
use crate::data::locate::Outline;
use crate::data::package::{FILE_LIMIT, Package};
use crate::data::scenario::merge;
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
        let (index, change) = self.file.changes.iter().enumerate().rev().find(|(_, c)| {
            let keys = c.keys();
            keys.len() <= path.len() && keys.iter().zip(path).all(|(k, p)| k == p)
        })?;
        let mut rest = &path[change.keys().len()..];
        // The item a selector or an append reached is not written in the file.
        if (change.item.is_some() || change.append.is_some()) && !rest.is_empty() {
            rest = &rest[1..];
        }
        let at = change.path.referenced;
        let at_path = (at.line() > 0).then(|| (at.line(), at.column()));
        if rest.is_empty() {
            return at_path;
        }
        let index = index.to_string();
        let keys = ["changes", index.as_str(), change.edit_name()]
            .into_iter()
            .chain(rest.iter().map(String::as_str));
        self.outline
            .as_ref()
            .and_then(|o| o.find_key(keys))
            .or(at_path)
    }

    /// Where this overlay wrote a path of the data, if one of its edits
    /// covers it (the last such edit), for errors found in the result.
    pub fn place(&self, path: &[String]) -> Option<(String, Option<(u64, u64)>)> {
        let change = self.file.changes.iter().rev().find(|c| {
            let keys = c.keys();
            keys.len() <= path.len() && keys.iter().zip(path).all(|(k, p)| k == p)
        })?;
        let at = change.path.referenced;
        Some((
            self.path.clone(),
            (at.line() > 0).then(|| (at.line(), at.column())),
        ))
    }
}

/// What an edit does, once checked.
enum Edit<'a> {
    Set(&'a Json),
    Merge(&'a serde_json::Map<String, Json>),
    Append(&'a Json),
    Swap(&'a Json, &'a Json),
    Remove,
}

impl Change {
    fn keys(&self) -> Vec<String> {
        self.path
            .value
            .split('.')
            .map(|k| k.trim().to_string())
            .collect()
    }

    /// Exactly one edit, and an `item` that is a number or a map.
    fn check(&self) -> Result<(), String> {
        let edits = [
            self.set.is_some(),
            self.merge.is_some(),
            self.append.is_some(),
            self.swap.is_some(),
            self.remove,
        ];
        match edits.iter().filter(|&&e| e).count() {
            1 => {}
            0 => {
                return Err(format!(
                    "the change at '{}' says nothing to do: give one of set, merge, append, \
                     swap or remove: true (to clear a value, use remove)",
                    echo(&self.path.value)
                ));
            }
            _ => {
                return Err(format!(
                    "the change at '{}' gives several edits: write one change for each",
                    echo(&self.path.value)
                ));
            }
        }
        if self.keys().iter().any(String::is_empty) {
            return Err(format!(
                "'{}' is not a path: write keys joined by dots, like tables.arrivals.Huns",
                echo(&self.path.value)
            ));
        }
        match &self.item {
            None | Some(Json::Object(_)) => Ok(()),
            Some(Json::Number(n)) if n.as_u64().is_some() => Ok(()),
            Some(_) => Err(format!(
                "the item at '{}' must be a map of fields to match, like {{turn: 3}}, \
                 or an item number from 0",
                echo(&self.path.value)
            )),
        }
    }

    /// The key of the file that holds the edit.
    fn edit_name(&self) -> &'static str {
        match self.edit() {
            Edit::Set(_) => "set",
            Edit::Merge(_) => "merge",
            Edit::Append(_) => "append",
            Edit::Swap(..) => "swap",
            Edit::Remove => "remove",
        }
    }

    fn edit(&self) -> Edit<'_> {
        if let Some(v) = &self.set {
            Edit::Set(v)
        } else if let Some(m) = &self.merge {
            Edit::Merge(m)
        } else if let Some(v) = &self.append {
            Edit::Append(v)
        } else if let Some((a, b)) = &self.swap {
            Edit::Swap(a, b)
        } else {
            Edit::Remove
        }
    }

    fn apply(&self, data: &mut Json) -> Result<(), String> {
        let keys = self.keys();
        let (last, parents) = keys.split_last().expect("a path has a key");
        let mut at = data;
        let mut walked = String::new();
        for key in parents {
            at = child(at, key, &walked)?;
            walked = join(&walked, key);
        }
        let whole = join(&walked, last);
        let edit = self.edit();
        // `set` and `merge` may add a key to a map; every other edit
        // needs what it names to exist.
        if self.item.is_none() {
            match (edit, at) {
                (Edit::Remove, Json::Object(map)) => {
                    return map
                        .remove(last)
                        .map(drop)
                        .ok_or_else(|| missing(map, last, &walked));
                }
                (Edit::Remove, at @ Json::Array(_)) => {
                    child(at, last, &walked)?;
                    if let Json::Array(list) = at {
                        list.remove(last.parse::<usize>().expect("child found it by number"));
                    }
                    return Ok(());
                }
                (Edit::Set(v), Json::Object(map)) => {
                    map.insert(last.clone(), v.clone());
                    return Ok(());
                }
                (edit, at) => return edit_value(child(at, last, &walked)?, edit, &whole),
            }
        }
        let list = match child(at, last, &walked)? {
            Json::Array(list) => list,
            _ => {
                return Err(format!(
                    "'{}' is not a list, so it has no items",
                    echo(&whole)
                ));
            }
        };
        let chosen = select(list, self.item.as_ref().expect("an item"), &whole)?;
        if let Edit::Remove = edit {
            let mut index = 0;
            list.retain(|_| {
                index += 1;
                !chosen.contains(&(index - 1))
            });
            return Ok(());
        }
        for i in chosen {
            edit_value(&mut list[i], self.edit(), &format!("{whole} item {i}"))?;
        }
        Ok(())
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

/// A map's value by key, or a list's item by number.
fn child<'a>(at: &'a mut Json, key: &str, walked: &str) -> Result<&'a mut Json, String> {
    match at {
        Json::Object(map) => {
            if !map.contains_key(key) {
                return Err(missing(map, key, walked));
            }
            Ok(map.get_mut(key).expect("checked"))
        }
        Json::Array(list) => {
            let len = list.len();
            key.parse::<usize>()
                .ok()
                .and_then(|i| list.get_mut(i))
                .ok_or_else(|| {
                    format!(
                        "'{}' is a list of {len}: name an item by number (0 to {}), \
                         or select items with item: {{field: value}}",
                        echo(walked),
                        len.saturating_sub(1)
                    )
                })
        }
        _ => Err(format!(
            "'{}' is a single value, with no '{}' inside",
            echo(walked),
            echo(key)
        )),
    }
}

fn missing(map: &serde_json::Map<String, Json>, key: &str, walked: &str) -> String {
    let under = if walked.is_empty() {
        "at the top of the data".to_string()
    } else {
        format!("under '{}'", echo(walked))
    };
    format!(
        "no '{}' {under}: {}",
        echo(key),
        suggest(key, map.keys().map(String::as_str))
    )
}

fn join(walked: &str, key: &str) -> String {
    if walked.is_empty() {
        key.to_string()
    } else {
        format!("{walked}.{key}")
    }
}

/// The numbers of the items an `item:` names; at least one.
fn select(list: &[Json], item: &Json, whole: &str) -> Result<Vec<usize>, String> {
    let chosen: Vec<usize> = match item {
        Json::Number(n) => n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n < list.len())
            .into_iter()
            .collect(),
        Json::Object(fields) => (0..list.len())
            .filter(|&i| {
                fields
                    .iter()
                    .all(|(k, v)| list[i].get(k).is_some_and(|x| same(x, v)))
            })
            .collect(),
        _ => unreachable!("checked when read"),
    };
    if chosen.is_empty() {
        return Err(format!(
            "no item of '{}' matches {} ({})",
            echo(whole),
            echo(&item.to_string()),
            what_items_have(list, item)
        ));
    }
    Ok(chosen)
}

/// What the list offers for the first field an `item:` asks about, so a
/// wrong value can be corrected: `its items have turn 2, 3, 4`.
fn what_items_have(list: &[Json], item: &Json) -> String {
    let Some((field, _)) = item.as_object().and_then(|f| f.iter().next()) else {
        return format!("it has {} items, numbered from 0", list.len());
    };
    let mut values: Vec<String> = list
        .iter()
        .filter_map(|i| i.get(field))
        .map(Json::to_string)
        .collect();
    values.dedup();
    if values.is_empty() {
        return format!("no item has a field '{}'", echo(field));
    }
    format!(
        "its items have {} {}",
        echo(field),
        echo(&values.join(", "))
    )
}

/// Equal as data: `3` and `3.0` are the same number.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn edit_value(at: &mut Json, edit: Edit<'_>, whole: &str) -> Result<(), String> {
    match (edit, at) {
        (Edit::Set(v), at) => *at = v.clone(),
        (Edit::Merge(fields), Json::Object(map)) => {
            for (k, v) in fields {
                match (v, map.get_mut(k)) {
                    (Json::Null, _) => {
                        map.remove(k);
                    }
                    (v, Some(slot)) => merge(slot, v),
                    (v, None) => {
                        map.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (Edit::Append(v), Json::Array(list)) => list.push(v.clone()),
        (Edit::Swap(a, b), Json::Array(list)) => {
            let find = |x: &Json| {
                let found: Vec<usize> = (0..list.len()).filter(|&i| same(&list[i], x)).collect();
                match found.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(format!(
                        "'{}' has no item {}",
                        echo(whole),
                        echo(&x.to_string())
                    )),
                    _ => Err(format!(
                        "'{}' has {} several times: swap needs items that occur once",
                        echo(whole),
                        echo(&x.to_string())
                    )),
                }
            };
            let (i, j) = (find(a)?, find(b)?);
            list.swap(i, j);
        }
        (Edit::Remove, _) => unreachable!("removal is done by the parent"),
        (Edit::Merge(_), _) => return Err(format!("'{}' is not a map to merge into", echo(whole))),
        (Edit::Append(_) | Edit::Swap(..), _) => {
            return Err(format!("'{}' is not a list", echo(whole)));
        }
    }
    Ok(())
}
