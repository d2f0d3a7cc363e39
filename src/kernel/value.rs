//! Values that rules attach to pieces, players, spaces and the game.
//!
//! Rules keep every variable they need in the kernel (DESIGN principle 1),
//! so the values are plain data: cheap to clone, hash and serialize.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

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

/// Named variables. A `BTreeMap` keeps iteration order canonical, so hashing
/// and serialization never depend on insertion order; an empty map clones
/// without allocating, which keeps pieces without attributes cheap.
pub type Vars = BTreeMap<String, Value>;
