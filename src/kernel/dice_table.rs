//! Dice tables: a rule book's "roll 1D6 on this table" compiled into a
//! native lookup, so a script states the procedure and the kernel rolls,
//! clamps and finds the row (DESIGN principles 3 and 7).
//!
//! Any entry of `tables:` written as
//!
//! ```yaml
//! contact:
//!   dice: 1D6
//!   label: contact roll        # optional: how the log names a roll
//!   rows:
//!     - { roll: 1, result: Dumb luck, next_turn: -1 }
//!     - { roll: [2, 3], result: No contact }
//! ```
//!
//! is a dice table. A modified total below the first row reads the first
//! row, above the last row the last row (a +2 on the top row of a 1D6 table
//! still reads it); a total that falls in a gap between rows reads no row.
//! Rows may not overlap: that is an error when the game compiles.

use crate::kernel::dice::DiceExpr;
use serde_json::Value as Json;

/// The widest span of totals a table may cover, so the lookup stays small.
const MAX_SPAN: i64 = 100_000;

/// A compiled dice table.
#[derive(Clone, Debug)]
pub struct DiceTable {
    pub name: String,
    /// What the log calls a roll on it (`contact roll`).
    pub label: String,
    pub dice: DiceExpr,
    /// Each row's faces, `(low, high)`, in the order written.
    pub rows: Vec<(i64, i64)>,
    /// Each row's `result` text, for narration and the REPL's `odds`.
    pub results: Vec<Option<String>>,
    /// The lowest face of any row.
    low: i64,
    /// `lookup[total - low]`: the row a total reads, `NO_ROW` in a gap.
    lookup: Vec<u16>,
}

const NO_ROW: u16 = u16::MAX;

/// A problem in a table, with the dotted path of the bad value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableProblem {
    pub path: String,
    pub message: String,
}

impl DiceTable {
    /// Reads `tables.NAME` as a dice table; `Ok(None)` when it is not one
    /// (a table without both `dice` and `rows` is free-form data).
    pub fn compile(name: &str, json: &Json) -> Result<Option<DiceTable>, Vec<TableProblem>> {
        let (Some(dice), Some(rows)) = (json.get("dice"), json.get("rows")) else {
            return Ok(None);
        };
        let mut problems = Vec::new();
        let at = |rest: &str| format!("tables.{name}.{rest}");
        let mut problem = |path: String, message: String| {
            problems.push(TableProblem { path, message });
        };
        let dice = match dice.as_str().map(str::parse::<DiceExpr>) {
            Some(Ok(d)) => Some(d),
            Some(Err(e)) => {
                problem(at("dice"), e.to_string());
                None
            }
            None => {
                problem(
                    at("dice"),
                    "write the dice as text, like 1D6 or 2D6+1".into(),
                );
                None
            }
        };
        let list = rows.as_array().map_or(&[][..], Vec::as_slice);
        if list.is_empty() {
            problem(
                at("rows"),
                "a dice table needs a list of rows, each with a `roll`".into(),
            );
        }
        let mut faces = Vec::with_capacity(list.len());
        let mut results = Vec::with_capacity(list.len());
        for (i, row) in list.iter().enumerate() {
            match row_faces(row.get("roll")) {
                Ok(f) => faces.push(f),
                Err(m) => problem(at(&format!("rows.{i}.roll")), m),
            }
            results.push(row.get("result").and_then(Json::as_str).map(String::from));
        }
        let label = match json.get("label") {
            None => format!("{name} roll"),
            Some(Json::String(s)) => s.clone(),
            Some(_) => {
                problem(at("label"), "write the label as text".into());
                String::new()
            }
        };
        let lookup = match problems.is_empty() {
            true => lookup(&faces).map_err(|(row, message)| {
                vec![TableProblem {
                    path: at(&row.map_or("rows".into(), |i| format!("rows.{i}.roll"))),
                    message,
                }]
            })?,
            false => return Err(problems),
        };
        let low = faces.iter().map(|f| f.0).min().unwrap_or(0);
        Ok(dice.map(|dice| DiceTable {
            name: name.to_string(),
            label,
            dice,
            rows: faces,
            results,
            low,
            lookup,
        }))
    }

    /// The total a roll reads after clamping to the table's ends, and the
    /// row there (`None` in a gap between rows).
    pub fn read(&self, total: i64) -> (i64, Option<usize>) {
        let high = self.low + self.lookup.len() as i64 - 1;
        let read = total.clamp(self.low, high);
        let row = self.lookup[(read - self.low) as usize];
        (read, (row != NO_ROW).then_some(row as usize))
    }
}

