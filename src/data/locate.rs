//! Finding where a path (`tables.attack_results.Cruiser.Destroyer`,
//! `options.3.script`) was written in a YAML file, so errors found after
//! parsing (a bad table cell, a missing script, a scenario override) still
//! name a line and column.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::Value as Json;
use serde_saphyr::{Location, Spanned};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A YAML document as a tree of keys, lists and values, every node and
/// every key with its position. It gives the document back as JSON
/// ([`Outline::to_json`]) for code that reads plain data.
///
/// An outline made by [`Outline::of`] reads its text only when a position
/// is first asked for: reading the positions of a large file costs more
/// than reading its data, and a package that loads without error never
/// asks.
#[derive(Clone, Debug)]
pub struct Outline {
    tree: OnceLock<Option<Spanned<Node>>>,
    /// The text still to read, for an outline made by [`Outline::of`].
    text: Option<Box<str>>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Map(Map),
    Seq(Vec<Spanned<Node>>),
    Leaf(Json),
}

/// A mapping's entries in the order written, with an index by key: errors
/// are placed one lookup each, and a file may hold a map of tens of
/// thousands of keys with an error at each.
#[derive(Clone, Debug, PartialEq)]
struct Map {
    entries: Vec<Entry>,
    /// Each key's first entry.
    index: HashMap<String, usize>,
}

#[derive(Clone, Debug, PartialEq)]
struct Entry {
    key: String,
    /// Where the key was written (a missing position when the YAML
    /// library did not give one).
    key_at: Location,
    value: Spanned<Node>,
}

impl Outline {
    /// The outline of a YAML text, read now, or the YAML library's reason
    /// why the text is not YAML at all.
    pub fn parse(text: &str) -> Result<Outline, serde_saphyr::Error> {
        read(text).map(Outline::from_tree)
    }

    /// The outline of a YAML text, read when first needed. Where the text
    /// does not parse (its parse error is reported on its own), the
    /// outline finds nothing.
    pub fn of(text: &str) -> Option<Outline> {
        Some(Outline {
            tree: OnceLock::new(),
            text: Some(text.into()),
        })
    }

    fn from_tree(tree: Spanned<Node>) -> Outline {
        Outline {
            tree: OnceLock::from(Some(tree)),
            text: None,
        }
    }

    /// The document's tree, read now if it was not yet.
    fn tree(&self) -> Option<&Spanned<Node>> {
        self.tree
            .get_or_init(|| self.text.as_deref().and_then(|t| read(t).ok()))
            .as_ref()
    }

    /// The line and column (from 1) of the node at a dotted path; list
    /// items are numbered from 0. Falls back to the deepest node found, so
    /// a missing key points at its parent.
    pub fn find(&self, path: &str) -> Option<(u64, u64)> {
        self.find_at(path.split('.').filter(|k| !k.is_empty()))
    }

    /// [`Outline::find`] for a path given key by key (keys may hold dots).
    pub fn find_at<'p>(&self, path: impl IntoIterator<Item = &'p str>) -> Option<(u64, u64)> {
        let (node, _) = self.walk(path)?;
        position(node.referenced)
    }

    /// Where the last key of a path was written: for an error about the
    /// key itself (an unknown key), rather than its value. Falls back as
    /// [`Outline::find_at`] does.
    pub fn find_key<'p>(&self, path: impl IntoIterator<Item = &'p str>) -> Option<(u64, u64)> {
        let (node, key_at) = self.walk(path)?;
        key_at
            .and_then(position)
            .or_else(|| position(node.referenced))
    }

    /// Whether the document has a node at this path (no fallback).
    pub fn has<'p>(&self, path: impl IntoIterator<Item = &'p str>) -> bool {
        let Some(mut node) = self.tree() else {
            return false;
        };
        for key in path {
            match child(node, key) {
                Some((n, _)) => node = n,
                None => return false,
            }
        }
        true
    }

    /// The document as plain data (null where the text is not YAML).
    pub fn to_json(&self) -> Json {
        self.tree().map_or(Json::Null, |t| json_of(&t.value))
    }

    /// The deepest node along a path, and where the key that led to it was
    /// written when the whole path was found.
    fn walk<'p>(
        &self,
        path: impl IntoIterator<Item = &'p str>,
    ) -> Option<(&Spanned<Node>, Option<Location>)> {
        let mut node = self.tree()?;
        let mut key_at = None;
        for key in path {
            match child(node, key) {
                Some((n, at)) => (node, key_at) = (n, at),
                None => return Some((node, None)),
            }
        }
        Some((node, key_at))
    }
}

