//! Coverage: "in 10,000 games, did my new rule ever fire?" Over a run,
//! how often each part of the rules was used, and which parts never were.
//!
//! What is counted, precisely:
//! - **rule functions**: calls of each `rules.NAME` and each scripted
//!   phase's `phases.NAME.run` / `.choose`, credited to the file or
//!   optional rule that defined it (an optional rule that wraps a base
//!   rule has both counted: its own function, and the base one when it
//!   calls it). Local helper functions are not rules and are not counted.
//! - **module functions**: calls of each function of a module's table
//!   (`lib.combat.modifier`) made through the table, credited to the file
//!   that defines it; an optional rule that replaces one with a wrapper
//!   has both counted, as for rule functions (see `script::coverage`).
//! - **dice-table rows**: each roll through `dice.on` on a dice table (a
//!   `tables:` entry with `dice` and `rows`) counts for the row it read
//!   after modifiers and clamping, or as a gap between rows.
//! - **combat-table cells**: each attack of a native movement phase counts
//!   for the (attacker kind, defender kind) cell of its combat table.
//! - **optional rules**: an optional rule *changed* a game when the same
//!   game played without it (every other rule equal) differs: at some
//!   decision the choices offered differ, or after some action the
//!   position (pieces, faces shown, variables, phase stack), the random
//!   stream's position or the result differs. The game without the rule
//!   follows the actions the bots chose with it, up to the first
//!   difference. So an option that draws a coin counts when it flips one,
//!   a configure() overlay that changes a combat cell counts when that
//!   cell decides an attack, and a movement restriction counts when it
//!   takes a move away from a player. Also shown: the calls of the rule
//!   functions the option defined.
//! - **endings**: the games that ended each way (also in the report).
//!
//! Counting costs nothing when coverage is off: the counting wrappers and
//! counters exist only in engines loaded for coverage.

use crate::kernel::game::{CombatEntry, Game, PhaseKind};
use crate::kernel::scripts::ScriptCounts;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Calls of one rule function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCalls {
    pub function: String,
    pub defined_by: String,
    pub calls: u64,
}

/// Reads of one dice-table row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowReads {
    /// The faces it covers: `4` or `2-3`.
    pub roll: String,
    pub result: Option<String>,
    pub reads: u64,
}

/// Reads of one dice table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableReads {
    pub table: String,
    pub rows: Vec<RowReads>,
    /// Rolls that fell in a gap between rows.
    pub gaps: u64,
}

/// Attacks decided by one combat-table cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellReads {
    pub attacker: String,
    pub defender: String,
    /// What the cell says: `win`, `coin: win/lose`, `rules.NAME`.
    pub entry: String,
    pub reads: u64,
}

/// One movement phase's combat table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatReads {
    pub phase: String,
    pub cells: Vec<CellReads>,
}

/// What one optional rule in play did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionEffect {
    pub option: String,
    pub number: u32,
    /// Calls of the rule functions the option defined.
    pub calls: u64,
    /// Games that played differently because of it.
    pub games_changed: u64,
}

/// Coverage of a run (or of one thread's or shard's games).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    pub games: u64,
    pub functions: Vec<FunctionCalls>,
    pub tables: Vec<TableReads>,
    pub combat: Vec<CombatReads>,
    pub options: Vec<OptionEffect>,
}

