//! A movement phase's actions counted by masks and taken by index
//! (`kernel::legal`, what bots pick from) are the listed ones, in order,
//! in hand-set positions that reach every branch: pieces off the board,
//! two pieces on one space, kinds that move differently, moves with and
//! without attacks, each kind of special target, a once-a-game special
//! used, a player with nothing to do (a pass), and a board too large for
//! masks (listed, counted the same). A set-up phase's placements likewise,
//! at every decision of whole set-ups: quotas filling, kinds running out;
//! a side of more pieces than the count's running totals keep.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use common::{arrange_for, assert_counted_as_listed, engine, position, temp_package};
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{Location, PlayerId};
use portolan::kernel::state::GameState;

/// A made-up game on a `columns` x 5 grid: Scouts step sideways only,
/// Walkers any way; `combat` says whether they attack; `specials` is the
/// phase's list of special actions (YAML), each carried out by
/// `rules.noop`.
fn made_up(columns: u16, combat: bool, specials: &str) -> (tempfile::TempDir, Engine) {
    made_up_with(columns, combat, specials, 2)
}

/// [`made_up`] with `each` pieces of each kind a side. Sides larger than
/// the home row has cells for have no set-up phase: they play from
/// positions set by hand.
fn made_up_with(
    columns: u16,
    combat: bool,
    specials: &str,
    each: usize,
) -> (tempfile::TempDir, Engine) {
    let combat = if combat { "combat: fight" } else { "" };
    let (setup, flow) = if 2 * each <= usize::from(columns) {
        (
            format!(
                "setup: {{ kind: placement, quotas: {{ home: {} }} }}",
                2 * each
            ),
            "[setup, play]",
        )
    } else {
        (String::new(), "[play]")
    };
    let game = format!(
        "id: skirmish
title: Skirmish
players:
  - {{ id: north, home: north }}
  - {{ id: south, home: south }}
board:
  grid: {{ columns: {columns}, rows: 5 }}
pieces:
  kinds:
    Scout: {{ count: {each}, movement: {{ steps: 1, directions: [sideways] }} }}
    Walker: {{ count: {each} }}
zones:
  home: {{ ranks: [1] }}
  far: {{ ranks: [4, 5] }}
phases:
  {setup}
  play:
    kind: movement
    movement: {{ steps: 1 }}
    {combat}
    specials: {specials}
flow: {flow}
tables:
  fight:
    Scout: {{ Scout: both, Walker: bounce }}
    Walker: {{ Scout: win, Walker: both }}
scripts: [rules.lua]
"
    );
    temp_package("skirmish", &game, "function rules.noop() end\n")
}

/// One special of each target, the last once a game.
const EVERY_SPECIAL: &str = "
      - { name: signal, zone: home, target: any, script: noop }
      - { name: flare, zone: far, target: empty, script: noop }
      - { name: spot, zone: far, target: occupied, script: noop }
      - { name: snipe, zone: far, target: enemy, once_per_game: true, script: noop }";

/// Both players' pieces: two on c3 (north's Walker first), a Scout off
/// the board, pieces next to each other and to enemies.
const CROWDED: &[(&str, &str, &str)] = &[
    ("north", "Walker", "c3"),
    ("south", "Walker", "c3"),
    ("north", "Scout", "b3"),
    ("north", "Walker", "d4"),
    ("south", "Scout", "d3"),
    ("south", "Walker", "c2"),
    ("south", "Scout", "a5"),
];

fn arranged(e: &Engine, pieces: &[(&str, &str, &str)], to_move: &str) -> GameState {
    let mut state = e.new_game(1).expect("a game starts");
    arrange_for(e, &mut state, pieces, "play", to_move);
    state
}

#[test]
fn moves_and_every_kind_of_special_are_counted_as_listed() {
    for combat in [true, false] {
        let (_dir, e) = made_up(5, combat, EVERY_SPECIAL);
        for to_move in ["north", "south"] {
            let mut state = arranged(&e, CROWDED, to_move);
            let what = format!("attacks {combat}, {to_move} to move");
            assert_counted_as_listed(&e, &state, &what);
            let listed = common::legal_actions(&e, &state);
            assert!(
                listed
                    .iter()
                    .any(|a| matches!(a, Action::Special { index: 3, .. }))
            );
            // The once-a-game snipe used: its targets leave the count.
            let player = common::player(&e, to_move);
            state.players[player.0 as usize].used_specials = 1 << 3;
            assert_counted_as_listed(&e, &state, &format!("{what}, snipe used"));
        }
    }
}

