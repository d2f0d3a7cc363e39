//! `dice`: every random draw of a script goes through the kernel's seeded
//! RNG (`math.random` too). Rolls are logged only when the game is narrated
//! (the REPL), never in simulations, where nobody reads them.

mod quick;
mod stack;

use super::known::At;
use super::link::Link;
use super::native::{ApiError, Args, Native, with_quick_path};
use super::natives;
use crate::kernel::dice::DiceExpr;
use crate::kernel::dice_table::DiceTable;
use crate::kernel::event::Event;
use crate::kernel::game::Game;
use crate::kernel::state::GameState;
use mlua::Lua;

pub fn register(lua: &Lua, link: &Link) -> mlua::Result<()> {
    stack::check(lua)?;
    let t = natives(lua, link, &[&COIN])?;
    t.raw_set("roll", with_quick_path(lua, link, &ROLL, quick::roll)?)?;
    t.raw_set("on", with_quick_path(lua, link, &ON, quick::on)?)?;
    lua.globals().raw_set("dice", t)?;
    let math: mlua::Table = lua.globals().get("math")?;
    math.raw_set("random", super::native::function(lua, link, &RANDOM)?)
}

/// Rolls dice notation (`3D6`, `1D6x5`, `1D6+3`, `D100`, `coin`) and
/// returns the total; `why` labels the roll in the log, and `false` keeps
/// it out of the log, for rules that narrate the roll in their own line
/// (a shot's die with its modifier and its result), so that one roll is
/// not told twice.
static ROLL: Native = Native {
    name: "dice.roll",
    call: |link, a, out| {
        let known = a
            .address(1)
            .and_then(|at| link.known()?.dice(At::Bytes(at)));
        let dice = match known {
            Some(dice) => dice,
            None => link.dice(a.str(1)?)?,
        };
        let told_by_rules = a.is_false(2);
        let why = if told_by_rules {
            None
        } else {
            a.label(2, link.narrating())?
        };
        link.with_state(|_, s| {
            let (total, faces) = roll(link, s, &dice);
            if let Some(dice_faces) = faces.filter(|_| !told_by_rules) {
                s.record(|| Event::Roll {
                    expr: dice.to_string(),
                    dice: dice_faces,
                    total,
                    why: why.unwrap_or_default().to_string(),
                });
            }
            out.int(total);
            Ok(())
        })
    },
};

/// Flips a coin: true means heads (the current player's colour).
static COIN: Native = Native {
    name: "dice.coin",
    call: |link, a, out| {
        let why = a.label(1, link.narrating())?;
        link.with_state(|_, s| {
            let heads = s.rng.coin();
            if link.narrating() {
                s.record(|| Event::Roll {
                    expr: "coin".into(),
                    dice: vec![u32::from(heads)],
                    total: i64::from(heads),
                    why: why.unwrap_or_default().to_string(),
                });
            }
            out.bool(heads);
            Ok(())
        })
    },
};

/// Rolls on a dice table of the rules with modifiers given as pairs
/// (`source, value`): returns the row read (nil in a gap between rows),
/// the total read after clamping to the table's ends, and the unmodified
/// roll.
static ON: Native = Native {
    name: "dice.on",
    call: |link, a, out| {
        let game = link.game()?;
        let known = a
            .address(1)
            .and_then(|at| link.known()?.table(At::Bytes(at)));
        let index = match known {
            Some(index) => index,
            None => {
                let name = a.str(1)?;
                game.dice_tables
                    .iter()
                    .position(|t| t.name == name)
                    .ok_or_else(|| no_table(game, name))?
            }
        };
        let table = &game.dice_tables[index];
        let pairs = modifier_count(a)?;
        let mut modifier = 0i64;
        for k in 0..pairs {
            modifier = modifier.saturating_add(a.opt_int(3 + 2 * k)?.unwrap_or(0));
        }
        link.with_state(|_, s| {
            let (natural, faces) = roll(link, s, &table.dice);
            let (read, row) = read_row(link, table, index, natural, modifier);
            if let Some(dice) = faces {
                let modifiers = sources(a, pairs)?;
                s.record(|| Event::TableRoll {
                    table: table.name.clone(),
                    dice,
                    natural,
                    modifiers,
                    read,
                    row: row.map(|r| r as u16),
                });
            }
            match row {
                Some(r) => out.registry(link.row(index, r)),
                None => out.nil(),
            }
            out.int(read);
            out.int(natural);
            Ok(())
        })
    },
};

/// Lua's `math.random` contract on the kernel's stream: `()` a float in
/// [0, 1), `(m)` an integer in 1..=m, `(m, n)` an integer in m..=n.
static RANDOM: Native = Native {
    name: "math.random",
    call: |link, a, out| {
        let (m, n) = (a.opt_int(1)?, a.opt_int(2)?);
        link.with_state(|_, s| {
            let (lo, hi) = match (m, n) {
                (None, _) => {
                    out.num(f64::from(s.rng.below(1 << 24)) / f64::from(1u32 << 24));
                    return Ok(());
                }
                (Some(m), None) => (1, m),
                (Some(m), Some(n)) => (m, n),
            };
            let span = hi.checked_sub(lo).and_then(|d| d.checked_add(1));
            match span.filter(|&w| w >= 1 && w <= i64::from(u32::MAX)) {
                Some(w) => out.int(lo + i64::from(s.rng.below(w as u32))),
                None => {
                    return Err(ApiError(format!(
                        "bad argument to 'math.random' (the interval [{lo}, {hi}] is empty or too large)"
                    )));
                }
            }
            Ok(())
        })
    },
};

/// Reads dice table `index` (`table`) for a `natural` roll with
/// `modifier`: the total read after clamping to the table's ends and the
/// row there (none in a gap between rows), counted.
#[inline]
fn read_row(
    link: &Link,
    table: &DiceTable,
    index: usize,
    natural: i64,
    modifier: i64,
) -> (i64, Option<usize>) {
    let (read, row) = table.read(natural.saturating_add(modifier));
    link.row_read(index, row);
    (read, row)
}

/// Rolls `dice`; keeps each die only when the game is narrated.
fn roll(link: &Link, s: &mut GameState, dice: &DiceExpr) -> (i64, Option<Vec<u32>>) {
    if link.narrating() {
        let r = dice.roll_detailed(&mut s.rng);
        (r.total, Some(r.dice))
    } else {
        (dice.roll(&mut s.rng), None)
    }
}

/// How many `source, value` pairs follow the table's name.
fn modifier_count(a: &Args) -> Result<usize, ApiError> {
    let rest = a.count().saturating_sub(1);
    if rest % 2 == 1 {
        return Err(ApiError::new(
            "dice.on: modifiers come in pairs, a source and a number: \
             dice.on(\"contact\", \"reconnaissance\", 2)",
        ));
    }
    Ok(rest / 2)
}

/// The non-zero modifiers with their sources, for the log.
fn sources(a: &Args, pairs: usize) -> Result<Vec<(String, i64)>, ApiError> {
    let mut out = Vec::new();
    for k in 0..pairs {
        let value = a.opt_int(3 + 2 * k)?.unwrap_or(0);
        if value != 0 {
            let source = a.opt_str(2 + 2 * k)?.unwrap_or("modifier");
            out.push((source.to_string(), value));
        }
    }
    Ok(out)
}

fn no_table(game: &Game, name: &str) -> ApiError {
    let names = game.dice_tables.iter().map(|t| t.name.as_str());
    ApiError(format!(
        "no dice table '{name}': {} (a dice table is an entry of `tables:` with `dice` and `rows`)",
        crate::data::error::suggest(name, names)
    ))
}
