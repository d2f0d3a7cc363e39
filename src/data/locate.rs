//! Finding where a path (`tables.attack_results.Cruiser.Destroyer`,
//! `options.3.script`) was written in a YAML file, so errors found after
//! parsing (a bad table cell, a missing script, a scenario override) still
//! name a line and column.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::fmt;

/// A YAML document reduced to its shape, every node with its position.
pub struct Outline(Spanned<Node>);

enum Node {
    Map(Vec<(String, Spanned<Node>)>),
    Seq(Vec<Spanned<Node>>),
    Leaf,
}

impl Outline {
    /// The outline of a YAML text; `None` when the text does not parse (its
    /// parse error is reported on its own).
    pub fn of(text: &str) -> Option<Outline> {
        serde_saphyr::from_str::<Spanned<Node>>(text)
            .ok()
            .map(Outline)
    }

    /// The line and column (from 1) of the node at a dotted path; list
    /// items are numbered from 0. Falls back to the deepest node found, so
    /// a missing key points at its parent.
    pub fn find(&self, path: &str) -> Option<(u64, u64)> {
        let mut node = &self.0;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            let next = match &node.value {
                Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                Node::Seq(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
                Node::Leaf => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        let at = node.referenced;
        (at.line() > 0).then(|| (at.line(), at.column()))
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
        while let Some(key) = map.next_key::<serde_json::Value>()? {
            let key = match key {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            entries.push((key, map.next_value()?));
        }
        Ok(Node::Map(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_str<E>(self, _: &str) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf)
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
}
