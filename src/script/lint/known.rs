//! The globals a package's scripts start with, read from a fresh package
//! state (the sandbox with the API registered) rather than from a list
//! written by hand, so the check cannot drift from what the host offers.

use crate::data::error::DataErrors;
use crate::script::host::fresh_state;
use crate::script::limits::Limits;
use crate::script::package::PackageFiles;
use mlua::{Table, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Globals a package fills itself: their fields are the package's own.
/// `tables` is set when the data is compiled (`LuaRules::attach`), after
/// a fresh state is made.
const PACKAGE_TABLES: [&str; 4] = ["rules", "phases", "tables", "_G"];

/// The sandbox's globals, and for each global table its fields.
#[derive(Clone, Debug, Default)]
pub struct KnownGlobals {
    /// Every global name a script may read before the package adds any.
    pub names: BTreeSet<String>,
    /// The fields of each global table the package cannot add to
    /// (`dice`, `string`): reading any other is a mistake.
    pub closed: BTreeMap<String, BTreeSet<String>>,
}

impl KnownGlobals {
    /// Reads the globals of a fresh package state.
    pub fn of_fresh_state() -> Result<KnownGlobals, DataErrors> {
        let (sandbox, _link, _api) = fresh_state(PackageFiles::new("(the API)"), Limits::new())?;
        let read = sandbox.call(|lua| {
            let mut known = KnownGlobals::default();
            for pair in lua.globals().pairs::<Value, Value>() {
                let (Value::String(name), value) = pair? else {
                    continue;
                };
                let name = name.to_str()?.to_string();
                if let (Value::Table(t), false) = (&value, PACKAGE_TABLES.contains(&name.as_str()))
                {
                    known.closed.insert(name.clone(), fields(t)?);
                }
                known.names.insert(name);
            }
            known.names.extend(PACKAGE_TABLES.map(String::from));
            Ok(known)
        });
        read.map_err(|e| {
            crate::data::error::DataError::new("(the API)", format!("cannot list the API: {e}"))
                .into()
        })
    }
}

/// The string keys of a table.
fn fields(t: &Table) -> mlua::Result<BTreeSet<String>> {
    let mut keys = BTreeSet::new();
    for pair in t.pairs::<Value, Value>() {
        if let (Value::String(k), _) = pair? {
            keys.insert(k.to_str()?.to_string());
        }
    }
    Ok(keys)
}
