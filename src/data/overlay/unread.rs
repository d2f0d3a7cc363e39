//! Edits of data no rule reads: an overlay change whose path or value
//! names a field of the tables that no Lua file of the package names
//! ([`crate::script::lint::read_by_name`]). Such a change loads, and
//! changes nothing in any game; `check` and the run that lays the overlay
//! warn about it.
//!
//! Only fields are weighed: an item's number and a key of a map that
//! collects things by name (a nation's arrivals) are read by walking the
//! list or the map, and what lies outside `tables` is read by the kernel
//! and checked by the schema.

use super::Change;
use super::shape::{Place, Shape, item};
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// The fields a change writes or walks through that no rule names, in
/// the order met.
pub fn unread_fields(change: &Change, shape: &Shape, names: &BTreeSet<String>) -> Vec<String> {
    let keys = change.keys();
    let mut unread = Vec::new();
    if keys.first().map(String::as_str) != Some("tables") {
        return unread;
    }
    let mut place: Place = Vec::new();
    for key in &keys[1..] {
        let is_field = shape.keys_at(&place).is_some_and(|k| k.contains(key));
        if !is_field && key.parse::<usize>().is_ok() {
            place = item(&place);
            continue;
        }
        let data = shape.collects_at(&place, None) || shape.names_a_thing(&place, key);
        if !data && !names.contains(key) && !unread.contains(key) {
            unread.push(key.clone());
        }
        place = shape.step(&place, key, None);
    }
    let at = if change.item.is_some() {
        item(&place)
    } else {
        place.clone()
    };
    if let Some(fields) = &change.merge {
        walk_map(fields, &at, shape, names, &mut unread);
    } else if let Some(value) = &change.set {
        walk(value, &at, shape, names, &mut unread);
    } else if let Some(value) = &change.append {
        walk(value, &item(&place), shape, names, &mut unread);
    }
    unread
}

fn walk(
    value: &Json,
    place: &Place,
    shape: &Shape,
    names: &BTreeSet<String>,
    unread: &mut Vec<String>,
) {
    match value {
        Json::Object(map) => walk_map(map, place, shape, names, unread),
        Json::Array(items) => {
            for inner in items {
                walk(inner, &item(place), shape, names, unread);
            }
        }
        _ => {}
    }
}

fn walk_map(
    map: &serde_json::Map<String, Json>,
    place: &Place,
    shape: &Shape,
    names: &BTreeSet<String>,
    unread: &mut Vec<String>,
) {
    let by_name = shape.collects_at(place, Some(map));
    for (key, inner) in map {
        let data = by_name || shape.names_a_thing(place, key);
        if !data && !names.contains(key) && !unread.contains(key) {
            unread.push(key.clone());
        }
        walk(
            inner,
            &shape.step(place, key, Some(map)),
            shape,
            names,
            unread,
        );
    }
}
