//! The static check of a package's Lua (`portolan check`): mistakes a
//! script makes that Lua itself reports only when the faulty line runs,
//! if ever, found by reading every `.lua` file of the package:
//!
//! * a name no local, global or API table defines (`dice_roll(6)`);
//! * a field the Lua API, a standard library, a `require`d module of the
//!   package, or a local table built in the file does not have
//!   (`dice.rol`, `combat.modifer`);
//! * a global written inside a function (`count = count + 1` in a rule):
//!   once loaded, a package's globals are read-only, so the write fails
//!   during a game.
//!
//! The known globals and API fields come from a fresh package state
//! ([`known`]). Each finding is certain: a table the check cannot follow
//! is not checked. A file Lua cannot parse is left to the loader, which
//! reports its syntax error.
//!
//! [`read_by_name`] answers another question from the same sources: the
//! names the rules can read the data by, which balance overlays' keys are
//! weighed against.

mod facts;
mod judge;
mod known;
mod names;
mod walk;

pub use judge::Finding;
pub use known::KnownGlobals;
pub use names::read_by_name;

use crate::data::error::{DataError, DataErrors};
use crate::data::package::Package;
use full_moon::LuaVersion;
use std::collections::BTreeMap;

/// Every finding in the package's `.lua` files, as errors placed at
/// `file:line:col`.
pub fn check_package(package: &Package) -> Result<(), DataErrors> {
    let known = KnownGlobals::of_fresh_state()?;
    let errors: Vec<DataError> = check_files(&package.lua_files(), &known)
        .into_iter()
        .map(|f| DataError {
            file: package.path_of(&f.file),
            at: Some((f.at.0 as u64, f.at.1 as u64)),
            message: f.message,
        })
        .collect();
    match errors.is_empty() {
        true => Ok(()),
        false => Err(DataErrors(errors)),
    }
}

/// Every finding in a set of Lua sources, by path relative to the package.
pub fn check_files(sources: &BTreeMap<String, String>, known: &KnownGlobals) -> Vec<Finding> {
    let facts = sources
        .iter()
        .filter_map(|(path, source)| {
            let parsed = full_moon::parse_fallible(source, LuaVersion::lua54());
            let facts = parsed
                .errors()
                .is_empty()
                .then(|| walk::facts(parsed.ast().nodes()));
            facts.map(|f| (path.clone(), f))
        })
        .collect();
    judge::judge(&facts, known)
}

#[cfg(test)]
mod tests;
