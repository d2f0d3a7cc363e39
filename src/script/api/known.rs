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

use crate::kernel::dice::DiceExpr;
use crate::kernel::game::Game;
use mlua::{Lua, RegistryKey};
use serde_json::Value;

/// At most this many dice texts are known: a package's tables hold a few.
const MOST: usize = 64;

/// Addresses of the known strings' bytes, as `lua_tolstring` returns them.
#[derive(Default)]
pub struct Known {
    /// By dice-table index.
    tables: Vec<usize>,
    dice: Vec<(usize, DiceExpr)>,
    /// The strings themselves, kept alive.
    _keys: Vec<RegistryKey>,
}

impl Known {
    /// The known strings of `game`.
    pub fn new(lua: &Lua, game: &Game) -> mlua::Result<Known> {
        let mut known = Known::default();
        let mut keys = Vec::new();
        let mut keep = |text: &str| -> mlua::Result<usize> {
            let s = lua.create_string(text)?;
            let address = s.to_pointer() as usize;
            keys.push(lua.create_registry_value(s)?);
            Ok(address)
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
        known._keys = keys;
        Ok(known)
    }

    /// The index of the dice table named by the string at `address`.
    pub fn table(&self, address: usize) -> Option<usize> {
        self.tables.iter().position(|&a| a == address)
    }

    /// The dice of the text at `address`.
    pub fn dice(&self, address: usize) -> Option<DiceExpr> {
        self.dice
            .iter()
            .find(|&&(a, _)| a == address)
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
