//! Data tables that answer a misspelt key with an error, not with `nil`.
//!
//! A rule that reads `tables.combat.leader_hre` (for `leader_hrc`) would
//! otherwise get `nil` and fail lines later, in arithmetic, far from the
//! typo; a scenario override that names a key the rules never read would
//! pass unnoticed. So every mapping of game.yaml's `tables` outside a
//! list gets an
//! `__index` that stops the script at the line that read the missing key,
//! naming the table, the key and the file, with the nearest key it has.
//! Lists are left as Lua has them (`ipairs` and `t[#t + 1]` end at
//! `nil`), and so are the rows inside them: a chart's rows leave out the
//! fields they do not use.
//! A rule that means to read an optional key says so with `rawget(t,
//! key)`, which answers `nil` (docs/lua-api.md, "Data tables").
//!
//! Only missing keys pay: a key the table has is read without touching
//! the metatable.

use crate::data::error::suggest;
use mlua::{Lua, Table, Value};

/// Gives every mapping under `tables` (the Lua copy of `data`) its
/// missing-key error; `file` is where the data was written.
pub fn guard(
    lua: &Lua,
    tables: &Value,
    data: &serde_json::Map<String, serde_json::Value>,
    file: &str,
) -> mlua::Result<()> {
    let Value::Table(table) = tables else {
        return Ok(());
    };
    guard_mapping(lua, table, data, "tables", file)
}

fn guard_mapping(
    lua: &Lua,
    table: &Table,
    map: &serde_json::Map<String, serde_json::Value>,
    path: &str,
    file: &str,
) -> mlua::Result<()> {
    for (key, inner) in map {
        // Only mappings: a list and the rows inside it stay as Lua has them.
        let child: Value = table.raw_get(key.as_str())?;
        if let (Value::Table(child), serde_json::Value::Object(inner)) = (&child, inner) {
            guard_mapping(lua, child, inner, &join(path, key), file)?;
        }
    }
    set_missing_key_error(lua, table, path, map.keys(), file)
}

fn set_missing_key_error<'a>(
    lua: &Lua,
    table: &Table,
    path: &str,
    keys: impl Iterator<Item = &'a String>,
    file: &str,
) -> mlua::Result<()> {
    let keys: Vec<String> = keys.cloned().collect();
    let (path, file) = (path.to_string(), file.to_string());
    let missing = lua.create_function(move |_, (_, key): (Value, Value)| -> mlua::Result<()> {
        let (name, written) = match &key {
            Value::String(s) => {
                let name = s.to_string_lossy();
                let written = format!("{name:?}");
                (name, written)
            }
            Value::Integer(i) => (i.to_string(), i.to_string()),
            Value::Number(n) => (n.to_string(), n.to_string()),
            other => (
                other.type_name().to_string(),
                format!("a {}", other.type_name()),
            ),
        };
        let hint = suggest(&name, keys.iter().map(String::as_str));
        Err(mlua::Error::runtime(format!(
            "{path} has no key {written} ({file}, under tables): {hint}; to read a key that may \
             be absent, write rawget({path}, {written})"
        )))
    })?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", missing)?;
    table.set_metatable(Some(meta))
}

/// `path.key`, or `path["key"]` where the key is no Lua name.
fn join(path: &str, key: &str) -> String {
    let name = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name {
        format!("{path}.{key}")
    } else {
        format!("{path}[{key:?}]")
    }
}
