//! The native movement phase on a small made-up game: the list of moves,
//! in its canonical order, for the paths Convoy does not take (no attacks,
//! a kind that moves more than one step, spaces with fewer neighbours than
//! others).

use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{Location, PieceId, PlayerId};
use portolan::kernel::state::GameState;
use portolan::load::{Request, load};

/// Two players with a Runner (two steps, if `runner_steps` says so) and a
/// Walker (one step) each on a 4x4 grid, and no attacks. Kinds are sorted
/// by name and faces are open, so the pieces are: 0 north Runner, 1 north
/// Walker, 2 south Runner, 3 south Walker.
fn engine(runner_steps: u8) -> Engine {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("runners");
    std::fs::create_dir(&package).unwrap();
    let yaml = format!(
        "id: runners
title: Runners
players:
  - {{ id: north, home: north }}
  - {{ id: south, home: south }}
board:
  grid: {{ columns: 4, rows: 4 }}
pieces:
  kinds:
    Runner: {{ count: 1, movement: {{ steps: {runner_steps} }} }}
    Walker: {{ count: 1 }}
zones:
  home: {{ ranks: [1] }}
phases:
  setup: {{ kind: placement, quotas: {{ home: 2 }} }}
  play: {{ kind: movement, movement: {{ steps: 1 }} }}
flow: [setup, play]
"
    );
    std::fs::write(package.join("game.yaml"), yaml).unwrap();
    let request = Request {
        target: package.to_str().unwrap().into(),
        options: vec![],
        overlays: vec![],
    };
    match load(&Catalog::new(None, None), &request) {
        Ok(loaded) => loaded.engine,
        Err(e) => panic!("the test game does not load:\n{e}"),
    }
}

/// South's Runner on c2 and Walker on a1 (a corner), North's Walker on c3
/// and Runner on d4; South to move.
fn position(engine: &Engine) -> GameState {
    let mut state = engine.new_game(1).expect("a game starts");
    for (piece, at) in [(0, "d4"), (1, "c3"), (2, "c2"), (3, "a1")] {
        let at = engine.game.board.find(at).unwrap();
        state.set_location(PieceId(piece), Location::Space(at));
    }
    engine
        .begin_phase(&mut state, "play", PlayerId(1))
        .expect("the play phase starts");
    state
}

/// The legal moves as `(piece, space)` pairs.
fn moves(engine: &Engine, state: &GameState) -> Vec<(u16, String)> {
    let mut legal = Vec::new();
    engine.legal_actions(state, &mut legal);
    legal
        .into_iter()
        .map(|a| match a {
            Action::Move { piece, to } => (piece.0, engine.game.board.name(to).to_string()),
            other => panic!("not a move: {other:?}"),
        })
        .collect()
}

fn expected(list: &[(u16, &str)]) -> Vec<(u16, String)> {
    list.iter().map(|&(p, s)| (p, s.to_string())).collect()
}

#[test]
fn one_step_moves_end_on_empty_spaces_in_neighbour_order() {
    let engine = engine(1);
    // Neighbours come north, east, south, west; c3 is taken (no attacks),
    // and the corner a1 has two neighbours where c2 has four.
    assert_eq!(
        moves(&engine, &position(&engine)),
        expected(&[(2, "d2"), (2, "c1"), (2, "b2"), (3, "a2"), (3, "b1")])
    );
}

#[test]
fn a_two_step_kind_reaches_every_empty_space_within_two_steps() {
    let engine = engine(2);
    // The Runner's destinations come in board order (a1 first, row by
    // row); the Walker's still in neighbour order after them.
    assert_eq!(
        moves(&engine, &position(&engine)),
        expected(&[
            (2, "b1"),
            (2, "c1"),
            (2, "d1"),
            (2, "a2"),
            (2, "b2"),
            (2, "d2"),
            (2, "b3"),
            (2, "d3"),
            (3, "a2"),
            (3, "b1"),
        ])
    );
}
