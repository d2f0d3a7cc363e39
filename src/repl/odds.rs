//! Exact odds for designers: the distribution of a dice expression, and
//! what a combat table does for each attacker and defender under the
//! options in play, counted from the compiled game, never sampled.

use crate::data::game_file::PhaseFile;
use crate::kernel::dice::{DiceExpr, Distribution};
use crate::kernel::dice_table::DiceTable;
use crate::kernel::event::Resolved;
use crate::kernel::game::{CombatEntry, Game, PhaseKind, label_or_id};
use crate::repl::session::Session;
use std::fmt::Write;

/// `roll DICE`: one roll on the REPL's own stream (never the game's), then
/// the exact odds.
pub fn roll(s: &mut Session, arg: &str) -> Result<String, String> {
    let expr: DiceExpr = arg
        .parse()
        .map_err(|e: crate::kernel::dice::DiceError| e.to_string())?;
    let r = expr.roll_detailed(&mut s.repl_rng);
    let faces: Vec<String> = r.dice.iter().map(u32::to_string).collect();
    let mut out = if faces.len() > 1 {
        format!("{expr}: {} = {}\n", faces.join("+"), r.total)
    } else {
        format!("{expr}: {}\n", r.total)
    };
    out += "(a REPL roll: the game's dice are not touched)\n";
    out += &distribution(&expr)?;
    Ok(out)
}

/// `odds DICE|TABLE`
pub fn odds(s: &Session, arg: &str) -> Result<String, String> {
    if arg.is_empty() {
        return Err("usage: odds DICE or odds TABLE (e.g. odds 2D6, odds attack)".into());
    }
    match arg.parse::<DiceExpr>() {
        Ok(expr) => distribution(&expr),
        Err(dice_err) => table_odds(s, arg).map_err(|e| {
            if arg.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                dice_err.to_string()
            } else {
                e
            }
        }),
    }
}

fn distribution(expr: &DiceExpr) -> Result<String, String> {
    let d: Distribution = expr
        .distribution()
        .ok_or_else(|| format!("{expr} has too many outcomes to count exactly"))?;
    let mut out = format!(
        "{expr}: {} to {}, mean {:.3}, {} equally likely outcomes\n",
        expr.min(),
        expr.max(),
        d.mean(),
        d.total()
    );
    let _ = writeln!(out, "  value   chance   at least");
    let widest = d.outcomes().iter().map(|&(_, n)| n).max().unwrap_or(1);
    for &(v, n) in d.outcomes().iter().take(200) {
        let bar = "#".repeat(((n * 40).div_ceil(widest)) as usize);
        let _ = writeln!(
            out,
            "  {v:>5}  {:>6.2}%  {:>7.2}%  {bar}",
            100.0 * d.probability(v),
            100.0 * d.at_least(v)
        );
    }
    if d.outcomes().len() > 200 {
        let _ = writeln!(out, "  ... ({} values in all)", d.outcomes().len());
    }
    Ok(out)
}

/// A table by name: a combat table, or a dice table (`dice: 1D6` with
/// `rows` of `roll: N` or `roll: [LO, HI]`), optionally with a modifier
/// added to the roll (`odds contact +1`).
fn table_odds(s: &Session, arg: &str) -> Result<String, String> {
    let mut words = arg.split_whitespace();
    let name = words.next().unwrap_or("");
    let modifier = match words.next() {
        None => 0,
        Some(m) => m
            .trim_start_matches('+')
            .parse::<i64>()
            .map_err(|_| format!("'odds {arg}': a modifier is written +1 or -2"))?,
    };
    if let Some(table) = s.loaded.engine.game.dice_table(name) {
        return dice_table(table, modifier);
    }
    combat_odds(s, name)
}

/// Each row's chance: the dice plus the modifier, read as the rules read
/// it ([`DiceTable::read`], which `dice.on` uses): a total beyond the
/// table's ends reads its first or last row.
fn dice_table(table: &DiceTable, modifier: i64) -> Result<String, String> {
    let d = table
        .dice
        .distribution()
        .ok_or_else(|| format!("{} has too many outcomes to count exactly", table.dice))?;
    let mut per_row = vec![0u128; table.rows.len()];
    let mut in_gaps = 0u128;
    for &(v, n) in d.outcomes() {
        match table.read(v + modifier).1 {
            Some(row) => per_row[row] += n,
            None => in_gaps += n,
        }
    }
    let share = |n: u128| 100.0 * n as f64 / d.total() as f64;
    let mut out = format!(
        "{}: {}{} against the table's rows\n",
        table.label,
        table.dice,
        match modifier {
            0 => String::new(),
            m => format!(" {m:+}"),
        }
    );
    for (i, &(lo, hi)) in table.rows.iter().enumerate() {
        let roll = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        let result = table.results[i].as_deref().unwrap_or("?");
        let _ = writeln!(out, "  {roll:>7}  {:>7.2}%  {result}", share(per_row[i]));
    }
    if in_gaps > 0 {
        let _ = writeln!(
            out,
            "  (no row for {:.2}% of rolls: the rules decide those)",
            share(in_gaps)
        );
    }
    Ok(out)
}