#[test]
fn a_player_with_nothing_to_do_passes_by_count_too() {
    // North's only piece, a Scout, is hemmed in sideways by south's
    // pieces, and there are no specials and no attacks.
    let (_dir, e) = made_up(5, false, "[]");
    let hemmed = [
        ("north", "Scout", "a3"),
        ("south", "Walker", "b3"),
        ("south", "Scout", "e5"),
    ];
    let state = arranged(&e, &hemmed, "north");
    assert_eq!(common::legal_actions(&e, &state), [Action::Pass]);
    assert_counted_as_listed(&e, &state, "hemmed in");
}

#[test]
fn a_side_of_more_pieces_than_a_tally_keeps_is_counted_as_listed() {
    // The running totals of moves are kept for up to 32 pieces a side: 32
    // (16 of each kind) are tallied, 34 are counted again to find one.
    for each in [16, 17] {
        let (_dir, e) = made_up_with(5, true, EVERY_SPECIAL, each);
        let mut pieces = CROWDED.to_vec();
        pieces.extend([("north", "Walker", "a1"), ("north", "Scout", "e2")]);
        for to_move in ["north", "south"] {
            let state = arranged(&e, &pieces, to_move);
            let player = common::player(&e, to_move);
            assert_eq!(state.pieces_of(player).len(), 2 * each);
            assert_counted_as_listed(&e, &state, &format!("{each} of each, {to_move}"));
        }
    }
}

#[test]
fn a_board_too_large_for_masks_is_listed_and_counted_alike() {
    // 13 x 5 = 65 spaces: one more than a mask holds.
    let (_dir, e) = made_up(13, true, EVERY_SPECIAL);
    let mut pieces = CROWDED.to_vec();
    pieces.push(("north", "Scout", "m5"));
    for to_move in ["north", "south"] {
        let state = arranged(&e, &pieces, to_move);
        // No phase is counted by masks, so no move pays to keep them.
        assert!(!state.keeps_top_masks());
        assert_counted_as_listed(&e, &state, &format!("65 spaces, {to_move} to move"));
    }
}

#[test]
fn convoy_positions_with_sunk_ships_and_the_strike_are_counted_as_listed() {
    let e = engine(&[]);
    let ships = [
        ("blue", "Merchant", "c4"),
        ("blue", "Submarine", "d4"),
        ("blue", "Cruiser", "a1"),
        ("red", "Destroyer", "c5"),
        ("red", "Merchant", "d5"),
        ("red", "Submarine", "c3"),
    ];
    for to_move in ["blue", "red"] {
        let mut state = position(&e, &ships, to_move);
        assert!(state.keeps_top_masks());
        assert_counted_as_listed(&e, &state, to_move);
        // A ship sunk after the set-up (the masks follow it off the
        // board) and the strike used.
        let sunk = state.pieces_at(common::cell(&e, "c3")).next().unwrap();
        state.set_location(sunk, Location::Pool(portolan::kernel::piece::ELIMINATED));
        let player = common::player(&e, to_move);
        state.players[player.0 as usize].used_specials = 1;
        assert_counted_as_listed(&e, &state, &format!("{to_move}, a ship sunk, no strike"));
    }
}

#[test]
fn a_piece_given_to_the_other_side_moves_for_its_new_owner_by_count() {
    let (_dir, e) = made_up(5, true, EVERY_SPECIAL);
    let mut state = arranged(&e, CROWDED, "north");
    // South's Walker on c2 changes sides: the masks follow its owner.
    let walker = state.pieces_at(common::cell(&e, "c2")).next().unwrap();
    state.set_owner(walker, Some(PlayerId(0)));
    assert_counted_as_listed(&e, &state, "north with a new Walker");
    state.set_owner(walker, None);
    assert_counted_as_listed(&e, &state, "north beside an unowned piece");
}

#[test]
fn a_state_read_back_without_masks_is_listed_until_it_keeps_them() {
    let (_dir, e) = made_up(5, true, EVERY_SPECIAL);
    let state = arranged(&e, CROWDED, "south");
    let json = serde_json::to_string(&state).unwrap();
    let mut back: GameState = serde_json::from_str(&json).unwrap();
    back.rebuild_index(e.game.board.len());
    assert!(!back.keeps_top_masks());
    assert_counted_as_listed(&e, &back, "read back, no masks");
    back.keep_top_masks();
    assert_counted_as_listed(&e, &back, "read back, masks kept again");
    // A rebuild keeps them, now that the state keeps them.
    back.rebuild_index(e.game.board.len());
    assert!(back.keeps_top_masks());
    assert_counted_as_listed(&e, &back, "rebuilt with masks");
}

