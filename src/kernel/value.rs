//! Values that rules attach to pieces, players, spaces and the game.
//!
//! Rules keep every variable they need in the kernel (DESIGN principle 1),
//! so the values are plain data: cheap to clone, hash and serialize.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// One variable's value: the three types a rule book needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Str(s) => write!(f, "{s}"),
        }
    }
}

/// Named variables: a hash map, because rules read and write them by name
/// hundreds of times a game. Everything that shows an order (iteration,
/// saves, debug output) goes by name, so nothing depends on insertion or
/// hash order; the position hash combines entries order-free. An empty map
/// clones without allocating, which keeps pieces without attributes cheap.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Vars(HashMap<Box<str>, Value, BuildHasherDefault<NameHasher>>);

impl Vars {
    pub fn new() -> Vars {
        Vars::default()
    }

    /// Room for `n` more variables without growing the map.
    pub fn reserve(&mut self, n: usize) {
        self.0.reserve(n);
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.0.get_mut(name)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    pub fn insert(&mut self, name: impl Into<Box<str>>, value: Value) -> Option<Value> {
        self.0.insert(name.into(), value)
    }

    pub fn remove(&mut self, name: &str) -> Option<Value> {
        self.0.remove(name)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The variables in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        let mut entries: Vec<(&str, &Value)> = self.0.iter().map(|(k, v)| (&**k, v)).collect();
        entries.sort_unstable_by_key(|(k, _)| *k);
        entries.into_iter()
    }

    /// The variables in no particular order, for sums and order-free hashes.
    pub fn iter_unordered(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (&**k, v))
    }

    /// The first variable named after `name` in name order (all of them
    /// from the start for `None`): a step of an ordered walk.
    pub fn next_after(&self, name: Option<&str>) -> Option<(&str, &Value)> {
        self.iter_unordered()
            .filter(|(k, _)| name.is_none_or(|n| *k > n))
            .min_by_key(|(k, _)| *k)
    }
}

impl<'a> IntoIterator for &'a Vars {
    type Item = (&'a str, &'a Value);
    type IntoIter = std::vec::IntoIter<(&'a str, &'a Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter().collect::<Vec<_>>().into_iter()
    }
}

impl<K: Into<Box<str>>> FromIterator<(K, Value)> for Vars {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(items: I) -> Vars {
        Vars(items.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl fmt::Debug for Vars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Hash for Vars {
    /// Order-free: the entries' hashes combined with a commutative sum.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut sum = 0u64;
        for (k, v) in self.iter_unordered() {
            let mut h = NameHasher::default();
            k.hash(&mut h);
            v.hash(&mut h);
            sum = sum.wrapping_add(h.finish());
        }
        state.write_u64(sum);
    }
}

impl Serialize for Vars {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Vars {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Vars, D::Error> {
        let map = BTreeMap::<String, Value>::deserialize(d)?;
        Ok(map.into_iter().collect())
    }
}

/// A small, fast hash for variable names (the multiply-rotate hash of the
/// Firefox and rustc hash maps). Names come from the rules, not from an
/// adversary who could pick colliding ones to slow the host down: a rules
/// package can only hurt its own games, within the data limit.
#[derive(Default)]
pub struct NameHasher(u64);

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
