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
pub struct Vars(Option<Rc<Inner>>);

type Map = HashMap<Rc<str>, Value, BuildHasherDefault<NameHasher>>;

/// A map's contents: the names a [`VarLayout`] lays out are kept by slot
/// (an unset one holds `None`), every other name in the hash map. Only
/// the game's variables are laid out, and only when the rules lay out a
/// sheet (`vars.slots`): the host then writes a changed slot by its index,
/// with no name to hash and find. What the variables mean (reads by name,
/// equality, hashes, saves) does not depend on where each is kept.
#[derive(Clone, Default)]
struct Inner {
    map: Map,
    layout: Option<Rc<VarLayout>>,
    /// Slot `i`'s value at `i - 1`: as long as the layout's names.
    slots: Vec<Option<Value>>,
}

impl Inner {
    fn slot(&self, name: &str) -> Option<usize> {
        self.layout.as_ref()?.slot(name)
    }

    /// Moves the laid-out values to the hash map, by name.
    fn drop_layout(&mut self) {
        if let Some(layout) = self.layout.take() {
            for (name, value) in layout.names.iter().zip(self.slots.drain(..)) {
                if let Some(value) = value {
                    self.map.insert(Rc::clone(name), value);
                }
            }
        }
    }
}

/// Names kept by slot (see [`Inner`]): slot `i` (from 1, as the rules'
/// sheet counts) holds `names[i - 1]`.
#[derive(Default, Debug)]
pub struct VarLayout {
    names: Vec<Rc<str>>,
    slot_of: HashMap<Rc<str>, usize, BuildHasherDefault<NameHasher>>,
}

impl VarLayout {
    /// The slot of `name`, given the next one if it is new.
    pub fn lay_out(&mut self, name: &str) -> usize {
        if let Some(slot) = self.slot(name) {
            return slot;
        }
        let name = shared_name(name);
        self.names.push(Rc::clone(&name));
        self.slot_of.insert(name, self.names.len());
        self.names.len()
    }

    pub fn slot(&self, name: &str) -> Option<usize> {
        self.slot_of.get(name).copied()
    }

    /// The name of `slot`, which must be laid out.
    pub fn name(&self, slot: usize) -> &Rc<str> {
        &self.names[slot - 1]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl Vars {
    pub fn new() -> Vars {
        Vars::default()
    }

    /// The contents, to change: this copy's own from now on.
    fn inner_mut(&mut self) -> &mut Inner {
        own(self.0.get_or_insert_with(Rc::default))
    }

    /// Room for `n` more variables without growing the map.
    pub fn reserve(&mut self, n: usize) {
        self.inner_mut().map.reserve(n);
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        let inner = self.0.as_ref()?;
        match inner.slot(name) {
            Some(slot) => inner.slots[slot - 1].as_ref(),
            None => inner.map.get(name),
        }
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        // A shared map is copied only if the name is there to change.
        let shared = Rc::get_mut(self.0.as_mut()?).is_none();
        if shared && !self.contains_key(name) {
            return None;
        }
        let inner = self.inner_mut();
        match inner.slot(name) {
            Some(slot) => inner.slots[slot - 1].as_mut(),
            None => inner.map.get_mut(name),
        }
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn insert(&mut self, name: impl Into<Rc<str>>, value: Value) -> Option<Value> {
        let name = name.into();
        let inner = self.inner_mut();
        match inner.slot(&name) {
            Some(slot) => inner.slots[slot - 1].replace(value),
            None => inner.map.insert(name, value),
        }
    }

    /// Sets `name` to `value`: in place when the name is there, else under
    /// the name's shared text (see [`shared_name`]), so a write allocates
    /// no name.
    pub fn set(&mut self, name: &str, value: Value) {
        let inner = self.inner_mut();
        if let Some(slot) = inner.slot(name) {
            inner.slots[slot - 1] = Some(value);
            return;
        }
        match inner.map.get_mut(name) {
            Some(old) => *old = value,
            None => {
                inner.map.insert(shared_name(name), value);
            }
        }
    }

    /// Adds `name`, which the map does not hold, under its shared text.
    pub fn insert_new(&mut self, name: &str, value: Value) {
        let inner = self.inner_mut();
        match inner.slot(name) {
            Some(slot) => inner.slots[slot - 1] = Some(value),
            None => {
                inner.map.insert(shared_name(name), value);
            }
        }
    }

    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let shared = Rc::get_mut(self.0.as_mut()?).is_none();
        if shared && !self.contains_key(name) {
            return None;
        }
        let inner = self.inner_mut();
        match inner.slot(name) {
            Some(slot) => inner.slots[slot - 1].take(),
            None => inner.map.remove(name),
        }
    }

    /// Keeps the names `layout` lays out by slot from now on (a copy keeps
    /// them so too); names another layout laid out go back to the map.
    pub fn adopt(&mut self, layout: &Rc<VarLayout>) {
        if self.layout().is_some_and(|l| Rc::ptr_eq(l, layout)) {
            return;
        }
        let inner = self.inner_mut();
        inner.drop_layout();
        inner.slots = layout.names.iter().map(|n| inner.map.remove(n)).collect();
        inner.layout = Some(Rc::clone(layout));
    }

    /// The layout whose names this map keeps by slot, if any.
    pub fn layout(&self) -> Option<&Rc<VarLayout>> {
        self.0.as_ref()?.layout.as_ref()
    }

    /// The laid-out values, slot by slot (none without a layout).
    pub fn slot_values(&self) -> &[Option<Value>] {
        self.0.as_ref().map_or(&[], |inner| &inner.slots)
    }

    /// How many variables are kept by name, not by slot.
    pub fn named_len(&self) -> usize {
        self.0.as_ref().map_or(0, |inner| inner.map.len())
    }

    /// Swaps `value` with `slot`'s (`None`: unset). The map must have
    /// adopted a layout that has `slot`.
    pub fn swap_slot(&mut self, slot: usize, value: &mut Option<Value>) {
        std::mem::swap(&mut self.inner_mut().slots[slot - 1], value);
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |inner| {
            inner.map.len() + inner.slots.iter().filter(|v| v.is_some()).count()
        })
    }

    /// The variables in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        let mut entries: Vec<(&str, &Value)> = self.iter_unordered().collect();
        entries.sort_unstable_by_key(|(k, _)| *k);
        entries.into_iter()
    }

