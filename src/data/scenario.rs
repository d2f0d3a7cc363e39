//! Scenarios: a game id, options switched on, overrides of the game's data,
//! an optional seed; a scenario may extend another one.

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::{GameFile, Ref};
use crate::data::locate::{Outline, place_in};
use crate::data::overlay::Overlay;
use crate::untrusted::echo;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeSet;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub game: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// Another scenario of the same game (`standard`) whose settings this
    /// one starts from.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub extends: Option<Ref>,
    /// Optional rules switched on; `-id` switches off one that `extends`
    /// switched on.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub options: Vec<Ref>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// Changes to game.yaml's data, merged key by key (maps merge, other
    /// values replace), e.g. `pieces: {kinds: {Merchant: {count: 3}}}`.
    #[serde(default)]
    #[schemars(with = "Option<serde_json::Map<String, Json>>")]
    pub overrides: Option<Outline>,
    /// Balance overlays of the game (names of files in its package's
    /// `overlays/` folder), laid on top of the overrides in this order.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub overlays: Vec<Ref>,
}

/// Where a value was written: the file, and line and column when known.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Written {
    pub value: String,
    pub file: String,
    pub at: Option<(u64, u64)>,
}

/// A scenario with its `extends` chain folded in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    pub id: String,
    /// The scenario's own file (the last of its `extends` chain).
    pub path: String,
    pub title: String,
    pub description: String,
    pub options: Vec<String>,
    /// Where each option id was written, for errors about it.
    pub options_at: Vec<Written>,
    pub seed: Option<u64>,
    /// Overrides in the order to apply them (the base scenario's first),
    /// each with the file it came from.
    pub overrides: Vec<(String, Outline)>,
    /// The game's overlays to lay on top, the base scenario's first, each
    /// with where it was named.
    pub overlays: Vec<Written>,
}

/// Parses one scenario file; errors carry line and column.
pub fn parse(path: &str, text: &str) -> Result<ScenarioFile, DataErrors> {
    crate::data::yaml::parse(path, text)
}

/// Folds a scenario onto the one it extends.
pub fn fold(base: Option<Scenario>, id: &str, file: &ScenarioFile, path: &str) -> Scenario {
    let mut s = base.unwrap_or_default();
    s.id = id.to_string();
    s.path = path.to_string();
    s.title = file.title.clone();
    s.description = file.description.clone();
    let written = |r: &Ref, value: &str| {
        let at = r.referenced;
        Written {
            value: value.to_string(),
            file: path.to_string(),
            at: (at.line() > 0).then(|| (at.line(), at.column())),
        }
    };
    for o in &file.options {
        s.options_at
            .push(written(o, o.value.trim_start_matches('-')));
        match o.value.strip_prefix('-') {
            Some(off) => s.options.retain(|x| x != off),
            None if !s.options.contains(&o.value) => s.options.push(o.value.clone()),
            None => {}
        }
    }
    for o in &file.overlays {
        if !s.overlays.iter().any(|w| w.value == o.value) {
            s.overlays.push(written(o, &o.value));
        }
    }
    s.seed = file.seed.or(s.seed);
    if let Some(o) = &file.overrides {
        s.overrides.push((path.to_string(), o.clone()));
    }
    s
}

/// Applies a scenario's overrides, then the overlays, to a game file.
/// Errors name the scenario or overlay file, and the line and column of
/// each bad key or value. `names` are those the package's Lua reads the
/// data by, which the overlays' keys are weighed against
/// ([`Overlay::apply`]); the warnings returned are the overlays' changes
/// of data no rule reads.
pub fn apply_overrides(
    game: &GameFile,
    overrides: &[(String, Outline)],
    overlays: &[Overlay],
    names: &BTreeSet<String>,
) -> Result<(GameFile, Vec<DataError>), DataErrors> {
    if overrides.is_empty() && overlays.is_empty() {
        return Ok((game.clone(), Vec::new()));
    }
    let mut value = serde_json::to_value(game).expect("a game file serializes");
    let mut errors = Vec::new();
    for (file, o) in overrides {
        let patch = o.to_json();
        if let (Some(base), Some(tables)) = (value.get("tables"), patch.get("tables")) {
            let mut path = vec!["tables".to_string()];
            for (at, message) in undeclared(base, tables, &mut path) {
                errors.push(DataError {
                    file: file.clone(),
                    at: o.find_key(at.iter().map(String::as_str)),
                    message,
                });
            }
        }
        merge(&mut value, &patch);
    }
    let mut warnings = Vec::new();
    for overlay in overlays {
        match overlay.apply(&mut value, names) {
            Ok(w) => warnings.extend(w),
            Err(e) => errors.extend(e.0),
        }
    }
    if !errors.is_empty() {
        return Err(DataErrors(errors));
    }
    let file = crate::data::yaml::from_tree(value, |path, key| {
        overlays
            .iter()
            .rev()
            .find_map(|o| o.place(path))
            .unwrap_or_else(|| place_in(overrides, path, key))
    })?;
    Ok((file, warnings))
}

/// What a scenario's `tables` override writes that the game does not
/// declare, or declares as another kind of value: rules read only the keys
/// game.yaml gives, so a misspelt `last_trun` would change nothing, and
/// `last_turn: four` would fail deep in a rule. Each problem comes with the
/// path of the key at fault.
fn undeclared(base: &Json, patch: &Json, path: &mut Vec<String>) -> Vec<(Vec<String>, String)> {
    let mut problems = Vec::new();
    let (Json::Object(base), Json::Object(patch)) = (base, patch) else {
        return problems;
    };
    for (key, value) in patch {
        path.push(key.clone());
        match base.get(key) {
            None => {
                let hint = suggest(key, base.keys().map(String::as_str));
                problems.push((
                    path.clone(),
                    format!(
                        "'{}' is not in the game's {}: an override changes what \
                         game.yaml declares ({hint}); declare a new key in game.yaml first",
                        echo(key),
                        path[..path.len() - 1].join(".")
                    ),
                ));
            }
            Some(declared) if !same_kind(declared, value) => problems.push((
                path.clone(),
                format!(
                    "'{}' must be {} as in game.yaml, not {}",
                    echo(key),
                    kind_of(declared),
                    kind_of(value)
                ),
            )),
            Some(declared) => problems.extend(undeclared(declared, value, path)),
        }
        path.pop();
    }
    problems
}

/// Whether an override's value has the kind of value the game declares.
fn same_kind(declared: &Json, value: &Json) -> bool {
    declared.is_null() || value.is_null() || kind_of(declared) == kind_of(value)
}

fn kind_of(value: &Json) -> &'static str {
    match value {
        Json::Null => "nothing",
        Json::Bool(_) => "true or false",
        Json::Number(_) => "a number",
        Json::String(_) => "text",
        Json::Array(_) => "a list",
        Json::Object(_) => "a mapping",
    }
}

/// Merges `patch` into `base`: maps key by key, anything else replaced.
pub fn merge(base: &mut Json, patch: &Json) {
    match (base, patch) {
        (Json::Object(b), Json::Object(p)) => {
            for (k, v) in p {
                match b.get_mut(k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_goes_key_by_key_and_replaces_leaves() {
        let mut base = json!({"a": {"b": 1, "c": 2}, "l": [1, 2]});
        merge(&mut base, &json!({"a": {"c": 3}, "l": [9]}));
        assert_eq!(base, json!({"a": {"b": 1, "c": 3}, "l": [9]}));
    }
}
