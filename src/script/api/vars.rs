//! `vars`: global and per-player variables, kept in the kernel's state.

use super::{from_value, player_arg, to_value, with_state};
use crate::kernel::state::set_var;
use mlua::{Lua, Result, Value};

pub fn register(lua: &Lua) -> Result<()> {
    let t = lua.create_table()?;
    t.set(
        "get",
        lua.create_function(|lua, name: String| {
            with_state(lua, |_, s| {
                s.vars
                    .get(&name)
                    .map_or(Ok(Value::Nil), |v| from_value(lua, v))
            })
        })?,
    )?;
    t.set(
        "set",
        lua.create_function(|lua, (name, v): (String, Value)| {
            let v = to_value(v)?;
            with_state(lua, |_, s| {
                set_var(&mut s.vars, &name, v);
                Ok(())
            })
        })?,
    )?;
    t.set(
        "get_player",
        lua.create_function(|lua, (p, name): (String, String)| {
            with_state(lua, |g, s| {
                s.players[player_arg(g, &p)?.0 as usize]
                    .vars
                    .get(&name)
                    .map_or(Ok(Value::Nil), |v| from_value(lua, v))
            })
        })?,
    )?;
    t.set(
        "set_player",
        lua.create_function(|lua, (p, name, v): (String, String, Value)| {
            let v = to_value(v)?;
            with_state(lua, |g, s| {
                let p = player_arg(g, &p)?;
                set_var(&mut s.players[p.0 as usize].vars, &name, v);
                Ok(())
            })
        })?,
    )?;
    lua.globals().set("vars", t)
}
