//! The kernel's hand-off to bots, held to what it stands for: a scratch
//! state written over with `clone_from` is the state it copies and plays
//! on alike; legal actions counted and taken by index are the listed ones;
//! the random bot picks alike by count and by list; a sample redrawn over
//! the one before is the sample drawn anew.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use common::{engine, stock};
use portolan::bots::{Bot, RandomBot, Sight};
use portolan::kernel::determinize;
use portolan::kernel::engine::Engine;
use portolan::kernel::rng::GameRng;
use portolan::kernel::state::GameState;
use portolan::sim::play_game;

/// Every stock game's packages the hand-off is checked on, with Convoy's
/// options that change what moves are legal.
fn engines() -> Vec<(String, Engine)> {
    let mut all: Vec<(String, Engine)> = [
        "mediterranea/age-of-darkness",
        "treasure-fleet",
        "solo-convoy",
    ]
    .iter()
    .map(|t| (t.to_string(), stock(t)))
    .collect();
    all.push(("med-convoy".into(), engine(&[])));
    all.push(("med-convoy +no-backward".into(), engine(&["no-backward"])));
    for (_, e) in &all {
        e.set_narration(false);
    }
    all
}

/// Plays a game at random from `seed`, showing `look` every position
/// before its move (at most `plies` of them).
fn walk(e: &Engine, seed: u64, plies: usize, mut look: impl FnMut(&GameState)) {
    let mut state = e.new_game(seed).expect("the game starts");
    let mut rng = GameRng::new(seed ^ 0x5EED);
    let mut legal = Vec::new();
    for _ in 0..plies {
        if e.to_move(&state).is_none() {
            break;
        }
        look(&state);
        e.legal_actions(&state, &mut legal);
        let action = *rng.pick(&legal).expect("a decision offers an action");
        e.apply(&mut state, action).expect("the rules play on");
    }
}

#[test]
fn a_scratch_state_written_over_is_the_state_and_plays_alike() {
    for (name, e) in engines() {
        // The scratch starts as another position, so a field the copy
        // forgot would keep that position's value.
        let mut scratch = e.new_game(7).expect("the game starts");
        let mut positions: u64 = 0;
        walk(&e, 1, 600, |state| {
            positions += 1;
            if !positions.is_multiple_of(5) {
                return;
            }
            scratch.clone_from(state);
            assert_eq!(&scratch, state, "{name}: the copy equals its state");
            assert_eq!(scratch.position_hash(), state.position_hash(), "{name}");
            assert_eq!(scratch.vars_stamp(), state.vars_stamp(), "{name}");
            // Play on the scratch copy and on a fresh one alike.
            let mut fresh = state.clone();
            let mut rng = GameRng::new(positions);
            let mut legal = Vec::new();
            for _ in 0..8 {
                if e.to_move(&fresh).is_none() {
                    break;
                }
                e.legal_actions(&fresh, &mut legal);
                let action = *rng.pick(&legal).expect("an action");
                e.apply(&mut fresh, action).expect("plays");
                e.apply(&mut scratch, action).expect("plays");
                assert_eq!(scratch, fresh, "{name}: after {action:?}");
                assert_eq!(scratch.position_hash(), fresh.position_hash(), "{name}");
                assert_eq!(scratch.rng.word_pos(), fresh.rng.word_pos(), "{name}");
            }
        });
        assert!(positions >= 5, "{name}: the walk saw a copy");
    }
}

#[test]
fn legal_actions_counted_and_taken_by_index_are_the_listed_ones() {
    for (name, e) in engines() {
        for seed in 0..4 {
            walk(&e, seed, 2_000, |state| {
                common::assert_counted_as_listed(&e, state, &name)
            });
        }
    }
}

#[test]
fn the_random_bot_picks_alike_by_count_and_by_list() {
    let e = engine(&[]);
    e.set_narration(false);
    for seed in 0..20 {
        // `play_game` hands the random bots the count alone.
        let by_count = play_game(&e, seed, &["random".into()]).expect("plays");
        let mut state = e.new_game(seed).expect("starts");
        let mut bots: Vec<RandomBot> = (0..2)
            .map(|p| {
                RandomBot::new(portolan::bots::seat_seed(
                    seed,
                    portolan::kernel::piece::PlayerId(p),
                ))
            })
            .collect();
        let mut legal = Vec::new();
        while let Some(player) = e.to_move(&state) {
            e.legal_actions(&state, &mut legal);
            let sight = Sight::new(&e, &state, player);
            let pick = bots[player.0 as usize]
                .choose(&sight, &legal)
                .expect("picks");
            e.apply(&mut state, legal[pick]).expect("plays");
        }
        assert_eq!(state.ply, by_count.ply, "seed {seed}");
        assert_eq!(
            state.position_hash(),
            by_count.position_hash(),
            "seed {seed}"
        );
        assert_eq!(state.result, by_count.result, "seed {seed}");
    }
}

#[test]
fn a_sample_drawn_over_the_one_before_is_the_sample_drawn_anew() {
    for (name, e) in engines() {
        walk(&e, 3, 300, |state| {
            if state.ply % 50 != 10 {
                return;
            }
            let seat = e.to_move(state).expect("someone decides");
            let sight = Sight::new(&e, state, seat);
            let differ = sight.samples_differ();
            let (mut anew, mut over) = (GameRng::new(9), GameRng::new(9));
            let Ok(first) = sight.sample(&mut anew) else {
                return; // a seat search bots may not play
            };
            let second = sight.sample(&mut anew).expect("samples");
            let mut redrawn = sight.sample(&mut over).expect("samples");
            assert_eq!(redrawn, first, "{name}");
            sight
                .resample(&mut redrawn, differ, &mut over)
                .expect("samples");
            assert_eq!(redrawn, second, "{name}: the second sample");
            assert_eq!(redrawn.rng.word_pos(), second.rng.word_pos(), "{name}");
            assert_eq!(
                redrawn.rng.die(6),
                second.clone().rng.die(6),
                "{name}: the same dice"
            );
            if !differ {
                // Only the dice were drawn again: the rest is the first's.
                let mut redealt = first.clone();
                redealt.rng = redrawn.rng.clone();
                assert_eq!(redealt, redrawn, "{name}");
            }
            let mut again = GameRng::new(9);
            let mut over_other = e.new_game(11).expect("starts");
            determinize::sample_over(&e, state, seat, &mut again, &mut over_other)
                .expect("samples");
            assert_eq!(
                over_other, first,
                "{name}: a sample written over another state"
            );
        });
    }
}