/// The row each total reads, from the lowest face to the highest, or the
/// row (if any) at fault and why not.
fn lookup(faces: &[(i64, i64)]) -> Result<Vec<u16>, (Option<usize>, String)> {
    let low = faces.iter().map(|f| f.0).min().unwrap_or(0);
    let high = faces.iter().map(|f| f.1).max().unwrap_or(0);
    if high - low >= MAX_SPAN {
        return Err((
            None,
            format!(
                "the rows span {low} to {high}: a dice table may span at most {MAX_SPAN} totals"
            ),
        ));
    }
    if faces.len() > usize::from(NO_ROW) {
        // Rows are numbered in 16 bits, below NO_ROW.
        return Err((
            None,
            format!(
                "{} rows: a dice table may have at most {NO_ROW}",
                faces.len()
            ),
        ));
    }
    let mut lookup = vec![NO_ROW; (high - low + 1) as usize];
    for (i, &(lo, hi)) in faces.iter().enumerate() {
        for total in lo..=hi {
            let slot = &mut lookup[(total - low) as usize];
            if *slot != NO_ROW {
                return Err((
                    Some(i),
                    format!(
                        "a roll of {total} is already read by row {} of the table: rows may not overlap",
                        *slot + 1
                    ),
                ));
            }
            *slot = i as u16;
        }
    }
    Ok(lookup)
}

/// `roll: 4` or `roll: [2, 3]` as `(low, high)`.
fn row_faces(roll: Option<&Json>) -> Result<(i64, i64), String> {
    let face = |v: &Json| v.as_i64().filter(|n| n.abs() <= 1_000_000);
    let faces = match roll {
        None => return Err("each row needs a `roll`: a face (4) or a range ([2, 3])".into()),
        Some(Json::Array(pair)) if pair.len() == 2 => face(&pair[0]).zip(face(&pair[1])),
        Some(v) => face(v).map(|f| (f, f)),
    };
    match faces {
        Some((lo, hi)) if lo <= hi => Ok((lo, hi)),
        Some((lo, hi)) => Err(format!(
            "the range [{lo}, {hi}] runs backwards: write the low face first"
        )),
        None => {
            Err("a roll is a whole number up to a million, or a [low, high] pair of them".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(yaml: &str) -> Result<Option<DiceTable>, Vec<TableProblem>> {
        DiceTable::compile("t", &serde_saphyr::from_str::<Json>(yaml).unwrap())
    }

    #[test]
    fn totals_past_the_ends_read_the_end_rows() {
        let t = table("{dice: 1D6, rows: [{roll: 1}, {roll: [2, 5]}, {roll: 6}]}")
            .unwrap()
            .unwrap();
        assert_eq!(t.read(-3), (1, Some(0)));
        assert_eq!(t.read(4), (4, Some(1)));
        assert_eq!(t.read(9), (6, Some(2)));
        assert_eq!(t.label, "t roll");
    }

    #[test]
    fn a_gap_reads_no_row() {
        let t = table("{dice: 2D6, rows: [{roll: [2, 4]}, {roll: [8, 12]}]}")
            .unwrap()
            .unwrap();
        assert_eq!(t.read(6), (6, None));
        assert_eq!(t.read(1), (2, Some(0)));
    }

    #[test]
    fn free_form_tables_are_not_dice_tables() {
        assert!(table("{Cruiser: {Submarine: win}}").unwrap().is_none());
    }

    #[test]
    fn overlaps_and_bad_rolls_are_located() {
        let e = table("{dice: 1D6, rows: [{roll: [1, 3]}, {roll: 3}, {roll: [5, 4]}, {}]}")
            .unwrap_err();
        let paths: Vec<&str> = e.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["tables.t.rows.2.roll", "tables.t.rows.3.roll"]);
        let e = table("{dice: 1D6, rows: [{roll: [1, 3]}, {roll: 3}]}").unwrap_err();
        assert_eq!(e[0].path, "tables.t.rows.1.roll");
        assert!(
            e[0].message.contains("already read by row 1"),
            "{}",
            e[0].message
        );
        let e = table("{dice: 1Q6, rows: [{roll: 1}]}").unwrap_err();
        assert_eq!(e[0].path, "tables.t.dice");
    }
}
