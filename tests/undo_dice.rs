//! Undo that cannot see the future (issue 19): against a bot or in
//! hot-seat play, an action played again after `undo` rolls on a fresh
//! random stream, so undo, try, look at the roll and undo again shows no
//! die to come; redo returns to the dice that were rolled, and the fresh
//! streams are recorded, so saves, `load`, `reload` and `portolan replay`
//! still replay the game exactly.

#[path = "repl_fixtures/harness.rs"]
mod harness;

use harness::*;
use std::process::Command;

/// Two players in turn throw twelve dice or hold (tests/repl_fixtures/rolls).
const ROLLS: &str = "tests/repl_fixtures/rolls";

/// North's throws in a reply, as narrated (`north: 12D6 rolled 2+3+... = 47`).
fn north_throws(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("north: 12D6 rolled"))
        .collect()
}

#[test]
fn undo_and_throw_again_against_a_bot_rolls_fresh_dice() {
    let out = play(
        &[ROLLS, "--seed", "5", "--seat", "south=random"],
        "throw\nundo\nthrow\nundo\nthrow\n",
    );
    let throws: Vec<&str> = replies(&out, "throw")
        .iter()
        .map(|r| north_throws(r)[0])
        .collect();
    assert_eq!(throws.len(), 3, "{out}");
    assert_ne!(throws[0], throws[1], "undo showed the dice to come:\n{out}");
    assert_ne!(throws[1], throws[2], "undo showed the dice to come:\n{out}");
    assert_ne!(throws[0], throws[2], "{out}");
}

#[test]
fn undo_in_hot_seat_rolls_fresh_dice_and_redo_brings_back_the_roll() {
    let out = play(
        &[ROLLS, "--seed", "5", "--seat", "south=human"],
        "throw\nundo\nthrow\nlog 1\nundo\nredo\nlog 1\n",
    );
    // Each throw's reply narrates it twice: for the thrower, and for the
    // next player after the handover.
    let throws: Vec<&str> = replies(&out, "throw")
        .iter()
        .map(|r| north_throws(r)[0])
        .collect();
    assert_eq!(throws.len(), 2, "{out}");
    assert_ne!(throws[0], throws[1], "undo showed the dice to come:\n{out}");
    // Redo goes back to what was rolled, not to new dice.
    let logs = replies(&out, "log 1");
    assert_eq!(north_throws(logs[0]), north_throws(logs[1]), "{out}");
    assert_eq!(north_throws(logs[1]), vec![throws[1]], "{out}");
}

#[test]
fn a_solitaire_game_keeps_its_dice_on_undo() {
    // Nobody to cheat: one player may undo and try another choice on the
    // same dice, as a designer compares two options.
    let out = play(
        &["solo-convoy", "--seed", "4"],
        "1\nlog 3\nundo\n1\nlog 3\n",
    );
    let logs = replies(&out, "log 3");
    assert_eq!(logs[0], logs[1], "{out}");
}

#[test]
fn fresh_dice_replay_exactly_from_a_save() {
    let work = tempfile::tempdir().unwrap();
    let package = work.path().join("rolls");
    copy_tree(&repo().join(ROLLS), &package);
    let package = package.to_str().unwrap();
    let save = work.path().join("g.json");
    let save = save.to_str().unwrap();
    let first = play(
        &[package, "--seed", "5", "--seat", "south=random"],
        &format!("throw\nundo\nthrow\nthrow\nundo\nhold\nthrow\nlog 20\nsave {save}\nreload\n"),
    );
    assert!(
        reply(&first, "reload").contains("same positions"),
        "{first}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    let reseeds = json["reseeds"]
        .as_array()
        .expect("the fresh streams are saved");
    assert_eq!(reseeds.len(), 2, "{json}");
    assert_eq!(json["format"], 2, "older programs must not misread it");

    let second = play(&[package, "--seed", "9"], &format!("load {save}\nlog 20\n"));
    assert_eq!(reply(&second, "log 20"), reply(&first, "log 20"));

    let out = Command::new(BIN)
        .env("NO_COLOR", "1")
        .arg("--rules")
        .arg(work.path())
        .arg("replay")
        .arg(save)
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{listing}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        listing.contains("replay to the same positions"),
        "{listing}"
    );
}

#[test]
fn a_save_with_fresh_dice_out_of_place_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let save = save.to_str().unwrap();
    play(
        &[ROLLS, "--seed", "5", "--seat", "south=random"],
        &format!("throw\nundo\nthrow\nsave {save}\n"),
    );
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    json["reseeds"][0]["at"] = 99.into();
    std::fs::write(save, serde_json::to_string(&json).unwrap()).unwrap();
    let (out, _) = play_failing(&[ROLLS, "--seed", "5"], &format!("load {save}\n"));
    let r = reply(&out, &format!("load {save}"));
    assert!(r.contains("a fresh random stream at action 100"), "{r}");
    assert!(r.contains("the current game is unchanged"), "{r}");
}
