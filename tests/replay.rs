//! `portolan replay`: saved games replayed under the current rules, from
//! the command line, one line per save: on standard output when all
//! replay the same, else on standard error with a non-zero exit (like
//! `check`).

// Only some of the package helpers are needed here.
#[allow(dead_code)]
#[path = "common/package.rs"]
mod package;

use package::PackageCopy;
use std::path::Path;
use std::process::{Command, Output};

fn portolan(rules: &Path, args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_portolan"));
    command.arg("--rules").arg(rules);
    run(command, args, stdin)
}

/// The stock rules (no `--rules`), as a new user runs them.
fn stock(args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_portolan"));
    command.env_remove("PORTOLAN_RULES");
    run(command, args, stdin)
}

fn run(mut command: Command, args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = command
        .args(args)
        .env_remove("PORTOLAN_SCENARIOS")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A whole game between two random bots, saved to `save`.
fn saved_game(rules: &Path, save: &Path, seed: &str) {
    let out = portolan(
        rules,
        &[
            "play",
            "med-convoy",
            "--seed",
            seed,
            "--seat",
            "blue=random",
            "--seat",
            "red=random",
        ],
        &format!("save {}\n", save.display()),
    );
    assert!(save.exists(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn saves_replay_the_same_under_unchanged_rules() {
    let rules = PackageCopy::new();
    let saves = tempfile::tempdir().unwrap();
    saved_game(
        rules.root.parent().unwrap(),
        &saves.path().join("a.json"),
        "5",
    );
    saved_game(
        rules.root.parent().unwrap(),
        &saves.path().join("b.json"),
        "6",
    );
    let out = portolan(
        rules.root.parent().unwrap(),
        &["replay", saves.path().to_str().unwrap()],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("same") && l.contains("same positions")),
        "{text}"
    );
}

#[test]
fn a_changed_attack_table_names_the_first_action_that_diverges() {
    let rules = PackageCopy::new();
    let saves = tempfile::tempdir().unwrap();
    let save = saves.path().join("game.json");
    saved_game(rules.root.parent().unwrap(), &save, "5");
    rules.replace(
        "game.yaml",
        "Destroyer: { Cruiser: bounce, Destroyer: both, Merchant: win, Submarine: win }",
        "Destroyer: { Cruiser: lose, Destroyer: lose, Merchant: lose, Submarine: lose }",
    );
    let out = portolan(
        rules.root.parent().unwrap(),
        &["replay", save.to_str().unwrap()],
        "",
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(text.starts_with("diverged"), "{text}");
    assert!(
        text.contains("now leads to another position") || text.contains("is now illegal"),
        "{text}"
    );
    assert!(text.contains("action "), "{text}");
}

#[test]
fn a_broken_save_is_one_diverged_line_among_the_others() {
    let rules = PackageCopy::new();
    let saves = tempfile::tempdir().unwrap();
    saved_game(
        rules.root.parent().unwrap(),
        &saves.path().join("a.json"),
        "5",
    );
    std::fs::write(saves.path().join("b.json"), "{ not a save").unwrap();
    let out = portolan(
        rules.root.parent().unwrap(),
        &["replay", saves.path().to_str().unwrap()],
        "",
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    let lines: Vec<_> = text.lines().collect();
    assert!(
        lines[0].starts_with("same") && lines[1].starts_with("diverged"),
        "{text}"
    );
    assert!(lines[1].contains("not a Portolan save"), "{text}");
}

/// Rules that write narration into the game's variables (the solitaire
/// game's sheet notes) recorded a save whose positions a quiet replay
/// never reached: `replay` replays as the game was played, narrated.
#[test]
fn a_narrated_solitaire_save_replays_the_same() {
    let saves = tempfile::tempdir().unwrap();
    let solo = saves.path().join("solo.json");
    let fleet = saves.path().join("fleet.json");
    let play = |args: &[&str], stdin: String| {
        let out = stock(args, &stdin);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    play(
        &["play", "solo-convoy", "--seed", "9"],
        format!("5\n5\nsave {}\n", solo.display()),
    );
    play(
        &[
            "play",
            "treasure-fleet",
            "--seed",
            "3",
            "--seat",
            "a=random",
        ],
        format!("save {}\n", fleet.display()),
    );
    let out = stock(&["replay", saves.path().to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.matches("same positions").count(), 2, "{text}");
}

/// A save written before saves named their position hash (version 1):
/// med-convoy, seed 5, random against random, 180 actions.
const OLD_HASH_SAVE: &str = "tests/save_fixtures/med-convoy-hash-1.json";

#[test]
fn a_save_with_positions_of_an_older_hash_replays_the_same_with_a_note() {
    let rules = PackageCopy::new();
    let save = Path::new(env!("CARGO_MANIFEST_DIR")).join(OLD_HASH_SAVE);
    let out = portolan(
        rules.root.parent().unwrap(),
        &["replay", save.to_str().unwrap()],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("same"), "{text}");
    assert!(text.contains("180 actions replay"), "{text}");
    assert!(
        text.contains("recorded with position hash 1") && text.contains("save it again"),
        "{text}"
    );
}

#[test]
fn a_save_loaded_and_saved_again_records_positions_that_are_compared() {
    let rules = PackageCopy::new();
    let dir = tempfile::tempdir().unwrap();
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join(OLD_HASH_SAVE);
    let new = dir.path().join("again.json");
    let out = portolan(
        rules.root.parent().unwrap(),
        &["play", "med-convoy"],
        &format!("load {}\nsave {}\n", old.display(), new.display()),
    );
    assert!(new.exists(), "{}", String::from_utf8_lossy(&out.stdout));
    let out = portolan(
        rules.root.parent().unwrap(),
        &["replay", new.to_str().unwrap()],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("180 actions replay to the same positions"),
        "{text}"
    );
}
