//! The position hash the engine records after every action, made from the
//! keys it keeps (each piece's key, and the mixed keys of the parts that
//! seldom change: `kernel::state::position_hash`), is the hash computed
//! afresh, the hash of a copy, and the hash of the state written out and
//! read back, at every ply of whole Convoy games: set-up placements,
//! moves, attacks that sink ships and reveal faces, Air Strikes.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::legal::Legal;
use portolan::kernel::rng::GameRng;
use portolan::kernel::state::GameState;

/// Plays a game from `seed` with random picks, checking every recorded
/// hash; returns the actions played.
fn play_checking_hashes(e: &Engine, seed: u64) -> Vec<Action> {
    let mut state = e.new_game(seed).expect("a game starts");
    let mut rng = GameRng::new(seed);
    let mut buffer = Vec::new();
    let mut played = Vec::new();
    while e.to_move(&state).is_some() {
        let action = {
            let legal = Legal::new(e, &state, &mut buffer);
            legal.get(rng.below(legal.len() as u32) as usize)
        };
        e.apply(&mut state, action).expect("a legal action applies");
        played.push(action);
        // The last record comes before the result that ends the game
        // (which is part of the position), so it is not compared.
        let Some(&recorded) = state.history.last().filter(|_| state.result.is_none()) else {
            continue;
        };
        let ply = state.ply;
        assert_eq!(
            recorded,
            state.position_hash(),
            "seed {seed}, ply {ply}: afresh"
        );
        assert_eq!(
            recorded,
            state.clone().position_hash(),
            "seed {seed}, ply {ply}: a copy"
        );
        let json = serde_json::to_string(&state).expect("a state writes out");
        let mut back: GameState = serde_json::from_str(&json).expect("and reads back");
        back.rebuild_index(e.game.board.len());
        assert_eq!(
            recorded,
            back.position_hash(),
            "seed {seed}, ply {ply}: read back"
        );
    }
    played
}

#[test]
fn recorded_hashes_are_the_hashes_computed_afresh_at_every_ply() {
    let e = common::engine(&[]);
    let (mut strikes, mut actions) = (0, 0);
    for seed in 1..=30 {
        for action in play_checking_hashes(&e, seed) {
            strikes += usize::from(matches!(action, Action::Special { .. }));
            actions += 1;
        }
    }
    // The games went through what the kept keys must follow.
    assert!(strikes > 0, "no Air Strike was played");
    assert!(actions > 30 * 20, "too few actions past the set-up");
}
