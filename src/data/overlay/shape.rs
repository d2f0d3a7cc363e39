//! The shape of a game's `tables`: which keys its maps have, place by
//! place, so that an overlay's key can be told from a misspelling.
//!
//! A place is a path with the parts that are data rather than names made
//! general: a list's item number (every item of a chart's list is like the
//! others), and the key of a map that collects things of one kind (a map
//! whose values are all lists or all maps, like `arrivals` by nation). So
//! the Gauls' turn-2 arrival may take `leader:`, which the Gauls' turn-3
//! arrival has, and `ships:`, which only the Byzantines' arrivals have; it
//! may not take `army:`, which no arrival has. A key that names one of
//! the game's own things (a player, a piece kind, a space) is data too, in
//! a map keyed by such names: a victory card may score an area no other
//! card scores.

use serde_json::{Map, Value as Json};
use std::collections::{BTreeSet, HashMap, HashSet};

/// One step of a place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A key that names a field.
    Key(String),
    /// Any item of a list.
    Item,
    /// Any key of a map that collects things of one kind.
    Any,
}

/// A place in the tables: the steps from `tables`.
pub type Place = Vec<Step>;

/// The keys the maps of the data have, by place.
#[derive(Debug, Default)]
pub struct Shape {
    keys: HashMap<Place, BTreeSet<String>>,
    collections: HashSet<Place>,
    /// The game's players, piece kinds and spaces, by name.
    things: HashSet<String>,
}

impl Shape {
    /// The shape of a game's `tables` (a map of tables, each named), in
    /// the whole data as game.yaml writes it.
    pub fn of(data: &Json) -> Shape {
        let mut shape = Shape {
            things: things(data),
            ..Shape::default()
        };
        if let Some(Json::Object(map)) = data.get("tables") {
            shape.keys.insert(Vec::new(), map.keys().cloned().collect());
            for (key, value) in map {
                shape.gather(value, vec![Step::Key(key.clone())]);
            }
        }
        shape
    }

    fn gather(&mut self, value: &Json, place: Place) {
        match value {
            Json::Object(map) => {
                self.keys
                    .entry(place.clone())
                    .or_default()
                    .extend(map.keys().cloned());
                let collects = collects(map);
                if collects {
                    self.collections.insert(place.clone());
                }
                for (key, inner) in map {
                    let step = if collects {
                        Step::Any
                    } else {
                        Step::Key(key.clone())
                    };
                    self.gather(inner, [&place[..], &[step]].concat());
                }
            }
            Json::Array(items) => {
                for item in items {
                    self.gather(item, [&place[..], &[Step::Item]].concat());
                }
            }
            _ => {}
        }
    }

    /// The keys the data's maps at a place have; `None` where the data
    /// has no map there to learn from (an empty list or map, or a place
    /// it does not have).
    pub fn keys_at(&self, place: &Place) -> Option<&BTreeSet<String>> {
        self.keys.get(place).filter(|k| !k.is_empty())
    }

    /// Whether a key names one of the game's things, and the map at the
    /// place is keyed by such names (or has no example): a key that is
    /// data, not a field.
    pub fn names_a_thing(&self, place: &Place, key: &str) -> bool {
        self.things.contains(key)
            && self
                .keys_at(place)
                .is_none_or(|keys| keys.iter().any(|k| self.things.contains(k)))
    }

    /// Whether the map at a place collects things of one kind, so its
    /// keys are data (a nation's name), not fields.
    pub fn collects_at(&self, place: &Place, map: Option<&Map<String, Json>>) -> bool {
        self.collections.contains(place)
            || (!self.keys.contains_key(place) && map.is_some_and(collects))
    }

    /// The place of a key inside the map at `place`.
    pub fn step(&self, place: &Place, key: &str, map: Option<&Map<String, Json>>) -> Place {
        let step = if self.collects_at(place, map) {
            Step::Any
        } else {
            Step::Key(key.to_string())
        };
        [&place[..], &[step]].concat()
    }
}

/// The names of the game's players, piece kinds and spaces.
fn things(data: &Json) -> HashSet<String> {
    let field = |list: Option<&Json>, key: &str| -> Vec<String> {
        list.and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|item| item.get(key)?.as_str().map(String::from))
            .collect()
    };
    let kinds = data
        .pointer("/pieces/kinds")
        .and_then(Json::as_object)
        .into_iter()
        .flat_map(|kinds| kinds.keys().cloned());
    field(data.get("players"), "id")
        .into_iter()
        .chain(field(data.pointer("/board/spaces"), "name"))
        .chain(kinds)
        .collect()
}

/// A map whose values are all lists, or all maps: a collection of things
/// of one kind by name.
fn collects(map: &Map<String, Json>) -> bool {
    !map.is_empty() && (map.values().all(Json::is_array) || map.values().all(Json::is_object))
}

/// The place one step below `place` in a list.
pub fn item(place: &Place) -> Place {
    [&place[..], &[Step::Item]].concat()
}
