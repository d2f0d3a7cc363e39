//! Unit tests of the session and of what saves and reloads rest on.

use crate::data::catalog::Catalog;
use crate::files::write_atomic;
use crate::load::Request;
use crate::repl::replay::{self, Stop};
use crate::repl::save::fingerprint;
use crate::repl::session::{Seat, Session};

fn session(seats: &[(&str, Seat)]) -> Session {
    let request = Request {
        target: "med-convoy".into(),
        options: vec![],
        overlays: vec![],
    };
    let seats: Vec<(String, Seat)> = seats
        .iter()
        .map(|(p, s)| (p.to_string(), s.clone()))
        .collect();
    let mut s = Session::start(Catalog::embedded(), request, Some(3), &seats).unwrap();
    s.welcome();
    s
}

#[test]
fn an_error_changes_nothing() {
    let mut s = session(&[]);
    let before = s.state().clone();
    for bad in [
        "bogus",
        "place z9",
        "999",
        "undo",
        "switch x",
        "load /nonexistent",
    ] {
        let reply = s.execute(bad);
        assert!(reply.text.starts_with("error: "), "{bad}: {}", reply.text);
        assert_eq!(reply.text.lines().count(), 1, "{bad}: {}", reply.text);
    }
    assert_eq!(*s.state(), before);
}

#[test]
fn random_set_up_replays_exactly_from_the_seed() {
    let mut s = session(&[]);
    assert!(s.execute("place random").text.contains("at random"));
    let steps = replay::transcript(&s.loaded.engine, 3, s.state()).unwrap();
    let r = replay::replay(
        &s.loaded.engine,
        3,
        &replay::notations(&steps),
        &[],
        None,
        Some(&steps),
    )
    .unwrap();
    assert_eq!(r.stop, None);
    assert_eq!(
        r.last(),
        s.state(),
        "the REPL's random set-up left the game's dice alone"
    );
}

#[test]
fn a_replay_stops_at_the_first_illegal_action() {
    let s = session(&[]);
    let actions = vec![
        "place Cruiser a5".to_string(),
        "place Cruiser zz".to_string(),
    ];
    let r = replay::replay(&s.loaded.engine, 3, &actions, &[], None, None).unwrap();
    assert!(
        matches!(r.stop, Some(Stop::Illegal { index: 1, .. })),
        "red sets up first, on its own rows"
    );
    assert_eq!(r.replayed(), 1);
}

#[test]
fn undo_walks_back_every_bot_ply_when_no_seat_is_human() {
    let mut s = session(&[("blue", Seat::Bot("random".into()))]);
    let end = s.state().ply;
    assert!(s.state().result.is_some());
    s.execute("undo 5");
    assert_eq!(s.state().ply, end - 5);
    s.execute("redo 5");
    assert_eq!(s.state().ply, end);
}

#[test]
fn atomic_writes_replace_and_leave_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    write_atomic(&path, b"one").unwrap();
    write_atomic(&path, b"two").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    assert!(write_atomic(&dir.path().join("no/such/dir/x"), b"x").is_err());
}

#[test]
fn the_fingerprint_follows_every_file() {
    let mut files = std::collections::BTreeMap::new();
    files.insert("game.yaml".to_string(), "a: 1".to_string());
    let one = fingerprint(&files);
    files.insert("rules.lua".to_string(), "-- x".to_string());
    let two = fingerprint(&files);
    files.insert("rules.lua".to_string(), "-- y".to_string());
    assert_ne!(one, two);
    assert_ne!(two, fingerprint(&files));
}