impl Coverage {
    /// Every part of `game` that coverage counts, each counted 0 times;
    /// `functions` are the package's rule functions with their counts so
    /// far.
    pub fn new(game: &Game, counts: &ScriptCounts) -> Coverage {
        let tables = game
            .dice_tables
            .iter()
            .zip(counts.rows.iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(t, reads)| TableReads {
                table: t.name.clone(),
                rows: t
                    .rows
                    .iter()
                    .zip(&t.results)
                    .enumerate()
                    .map(|(i, (&(lo, hi), result))| RowReads {
                        roll: if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo}-{hi}")
                        },
                        result: result.clone(),
                        reads: reads.map_or(0, |r| r[i]),
                    })
                    .collect(),
                gaps: reads.and_then(|r| r.last().copied()).unwrap_or(0),
            })
            .collect();
        let combat = game
            .phases
            .iter()
            .filter_map(|p| match &p.kind {
                PhaseKind::Movement(m) => m.combat.as_ref().map(|table| (p, table)),
                _ => None,
            })
            .map(|(p, table)| CombatReads {
                phase: p.name.clone(),
                cells: table
                    .iter()
                    .enumerate()
                    .flat_map(|(a, row)| {
                        row.iter().enumerate().map(move |(d, entry)| CellReads {
                            attacker: game.kinds[a].name.clone(),
                            defender: game.kinds[d].name.clone(),
                            entry: entry_text(entry),
                            reads: 0,
                        })
                    })
                    .collect(),
            })
            .collect();
        let functions: Vec<FunctionCalls> = counts
            .functions
            .iter()
            .map(|(function, defined_by, calls)| FunctionCalls {
                function: function.clone(),
                defined_by: defined_by.clone(),
                calls: *calls,
            })
            .collect();
        let options = game
            .options
            .iter()
            .filter(|o| o.enabled)
            .map(|o| OptionEffect {
                option: o.id.clone(),
                number: o.number,
                calls: functions
                    .iter()
                    .filter(|f| f.defined_by == crate::script::host::option_owner(o.number, &o.id))
                    .map(|f| f.calls)
                    .sum(),
                games_changed: 0,
            })
            .collect();
        Coverage {
            games: 0,
            functions,
            tables,
            combat,
            options,
        }
    }

    /// Adds another part of the same run's coverage. Counts saturate: a
    /// part may come from a shard file, whose numbers are anyone's.
    pub fn add(&mut self, other: &Coverage) -> Result<(), String> {
        if shape(self) != shape(other) {
            return Err("the coverage of different rules cannot be added up".into());
        }
        self.games = self.games.saturating_add(other.games);
        for (a, b) in self.functions.iter_mut().zip(&other.functions) {
            a.calls = a.calls.saturating_add(b.calls);
        }
        for (a, b) in self.tables.iter_mut().zip(&other.tables) {
            a.gaps = a.gaps.saturating_add(b.gaps);
            for (x, y) in a.rows.iter_mut().zip(&b.rows) {
                x.reads = x.reads.saturating_add(y.reads);
            }
        }
        for (a, b) in self.combat.iter_mut().zip(&other.combat) {
            for (x, y) in a.cells.iter_mut().zip(&b.cells) {
                x.reads = x.reads.saturating_add(y.reads);
            }
        }
        for (a, b) in self.options.iter_mut().zip(&other.options) {
            a.calls = a.calls.saturating_add(b.calls);
            a.games_changed = a.games_changed.saturating_add(b.games_changed);
        }
        Ok(())
    }

    /// What was never used: the lines a designer looks for first.
    pub fn never_used(&self) -> Vec<String> {
        let mut out = Vec::new();
        for f in self.functions.iter().filter(|f| f.calls == 0) {
            out.push(format!("rule function {} ({})", f.function, f.defined_by));
        }
        for t in &self.tables {
            for (i, r) in t.rows.iter().enumerate().filter(|(_, r)| r.reads == 0) {
                out.push(format!(
                    "table {} row {} (roll {}{})",
                    t.table,
                    i + 1,
                    r.roll,
                    r.result
                        .as_ref()
                        .map(|x| format!(": {x}"))
                        .unwrap_or_default()
                ));
            }
        }
        for c in &self.combat {
            for cell in c.cells.iter().filter(|c| c.reads == 0) {
                out.push(format!(
                    "combat cell {} attacks {} ({}) in phase {}",
                    cell.attacker, cell.defender, cell.entry, c.phase
                ));
            }
        }
        for o in self.options.iter().filter(|o| o.games_changed == 0) {
            out.push(format!(
                "optional rule {} ({}) changed no game",
                o.number, o.option
            ));
        }
        out
    }

    /// The coverage section of a table report.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let share = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let _ = writeln!(out, "coverage over {} games", self.games);
        if !self.functions.is_empty() {
            let _ = writeln!(
                out,
                "  rule and module functions                 calls  defined by"
            );
            for f in &self.functions {
                let _ = writeln!(
                    out,
                    "    {:<36} {:>9}  {}",
                    f.function, f.calls, f.defined_by
                );
            }
        }
        for t in &self.tables {
            let total = t
                .rows
                .iter()
                .map(|r| r.reads)
                .fold(t.gaps, u64::saturating_add);
            let _ = writeln!(out, "  table {} ({total} rolls)", t.table);
            for (i, r) in t.rows.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    row {:<3} roll {:<7} {:>9}  {:>5.1}%  {}",
                    i + 1,
                    r.roll,
                    r.reads,
                    share(r.reads, total),
                    r.result.as_deref().unwrap_or("")
                );
            }
            if t.gaps > 0 {
                let _ = writeln!(out, "    (gap between rows) {:>9}", t.gaps);
            }
        }
        for c in &self.combat {
            let total = c.cells.iter().map(|x| x.reads).fold(0, u64::saturating_add);
            let _ = writeln!(
                out,
                "  combat in phase {} ({total} attacks): attacker, defender, result, attacks",
                c.phase
            );
            for cell in &c.cells {
                let _ = writeln!(
                    out,
                    "    {:<12} {:<12} {:<16} {:>9}  {:>5.1}%",
                    cell.attacker,
                    cell.defender,
                    cell.entry,
                    cell.reads,
                    share(cell.reads, total)
                );
            }
        }
        if !self.options.is_empty() {
            let _ = writeln!(
                out,
                "  optional rules          games changed           its functions' calls"
            );
            for o in &self.options {
                let _ = writeln!(
                    out,
                    "    {:>2} {:<18} {:>9}  {:>5.1}%  {:>12}",
                    o.number,
                    o.option,
                    o.games_changed,
                    share(o.games_changed, self.games),
                    o.calls
                );
            }
        }
        let never = self.never_used();
        let _ = writeln!(
            out,
            "  never used: {}",
            if never.is_empty() { "nothing" } else { "" }
        );
        for n in never {
            let _ = writeln!(out, "    {n}");
        }
        out
    }

    /// `[metric, key, value]` rows for the report's CSV form.
    pub fn csv_rows(&self) -> Vec<[String; 3]> {
        let mut rows = Vec::new();
        for f in &self.functions {
            rows.push([
                "coverage_function_calls".into(),
                format!("{} ({})", f.function, f.defined_by),
                f.calls.to_string(),
            ]);
        }
        for t in &self.tables {
            for (i, r) in t.rows.iter().enumerate() {
                rows.push([
                    "coverage_row_reads".into(),
                    format!("{}:{}", t.table, i + 1),
                    r.reads.to_string(),
                ]);
            }
            rows.push([
                "coverage_gap_reads".into(),
                t.table.clone(),
                t.gaps.to_string(),
            ]);
        }
        for c in &self.combat {
            for cell in &c.cells {
                rows.push([
                    "coverage_cell_reads".into(),
                    format!("{}:{}>{}", c.phase, cell.attacker, cell.defender),
                    cell.reads.to_string(),
                ]);
            }
        }
        for o in &self.options {
            rows.push([
                "coverage_option_games_changed".into(),
                o.option.clone(),
                o.games_changed.to_string(),
            ]);
        }
        rows
    }
}

