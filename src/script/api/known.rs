//! The dice texts and dice-table names of a package's data, known to the
//! natives by the address of their Lua strings.
//!
//! `dice.roll(row.dice)` and `dice.on("contact")` are the API's commonest
//! calls, and their first argument is nearly always one of a few strings
//! the data holds. Lua keeps one copy of each short string, so the
//! argument is the very string made here from the data: comparing an
//! address finds it without reading, checking or hashing its text. A
//! [`Known`] holds registry keys to those strings, which keep them alive,
//! so no other string can have their addresses while it is used. Any other
//! argument (a long text, one built by the script) takes the ordinary path
//! by its text.
//!
//! Each string is known by two addresses: its object's, which
//! `lua_topointer` gives for a value of any type in one C call (the quick
//! paths, `dice/quick.rs`, then need no `lua_type` first: no live value but
//! the string itself has that address), and its bytes', which the ordinary
//! path has from reading a string argument anyway.
//!
//! The rows of the dice tables are known by their objects' addresses too,
//! so that `dice.on`'s quick path puts the row it read on the stack itself
//! (`dice/stack.rs`) instead of reading it from the registry.

use crate::kernel::dice::DiceExpr;
use crate::kernel::game::Game;
use mlua::{LightUserData, Lua, RegistryKey, Table, ffi};
use serde_json::Value;

/// At most this many dice texts are known: a package's tables hold a few.
const MOST: usize = 64;

/// The known strings, by address ([`At`]).
#[derive(Default)]
pub struct Known {
    /// By dice-table index.
    tables: Vec<Addresses>,
    dice: Vec<(Addresses, DiceExpr)>,
    /// Each dice table's rows (the tables `tables.<name>.rows` holds), by
    /// table and row index.
    rows: Vec<Vec<usize>>,
    /// The strings and rows themselves, kept alive.
    _keys: Vec<RegistryKey>,
}

/// Where a known string lives.
#[derive(Clone, Copy)]
struct Addresses {
    object: usize,
    bytes: usize,
}

/// An argument's address, as one of the two C calls gives it.
#[derive(Clone, Copy)]
pub enum At {
    /// `lua_topointer`'s: the value's object, whatever its type.
    Object(usize),
    /// `lua_tolstring`'s, for a string argument: its bytes.
    Bytes(usize),
}

impl Addresses {
    fn is(self, at: At) -> bool {
        match at {
            At::Object(a) => a == self.object,
            At::Bytes(a) => a == self.bytes,
        }
    }
}

impl Known {
    /// The known strings of `game`.
    pub fn new(lua: &Lua, game: &Game) -> mlua::Result<Known> {
        let mut known = Known::default();
        let mut keys = Vec::new();
        let mut keep = |text: &str| -> mlua::Result<Addresses> {
            let s = lua.create_string(text)?;
            let bytes = s.to_pointer() as usize;
            // SAFETY: the string is the one argument; it is replaced by its
            // object's address, the one result.
            let object = unsafe {
                lua.exec_raw::<LightUserData>(&s, |l| {
                    ffi::lua_pushlightuserdata(l, ffi::lua_topointer(l, 1).cast_mut());
                    ffi::lua_replace(l, 1);
                })
            }?;
            keys.push(lua.create_registry_value(s)?);
            Ok(Addresses {
                object: object.0 as usize,
                bytes,
            })
        };
        for table in &game.dice_tables {
            known.tables.push(keep(&table.name)?);
        }
        let mut texts = Vec::new();
        for value in game.tables.values() {
            dice_texts(value, &mut texts);
        }
        for (text, dice) in texts {
            known.dice.push((keep(&text)?, dice));
        }
        // The rows as the host exposed them (`host.rs`, `row_keys`): the
        // same tables the ordinary path returns from the registry.
        let exposed: Table = lua.globals().raw_get("tables")?;
        for table in &game.dice_tables {
            let rows: Table = exposed
                .raw_get::<Table>(table.name.as_str())?
                .raw_get("rows")?;
            let mut objects = Vec::with_capacity(table.rows.len());
            for i in 1..=table.rows.len() {
                let row: Table = rows.raw_get(i)?;
                objects.push(row.to_pointer() as usize);
                keys.push(lua.create_registry_value(row)?);
            }
            known.rows.push(objects);
        }
        known._keys = keys;
        Ok(known)
    }

    /// The index of the dice table named by the string at `at`.
    pub fn table(&self, at: At) -> Option<usize> {
        self.tables.iter().position(|a| a.is(at))
    }

    /// The object of row `row` of dice table `table`.
    pub fn row(&self, table: usize, row: usize) -> usize {
        self.rows[table][row]
    }

    /// The dice of the text at `at`.
    pub fn dice(&self, at: At) -> Option<DiceExpr> {
        self.dice
            .iter()
            .find(|(a, _)| a.is(at))
            .map(|&(_, dice)| dice)
    }
}

/// Every distinct string in `value` that reads as dice, up to [`MOST`].
fn dice_texts(value: &Value, out: &mut Vec<(String, DiceExpr)>) {
    match value {
        Value::String(text) if out.len() < MOST && !out.iter().any(|(t, _)| t == text) => {
            if let Ok(dice) = text.parse() {
                out.push((text.clone(), dice));
            }
        }
        Value::Array(items) => items.iter().for_each(|v| dice_texts(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| dice_texts(v, out)),
        _ => {}
    }
}
