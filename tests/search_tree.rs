//! What a bot is told of the game between its decisions (`bots::tell`):
//! the search bot follows its kept tree by it, so it must never learn
//! an action its seat may not read.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use common::{engine, legal_actions, position, stock};
use portolan::bots::{self, Bot, Sight};
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::PlayerId;
use portolan::kernel::scripts::RulesError;
use portolan::kernel::state::GameState;

/// A bot that keeps what it is told.
#[derive(Default)]
struct Listener {
    told: Vec<(u32, Option<Action>)>,
}

impl Bot for Listener {
    fn choose(&mut self, _: &Sight, _: &[Action]) -> Result<usize, RulesError> {
        Ok(0)
    }

    fn follows_play(&self) -> bool {
        true
    }

    fn observe(&mut self, ply: u32, seen: Option<Action>) {
        self.told.push((ply, seen));
    }
}

/// What the bot of each seat is told of `action` in `state`.
fn told(engine: &Engine, state: &GameState, action: Action) -> Vec<Option<Action>> {
    (0..engine.game.players.len())
        .map(|seat| {
            let mut listener = Listener::default();
            bots::tell(&mut listener, engine, state, PlayerId(seat as u8), action);
            assert_eq!(listener.told.len(), 1);
            assert_eq!(
                listener.told[0].0, state.ply,
                "told at the ply it is played"
            );
            listener.told[0].1
        })
        .collect()
}

#[test]
fn a_move_on_the_board_is_told_to_every_seat() {
    let engine = engine(&[]);
    let state = position(
        &engine,
        &[("blue", "Merchant", "c1"), ("red", "Cruiser", "c5")],
        "blue",
    );
    let action = legal_actions(&engine, &state)[0];
    assert!(matches!(action, Action::Move { .. }));
    assert_eq!(
        told(&engine, &state, action),
        vec![Some(action), Some(action)]
    );
}

#[test]
fn a_hidden_placement_is_told_to_its_player_alone() {
    let engine = engine(&[]);
    // A new game begins with the hidden set-up: whoever places names a
    // ship's type, which the other player has not seen.
    let state = engine.new_game(common::SEED).expect("a new game");
    let mover = engine.to_move(&state).expect("someone sets up");
    let action = legal_actions(&engine, &state)[0];
    assert!(matches!(action, Action::Place { .. }));
    let told = told(&engine, &state, action);
    assert_eq!(told[mover.0 as usize], Some(action));
    assert_eq!(
        told[1 - mover.0 as usize],
        None,
        "the other seat learns only that a ship was placed"
    );
}

#[test]
fn a_scripted_choice_is_told_to_the_seat_that_made_it_alone() {
    let engine = stock("mediterranea/age-of-darkness");
    engine.set_narration(false);
    let state = engine.new_game(3).expect("a new game");
    let mover = engine.to_move(&state).expect("a faction decides");
    let action = legal_actions(&engine, &state)[0];
    assert!(matches!(action, Action::Choice(_)));
    for (seat, seen) in told(&engine, &state, action).into_iter().enumerate() {
        let expected = (seat == mover.0 as usize).then_some(action);
        assert_eq!(
            seen,
            expected,
            "seat {seat}, {:?} decides",
            player_name(&engine, mover)
        );
    }
}

fn player_name(engine: &Engine, p: PlayerId) -> &str {
    &engine.game.players[p.0 as usize].name
}

#[test]
fn a_search_that_keeps_its_tree_plays_whole_games_legally() {
    // Convoy's moves are public: the search follows its tree through the
    // opponent's moves. Treasure Fleet's are scripted choices: only its
    // own consecutive choices are followed. Both games must end.
    for (target, seats) in [
        ("med-convoy", ["ismcts:60", "random"]),
        ("treasure-fleet", ["random", "ismcts:20"]),
    ] {
        let engine = stock(target);
        engine.set_narration(false);
        let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
        let end = portolan::sim::play_game(&engine, 5, &seats).expect("the game plays");
        assert!(end.result.is_some(), "{target} ends");
    }
}

#[test]
fn an_attack_shows_the_seat_a_face_and_a_quiet_move_does_not() {
    // The search drops its kept tree when a face was revealed to its seat
    // since it searched: `Sight::faces_seen` tells it.
    let engine = engine(&[]);
    let state = position(
        &engine,
        &[
            ("blue", "Merchant", "c1"),
            ("blue", "Cruiser", "a2"),
            ("red", "Destroyer", "a3"),
        ],
        "blue",
    );
    let red = PlayerId(1 - engine.to_move(&state).expect("blue moves").0);
    let seen = |s: &GameState| Sight::new(&engine, s, red).faces_seen();
    let onto_a_ship = |a: &Action| match a {
        Action::Move { to, .. } => state.first_at(*to).is_some(),
        _ => false,
    };
    let moves = legal_actions(&engine, &state);
    let quiet = moves
        .iter()
        .find(|a| !onto_a_ship(a))
        .expect("a quiet move");
    let attack = moves
        .iter()
        .find(|a| onto_a_ship(a))
        .expect("the Cruiser attacks");
    let after = |a: &Action| engine.try_apply(&state, *a).expect("a legal move");
    assert_eq!(
        seen(&after(quiet)),
        seen(&state),
        "a move shows red nothing new"
    );
    assert_ne!(
        seen(&after(attack)),
        seen(&state),
        "an attack shows red the Cruiser"
    );
}