    /// The variables in no particular order, for sums and order-free hashes.
    pub fn iter_unordered(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().flat_map(|inner| {
            let laid_out = inner.layout.iter().flat_map(|layout| {
                layout
                    .names
                    .iter()
                    .zip(&inner.slots)
                    .filter_map(|(k, v)| Some((&**k, v.as_ref()?)))
            });
            inner.map.iter().map(|(k, v)| (&**k, v)).chain(laid_out)
        })
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
fn own(map: &mut Rc<Inner>) -> &mut Inner {
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
        Vars((!map.is_empty()).then(|| {
            Rc::new(Inner {
                map,
                ..Inner::default()
            })
        }))
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
    use super::{Value, VarLayout, Vars};
    use std::hash::{DefaultHasher, Hash, Hasher};
    use std::rc::Rc;

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

    fn layout(names: &[&str]) -> Rc<VarLayout> {
        let mut layout = VarLayout::default();
        for name in names {
            layout.lay_out(name);
        }
        Rc::new(layout)
    }

    #[test]
    fn laid_out_names_read_and_compare_as_named_ones() {
        let named: Vars = [
            ("turn", Value::Int(3)),
            ("side", Value::Str("red".into())),
            ("note", Value::Bool(true)),
        ]
        .into_iter()
        .collect();
        let mut slotted = named.clone();
        let sheet = layout(&["turn", "side", "unset"]);
        slotted.adopt(&sheet);
        assert_eq!(slotted.slot_values()[0], Some(Value::Int(3)));
        assert_eq!(slotted.slot_values()[2], None);
        assert_eq!(slotted.named_len(), 1, "only 'note' stays by name");
        assert_eq!(slotted, named);
        assert_eq!(hash(&slotted), hash(&named));
        assert_eq!(format!("{slotted:?}"), format!("{named:?}"));
        assert_eq!(slotted.len(), 3);
        assert!(!slotted.contains_key("unset"));
        // By name and by slot, one value.
        slotted.set("unset", Value::Int(1));
        assert_eq!(slotted.slot_values()[2], Some(Value::Int(1)));
        let mut old = Some(Value::Int(4));
        slotted.swap_slot(1, &mut old);
        assert_eq!(old, Some(Value::Int(3)));
        assert_eq!(slotted.get("turn"), Some(&Value::Int(4)));
        assert_eq!(slotted.remove("side"), Some(Value::Str("red".into())));
        assert_eq!(slotted.get_mut("turn"), Some(&mut Value::Int(4)));
        assert_ne!(slotted, named);
        // A copy is its own; another layout takes the names over.
        let copy = slotted.clone();
        slotted.adopt(&layout(&["note"]));
        assert_eq!(slotted, copy);
        assert_eq!(slotted.named_len(), 2);
        assert_eq!(copy.slot_values()[0], Some(Value::Int(4)));
    }
}
