//! Values that rules attach to pieces, players, spaces and the game.
//!
//! Rules keep every variable they need in the kernel (DESIGN principle 1),
//! so the values are plain data: cheap to clone, hash and serialize.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;

/// One variable's value: the three types a rule book needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
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
/// hash order; the position hash combines entries order-free.
///
/// The map is shared between copies until one of them changes it (copy on
/// write), and an empty one is no map at all. Bots that weigh a move copy
/// the whole game state for each move they try, with every piece's
/// attributes and every frame's context, and change few of them: a copy
/// then costs a reference count per map instead of a map per map.
/// (`Rc`, not `Arc`: a game state stays on the thread that plays it, and
/// a variable write then costs no atomic operation.) The names are shared
/// too, so the first change to a copy's map copies no name: in a greedy
/// Mediterranea game, where the first write after each copy copies a map
/// of some hundred variables, that halved the copy.
#[derive(Clone, Default)]
pub struct Vars(Option<Rc<Map>>);

type Map = HashMap<Rc<str>, Value, BuildHasherDefault<NameHasher>>;

impl Vars {
    pub fn new() -> Vars {
        Vars::default()
    }

    /// The map, to change: this copy's own from now on.
    fn map_mut(&mut self) -> &mut Map {
        own(self.0.get_or_insert_with(Rc::default))
    }

    /// Room for `n` more variables without growing the map.
    pub fn reserve(&mut self, n: usize) {
        self.map_mut().reserve(n);
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.as_ref()?.get(name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        let map = self.0.as_mut()?;
        // A shared map is copied only if the name is there to change.
        if Rc::get_mut(map).is_none() && !map.contains_key(name) {
            return None;
        }
        own(map).get_mut(name)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.0.as_ref().is_some_and(|m| m.contains_key(name))
    }

    pub fn insert(&mut self, name: impl Into<Rc<str>>, value: Value) -> Option<Value> {
        self.map_mut().insert(name.into(), value)
    }

    /// Sets `name` to `value`: in place when the name is there, else under
    /// the name's shared text (see [`shared_name`]), so a write allocates
    /// no name.
    pub fn set(&mut self, name: &str, value: Value) {
        let map = self.map_mut();
        match map.get_mut(name) {
            Some(slot) => *slot = value,
            None => {
                map.insert(shared_name(name), value);
            }
        }
    }

    /// Adds `name`, which the map does not hold, under its shared text.
    pub fn insert_new(&mut self, name: &str, value: Value) {
        self.map_mut().insert(shared_name(name), value);
    }

    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let map = self.0.as_mut()?;
        if Rc::get_mut(map).is_none() && !map.contains_key(name) {
            return None;
        }
        own(map).remove(name)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |m| m.len())
    }

    /// The variables in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        let mut entries: Vec<(&str, &Value)> = self.iter_unordered().collect();
        entries.sort_unstable_by_key(|(k, _)| *k);
        entries.into_iter()
    }

    /// The variables in no particular order, for sums and order-free hashes.
    pub fn iter_unordered(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().flat_map(|m| m.iter().map(|(k, v)| (&**k, v)))
    }

    /// The first variable named after `name` in name order (all of them
    /// from the start for `None`): a step of an ordered walk.
    pub fn next_after(&self, name: Option<&str>) -> Option<(&str, &Value)> {
        self.iter_unordered()
            .filter(|(k, _)| name.is_none_or(|n| *k > n))
            .min_by_key(|(k, _)| *k)
    }
}

/// The most names [`shared_name`] keeps, and the longest it keeps: rules
/// use a few hundred short names; a script inventing names without end
/// gets fresh texts past these.
const MOST_NAMES: usize = 4096;
const LONGEST_NAME: usize = 64;

thread_local! {
    static NAMES: RefCell<HashSet<Rc<str>, BuildHasherDefault<NameHasher>>> =
        RefCell::new(HashSet::default());
}

/// The text of a variable name, shared by every map of this thread that
/// holds the name. A new game starts with empty maps, and its rules write
/// the same names as the last game's: sharing their text spares an
/// allocation and a free per name and game (a solitaire journey writes
/// some 40 names into fresh maps).
fn shared_name(name: &str) -> Rc<str> {
    if name.len() > LONGEST_NAME {
        return name.into();
    }
    NAMES.with_borrow_mut(|names| {
        if let Some(shared) = names.get(name) {
            return shared.clone();
        }
        let shared: Rc<str> = name.into();
        if names.len() < MOST_NAMES {
            names.insert(shared.clone());
        }
        shared
    })
}