#[test]
fn a_scripted_decision_is_counted_as_listed_and_passes_when_it_offers_nothing() {
    let e = common::stock("solo-convoy");
    let mut state = e.new_game(1).expect("a journey starts");
    assert!(!state.stack.last().unwrap().choices.is_empty());
    assert_counted_as_listed(&e, &state, "the journey's first decision");
    // A frame set by hand with no choices: the list is a pass, and so is
    // the count's only action.
    state.stack.last_mut().unwrap().choices.clear();
    assert_eq!(common::legal_actions(&e, &state), [Action::Pass]);
    assert_counted_as_listed(&e, &state, "no choices");
}

#[test]
fn counted_moves_listed_for_a_reader_are_taken_from_the_list() {
    let (_dir, e) = made_up(5, true, EVERY_SPECIAL);
    let state = arranged(&e, CROWDED, "north");
    let mut buffer = Vec::new();
    let mut legal = portolan::kernel::legal::Legal::new(&e, &state, &mut buffer);
    let counted: Vec<Action> = (0..legal.len()).map(|i| legal.get(i)).collect();
    let listed = legal.list().to_vec();
    assert_eq!(counted, listed);
    let after: Vec<Action> = (0..legal.len()).map(|i| legal.get(i)).collect();
    assert_eq!(after, listed);
}

/// Plays the set-up of `e`'s game from `seed`, each placement picked at
/// random, and holds the count and every action at an index to the list
/// at each decision; returns how many decisions were checked.
fn set_up_counted_as_listed(e: &Engine, seed: u64) -> usize {
    let mut state = e.new_game(seed).expect("a game starts");
    let mut rng = portolan::kernel::rng::GameRng::new(seed);
    let mut decisions = 0;
    while matches!(
        common::legal_actions(e, &state).first(),
        Some(Action::Place { .. })
    ) {
        assert_counted_as_listed(e, &state, &format!("set-up, seed {seed}"));
        let listed = common::legal_actions(e, &state);
        let pick = listed[rng.below(listed.len() as u32) as usize];
        e.apply(&mut state, pick).expect("a placement applies");
        decisions += 1;
    }
    decisions
}

#[test]
fn convoy_set_ups_are_counted_as_listed_at_every_placement() {
    let e = engine(&[]);
    for seed in 1..=20 {
        // Ten ships a side, seven on the home row and three on the next.
        assert_eq!(set_up_counted_as_listed(&e, seed), 20);
    }
}

#[test]
fn a_made_up_set_up_is_counted_as_listed_and_a_large_one_lists() {
    let (_dir, e) = made_up(5, true, "[]");
    for seed in 1..=5 {
        assert_eq!(set_up_counted_as_listed(&e, seed), 8);
    }
    let (_dir, large) = made_up(13, true, "[]");
    assert!(!large.new_game(1).unwrap().keeps_top_masks());
    assert_eq!(set_up_counted_as_listed(&large, 1), 8);
}

#[test]
fn a_quota_counts_a_piece_standing_beneath_another_players() {
    let (_dir, e) = made_up(5, true, "[]");
    let mut state = e.new_game(1).expect("a game starts");
    let (north, south) = (common::player(&e, "north"), common::player(&e, "south"));
    let mine = state.pieces_of(north).to_vec();
    let theirs = state.pieces_of(south).to_vec();
    // North's home row, as its first placement lists it.
    e.begin_phase(&mut state, "setup", north)
        .expect("the set-up starts");
    let mut home: Vec<_> = common::legal_actions(&e, &state)
        .into_iter()
        .filter_map(|a| match a {
            Action::Place { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    home.sort();
    home.dedup();
    assert_eq!(home.len(), 5);
    // North's lowest piece goes to south and stands first on the third
    // cell, above one of north's; two of south's pieces go to north's
    // reserve.
    state.set_owner(mine[0], Some(south));
    state.set_owner(theirs[0], Some(north));
    state.set_owner(theirs[1], Some(north));
    for (piece, cell) in [
        (mine[2], 0),
        (mine[3], 1),
        (mine[0], 2),
        (mine[1], 2),
        (theirs[0], 3),
    ] {
        state.set_location(piece, Location::Space(home[cell]));
    }
    e.begin_phase(&mut state, "setup", north)
        .expect("the set-up starts");
    // Four of north's pieces on the home row, one beneath south's: the
    // quota of four is full, and the piece left in reserve has nowhere
    // to go.
    assert_eq!(common::legal_actions(&e, &state), [Action::Pass]);
    assert_counted_as_listed(&e, &state, "a piece beneath another's");
}
