//! The facts of a package's files weighed together: a global is defined
//! when the sandbox has it or any file of the package writes it; a
//! module's fields are the keys of the table its file returns, plus those
//! any file writes through `require`.

use super::facts::{At, FieldUse, FileFacts, Target};
use super::known::KnownGlobals;
use crate::data::error::suggest;
use std::collections::{BTreeMap, BTreeSet};

/// One mistake, at a place in a package file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file, relative to the package folder (`lib/combat.lua`).
    pub file: String,
    pub at: At,
    pub message: String,
}

/// Every mistake in the facts of a package's files (by file path).
pub fn judge(files: &BTreeMap<String, FileFacts>, known: &KnownGlobals) -> Vec<Finding> {
    let defined: BTreeSet<&str> = known
        .names
        .iter()
        .map(String::as_str)
        .chain(
            files
                .values()
                .flat_map(|f| f.global_writes.iter().map(|w| w.name.as_str())),
        )
        .collect();
    let modules = Modules { files };
    let mut findings = Vec::new();
    for (file, facts) in files {
        let mut found = |at: At, message: String| {
            findings.push(Finding {
                file: file.clone(),
                at,
                message,
            })
        };
        if !facts.uses_env {
            for (name, at) in &facts.global_reads {
                if !defined.contains(name.as_str()) {
                    let hint = suggest(name, defined.iter().copied());
                    found(
                        *at,
                        format!(
                            "'{name}' is not defined: no local, global or API table has \
                             this name ({hint}); declare it `local` or fix the spelling"
                        ),
                    );
                }
            }
            for w in facts.global_writes.iter().filter(|w| w.in_function) {
                found(
                    w.at,
                    format!(
                        "global '{}' is written inside a function: a loaded package's globals \
                         are read-only, so this fails during a game; declare it `local`, or keep \
                         the value in the game state (vars.set, frame.ctx)",
                        w.name
                    ),
                );
            }
        }
        for read in &facts.field_reads {
            if let Some(message) = unknown_field(read, facts, known, &modules) {
                found(read.at, message);
            }
        }
    }
    findings.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
    findings
}

/// What is wrong with reading a field, if the table is known not to
/// have it.
fn unknown_field(
    read: &FieldUse,
    facts: &FileFacts,
    known: &KnownGlobals,
    modules: &Modules,
) -> Option<String> {
    let field = &read.field;
    match &read.target {
        Target::Api(table) => {
            let fields = known.closed.get(table)?;
            (!fields.contains(field)).then(|| {
                format!(
                    "'{table}.{field}' is not in the sandbox's Lua API ({}); \
                     docs/lua-api.md lists what scripts may call",
                    suggest(field, fields.iter().map(String::as_str))
                )
            })
        }
        Target::Local(id) => {
            let table = &facts.tables[*id];
            (!table.open && !table.keys.contains(field)).then(|| {
                format!(
                    "'{field}' is never set on this table, so it is always nil ({})",
                    suggest(field, table.keys.iter().map(String::as_str))
                )
            })
        }
        Target::Module(module) => {
            let (path, fields) = modules.fields(module)?;
            (!fields.contains(field)).then(|| {
                format!(
                    "module '{module}' ({path}) has no '{field}' ({})",
                    suggest(field, fields.iter().map(String::as_str))
                )
            })
        }
    }
}

/// The package's modules, found by the names `require` is given.
struct Modules<'a> {
    files: &'a BTreeMap<String, FileFacts>,
}

impl Modules<'_> {
    /// The file a module name loads, and every field its table gets; none
    /// when the file is not in the package or its table is not known.
    fn fields(&self, module: &str) -> Option<(String, BTreeSet<String>)> {
        let base = module.replace('.', "/");
        let (path, facts) = [format!("{base}.lua"), format!("{base}/init.lua")]
            .into_iter()
            .find_map(|p| self.files.get(&p).map(|f| (p, f)))?;
        let table = &facts.tables[facts.returns?];
        if table.open {
            return None;
        }
        let mut fields = table.keys.clone();
        for f in self.files.values() {
            let written = f.module_writes.iter().filter(|w| match &w.target {
                Target::Module(m) => m == module,
                _ => false,
            });
            fields.extend(written.map(|w| w.field.clone()));
        }
        Some((path, fields))
    }
}