/// Where a path was written among several files laid over one another
/// (a scenario's overrides, the base scenario's first): the last file that
/// writes it, with the line and column of its key (`key`) or value; the
/// last file, unplaced, when none writes it.
pub fn place_in(
    files: &[(String, Outline)],
    path: &[String],
    key: bool,
) -> (String, Option<(u64, u64)>) {
    let path = || path.iter().map(String::as_str);
    match files.iter().rev().find(|(_, o)| o.has(path())) {
        Some((file, o)) if key => (file.clone(), o.find_key(path())),
        Some((file, o)) => (file.clone(), o.find_at(path())),
        None => (
            files.last().map_or_else(String::new, |(f, _)| f.clone()),
            None,
        ),
    }
}

/// A map's entry by key, or a list's item by number, with where the key
/// was written.
fn child<'n>(node: &'n Spanned<Node>, key: &str) -> Option<(&'n Spanned<Node>, Option<Location>)> {
    match &node.value {
        Node::Map(map) => map
            .index
            .get(key)
            .map(|&i| &map.entries[i])
            .map(|e| (&e.value, Some(e.key_at))),
        Node::Seq(items) => key
            .parse::<usize>()
            .ok()
            .and_then(|i| items.get(i))
            .map(|n| (n, None)),
        Node::Leaf(_) => None,
    }
}

fn read(text: &str) -> Result<Spanned<Node>, serde_saphyr::Error> {
    serde_saphyr::from_str_with_options(text, crate::data::yaml::options())
}

fn position(at: Location) -> Option<(u64, u64)> {
    (at.line() > 0).then(|| (at.line(), at.column()))
}

fn json_of(node: &Node) -> Json {
    match node {
        Node::Map(map) => Json::Object(
            map.entries
                .iter()
                .map(|e| (e.key.clone(), json_of(&e.value.value)))
                .collect(),
        ),
        Node::Seq(items) => Json::Array(items.iter().map(|n| json_of(&n.value)).collect()),
        Node::Leaf(v) => v.clone(),
    }
}

/// An outline serializes as the plain data it holds.
impl Serialize for Outline {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Outline {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Spanned::<Node>::deserialize(d).map(Outline::from_tree)
    }
}

/// Two outlines are equal when they hold the same document.
impl PartialEq for Outline {
    fn eq(&self, other: &Outline) -> bool {
        self.tree() == other.tree()
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML node")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        let mut index = HashMap::new();
        while let Some(key) = map.next_key::<Spanned<Json>>()? {
            let name = match key.value {
                Json::String(s) => s,
                other => other.to_string(),
            };
            index.entry(name.clone()).or_insert(entries.len());
            entries.push(Entry {
                key: name,
                key_at: key.referenced,
                value: map.next_value()?,
            });
        }
        Ok(Node::Map(Map { entries, index }))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Leaf(Json::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Leaf(Json::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Leaf(Json::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        // JSON has no infinities or NaN: they read as null, which no
        // number field accepts, so they are still reported.
        Ok(Node::Leaf(Json::from(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Leaf(Json::from(v)))
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf(Json::Null))
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf(Json::Null))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_to_lines_and_columns() {
        let text = "tables:\n  combat:\n    Cruiser: { Destroyer: wins }\noptions:\n  - id: a\n    script: x.lua\n";
        let o = Outline::of(text).unwrap();
        assert_eq!(
            o.find("tables.combat.Cruiser.Destroyer").map(|p| p.0),
            Some(3)
        );
        assert_eq!(o.find("options.0.script"), Some((6, 13)));
        assert_eq!(
            o.find("tables.nothing").map(|p| p.0),
            Some(2),
            "a missing key points into its parent"
        );
    }

    #[test]
    fn keys_have_their_own_positions() {
        let o = Outline::of("board:\n  grid: { columns: 7 }\n").unwrap();
        assert_eq!(o.find_key(["board", "grid", "columns"]), Some((2, 11)));
        assert_eq!(o.find_at(["board", "grid", "columns"]), Some((2, 20)));
        assert!(o.has(["board", "grid"]));
        assert!(!o.has(["board", "spaces"]));
    }

    #[test]
    fn the_outline_holds_the_data() {
        let o = Outline::of("a: [1, -2, 1.5, 'yes', ~, x]\nb: { c: true }\n").unwrap();
        assert_eq!(
            o.to_json(),
            serde_json::json!({"a": [1, -2, 1.5, "yes", null, "x"], "b": {"c": true}})
        );
    }
}
