//! Output paths (`simulate --out`, `balance --plot`, `render --svg`) are
//! checked before the run, not after it: a FIFO, a link or a missing
//! folder is refused before a single game is played. Each command runs on
//! a package whose first game fails, so a run that started would say so
//! instead of naming the path. Special files are made in a temp folder.

mod hostile;

use hostile::{fifo, symlink, write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A game whose rules fail as soon as a game starts (loading it works).
fn broken_package(dir: &Path) -> PathBuf {
    let root = dir.join("broken");
    write(
        &root.join("game.yaml"),
        "id: broken\ntitle: Broken\nplayers:\n  - { id: one }\n\
         phases:\n  play: { kind: script }\nflow: [play]\nscripts: [rules.lua]\n",
    );
    write(
        &root.join("rules.lua"),
        "phases.play = {}\nfunction phases.play.run(frame) error('the game was played') end\n",
    );
    root
}

/// Runs portolan; returns its standard error, having checked it failed.
fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} succeeded: {err}");
    assert!(
        !err.contains("the game was played"),
        "{args:?} played first: {err}"
    );
    err
}

/// Bad outputs of three kinds in `dir`: a FIFO, a link to a file, a file
/// in a folder that does not exist; with the words each refusal says.
fn bad_outputs(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let target = dir.join("real.txt");
    write(&target, "keep me");
    let link = dir.join("link.out");
    symlink(&target, &link);
    vec![
        (fifo(&dir.join("pipe.out")), "is a FIFO"),
        (link, "is a symbolic link"),
        (dir.join("no-such-folder/file.out"), "there is no folder"),
    ]
}

#[test]
fn simulate_checks_its_result_file_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    let game = broken_package(dir.path());
    for (path, why) in bad_outputs(dir.path()) {
        let err = refused(&[
            "simulate",
            game.to_str().unwrap(),
            "--shard",
            "0/2",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(err.contains("--out") && err.contains(why), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real.txt")).unwrap(),
        "keep me"
    );
}

#[test]
fn simulate_refuses_a_shard_too_large_to_merge_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    let game = broken_package(dir.path());
    let out = dir.path().join("shard.json");
    let err = refused(&[
        "simulate",
        game.to_str().unwrap(),
        "--games",
        "3000000",
        "--shard",
        "0/2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("at least 3 shards"), "{err}");
    assert!(!out.exists());
}

#[test]
fn balance_checks_its_plot_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    let game = broken_package(dir.path());
    for (path, why) in bad_outputs(dir.path()) {
        let err = refused(&[
            "balance",
            game.to_str().unwrap(),
            "--variant",
            "a=",
            "--variant",
            "b=",
            "--plot",
            path.to_str().unwrap(),
        ]);
        assert!(err.contains("--plot") && err.contains(why), "{err}");
    }
}

#[test]
fn render_checks_its_drawing_before_replaying_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let missing_save = dir.path().join("missing-save.json");
    for (path, why) in bad_outputs(dir.path()) {
        let err = refused(&[
            "render",
            "med-convoy",
            "--save",
            missing_save.to_str().unwrap(),
            "--svg",
            path.to_str().unwrap(),
        ]);
        assert!(err.contains("--svg") && err.contains(why), "{err}");
    }
}