/// What a coverage counts, without the counts: two coverages add up only
/// when they count the same things.
fn shape(c: &Coverage) -> Vec<String> {
    let functions = c
        .functions
        .iter()
        .map(|f| format!("{} {}", f.function, f.defined_by));
    let tables = c
        .tables
        .iter()
        .map(|t| format!("{} {}", t.table, t.rows.len()));
    let combat = c
        .combat
        .iter()
        .map(|t| format!("{} {}", t.phase, t.cells.len()));
    let options = c.options.iter().map(|o| o.option.clone());
    functions
        .chain(tables)
        .chain(combat)
        .chain(options)
        .collect()
}

/// A combat-table entry in words.
fn entry_text(entry: &CombatEntry) -> String {
    let word = |r| {
        serde_json::to_value(r)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    match entry {
        CombatEntry::Fixed(r) => word(r),
        CombatEntry::Coin(a, b) => format!("coin: {}/{}", word(a), word(b)),
        CombatEntry::Script(name) => format!("rules.{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coverage(reads: u64) -> Coverage {
        Coverage {
            games: 10,
            functions: vec![FunctionCalls {
                function: "rules.a".into(),
                defined_by: "rules.lua".into(),
                calls: reads,
            }],
            tables: vec![TableReads {
                table: "t".into(),
                rows: vec![
                    RowReads {
                        roll: "1-3".into(),
                        result: Some("Miss".into()),
                        reads,
                    },
                    RowReads {
                        roll: "4".into(),
                        result: None,
                        reads: 0,
                    },
                ],
                gaps: 1,
            }],
            combat: vec![],
            options: vec![OptionEffect {
                option: "o".into(),
                number: 3,
                calls: 0,
                games_changed: reads,
            }],
        }
    }

    #[test]
    fn parts_add_up_and_unused_parts_are_named() {
        let mut total = coverage(2);
        total.add(&coverage(3)).unwrap();
        assert_eq!(total.games, 20);
        assert_eq!(total.functions[0].calls, 5);
        assert_eq!(total.tables[0].rows[0].reads, 5);
        assert_eq!(total.tables[0].gaps, 2);
        assert_eq!(total.options[0].games_changed, 5);
        assert_eq!(total.never_used(), ["table t row 2 (roll 4)"]);
        let none = coverage(0).never_used();
        assert!(none.contains(&"rule function rules.a (rules.lua)".to_string()));
        assert!(none.contains(&"optional rule 3 (o) changed no game".to_string()));
        let mut other = coverage(1);
        other.tables[0].table = "u".into();
        assert!(total.add(&other).is_err());
    }
}