/// `map` to change, copied first if another `Vars` shares it. (The check
/// for a map of one's own is two reads; `Rc::make_mut`, a call, is only
/// made to copy.)
fn own(map: &mut Rc<Map>) -> &mut Map {
    if Rc::get_mut(map).is_none() {
        Rc::make_mut(map);
    }
    Rc::get_mut(map).expect("a map just copied has one owner")
}

/// Equal when they hold the same variables, whether or not they share a map.
impl PartialEq for Vars {
    fn eq(&self, other: &Vars) -> bool {
        self.len() == other.len() && self.iter_unordered().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Eq for Vars {}

impl<'a> IntoIterator for &'a Vars {
    type Item = (&'a str, &'a Value);
    type IntoIter = std::vec::IntoIter<(&'a str, &'a Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter().collect::<Vec<_>>().into_iter()
    }
}

impl<K: Into<Rc<str>>> FromIterator<(K, Value)> for Vars {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(items: I) -> Vars {
        let map: Map = items.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Vars((!map.is_empty()).then(|| Rc::new(map)))
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

#[cfg(test)]
mod tests {
    use super::{Value, Vars};
    use std::hash::{DefaultHasher, Hash, Hasher};

    fn hash(vars: &Vars) -> u64 {
        let mut h = DefaultHasher::new();
        vars.hash(&mut h);
        h.finish()
    }

    #[test]
    fn a_copy_changes_apart_from_its_original() {
        let mut original: Vars = [("turn", Value::Int(3)), ("side", Value::Str("red".into()))]
            .into_iter()
            .collect();
        let mut copy = original.clone();
        *copy.get_mut("turn").unwrap() = Value::Int(4);
        copy.insert("new", Value::Bool(true));
        assert_eq!(copy.remove("side"), Some(Value::Str("red".into())));
        assert_eq!(original.get("turn"), Some(&Value::Int(3)));
        assert_eq!(original.get("side"), Some(&Value::Str("red".into())));
        assert!(!original.contains_key("new"));
        // The other way round: the original changed, the copy not.
        let again = original.clone();
        original.insert("turn", Value::Int(9));
        assert_eq!(again.get("turn"), Some(&Value::Int(3)));
        // Names a shared map lacks change nothing.
        let mut shared = again.clone();
        assert_eq!(shared.get_mut("missing"), None);
        assert_eq!(shared.remove("missing"), None);
        assert_eq!(shared, again);
    }

    #[test]
    fn maps_share_the_text_of_a_name_and_a_write_in_place_keeps_it() {
        let text = |v: &Vars, name: &str| {
            let (k, _) = v.iter_unordered().find(|(k, _)| *k == name).unwrap();
            k.as_ptr()
        };
        let (mut a, mut b) = (Vars::new(), Vars::new());
        a.set("afloat_cargo", Value::Int(3));
        b.insert_new("afloat_cargo", Value::Int(5));
        assert_eq!(text(&a, "afloat_cargo"), text(&b, "afloat_cargo"));
        let before = text(&a, "afloat_cargo");
        a.set("afloat_cargo", Value::Int(4));
        assert_eq!(text(&a, "afloat_cargo"), before, "written in place");
        assert_eq!(a.get("afloat_cargo"), Some(&Value::Int(4)));
        // A name too long to share gets a text of its own, and works alike.
        let long = "x".repeat(100);
        a.set(&long, Value::Bool(true));
        b.set(&long, Value::Bool(false));
        assert_ne!(text(&a, &long), text(&b, &long));
        assert_eq!(a.get(&long), Some(&Value::Bool(true)));
        assert_eq!(b.get(&long), Some(&Value::Bool(false)));
    }

    #[test]
    fn equality_and_hash_go_by_contents() {
        let mut emptied = Vars::new();
        emptied.insert("x", Value::Int(1));
        emptied.remove("x");
        assert_eq!(emptied, Vars::new());
        assert_eq!(hash(&emptied), hash(&Vars::new()));
        let a: Vars = [("a", Value::Int(1)), ("b", Value::Int(2))]
            .into_iter()
            .collect();
        let mut b = Vars::new();
        b.insert("b", Value::Int(2));
        b.insert("a", Value::Int(1));
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        b.insert("a", Value::Int(5));
        assert_ne!(a, b);
        assert!(Vars::new().is_empty() && a.len() == 2);
    }
}