/// The combat table of the game's movement phases whose name matches
/// (`attack` matches `attack_results`), as each pair's result odds.
fn combat_odds(s: &Session, name: &str) -> Result<String, String> {
    let g = &s.loaded.engine.game;
    let file = s.loaded.package.game_file().map_err(|e| e.to_string())?;
    let mut found = Vec::new();
    for phase in &g.phases {
        let PhaseKind::Movement(m) = &phase.kind else {
            continue;
        };
        let Some(table) = &m.combat else { continue };
        let table_name = file
            .phases
            .get(&phase.name)
            .and_then(|p| match p {
                PhaseFile::Movement {
                    combat: Some(c), ..
                } => Some(c.value.clone()),
                _ => None,
            })
            .unwrap_or_else(|| "combat".into());
        if table_name.starts_with(name) || phase.name.starts_with(name) {
            found.push((phase.label.clone(), label_or_id(None, &table_name), table));
        }
    }
    let Some((phase, table_name, table)) = found.first() else {
        let tables: Vec<&str> = g.tables.keys().map(String::as_str).collect();
        return Err(format!(
            "'{name}' is neither dice (2D6, D100, coin) nor a combat or dice table{}",
            if tables.is_empty() {
                String::new()
            } else {
                format!(" (tables: {})", tables.join(", "))
            }
        ));
    };
    Ok(combat_text(g, phase, table_name, table))
}

fn words(r: Resolved) -> &'static str {
    match r {
        Resolved::Win => "defender destroyed",
        Resolved::Bounce => "bounce",
        Resolved::Lose => "attacker destroyed",
        Resolved::Both => "both destroyed",
    }
}

/// The odds of every pair, headed by the table's and the phase's names
/// and the titles of the optional rules in play.
fn combat_text(g: &Game, phase: &str, table: &str, rows: &[Vec<CombatEntry>]) -> String {
    let on: Vec<&str> = g
        .options
        .iter()
        .filter(|o| o.enabled)
        .map(|o| o.title.as_str())
        .collect();
    let mut out = format!(
        "{table} in the {phase} phase, optional rules: {}\n",
        if on.is_empty() {
            "none".to_string()
        } else {
            on.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "  {:<12} {:<12} {:>6} {:>6} {:>6} {:>6}   how",
        "attacker", "defender", "win", "bounce", "lose", "both"
    );
    for (a, row) in rows.iter().enumerate() {
        for (d, entry) in row.iter().enumerate() {
            let (mut p, how) = ([0.0f64; 4], entry_words(entry));
            let idx = |r: Resolved| r as usize;
            match entry {
                CombatEntry::Fixed(r) => p[idx(*r)] = 1.0,
                CombatEntry::Coin(h, t) => {
                    p[idx(*h)] += 0.5;
                    p[idx(*t)] += 0.5;
                }
                CombatEntry::Script(_) => {}
            }
            let cell = |x: f64| {
                if matches!(entry, CombatEntry::Script(_)) {
                    "?".to_string()
                } else {
                    format!("{:.0}%", 100.0 * x)
                }
            };
            let _ = writeln!(
                out,
                "  {:<12} {:<12} {:>6} {:>6} {:>6} {:>6}   {how}",
                g.kinds[a].label,
                g.kinds[d].label,
                cell(p[0]),
                cell(p[1]),
                cell(p[2]),
                cell(p[3])
            );
        }
    }
    out += "  (win: defender destroyed, attacker takes the space; lose: attacker destroyed)\n";
    out
}

fn entry_words(e: &CombatEntry) -> String {
    match e {
        CombatEntry::Fixed(r) => words(*r).to_string(),
        CombatEntry::Coin(h, t) => {
            format!("coin: attacker's colour {}, else {}", words(*h), words(*t))
        }
        CombatEntry::Script(f) => format!("decided by rules.{f} (not counted)"),
    }
}
