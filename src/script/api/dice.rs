//! `dice`: every random draw of a script goes through the kernel's seeded
//! RNG, and is logged so a player sees each roll. `math.random` is replaced
//! by the same stream.

use super::with_state;
use crate::kernel::dice::DiceExpr;
use crate::kernel::event::Event;
use mlua::{Lua, Result};

pub fn register(lua: &Lua) -> Result<()> {
    let t = lua.create_table()?;
    t.set("roll", lua.create_function(roll)?)?;
    t.set("coin", lua.create_function(coin)?)?;
    lua.globals().set("dice", t)?;
    let math: mlua::Table = lua.globals().get("math")?;
    math.set("random", lua.create_function(random)?)?;
    Ok(())
}

/// Rolls dice notation (`3D6`, `1D6x5`, `1D6+3`, `D100`, `coin`) and
/// returns the total; `why` labels the roll in the log.
fn roll(lua: &Lua, (expr, why): (String, Option<String>)) -> Result<i64> {
    let dice: DiceExpr = expr
        .parse()
        .map_err(|e| mlua::Error::runtime(format!("{e}")))?;
    with_state(lua, |_, s| {
        let r = dice.roll_detailed(&mut s.rng);
        s.events.push(Event::Roll {
            expr: dice.to_string(),
            dice: r.dice,
            total: r.total,
            why: why.unwrap_or_default(),
        });
        Ok(r.total)
    })
}

/// Flips a coin: true means heads (the current player's colour).
fn coin(lua: &Lua, why: Option<String>) -> Result<bool> {
    with_state(lua, |_, s| {
        let heads = s.rng.coin();
        s.events.push(Event::Roll {
            expr: "coin".into(),
            dice: vec![u32::from(heads)],
            total: i64::from(heads),
            why: why.unwrap_or_default(),
        });
        Ok(heads)
    })
}

/// Lua's `math.random` contract on the kernel's stream: `()` a float in
/// [0, 1), `(m)` an integer in 1..=m, `(m, n)` an integer in m..=n.
fn random(lua: &Lua, (m, n): (Option<i64>, Option<i64>)) -> Result<mlua::Value> {
    with_state(lua, |_, s| {
        let (lo, hi) = match (m, n) {
            (None, _) => {
                return Ok(mlua::Value::Number(
                    f64::from(s.rng.below(1 << 24)) / f64::from(1u32 << 24),
                ));
            }
            (Some(m), None) => (1, m),
            (Some(m), Some(n)) => (m, n),
        };
        let span = hi - lo + 1;
        if span < 1 || span > i64::from(u32::MAX) {
            return Err(mlua::Error::runtime(format!(
                "math.random: the interval [{lo}, {hi}] is empty or too large"
            )));
        }
        Ok(mlua::Value::Integer(
            lo + i64::from(s.rng.below(span as u32)),
        ))
    })
}
