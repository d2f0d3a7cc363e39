//! The harness of tests/repl.rs: runs the binary on command files or
//! through a pipe, and reads its transcripts.
#![allow(dead_code)]

use portolan::data::catalog::Catalog;
use portolan::kernel::event::Event;
use portolan::load::{Request, load};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_portolan");

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of the stock rules in a temporary folder, for editing.
pub fn rules_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("rules"), &dir.path().join("rules"));
    dir
}

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Runs `portolan [pre] play ARGS --commands FILE` and returns stdout;
/// every command must succeed.
pub fn play(args: &[&str], commands: &str) -> String {
    play_with(&[], args, commands)
}

pub fn play_with(pre: &[&str], args: &[&str], commands: &str) -> String {
    let (ok, text, errors) = run(pre, args, commands);
    assert!(ok, "portolan failed: {errors}\n{text}");
    text
}

/// As [`play`], for command files with commands meant to fail: the
/// process must exit with a failure status. Returns stdout and the
/// summary on stderr (`3 commands failed (the first at line 2: ...)`).
pub fn play_failing(args: &[&str], commands: &str) -> (String, String) {
    let (ok, text, errors) = run(&[], args, commands);
    assert!(!ok, "portolan should have failed:\n{text}");
    assert!(errors.contains(" failed (the first at line "), "{errors}");
    (text, errors)
}

/// Runs the binary on a command file: success, stdout, stderr.
pub fn run(pre: &[&str], args: &[&str], commands: &str) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("commands.txt");
    std::fs::write(&file, commands).unwrap();
    let out = Command::new(BIN)
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .args(pre)
        .arg("play")
        .args(args)
        .arg("--commands")
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The part of a transcript after the last echo of `command`.
pub fn after<'a>(text: &'a str, command: &str) -> &'a str {
    let echo = format!("> {command}\n");
    let at = text
        .rfind(&echo)
        .unwrap_or_else(|| panic!("no '{command}' in:\n{text}"));
    &text[at + echo.len()..]
}

/// The reply to the last `command`, up to the next prompt echo.
pub fn reply<'a>(text: &'a str, command: &str) -> &'a str {
    until_prompt(after(text, command))
}

/// The replies to every run of `command`, in order.
pub fn replies<'a>(text: &'a str, command: &str) -> Vec<&'a str> {
    let echo = format!("> {command}\n");
    text.match_indices(&echo)
        .map(|(at, _)| until_prompt(&text[at + echo.len()..]))
        .collect()
}

/// Text up to the next prompt echo (whoever's it is).
fn until_prompt(rest: &str) -> &str {
    let end = [
        "\nblue> ",
        "\nred> ",
        "\nnorth> ",
        "\nsouth> ",
        "\nconvoy> ",
        "\nwhite> ",
        "\ngame over> ",
        "\n[",
    ]
    .iter()
    .filter_map(|prompt| rest.find(prompt))
    .min()
    .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// The board rows (lines that start with a row number) of a reply.
pub fn board(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with(|c: char| c.is_ascii_digit()) && t.contains("  ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A REPL reading commands from a pipe, so the test can change files
/// between commands.
pub struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    sync: usize,
}

impl Live {
    pub fn start(pre: &[&str], args: &[&str]) -> Live {
        Live::start_in(&repo(), pre, args)
    }

    /// As [`Live::start`], in another working folder (for relative files).
    pub fn start_in(dir: &Path, pre: &[&str], args: &[&str]) -> Live {
        let mut child = Command::new(BIN)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .args(pre)
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
            sync: 0,
        }
    }

    /// Sends commands and returns everything printed until they are done.
    pub fn run(&mut self, commands: &str) -> String {
        self.sync += 1;
        // A command that only looks, and asks nothing even in hot-seat
        // play: its error line marks the end of the replies.
        let marker = format!("error: no command 'sync-{}'", self.sync);
        writeln!(self.stdin, "{commands}\nhelp sync-{}", self.sync).unwrap();
        self.stdin.flush().unwrap();
        let mut text = String::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer; so far:\n{text}"));
            if l.starts_with(&marker) {
                return text;
            }
            text += &l;
            text.push('\n');
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The screens of a hot-seat transcript, each with the player it was for.
pub fn screens(out: &str) -> Vec<(String, String)> {
    let mut result = Vec::new();
    let mut rest = out;
    while let Some(at) = rest.find("-- pass to ") {
        let (screen, tail) = rest.split_at(at);
        let who = tail["-- pass to ".len()..].split(',').next().unwrap();
        // The screen before "pass to RED" was Blue's, and the other way.
        let owner = if who == "RED" { "blue" } else { "red" };
        result.push((owner.to_string(), screen.to_string()));
        rest = &tail[tail.find('\n').unwrap() + 1..];
    }
    result
}

/// The number (from 1) of the first action of a saved game whose events
/// include an attack: where a changed combat table first shows.
pub fn first_attack(save: &Path) -> usize {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    let loaded = load(
        &Catalog::embedded(),
        &Request {
            target: "med-convoy".into(),
            options: vec![],
            overlays: vec![],
        },
    )
    .unwrap();
    let e = &loaded.engine;
    let mut state = e.new_game(json["seed"].as_u64().unwrap()).unwrap();
    for (i, a) in json["actions"].as_array().unwrap().iter().enumerate() {
        let before = state.events.len();
        let action = e.parse_action(&state, a.as_str().unwrap()).unwrap();
        e.apply(&mut state, action).unwrap();
        if state.events[before..]
            .iter()
            .any(|ev| matches!(ev, Event::Attack { .. }))
        {
            return i + 1;
        }
    }
    panic!("no attack in the game");
}
