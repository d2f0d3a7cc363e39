//! What one Lua file does with names, as the static check needs it:
//! which globals it reads and writes, which fields it reads on tables whose
//! keys are known, and what a module file returns. [`super::walk`] gathers
//! these facts; [`super::judge`] weighs them against the whole package.

use std::collections::BTreeSet;

/// A place in a file: line and column, from 1.
pub type At = (usize, usize);

/// A table whose keys the check may know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A global table of the sandbox (`dice`, `string`), by name.
    Api(String),
    /// A module's table, by the name given to `require` (`lib.combat`).
    Module(String),
    /// A table made by a constructor in this file ([`FileFacts::tables`]).
    Local(usize),
}

/// `target.field`, read or written at a place.
#[derive(Clone, Debug)]
pub struct FieldUse {
    pub target: Target,
    pub field: String,
    pub at: At,
}

/// A global name written.
#[derive(Clone, Debug)]
pub struct GlobalWrite {
    pub name: String,
    pub at: At,
    /// Written inside a function body rather than by the file's own code.
    pub in_function: bool,
}

/// A table made by a constructor and kept in a local: the keys the file
/// gives it. `open` when the file uses it in a way that can add keys the
/// check cannot see (passed to a function, indexed with `[ ]`, reassigned).
#[derive(Clone, Debug, Default)]
pub struct LocalTable {
    pub keys: BTreeSet<String>,
    pub open: bool,
}

/// Everything the check needs from one file.
#[derive(Clone, Debug, Default)]
pub struct FileFacts {
    pub global_reads: Vec<(String, At)>,
    pub global_writes: Vec<GlobalWrite>,
    pub field_reads: Vec<FieldUse>,
    /// Fields written on a module's table from this file (they count as
    /// the module's, wherever written).
    pub module_writes: Vec<FieldUse>,
    pub tables: Vec<LocalTable>,
    /// The table the file returns, when it returns one of its local
    /// tables: what `require` hands to other files.
    pub returns: Option<usize>,
    /// The file names `_ENV`, so its globals are not what they seem.
    pub uses_env: bool,
}
