//! A replay under changed rules (what `reload`, forks and `portolan
//! replay` run) says "same" only when every position is the same: rules
//! that give two pieces each other's values lead elsewhere.

use portolan::data::catalog::Catalog;
use portolan::kernel::engine::Engine;
use portolan::load::{Request, load};
use portolan::replay::{Stop, notations, replay, transcript};
use std::fs;
use tempfile::TempDir;

/// One player, two chests; opening them puts `first` gold in chest 1 and
/// `second` in chest 2, and the game ends after a second choice.
const GAME: &str = "\
id: chests
title: Chests
players:
  - { id: one }
pieces:
  kinds:
    chest: { count: 2 }
phases:
  play: { kind: script }
flow: [play]
scripts: [rules.lua]
";

fn rules(first: i64, second: i64) -> String {
    format!(
        "phases.play = {{}}\n\
         function phases.play.run(frame)\n\
           if frame.step >= 2 then\n\
             game.finish {{ reason = 'opened' }}\n\
             return nil\n\
           end\n\
           return {{ 'open' }}\n\
         end\n\
         function phases.play.choose(frame, choice)\n\
           frame.step = frame.step + 1\n\
           if frame.step == 1 then\n\
             pieces.set_attr(1, 'gold', {first})\n\
             pieces.set_attr(2, 'gold', {second})\n\
           end\n\
         end\n"
    )
}

fn engine(dir: &TempDir, first: i64, second: i64) -> Engine {
    let root = dir.path().join(format!("chests-{first}-{second}"));
    fs::create_dir_all(&root).unwrap();
    fs::write(root.join("game.yaml"), GAME).unwrap();
    fs::write(root.join("rules.lua"), rules(first, second)).unwrap();
    let request = Request {
        target: root.to_string_lossy().into_owned(),
        options: vec![],
        overlays: vec![],
    };
    load(&Catalog::embedded(), &request)
        .unwrap_or_else(|e| panic!("{e}"))
        .engine
}

/// Plays the game under `old`, then replays it under `new`, comparing
/// every position; returns where the replay stopped.
fn replayed_under(old: &Engine, new: &Engine) -> Option<Stop> {
    let mut state = old.new_game(1).unwrap();
    while old.to_move(&state).is_some() {
        old.apply(&mut state, portolan::kernel::action::Action::Choice(0))
            .unwrap();
    }
    let steps = transcript(old, 1, &state).unwrap();
    let start = old.new_game(1).unwrap().position_hash();
    replay(new, 1, &notations(&steps), &[], Some(start), Some(&steps))
        .unwrap()
        .stop
}

#[test]
fn the_same_rules_replay_to_the_same_positions() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (engine(&dir, 10, 20), engine(&dir, 10, 20));
    assert_eq!(replayed_under(&a, &b), None);
}

#[test]
fn rules_that_swap_two_pieces_values_lead_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (engine(&dir, 10, 20), engine(&dir, 20, 10));
    assert!(
        matches!(
            replayed_under(&a, &b),
            Some(Stop::Elsewhere { index: 0, .. })
        ),
        "the chests hold each other's gold after the first action"
    );
}
