//! Hostile rules packages end cleanly: a copy of Mediterranean Convoy whose
//! scripts loop forever, eat memory or try to leave the sandbox must fail
//! with an error that names the problem and the file, must not hang or
//! crash, and must never damage the game in progress.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;
#[path = "common/package.rs"]
mod package;

use common::{cell, piece_at, player, position};
use package::PackageCopy;
use portolan::kernel::engine::Engine;
use portolan::load::{Request, load};
use std::process::Command;
use std::time::{Duration, Instant};

/// What each hostile snippet does, and words its error must contain.
const HOSTILE: [(&str, &str, &str); 6] = [
    ("infinite loop", "while true do end", "time budget"),
    (
        "memory bomb",
        "local s = 'x' while true do s = s .. s end",
        "memory limit",
    ),
    ("io.open", "io.open('/etc/passwd')", "'io'"),
    (
        "os.execute",
        "os.execute('touch /tmp/portolan-pwned')",
        "'os'",
    ),
    (
        "binary chunk",
        "load('\\27LuaT\\0')",
        "binary (precompiled) chunk",
    ),
    ("require outside", "require('../x')", "require(\"../x\")"),
];

/// A package copy whose Air Strike runs `code` before striking.
fn hostile_strike(code: &str) -> PackageCopy {
    let copy = PackageCopy::new();
    copy.replace(
        "rules.lua",
        "function rules.air_strike(player, cell)\n",
        &format!("function rules.air_strike(player, cell)\n  {code}\n"),
    );
    copy
}

fn load_copy(copy: &PackageCopy) -> Result<Engine, String> {
    let request = Request {
        target: copy.root.to_str().unwrap().to_string(),
        options: vec![],
        overlays: vec![],
    };
    load(&common::catalog(), &request)
        .map(|l| l.engine)
        .map_err(|e| e.to_string())
}

/// The budget is 1 s; the watchdog may stop a call up to 200 ms late.
/// Anything well past that is a hang.
fn assert_quick(start: Instant, what: &str) {
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{what} took {:?}",
        start.elapsed()
    );
}

#[test]
fn hostile_code_at_load_time_fails_the_load_with_a_located_error() {
    for (what, code, says) in HOSTILE {
        let copy = PackageCopy::new();
        let text = copy.read("rules.lua");
        copy.write("rules.lua", &format!("{text}{code}\n"));
        let (line, _) = copy.position_of("rules.lua", code);
        let start = Instant::now();
        let err = match load_copy(&copy) {
            Ok(_) => panic!("{what}: the package loaded"),
            Err(e) => e,
        };
        assert_quick(start, what);
        assert!(err.contains(says), "{what}: no '{says}' in:\n{err}");
        // Lua cannot say where memory ran out; everything else has a line.
        if what != "memory bomb" {
            assert!(
                err.contains(&format!("rules.lua:{line}")),
                "{what}: no rules.lua:{line} in:\n{err}"
            );
        }
    }
}

#[test]
fn hostile_code_in_an_option_script_names_that_script() {
    let copy = PackageCopy::new();
    copy.write(
        "options/no_backward.lua",
        "-- a bad overlay\nos.execute('true')\n",
    );
    let request = Request {
        target: copy.root.to_str().unwrap().to_string(),
        options: vec!["no-backward".into()],
        overlays: vec![],
    };
    let err = load(&common::catalog(), &request)
        .err()
        .expect("the overlay fails")
        .to_string();
    assert!(err.contains("options/no_backward.lua:2"), "{err}");
    assert!(err.contains("'os'"), "{err}");
    // Without the option the package is fine.
    assert!(load_copy(&copy).is_ok());
}

#[test]
fn hostile_code_in_play_fails_the_action_and_keeps_the_game() {
    for (what, code, says) in HOSTILE {
        // Only a strike on d4 runs the hostile code.
        let copy = hostile_strike(&format!("if cell == 'd4' then {code} end"));
        let e = load_copy(&copy).unwrap_or_else(|err| panic!("{what}: {err}"));
        let ships = [
            ("blue", "Merchant", "a1"),
            ("red", "Merchant", "g5"),
            ("red", "Cruiser", "d4"),
        ];
        let state = position(&e, &ships, "blue");
        let before = state.clone();
        let strike = e.parse_action(&state, "strike d4").unwrap();
        let start = Instant::now();
        let err = e
            .try_apply(&state, strike)
            .expect_err(&format!("{what}: the strike succeeded"))
            .to_string();
        assert_quick(start, what);
        assert!(err.contains(says), "{what}: no '{says}' in:\n{err}");
        if what != "memory bomb" {
            assert!(err.contains("rules.lua:"), "{what}: no file in:\n{err}");
        }
        // The game is as it was: same ships, same player, strike unused.
        assert_eq!(state, before, "{what}");
        assert_eq!(state.position_hash(), before.position_hash());
        assert_eq!(
            state.players[player(&e, "blue").0 as usize].used_specials,
            0
        );
        assert_eq!(
            state.first_at(cell(&e, "d4")),
            Some(piece_at(&e, &state, "d4"))
        );
        // And the engine still plays, scripts included: an ordinary move,
        // and a strike elsewhere (which sinks Red's last Merchant).
        let next = common::play(&e, &state, "a1 a2");
        assert_eq!(common::to_move(&e, &next).as_deref(), Some("red"));
        let next = common::play(&e, &state, "strike g5");
        assert_eq!(common::winner(&e, &next).as_deref(), Some("blue"), "{what}");
    }
}

#[test]
fn a_runaway_strike_stops_a_bot_game_with_an_error() {
    let copy = hostile_strike("while true do end");
    let e = load_copy(&copy).unwrap();
    let start = Instant::now();
    // Random bots call the Air Strike early in almost every game.
    let err = (0..20)
        .find_map(|seed| portolan::sim::play_game(&e, seed, &["random".into()]).err())
        .expect("some game calls the Air Strike");
    assert!(err.to_string().contains("time budget"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn simulate_with_a_hostile_package_exits_with_the_error() {
    let copy = hostile_strike("os.execute('true')");
    let o = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args([
            "simulate",
            copy.root.to_str().unwrap(),
            "--games",
            "20",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("'os'") && err.contains("rules.lua:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn the_repl_survives_a_hostile_strike() {
    let copy = hostile_strike("io.open('/etc/passwd')");
    let commands = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        commands.path(),
        "seat blue random\nseat red random\nboard\nquit\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args([
            "play",
            copy.root.to_str().unwrap(),
            "--seed",
            "3",
            "--commands",
            commands.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        format!("{out}{err}").contains("'io'"),
        "the error is shown:\n{out}\n{err}"
    );
}

#[test]
fn a_table_in_a_game_variable_is_refused_in_words_that_point_nowhere_else() {
    let copy = hostile_strike("vars.set('x', {})");
    let e = load_copy(&copy).expect("the package loads");
    let ships = [("blue", "Merchant", "a1"), ("red", "Merchant", "g5")];
    let state = position(&e, &ships, "blue");
    let strike = e.parse_action(&state, "strike g5").unwrap();
    let err = e.try_apply(&state, strike).unwrap_err().to_string();
    assert!(
        err.contains("not a table") && err.contains("plain data") && !err.contains("DESIGN"),
        "{err}"
    );
}
