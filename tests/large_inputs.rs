//! Data files far larger than any real game, as a hostile or careless
//! package author could write them: `check` stays near-linear in the
//! file's size, and every id the data fills (spaces, phases, rows, a
//! space's connections) refuses what it cannot number instead of wrapping
//! around onto another one.
//!
//! No timing is asserted. The sizes are those that took minutes when
//! loading was quadratic (45,000 connections took 19 s a load when the
//! list of space names was rebuilt per connection; 200,000 ranks took 69 s
//! in `check`); linear, each test takes well under a second.

use portolan::data::catalog::Catalog;
use std::fmt::Write;
use std::path::Path;

const CONNECTIONS: usize = 45_000;
const RANKS: usize = 200_000;

/// A package folder holding this game.yaml and rules.lua.
fn package(game_yaml: &str, rules_lua: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.yaml"), game_yaml).unwrap();
    std::fs::write(dir.path().join("rules.lua"), rules_lua).unwrap();
    dir
}

/// What `portolan check` says of a package: what passed, or every error.
fn check(dir: &Path) -> Result<Vec<String>, String> {
    let catalog = Catalog::new(None, None);
    portolan::load::check(&catalog, dir.to_str().unwrap(), &[])
        .map(|c| c.passed)
        .map_err(|e| e.to_string())
}

/// A two-player grid game with a ship each; `board` and `zones` are added
/// under their keys.
fn game(board: &str, zones: &str) -> String {
    format!(
        "id: big\ntitle: Big\nplayers:\n  - {{ id: a, home: south }}\n  - {{ id: b, home: north }}\n\
         board:\n  grid: {{ columns: 7, rows: 5 }}\n{board}\
         pieces:\n  kinds:\n    Ship: {{ count: 1 }}\n\
         zones:\n  home: {{ ranks: [1] }}\n{zones}\
         phases:\n  setup: {{ kind: placement, quotas: {{ home: 1 }} }}\n  sail: {{ kind: movement, movement: {{ steps: 1 }} }}\n\
         flow: [setup, sail]\nvictory:\n  last_with: Ship\nscripts: [rules.lua]\n"
    )
}

/// `count` extra spaces and three connections from each to the next ones.
fn area_map(spaces: usize, connections: usize, names: &str) -> String {
    let mut board = String::from("  spaces:\n");
    for i in 0..spaces {
        writeln!(board, "    - {{ name: s{i}, kind: sea }}").unwrap();
    }
    board += "  connections:\n";
    for c in 0..connections {
        let (from, step) = (c / 3, c % 3 + 1);
        writeln!(
            board,
            "    - {{ from: {names}{from}, to: s{} }}",
            from + step
        )
        .unwrap();
    }
    board
}

/// The game with `count` more phases `p0`, `p1`..., each written `phase`.
fn with_phases(count: usize, phase: &str) -> String {
    let mut phases = String::new();
    for i in 0..count {
        writeln!(phases, "  p{i}: {phase}").unwrap();
    }
    game("", "").replace("flow:", &format!("{phases}flow:"))
}

fn long_ranks(value: &str) -> String {
    let ranks = vec![value; RANKS].join(", ");
    format!("  wide: {{ ranks: [{ranks}] }}\n")
}

#[test]
fn a_large_map_and_a_long_ranks_list_check_in_linear_time() {
    let board = area_map(CONNECTIONS / 3 + 3, CONNECTIONS, "s");
    let dir = package(&game(&board, &long_ranks("2")), "");
    let passed = check(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    // The package, and the static reading of its scripts.
    assert_eq!(passed.len(), 2, "{passed:?}");
    assert!(passed[1].starts_with("scripts of "), "{passed:?}");
}

#[test]
fn a_large_map_full_of_errors_is_reported_in_linear_time() {
    let board = area_map(CONNECTIONS / 3 + 3, CONNECTIONS, "t");
    let dir = package(&game(&board, ""), "");
    let errors = check(dir.path()).unwrap_err();
    assert!(errors.contains("unknown space 't0'"), "{errors}");
    assert!(
        errors.contains("more problems: fix these first"),
        "{errors}"
    );
    assert!(errors.lines().count() < 200, "{errors}");
}

#[test]
fn a_long_list_of_wrong_values_is_reported_in_linear_time() {
    let dir = package(&game("", &long_ranks("-1")), "");
    let errors = check(dir.path()).unwrap_err();
    assert!(
        errors.contains("item 1 of 'ranks' must be a whole number from 0 to 255, not -1"),
        "{errors}"
    );
    assert!(errors.lines().count() < 200, "{errors}");
}

/// Scripted phases are looked up by number, and each missing one is placed
/// in game.yaml by one lookup: with a scan of the phases for each, 60,000
/// phases took minutes.
#[test]
fn many_scripted_phases_are_checked_in_linear_time() {
    const PHASES: usize = 60_000;
    let text = with_phases(PHASES, "{ kind: script }");
    // Every other phase has its functions (one table for all of them).
    let rules = format!(
        "local phase = {{ run = function() end }}\nfor i = 0, {PHASES} - 1, 2 do\n  phases['p' .. i] = phase\nend\n"
    );
    let dir = package(&text, &rules);
    let errors = check(dir.path()).unwrap_err();
    assert!(
        errors.contains("phase 'p1' is scripted, but no script defines phases.p1.run"),
        "{errors}"
    );
    assert!(!errors.contains("phases.p0.run"), "{errors}");
    assert!(errors.contains("and 29900 more errors"), "{errors}");
}

/// Each id space filled from data, one past full: refused, saying so.
#[test]
fn ids_never_wrap_around() {
    let max = usize::from(u16::MAX);
    let spaces = game(&area_map(max + 1 - 35, 0, "s"), "");
    let phases = with_phases(max + 1, "{ kind: placement, quotas: { home: 1 } }");
    let mut rows = String::from("tables:\n  t:\n    dice: 1D6\n    rows:\n");
    for i in 0..=max {
        writeln!(rows, "      - {{ roll: {i} }}").unwrap();
    }
    let rows = format!("{}{rows}", game("", ""));
    let mut edges = String::from("  spaces:\n    - { name: x, kind: sea }\n  connections:\n");
    for _ in 0..=max {
        edges += "    - { from: a1, to: x }\n";
    }
    let edges = game(&edges, "");
    for (text, wanted) in [
        (spaces, "65536 spaces on the board: at most 65535"),
        (phases, "65538 phases: at most 65535"),
        (rows, "65536 rows: a dice table may have at most 65535"),
        (edges, "space 'a1' has 65538 connections: at most 65535"),
    ] {
        let t = std::time::Instant::now();
        let dir = package(&text, "");
        let errors = check(dir.path()).unwrap_err();
        eprintln!("TIMING {wanted} {:?}", t.elapsed());
        assert!(errors.contains(wanted), "wanted '{wanted}' in:\n{errors}");
    }
}
