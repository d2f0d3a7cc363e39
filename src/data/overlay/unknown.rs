//! Keys an overlay wrote into the tables that the data does not know: a
//! misspelt `army: 2` merged into an arrival, a new `tables.burhs`. Rules
//! read only the keys they name, so such a key would change nothing.
//!
//! A key is known where the data, before the overlay, has it at the same
//! place ([`Shape`]: the same map, or any map like it). Where the data has
//! no map there to learn from (game.yaml declares an empty list, like
//! Mediterranea's `increase: []`, for overlays to fill), a key is known
//! when the package's Lua names it ([`crate::script::lint::read_by_name`]).
//! Any other new key is declared in game.yaml first.

use super::shape::{Place, Shape, Step, item};
use crate::data::error::suggest;
use crate::untrusted::echo;
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// A key the data does not know: its path from the top of the data
/// (`tables`, `arrivals`, `Huns`, `2`, `army`), and why.
pub struct Unknown {
    pub path: Vec<String>,
    pub message: String,
}

/// Every unknown key in `tables` (after the overlay), measured against the
/// shape of the tables before it; keys inside an unknown key's value are
/// not reported again.
pub fn unknown_keys(shape: &Shape, tables: &Json, names: &BTreeSet<String>) -> Vec<Unknown> {
    let mut found = Vec::new();
    let mut path = vec!["tables".to_string()];
    walk(shape, tables, &Vec::new(), &mut path, names, &mut found);
    found
}

fn walk(
    shape: &Shape,
    value: &Json,
    place: &Place,
    path: &mut Vec<String>,
    names: &BTreeSet<String>,
    found: &mut Vec<Unknown>,
) {
    match value {
        Json::Object(map) => {
            let known = shape.keys_at(place);
            let like = place.iter().any(|s| !matches!(s, Step::Key(_)));
            for (key, inner) in map {
                path.push(key.clone());
                let thing = shape.names_a_thing(place, key);
                match known {
                    Some(keys) if !keys.contains(key) && !thing => found.push(Unknown {
                        path: path.clone(),
                        message: not_in_data(key, keys, &path[..path.len() - 1], like),
                    }),
                    None if !names.contains(key) && !thing => found.push(Unknown {
                        path: path.clone(),
                        message: not_named(key, names, &path[..path.len() - 1]),
                    }),
                    _ => walk(
                        shape,
                        inner,
                        &shape.step(place, key, Some(map)),
                        path,
                        names,
                        found,
                    ),
                }
                path.pop();
            }
        }
        Json::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                path.push(i.to_string());
                walk(shape, inner, &item(place), path, names, found);
                path.pop();
            }
        }
        _ => {}
    }
}

/// `like`: the place stands for several maps (the items of a list, the
/// nations of a chart).
fn not_in_data(key: &str, keys: &BTreeSet<String>, under: &[String], like: bool) -> String {
    format!(
        "'{}' is not a key of {}{} ({}): an overlay writes only keys game.yaml \
         gives; declare a new one in game.yaml first",
        echo(key),
        echo(&under.join(".")),
        if like { " or of any map like it" } else { "" },
        suggest(key, keys.iter().map(String::as_str))
    )
}

fn not_named(key: &str, names: &BTreeSet<String>, under: &[String]) -> String {
    format!(
        "'{}' is a key no rule reads: game.yaml has no example in {} and no Lua file of \
         the package names it ({}); declare a new key in game.yaml, and read it in a rule",
        echo(key),
        echo(&under.join(".")),
        suggest(key, names.iter().map(String::as_str))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn unknown(before: Json, after: Json, names: &[&str]) -> Vec<String> {
        let names = names.iter().map(|n| n.to_string()).collect();
        unknown_keys(&Shape::of(&json!({"tables": before})), &after, &names)
            .into_iter()
            .map(|u| format!("{}: {}", u.path.join("."), u.message))
            .collect()
    }

    #[test]
    fn a_key_of_any_item_like_it_is_known_and_a_misspelt_one_is_not() {
        let before = json!({"arrivals": {
            "Gauls": [{"turn": 2, "armies": 1}],
            "Huns": [{"turn": 3, "armies": 3, "leader": "Attila"}]}});
        let after = json!({"arrivals": {
            "Gauls": [{"turn": 2, "armies": 1, "leader": "Aetius", "army": 2}],
            "Huns": [{"turn": 3, "armies": 3, "leader": "Attila"}]}});
        let found = unknown(before, after, &["army"]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "tables.arrivals.Gauls.0.army: 'army' is not a key of tables.arrivals.Gauls.0 \
                 or of any map like it"
            ),
            "{found:?}"
        );
    }

    #[test]
    fn a_new_table_or_a_new_name_in_a_collection_is_unknown() {
        let before = json!({"arrivals": {"Huns": []}, "support": {"alone": 2}});
        let after = json!({"arrivals": {"Huns": [], "Hunz": []}, "support": {"alone": 2},
            "burhs": 8});
        let found = unknown(before, after, &[]);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("tables.arrivals.Hunz:"), "{found:?}");
        assert!(found[1].starts_with("tables.burhs:"), "{found:?}");
    }

    #[test]
    fn where_the_data_has_no_example_a_key_the_rules_name_is_known() {
        let before = json!({"increase": []});
        let after = json!({"increase": [{"nation": "Saxons", "turn": 12, "tims": 2}]});
        let found = unknown(before, after, &["nation", "turn", "times"]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("tables.increase.0.tims: 'tims' is a key no rule reads")
                && found[0].contains("did you mean 'times'?"),
            "{found:?}"
        );
    }
}
