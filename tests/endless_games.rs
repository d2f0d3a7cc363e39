//! A game that never ends: `max_plies` is capped, refused above the cap
//! where the data says it (file:line:col), and a simulated game keeps no
//! record that grows with its length, whatever the length.

mod hostile;

use hostile::write;
use portolan::data::catalog::Catalog;
use portolan::kernel::engine::Engine;
use portolan::kernel::game::MAX_PLIES;
use portolan::load::{Request, load};
use portolan::sim::{for_playouts, play_game};
use std::path::Path;
use std::process::Command;

/// Two boats sailing to and fro with no way to win, `max_plies` at the cap.
const ENDLESS: &str = "tests/sim_fixtures/endless";

fn engine(target: &str) -> Result<Engine, String> {
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays: vec![],
    };
    load(&Catalog::embedded(), &request)
        .map(|l| l.engine)
        .map_err(|e| e.to_string())
}

fn endless() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(ENDLESS)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn max_plies_above_the_cap_is_refused_where_the_file_says_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(Path::new(&endless()).join("game.yaml")).unwrap();
    let game = dir.path().join("endless");
    write(
        &game.join("game.yaml"),
        text.replace("max_plies: 1000000", "max_plies: 4294967295"),
    );
    let line = text
        .lines()
        .position(|l| l.starts_with("max_plies"))
        .unwrap()
        + 1;
    let e = engine(game.to_str().unwrap()).err().expect("refused");
    assert!(
        e.contains(&format!("game.yaml:{line}:")) && e.contains("at most 1000000 actions"),
        "{e}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .arg("check")
        .arg(&game)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("max_plies is 4294967295"), "{err}");
}

#[test]
fn a_game_at_the_cap_loads_and_ends_there_by_the_limit() {
    let engine = engine(&endless()).unwrap();
    assert_eq!(engine.game.max_plies, MAX_PLIES);
    for_playouts(&engine);
    let state = play_game(&engine, 1, &["random".into()]).unwrap();
    assert_eq!(state.ply, MAX_PLIES);
    assert!(state.result.as_ref().is_some_and(|r| r.by_limit));
    // Nothing kept grows with the game: no log, no events, no history
    // (the game has no repetition rule), nothing reserved for them.
    assert_eq!(
        (state.log.len(), state.events.len(), state.history.len()),
        (0, 0, 0),
        "a simulated game kept a record per ply"
    );
    assert_eq!(state.log.capacity(), 0);
}

#[test]
fn outside_simulations_the_log_is_kept() {
    let engine = engine(&endless()).unwrap();
    let mut state = engine.new_game(1).unwrap();
    let mut legal = Vec::new();
    for _ in 0..10 {
        engine.legal_actions(&state, &mut legal);
        engine.apply(&mut state, legal[0]).unwrap();
    }
    assert_eq!(state.log.len(), 10, "the REPL and replays read the log");
}
