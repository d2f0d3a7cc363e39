//! Conformance tests for Mediterranean Convoy (`rules/med-convoy`): one test
//! per rule of the game and per optional rule, each setting up a position
//! through the public API, acting, and checking what the rule says happens.
//!
//! Blue's home row is row 1 (its far row is 5 and its Air Strike reaches
//! rows 4 and 5); Red's home row is row 5 (far row 1, strike rows 1 and 2).

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use common::*;
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::event::{Event, Resolved};
use portolan::kernel::piece::PlayerId;
use portolan::kernel::state::GameState;
use portolan::kernel::view::{View, Viewer};
use portolan::load::{Request, load};
use portolan::sim::play_game;

/// Both sides keep a Merchant far from the action, so that sinking a ship
/// does not end the game by "last Merchant".
const KEEPERS: [(&str, &str, &str); 2] = [("blue", "Merchant", "a1"), ("red", "Merchant", "g5")];

fn with_keepers<'a>(ships: &[(&'a str, &'a str, &'a str)]) -> Vec<(&'a str, &'a str, &'a str)> {
    let mut all = ships.to_vec();
    all.extend(KEEPERS);
    all
}

// ---------------------------------------------------------------- board

#[test]
fn board_is_seven_columns_by_five_rows_named_a1_to_g5() {
    let e = engine(&[]);
    let board = &e.game.board;
    assert_eq!(board.len(), 35);
    for col in "abcdefg".chars() {
        for row in 1..=5 {
            assert!(board.find(&format!("{col}{row}")).is_some(), "{col}{row}");
        }
    }
    for off in ["h1", "a6", "a0", "h5"] {
        assert!(board.find(off).is_none(), "{off} is off the board");
    }
}

#[test]
fn each_side_has_a_cruiser_three_destroyers_four_merchants_two_submarines() {
    let e = engine(&[]);
    let state = e.new_game(1).unwrap();
    for side in ["blue", "red"] {
        let p = player(&e, side);
        let count = |kind: &str| {
            let k = e.game.kind_index(kind).unwrap();
            state
                .pieces()
                .iter()
                .filter(|s| s.owner == Some(p) && s.kind == k)
                .count()
        };
        assert_eq!(
            [
                count("Cruiser"),
                count("Destroyer"),
                count("Merchant"),
                count("Submarine")
            ],
            [1, 3, 4, 2],
            "{side}"
        );
        let fleet = state.pieces().iter().filter(|s| s.owner == Some(p)).count();
        assert_eq!(fleet, 10, "{side}");
    }
}

// ---------------------------------------------------------------- set-up

/// The row of a player's rank (rank 1 is the player's home row).
fn row_of(side: &str, rank: u8) -> u8 {
    if side == "blue" { rank } else { 6 - rank }
}

fn row_cells(row: u8) -> Vec<String> {
    "abcdefg".chars().map(|c| format!("{c}{row}")).collect()
}

/// The cells a ship may be set up on now (any kind), sorted.
fn placement_cells(e: &Engine, state: &GameState) -> Vec<String> {
    let mut cells: Vec<String> = legal(e, state)
        .into_iter()
        .map(|n| n.rsplit(' ').next().expect("a placement").to_string())
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// Sets up whichever ship comes first in the legal list on a cell.
fn place_on(e: &Engine, state: &GameState, cell: &str) -> GameState {
    let action = legal(e, state)
        .into_iter()
        .find(|n| n.ends_with(&format!(" {cell}")))
        .unwrap_or_else(|| panic!("no placement on {cell}"));
    play(e, state, &action)
}

#[test]
fn the_coin_picks_the_first_player_who_sets_up_first_and_moves_first() {
    let e = engine(&[]);
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let mut state = e.new_game(seed).unwrap();
        let first = state.first_player;
        firsts.insert(first);
        assert_eq!(
            e.to_move(&state),
            Some(first),
            "seed {seed}: first to set up"
        );
        for _ in 0..10 {
            assert_eq!(e.to_move(&state), Some(first));
            let a = legal_actions(&e, &state)[0];
            e.apply(&mut state, a).unwrap();
        }
        for _ in 0..10 {
            assert_eq!(e.to_move(&state), Some(e.game.next_player(first)));
            let a = legal_actions(&e, &state)[0];
            e.apply(&mut state, a).unwrap();
        }
        assert_eq!(e.to_move(&state), Some(first), "seed {seed}: first to sail");
        assert!(
            legal_actions(&e, &state)
                .iter()
                .all(|a| matches!(a, Action::Move { .. } | Action::Special { .. })),
            "sailing has begun"
        );
    }
    assert_eq!(firsts.len(), 2, "each colour is sometimes first");
}

#[test]
fn setup_is_seven_ships_on_the_home_row_and_three_on_the_second() {
    let e = engine(&[]);
    let mut state = e.new_game(SEED).unwrap();
    for _ in 0..2 {
        let side = to_move(&e, &state).unwrap();
        let (home, second) = (row_of(&side, 1), row_of(&side, 2));
        let mut both = [row_cells(home), row_cells(second)].concat();
        both.sort();
        assert_eq!(placement_cells(&e, &state), both, "{side}: nowhere else");
        // Three on the second row fill its quota...
        for c in &row_cells(second)[..3] {
            state = place_on(&e, &state, c);
        }
        assert_eq!(placement_cells(&e, &state), row_cells(home), "{side}");
        // ...and the seven others fill the home row.
        for (i, c) in row_cells(home).iter().enumerate() {
            assert_eq!(to_move(&e, &state).as_deref(), Some(side.as_str()));
            assert_eq!(placement_cells(&e, &state), row_cells(home)[i..].to_vec());
            state = place_on(&e, &state, c);
        }
        assert_ne!(to_move(&e, &state).as_deref(), Some(side.as_str()));
    }
    let on_board = state.pieces().iter().filter(|p| p.loc.space().is_some());
    assert_eq!(on_board.count(), 20);
}

#[test]
fn setup_is_a_decision_of_which_ship_goes_where() {
    let e = engine(&[]);
    let state = e.new_game(SEED).unwrap();
    let side = to_move(&e, &state).unwrap();
    let actions = legal(&e, &state);
    for kind in ["Cruiser", "Destroyer", "Merchant", "Submarine"] {
        let cells = actions
            .iter()
            .filter(|n| n.starts_with(&format!("place {kind} ")))
            .count();
        assert_eq!(cells, 14, "{kind} may go on any of the 14 set-up cells");
    }
    assert_eq!(actions.len(), 4 * 14, "one action per kind and cell");
    let after = play(&e, &state, "place Submarine c2");
    assert_eq!(
        kind_at(&e, &after, "c2"),
        Some((side.clone(), "Submarine".to_string()))
    );
    let shortcut = play(&e, &state, "submarine c2");
    assert_eq!(
        kind_at(&e, &shortcut, "c2"),
        Some((side, "Submarine".to_string()))
    );
}

// ---------------------------------------------------------------- hidden faces

#[test]
fn the_opponent_does_not_see_the_type_of_an_unrevealed_ship() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[("blue", "Cruiser", "c2"), ("red", "Submarine", "c4")]),
        "blue",
    );
    let (blue, red) = (player(&e, "blue"), player(&e, "red"));
    let blue_view = View::new(&e.game, &state, Viewer::Player(blue));
    let red_view = View::new(&e.game, &state, Viewer::Player(red));
    for id in state.piece_ids() {
        let owner = state.piece(id).owner.unwrap();
        let kind = Some(state.piece(id).kind);
        let (own, other) = if owner == blue {
            (&blue_view, &red_view)
        } else {
            (&red_view, &blue_view)
        };
        assert_eq!(own.piece(id).kind, kind, "the owner sees their ship");
        assert_eq!(other.piece(id).kind, None, "the opponent does not");
    }
}

#[test]
fn the_opponent_cannot_tell_hidden_types_from_piece_ids_or_setup_order() {
    let e = engine(&[]);
    let (blue, red) = (player(&e, "blue"), player(&e, "red"));
    let mut lowest_id_kinds = std::collections::BTreeSet::new();
    let mut first_placed_kinds = std::collections::BTreeSet::new();
    for seed in 0..16 {
        // A set-up with random choices of cell.
        let mut state = e.new_game(seed).unwrap();
        let mut pick = portolan::kernel::rng::GameRng::new(seed);
        while legal_actions(&e, &state)
            .iter()
            .all(|a| matches!(a, Action::Place { .. }))
        {
            let actions = legal_actions(&e, &state);
            let a = actions[pick.below(actions.len() as u32) as usize];
            e.apply(&mut state, a).unwrap();
        }
        let view = View::new(&e.game, &state, Viewer::Player(blue));
        let hidden: Vec<_> = view
            .pieces
            .iter()
            .filter(|p| p.owner == Some(red))
            .collect();
        assert!(hidden.iter().all(|p| p.kind.is_none()));
        let lowest = hidden.iter().map(|p| p.id).min().unwrap();
        lowest_id_kinds.insert(state.piece(lowest).kind);
        let first_placed = view.events.iter().find_map(|ev| match ev {
            Event::Placed { piece, .. } if state.piece(*piece).owner == Some(red) => Some(*piece),
            _ => None,
        });
        first_placed_kinds.insert(state.piece(first_placed.unwrap()).kind);
    }
    assert!(
        lowest_id_kinds.len() > 1,
        "Red's lowest piece id is always the same type"
    );
    assert!(
        first_placed_kinds.len() > 1,
        "Red's first ship set up is always the same type"
    );
}

#[test]
fn an_attack_reveals_both_ships_to_both_players_for_the_rest_of_the_game() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[("blue", "Merchant", "c2"), ("red", "Destroyer", "c3")]),
        "blue",
    );
    let (attacker, defender) = (piece_at(&e, &state, "c2"), piece_at(&e, &state, "c3"));
    // The Merchant bounces: nothing is sunk, yet both faces are shown.
    let after = play(&e, &state, "c2 c3");
    assert_eq!(last_attack(&after), Some((Resolved::Bounce, None)));
    let later = play_all(&e, &after, &["c3 d3", "c2 b2", "d3 d4", "b2 b3"]);
    for s in [&after, &later] {
        for viewer in ["blue", "red"] {
            let view = View::new(&e.game, s, Viewer::Player(player(&e, viewer)));
            assert_eq!(
                view.piece(attacker).kind,
                Some(s.piece(attacker).kind),
                "{viewer}"
            );
            assert_eq!(
                view.piece(defender).kind,
                Some(s.piece(defender).kind),
                "{viewer}"
            );
        }
    }
    // The keepers never fought and stay hidden.
    let keeper = piece_at(&e, &later, "g5");
    let blue_view = View::new(&e.game, &later, Viewer::Player(player(&e, "blue")));
    assert_eq!(blue_view.piece(keeper).kind, None);
}

// ---------------------------------------------------------------- movement

#[test]
fn a_ship_moves_one_cell_orthogonally_forward_backward_or_sideways() {
    let e = engine(&[]);
    let state = position(&e, &with_keepers(&[("blue", "Destroyer", "c3")]), "blue");
    assert_eq!(targets_from(&e, &state, "c3"), ["b3", "c2", "c4", "d3"]);
    let state = position(&e, &with_keepers(&[("red", "Cruiser", "e3")]), "red");
    assert_eq!(targets_from(&e, &state, "e3"), ["d3", "e2", "e4", "f3"]);
}

#[test]
fn a_ship_in_a_corner_has_two_moves() {
    let e = engine(&[]);
    let state = position(
        &e,
        &[("blue", "Merchant", "a1"), ("red", "Merchant", "g5")],
        "blue",
    );
    assert_eq!(targets_from(&e, &state, "a1"), ["a2", "b1"]);
}

#[test]
fn a_ship_cannot_enter_a_cell_held_by_its_own_side() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[
            ("blue", "Destroyer", "c3"),
            ("blue", "Submarine", "c4"),
            ("blue", "Cruiser", "b3"),
        ]),
        "blue",
    );
    assert_eq!(targets_from(&e, &state, "c3"), ["c2", "d3"]);
}

#[test]
fn moving_onto_an_enemy_ship_is_an_attack() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[("blue", "Destroyer", "c3"), ("red", "Submarine", "c4")]),
        "blue",
    );
    assert!(targets_from(&e, &state, "c3").contains(&"c4".to_string()));
    let after = play(&e, &state, "c3 c4");
    assert_eq!(last_attack(&after), Some((Resolved::Win, None)));
    assert!(
        !after
            .events
            .iter()
            .any(|e| matches!(e, Event::Moved { .. }))
    );
}

#[test]
fn a_player_must_move_pass_is_not_offered_while_a_move_exists() {
    let e = engine(&[]);
    let state = position(&e, &with_keepers(&[("blue", "Destroyer", "c3")]), "blue");
    assert!(!legal(&e, &state).contains(&"pass".to_string()));
    assert!(e.parse_action(&state, "pass").is_err());
}

#[test]
fn players_alternate() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[("blue", "Destroyer", "c2"), ("red", "Destroyer", "e4")]),
        "blue",
    );
    let mut s = state;
    for (mover, m) in [
        ("blue", "c2 c3"),
        ("red", "e4 e3"),
        ("blue", "c3 b3"),
        ("red", "e3 f3"),
    ] {
        assert_eq!(to_move(&e, &s).as_deref(), Some(mover));
        s = play(&e, &s, m);
    }
    assert_eq!(to_move(&e, &s).as_deref(), Some("blue"));
}

// ---------------------------------------------------------------- attacks

/// Blue's `attacker` on c2 attacks Red's `defender` on c3, with `coins`
/// forced; returns the position after the attack.
fn attack(options: &[&str], attacker: &str, defender: &str, coins: &[u32]) -> (Engine, GameState) {
    let e = engine(options);
    let mut state = position(
        &e,
        &with_keepers(&[("blue", attacker, "c2"), ("red", defender, "c3")]),
        "blue",
    );
    state.rng.force(coins.iter().copied());
    let after = play(&e, &state, "c2 c3");
    assert_eq!(after.rng.forced_left(), 0, "every forced coin was used");
    (e, after)
}

/// Checks an attack's result in the log and on the board.
#[track_caller]
fn assert_attack(options: &[&str], attacker: &str, defender: &str, coins: &[u32], want: Resolved) {
    let (e, s) = attack(options, attacker, defender, coins);
    let coin = coins.first().map(|&c| c != 0);
    assert_eq!(
        last_attack(&s),
        Some((want, coin)),
        "{attacker} attacks {defender}"
    );
    let (a, d) = (Some(("blue", attacker)), Some(("red", defender)));
    let (on_c2, on_c3) = match want {
        Resolved::Win => (None, a),
        Resolved::Bounce => (a, d),
        Resolved::Lose => (None, d),
        Resolved::Both => (None, None),
    };
    assert_at(&e, &s, "c2", on_c2);
    assert_at(&e, &s, "c3", on_c3);
    assert_eq!(s.result, None);
    assert_eq!(
        to_move(&e, &s).as_deref(),
        Some("red"),
        "the attack was the turn"
    );
}

#[test]
fn cruiser_sinks_destroyer() {
    assert_attack(&[], "Cruiser", "Destroyer", &[], Resolved::Win);
}

#[test]
fn cruiser_sinks_merchant() {
    assert_attack(&[], "Cruiser", "Merchant", &[], Resolved::Win);
}

#[test]
fn cruiser_bounces_off_submarine() {
    assert_attack(&[], "Cruiser", "Submarine", &[], Resolved::Bounce);
}

#[test]
fn destroyer_sinks_merchant() {
    assert_attack(&[], "Destroyer", "Merchant", &[], Resolved::Win);
}

#[test]
fn destroyer_sinks_submarine() {
    assert_attack(&[], "Destroyer", "Submarine", &[], Resolved::Win);
}

#[test]
fn destroyer_bounces_off_cruiser() {
    assert_attack(&[], "Destroyer", "Cruiser", &[], Resolved::Bounce);
}

#[test]
fn submarine_sinks_merchant() {
    assert_attack(&[], "Submarine", "Merchant", &[], Resolved::Win);
}

#[test]
fn submarine_sinks_cruiser() {
    assert_attack(&[], "Submarine", "Cruiser", &[], Resolved::Win);
}

#[test]
fn submarine_bounces_off_destroyer() {
    assert_attack(&[], "Submarine", "Destroyer", &[], Resolved::Bounce);
}

#[test]
fn merchant_sinks_nothing_and_bounces_off_every_ship() {
    for defender in ["Cruiser", "Destroyer", "Merchant", "Submarine"] {
        assert_attack(&[], "Merchant", defender, &[], Resolved::Bounce);
    }
}

#[test]
fn ships_of_the_same_type_sink_each_other() {
    // One Cruiser a side, but Blue's may attack Red's.
    for kind in ["Cruiser", "Destroyer", "Submarine"] {
        assert_attack(&[], kind, kind, &[], Resolved::Both);
    }
}

#[test]
fn a_merchant_attacking_a_merchant_bounces() {
    assert_attack(&[], "Merchant", "Merchant", &[], Resolved::Bounce);
}

#[test]
fn a_winning_attacker_takes_the_cell_of_the_sunk_ship() {
    let (e, s) = attack(&[], "Cruiser", "Merchant", &[]);
    let cruiser = piece_at(&e, &s, "c3");
    assert_eq!(
        kind_at(&e, &s, "c3"),
        Some(("blue".into(), "Cruiser".into()))
    );
    let sunk = s.piece_ids().find(|&id| {
        is_eliminated(&s, id)
            && s.piece(id).owner == Some(player(&e, "red"))
            && e.game.kind(s.piece(id).kind).name == "Merchant"
    });
    assert!(sunk.is_some());
    assert_ne!(Some(cruiser), sunk);
}

#[test]
fn a_bouncing_attacker_returns_to_where_it_started() {
    let (e, s) = attack(&[], "Submarine", "Destroyer", &[]);
    assert_at(&e, &s, "c2", Some(("blue", "Submarine")));
    assert_at(&e, &s, "c3", Some(("red", "Destroyer")));
    // Red moves next, and the Submarine may attack again from c2 later.
    let s = play(&e, &s, "g5 g4");
    assert!(targets_from(&e, &s, "c2").contains(&"c3".to_string()));
}

// ---------------------------------------------------------------- air strike

#[test]
fn air_strike_is_offered_only_on_occupied_cells_of_the_two_farthest_rows() {
    let e = engine(&[]);
    let ships = [
        ("blue", "Merchant", "a1"),
        ("blue", "Destroyer", "c4"),
        ("blue", "Submarine", "f2"),
        ("red", "Merchant", "g5"),
        ("red", "Submarine", "e4"),
        ("red", "Destroyer", "b3"),
        ("red", "Cruiser", "d5"),
        ("red", "Destroyer", "a2"),
    ];
    let blue = position(&e, &ships, "blue");
    // Any owner's ship, rows 4 and 5 only; empty cells are not offered.
    assert_eq!(strike_targets(&e, &blue), ["c4", "d5", "e4", "g5"]);
    let red = position(&e, &ships, "red");
    assert_eq!(strike_targets(&e, &red), ["a1", "a2", "f2"]);
}

#[test]
fn air_strike_destroys_whatever_ship_is_on_the_cell() {
    let e = engine(&[]);
    let ships = with_keepers(&[("blue", "Destroyer", "c4"), ("red", "Submarine", "e4")]);
    let state = position(&e, &ships, "blue");
    let submarine = piece_at(&e, &state, "e4");
    let enemy = play(&e, &state, "strike e4");
    assert_at(&e, &enemy, "e4", None);
    assert!(is_eliminated(&enemy, submarine));
    assert!(
        enemy.piece(submarine).is_public(),
        "the striker learns what it hit"
    );
    assert_eq!(enemy.result, None);
    let own = play(&e, &state, "strike c4");
    assert_at(&e, &own, "c4", None);
    assert!(matches!(own.events.last(), Some(Event::Removed { .. })));
}

#[test]
fn air_strike_is_the_whole_turn_and_used_once_per_game() {
    let e = engine(&[]);
    let ships = with_keepers(&[
        ("blue", "Destroyer", "c2"),
        ("red", "Submarine", "e4"),
        ("red", "Destroyer", "d4"),
    ]);
    let state = position(&e, &ships, "blue");
    let s = play(&e, &state, "strike e4");
    assert_eq!(
        to_move(&e, &s).as_deref(),
        Some("red"),
        "the strike was Blue's turn"
    );
    assert!(
        !strike_targets(&e, &s).is_empty(),
        "Red's strike is still there"
    );
    let s = play(&e, &s, "d4 d3");
    assert_eq!(
        strike_targets(&e, &s),
        Vec::<String>::new(),
        "Blue's is used up"
    );
    assert!(e.parse_action(&s, "strike g5").is_err());
    let s = play(&e, &s, "c2 b2");
    let s = play(&e, &s, "strike b2");
    assert_at(&e, &s, "b2", None);
    let s = play(&e, &s, "a1 a2");
    assert!(strike_targets(&e, &s).is_empty(), "Red's is used up too");
}

// ---------------------------------------------------------------- end of the game

#[test]
fn a_merchant_reaching_the_far_row_wins() {
    let e = engine(&[]);
    let state = position(
        &e,
        &with_keepers(&[("blue", "Merchant", "c4"), ("red", "Merchant", "e2")]),
        "blue",
    );
    let s = play(&e, &state, "c4 c5");
    assert_eq!(winner(&e, &s).as_deref(), Some("blue"));
    assert_eq!(e.to_move(&s), None);
    assert!(legal(&e, &s).is_empty(), "nothing is legal after the end");
    let state = position(
        &e,
        &with_keepers(&[("blue", "Merchant", "c4"), ("red", "Merchant", "e2")]),
        "red",
    );
    let s = play(&e, &state, "e2 e1");
    assert_eq!(winner(&e, &s).as_deref(), Some("red"));
}

#[test]
fn a_warship_reaching_the_far_row_does_not_win() {
    let e = engine(&[]);
    let state = position(&e, &with_keepers(&[("blue", "Cruiser", "c4")]), "blue");
    let s = play(&e, &state, "c4 c5");
    assert_eq!(s.result, None);
}

#[test]
fn losing_the_last_merchant_loses_the_game() {
    let e = engine(&[]);
    let ships = [
        ("blue", "Merchant", "a1"),
        ("blue", "Destroyer", "c2"),
        ("red", "Merchant", "c3"),
        ("red", "Cruiser", "g5"),
    ];
    let state = position(&e, &ships, "blue");
    let s = play(&e, &state, "c2 c3");
    assert_eq!(winner(&e, &s).as_deref(), Some("blue"));
    // An Air Strike on the last Merchant ends the game the same way.
    let ships = [
        ("blue", "Merchant", "a1"),
        ("red", "Merchant", "c4"),
        ("red", "Cruiser", "g5"),
    ];
    let s = play(&e, &position(&e, &ships, "blue"), "strike c4");
    assert_eq!(winner(&e, &s).as_deref(), Some("blue"));
}

#[test]
fn a_merchant_attacking_into_the_far_row_does_not_win() {
    let e = engine(&[]);
    let ships = with_keepers(&[("blue", "Merchant", "c4"), ("red", "Submarine", "c5")]);
    let s = play(&e, &position(&e, &ships, "blue"), "c4 c5");
    assert_eq!(last_attack(&s), Some((Resolved::Bounce, None)));
    assert_eq!(s.result, None);
    assert_at(&e, &s, "c4", Some(("blue", "Merchant")));
}

#[test]
fn striking_ones_own_last_merchant_loses_the_game() {
    let e = engine(&[]);
    let ships = [
        ("blue", "Merchant", "c4"),
        ("red", "Merchant", "g5"),
        ("red", "Cruiser", "a5"),
    ];
    let s = play(&e, &position(&e, &ships, "blue"), "strike c4");
    assert_eq!(winner(&e, &s).as_deref(), Some("red"));
}

#[test]
fn a_game_still_running_after_max_plies_is_drawn() {
    let e = engine(&[]);
    assert_eq!(e.game.max_plies, 5000);
    let mut state = position(&e, &with_keepers(&[("blue", "Destroyer", "c3")]), "blue");
    state.ply = e.game.max_plies - 1;
    let s = play(&e, &state, "c3 c4");
    let result = s.result.as_ref().expect("the game is over");
    assert_eq!(result.winner, None);
    assert!(result.reason.contains("max_plies"), "{}", result.reason);
    assert!(result.by_limit, "the kernel marks a game it cut short");
}

/// Shuffles Blue's Destroyer a1-a2 and Red's g5-g4 until the game ends.
fn shuffle_until_the_end(e: &Engine, merchants: &[(&str, &str, &str)]) -> GameState {
    let mut ships = merchants.to_vec();
    ships.extend([("blue", "Destroyer", "a1"), ("red", "Destroyer", "g5")]);
    let mut s = position(e, &ships, "blue");
    let cycle = ["a1 a2", "g5 g4", "a2 a1", "g4 g5"];
    for m in cycle.iter().cycle().take(16) {
        if s.result.is_some() {
            break;
        }
        s = play(e, &s, m);
    }
    assert!(s.result.is_some(), "the third repetition ends the game");
    // The opening position counts: it comes back after plies 4 and 8.
    assert_eq!(s.ply, 8, "ended after {} plies", s.ply);
    s
}

#[test]
fn a_third_repetition_ends_the_game_and_reveals_every_ship() {
    let e = engine(&[]);
    let s = shuffle_until_the_end(&e, &[("blue", "Merchant", "b3"), ("red", "Merchant", "f4")]);
    for id in s.piece_ids() {
        if s.piece(id).loc.space().is_some() {
            assert!(s.piece(id).is_public(), "{id:?} is revealed");
        }
    }
    let red_view = View::new(&e.game, &s, Viewer::Player(player(&e, "red")));
    assert!(
        red_view
            .pieces
            .iter()
            .filter(|p| p.loc.space().is_some())
            .all(|p| p.kind.is_some())
    );
}

#[test]
fn after_repetition_the_merchant_nearer_its_goal_wins() {
    let e = engine(&[]);
    // Blue's Merchant on b3 has 2 rows to go; Red's on f4 has 3.
    let s = shuffle_until_the_end(&e, &[("blue", "Merchant", "b3"), ("red", "Merchant", "f4")]);
    assert_eq!(winner(&e, &s).as_deref(), Some("blue"));
    let reason = &s.result.as_ref().unwrap().reason;
    assert!(
        reason.contains("Blue has the Merchant nearest its goal"),
        "{reason}"
    );
    // Red's on f2 has 1 row to go; Blue has two Merchants, both farther.
    let s = shuffle_until_the_end(
        &e,
        &[
            ("blue", "Merchant", "b3"),
            ("blue", "Merchant", "c3"),
            ("red", "Merchant", "f2"),
        ],
    );
    assert_eq!(winner(&e, &s).as_deref(), Some("red"));
}

#[test]
fn after_repetition_at_equal_distance_more_merchants_win() {
    let e = engine(&[]);
    let s = shuffle_until_the_end(
        &e,
        &[
            ("blue", "Merchant", "b3"),
            ("blue", "Merchant", "c2"),
            ("red", "Merchant", "f3"),
        ],
    );
    assert_eq!(winner(&e, &s).as_deref(), Some("blue"));
    let s = shuffle_until_the_end(
        &e,
        &[
            ("blue", "Merchant", "b3"),
            ("red", "Merchant", "f3"),
            ("red", "Merchant", "e5"),
        ],
    );
    assert_eq!(winner(&e, &s).as_deref(), Some("red"));
}

#[test]
fn after_repetition_equal_distance_and_number_is_a_draw() {
    let e = engine(&[]);
    let s = shuffle_until_the_end(&e, &[("blue", "Merchant", "b3"), ("red", "Merchant", "f3")]);
    let result = s.result.as_ref().unwrap();
    assert_eq!(result.winner, None, "{}", result.reason);
    assert!(
        !result.by_limit,
        "a draw by a rule is decisive, not cut short"
    );
}

#[test]
fn repetitions_count_even_when_not_consecutive() {
    let e = engine(&[]);
    let ships = [
        ("blue", "Merchant", "b3"),
        ("red", "Merchant", "f3"),
        ("blue", "Destroyer", "a1"),
        ("red", "Destroyer", "g5"),
    ];
    let mut s = position(&e, &ships, "blue");
    // The opening position (the first occurrence), back after 4 plies,
    // and back again after a different excursion at 8.
    let moves = [
        "a1 a2", "g5 g4", "a2 a1", "g4 g5", "a1 b1", "g5 f5", "b1 a1", "f5 g5",
    ];
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(s.result, None, "over after only {i} plies");
        s = play(&e, &s, m);
    }
    let result = s
        .result
        .as_ref()
        .expect("the third occurrence ends the game");
    assert!(result.reason.contains("repeated"), "{}", result.reason);
}

/// Rules 5 and 6 let a fleet be fully blocked: seven warships on the far
/// row can go neither forward, sideways nor back.
fn blocked_fleets(e: &Engine) -> GameState {
    let mut state = e.new_game(SEED).unwrap();
    let fleet = [
        "Cruiser",
        "Destroyer",
        "Destroyer",
        "Destroyer",
        "Submarine",
        "Submarine",
        "Submarine",
    ];
    let mut ships = Vec::new();
    for (i, kind) in fleet.iter().enumerate() {
        let col = (b'a' + i as u8) as char;
        ships.push(("blue", *kind, format!("{col}5")));
        ships.push(("red", *kind, format!("{col}1")));
    }
    let ships: Vec<(&str, &str, &str)> =
        ships.iter().map(|(p, k, c)| (*p, *k, c.as_str())).collect();
    arrange(e, &mut state, &ships, "blue");
    state
}

#[test]
fn when_both_players_can_only_pass_the_repetition_rule_ends_the_game() {
    let e = engine(&["marked-ship", "no-backward"]);
    let mut state = blocked_fleets(&e);
    for p in &mut state.players {
        p.used_specials |= 1;
    }
    let mut passes = 0;
    while state.result.is_none() {
        assert_eq!(legal(&e, &state), ["pass"]);
        state = play(&e, &state, "pass");
        passes += 1;
        assert!(passes <= 6, "passing forever");
    }
    let result = state.result.as_ref().unwrap();
    assert!(result.reason.contains("repeated"), "{}", result.reason);
    assert_eq!(result.winner, None, "no Merchants on either side: a draw");
}

#[test]
fn a_player_with_no_move_and_no_strike_can_only_pass() {
    // Rule 6 forbids moving back; rule 5 gives each side a seventh warship
    // to fill its far row, so no ship can move.
    let e = engine(&["marked-ship", "no-backward"]);
    let mut state = blocked_fleets(&e);
    // With the Air Strike left, Blue strikes (its own far row), never passes.
    assert!(!legal(&e, &state).contains(&"pass".to_string()));
    assert_eq!(strike_targets(&e, &state).len(), 7);
    state.players[player(&e, "blue").0 as usize].used_specials |= 1;
    assert_eq!(legal(&e, &state), ["pass"]);
    let s = play(&e, &state, "pass");
    assert!(matches!(s.events.last(), Some(Event::Passed { .. })));
    assert_eq!(to_move(&e, &s).as_deref(), Some("red"));
}

// ---------------------------------------------------------------- optional rules

#[test]
fn rule1_coin_equal_the_coin_decides_between_equal_types() {
    for kind in ["Cruiser", "Destroyer", "Submarine"] {
        // The attacker's colour: the defender sinks, the attacker takes the cell.
        assert_attack(&["coin-equal"], kind, kind, &[1], Resolved::Win);
        // The defender's colour: the attacker sinks.
        assert_attack(&["coin-equal"], kind, kind, &[0], Resolved::Lose);
        // Base game: both sink, and no coin is flipped.
        let (_, s) = attack(&[], kind, kind, &[]);
        assert_eq!(last_attack(&s), Some((Resolved::Both, None)));
    }
}

#[test]
fn rule1_coin_equal_merchants_still_bounce() {
    assert_attack(
        &["coin-equal"],
        "Merchant",
        "Merchant",
        &[],
        Resolved::Bounce,
    );
}

#[test]
fn rule2_coin_strike_hits_only_on_the_callers_colour() {
    let e = engine(&["coin-strike"]);
    let ships = with_keepers(&[("red", "Cruiser", "d4")]);
    let state = position(&e, &ships, "blue");
    let mut heads = state.clone();
    heads.rng.force([1]);
    let hit = play(&e, &heads, "strike d4");
    assert_at(&e, &hit, "d4", None);
    let mut tails = state.clone();
    tails.rng.force([0]);
    let miss = play(&e, &tails, "strike d4");
    assert_at(&e, &miss, "d4", Some(("red", "Cruiser")));
    assert_eq!(miss.rng.forced_left(), 0, "the coin was flipped");
    assert_eq!(to_move(&e, &miss).as_deref(), Some("red"));
    let miss = play(&e, &miss, "g5 g4");
    assert!(
        strike_targets(&e, &miss).is_empty(),
        "a missed strike is used up"
    );
}

#[test]
fn rule2_base_game_strike_always_hits_without_a_coin() {
    let e = engine(&[]);
    let mut state = position(&e, &with_keepers(&[("red", "Cruiser", "d4")]), "blue");
    state.rng.force([0]);
    let s = play(&e, &state, "strike d4");
    assert_at(&e, &s, "d4", None);
    assert_eq!(s.rng.forced_left(), 1, "no coin is flipped");
}

#[test]
fn rule3_land_centre_no_ship_enters_d3() {
    let ships = with_keepers(&[
        ("blue", "Destroyer", "d2"),
        ("blue", "Cruiser", "c3"),
        ("blue", "Submarine", "e3"),
        ("red", "Destroyer", "d4"),
    ]);
    let land = engine(&["land-centre"]);
    let blue = position(&land, &ships, "blue");
    assert!(
        legal(&land, &blue).iter().all(|m| !m.ends_with("d3")),
        "{:?}",
        legal(&land, &blue)
    );
    assert_eq!(targets_from(&land, &blue, "d2"), ["c2", "d1", "e2"]);
    let red = position(&land, &ships, "red");
    assert_eq!(targets_from(&land, &red, "d4"), ["c4", "d5", "e4"]);
    // Base game: d3 is sea.
    let sea = engine(&[]);
    let blue = position(&sea, &ships, "blue");
    assert!(targets_from(&sea, &blue, "d2").contains(&"d3".to_string()));
}

#[test]
fn rule3_land_centre_random_games_never_visit_d3() {
    let e = engine(&["land-centre"]);
    let d3 = cell(&e, "d3");
    for seed in 0..4 {
        let s = play_game(&e, seed, &["random".into()]).unwrap();
        for ev in &s.events {
            assert!(
                !matches!(ev, Event::Moved { to, .. } | Event::Placed { to, .. } if *to == d3),
                "seed {seed}: {ev:?}"
            );
        }
    }
}

#[test]
fn rule4_attacker_sunk_where_the_target_could_sink_it() {
    let o = &["attacker-sunk"];
    assert_attack(o, "Destroyer", "Cruiser", &[], Resolved::Lose);
    assert_attack(o, "Cruiser", "Submarine", &[], Resolved::Lose);
    assert_attack(o, "Submarine", "Destroyer", &[], Resolved::Lose);
    for defender in ["Cruiser", "Destroyer", "Submarine"] {
        assert_attack(o, "Merchant", defender, &[], Resolved::Lose);
    }
    // A Merchant cannot sink a Merchant: still a bounce.
    assert_attack(o, "Merchant", "Merchant", &[], Resolved::Bounce);
    // Wins and mutual sinkings are unchanged.
    assert_attack(o, "Destroyer", "Submarine", &[], Resolved::Win);
    assert_attack(o, "Destroyer", "Destroyer", &[], Resolved::Both);
}

#[test]
fn rule4_base_game_the_same_attacks_bounce() {
    assert_attack(&[], "Destroyer", "Cruiser", &[], Resolved::Bounce);
    assert_attack(&[], "Merchant", "Submarine", &[], Resolved::Bounce);
}

/// Each side's fleet, by kind: Cruisers, Destroyers, Merchants, Submarines.
fn fleets(e: &Engine) -> Vec<[usize; 4]> {
    let state = e.new_game(SEED).unwrap();
    let count = |p: usize, kind: &str| {
        let k = e.game.kind_index(kind).unwrap();
        let owner = Some(PlayerId(p as u8));
        state
            .pieces()
            .iter()
            .filter(|s| s.owner == owner && s.kind == k)
            .count()
    };
    (0..e.game.players.len())
        .map(|p| ["Cruiser", "Destroyer", "Merchant", "Submarine"].map(|k| count(p, k)))
        .collect()
}

/// A scenario of Mediterranean Convoy.
fn scenario(name: &str) -> Engine {
    let request = Request {
        target: format!("med-convoy/{name}"),
        options: vec![],
        overlays: vec![],
    };
    load(&catalog(), &request).unwrap().engine
}

#[test]
fn rule5_each_side_sails_three_merchants_and_three_submarines() {
    let e = engine(&["marked-ship"]);
    assert_eq!(fleets(&e), [[1, 3, 3, 3], [1, 3, 3, 3]]);
    // Nobody picks anything: set-up starts at once.
    let state = e.new_game(SEED).unwrap();
    assert!(
        legal_actions(&e, &state)
            .iter()
            .all(|a| matches!(a, Action::Place { .. }))
    );
    assert_eq!(fleets(&engine(&[])), [[1, 3, 4, 2], [1, 3, 4, 2]]);
}

#[test]
fn rule5_the_marked_ships_other_uses_are_scenarios() {
    assert_eq!(
        fleets(&scenario("marked-ship")),
        [[1, 3, 3, 3], [1, 3, 3, 3]]
    );
    assert_eq!(
        fleets(&scenario("marked-cruiser")),
        [[2, 3, 3, 2], [2, 3, 3, 2]]
    );
    assert_eq!(
        fleets(&scenario("marked-destroyer")),
        [[1, 4, 3, 2], [1, 4, 3, 2]]
    );
}

#[test]
fn rule5_a_marked_cruiser_plays_as_a_second_cruiser() {
    let e = scenario("marked-cruiser");
    let ships = [
        ("blue", "Cruiser", "c2"),
        ("blue", "Cruiser", "c4"),
        ("blue", "Merchant", "a3"),
        ("red", "Merchant", "g3"),
        ("red", "Destroyer", "c3"),
    ];
    let s = play(&e, &position(&e, &ships, "blue"), "c2 c3");
    assert_eq!(last_attack(&s), Some((Resolved::Win, None)));
    assert_eq!(
        kind_at(&e, &s, "c3"),
        Some(("blue".into(), "Cruiser".into()))
    );
}

#[test]
fn rule6_no_backward_no_ship_moves_toward_its_home_row() {
    let ships = with_keepers(&[("blue", "Destroyer", "c3"), ("red", "Destroyer", "e3")]);
    let e = engine(&["no-backward"]);
    let blue = position(&e, &ships, "blue");
    assert_eq!(targets_from(&e, &blue, "c3"), ["b3", "c4", "d3"]);
    let red = position(&e, &ships, "red");
    assert_eq!(targets_from(&e, &red, "e3"), ["d3", "e2", "f3"]);
    // Base game: backward moves are legal.
    let e = engine(&[]);
    assert_eq!(
        targets_from(&e, &position(&e, &ships, "blue"), "c3"),
        ["b3", "c2", "c4", "d3"]
    );
    assert_eq!(
        targets_from(&e, &position(&e, &ships, "red"), "e3"),
        ["d3", "e2", "e4", "f3"]
    );
}

#[test]
fn rule6_no_backward_holds_in_random_games() {
    let e = engine(&["no-backward"]);
    for seed in 0..4 {
        let s = play_game(&e, seed, &["random".into()]).unwrap();
        for ev in &s.events {
            if let Event::Moved { piece, from, to } = ev {
                let (_, from_row) = e.game.board.space(*from).cell.unwrap();
                let (_, to_row) = e.game.board.space(*to).cell.unwrap();
                let blue = s.piece(*piece).owner == Some(player(&e, "blue"));
                let backward = if blue {
                    to_row < from_row
                } else {
                    to_row > from_row
                };
                assert!(!backward, "seed {seed}: {ev:?}");
            }
        }
    }
}

#[test]
fn rule7_merchants_collide_both_sink() {
    assert_attack(
        &["merchants-collide"],
        "Merchant",
        "Merchant",
        &[],
        Resolved::Both,
    );
    assert_attack(&[], "Merchant", "Merchant", &[], Resolved::Bounce);
}

#[test]
fn rule7_when_the_last_merchants_collide_the_game_is_drawn() {
    let e = engine(&["merchants-collide"]);
    let ships = [
        ("blue", "Merchant", "c2"),
        ("red", "Merchant", "c3"),
        ("red", "Cruiser", "g5"),
    ];
    let s = play(&e, &position(&e, &ships, "blue"), "c2 c3");
    let result = s.result.as_ref().expect("the game is over");
    assert_eq!(result.winner, None, "{}", result.reason);
}

#[test]
fn rule8_coin_sub_escape_the_coin_decides_destroyer_against_submarine() {
    let o = &["coin-sub-escape"];
    assert_attack(o, "Destroyer", "Submarine", &[1], Resolved::Win);
    assert_attack(o, "Destroyer", "Submarine", &[0], Resolved::Bounce);
    // Base game: the Destroyer always wins, no coin.
    assert_attack(&[], "Destroyer", "Submarine", &[], Resolved::Win);
    // A Submarine attacking a Destroyer still bounces, no coin.
    assert_attack(o, "Submarine", "Destroyer", &[], Resolved::Bounce);
}

#[test]
fn rules_4_and_8_together_read_the_base_table() {
    let o = &["attacker-sunk", "coin-sub-escape"];
    assert_attack(o, "Submarine", "Destroyer", &[], Resolved::Lose);
    assert_attack(o, "Destroyer", "Submarine", &[0], Resolved::Bounce);
}

// ---------------------------------------------------------------- determinism

#[test]
fn the_same_seed_plays_the_same_game() {
    let bots = ["random".to_string()];
    for options in [
        &[][..],
        &[
            "coin-equal",
            "coin-strike",
            "coin-sub-escape",
            "marked-ship",
        ][..],
    ] {
        let e = engine(options);
        let a = play_game(&e, 2024, &bots).unwrap();
        let b = play_game(&e, 2024, &bots).unwrap();
        assert_eq!(a.log, b.log);
        assert_eq!(a.events, b.events);
        assert_eq!(a.result, b.result);
        assert_eq!(a, b);
        let c = play_game(&e, 2025, &bots).unwrap();
        assert_ne!(a.log, c.log, "another seed, another game");
    }
}

#[test]
fn every_optional_rule_alone_and_all_together_play_to_the_end() {
    // Every rule the package declares, so a new one is covered too.
    let package = engine(&[]);
    let all: Vec<&str> = package.game.options.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(all.len(), 8, "the rule text has eight optional rules");
    let mut sets: Vec<Vec<&str>> = all.iter().map(|o| vec![*o]).collect();
    sets.push(all.to_vec());
    for options in sets {
        let e = engine(&options);
        for o in &options {
            assert!(e.game.option_enabled(o), "{o} is on");
        }
        for seed in 0..3 {
            let s = play_game(&e, seed, &["random".into()])
                .unwrap_or_else(|err| panic!("{options:?} seed {seed}: {err}"));
            assert!(s.result.is_some(), "{options:?} seed {seed}");
        }
    }
}

// ---------------------------------------------------------------- scenarios

#[test]
fn every_stock_scenario_loads_and_plays_to_the_end() {
    let catalog = catalog();
    let names = catalog.scenario_ids("med-convoy");
    assert!(names.contains(&"radical".to_string()), "{names:?}");
    for name in names {
        let request = Request {
            target: format!("med-convoy/{name}"),
            options: vec![],
            overlays: vec![],
        };
        let loaded =
            load(&catalog, &request).unwrap_or_else(|err| panic!("scenario {name}: {err}"));
        for o in &loaded.options {
            assert!(loaded.engine.game.option_enabled(o), "{name}: {o}");
        }
        let s = play_game(&loaded.engine, 9, &["random".into()]).unwrap();
        assert!(s.result.is_some(), "{name}");
    }
}

#[test]
fn the_radical_scenario_switches_on_rules_4_and_6() {
    let request = Request {
        target: "med-convoy/radical".into(),
        options: vec![],
        overlays: vec![],
    };
    let loaded = load(&catalog(), &request).unwrap();
    let e = loaded.engine;
    assert!(e.game.option_enabled("attacker-sunk"));
    assert!(e.game.option_enabled("no-backward"));
    let ships = with_keepers(&[("blue", "Destroyer", "c2"), ("red", "Cruiser", "c3")]);
    let s = play(&e, &position(&e, &ships, "blue"), "c2 c3");
    assert_eq!(last_attack(&s), Some((Resolved::Lose, None)));
    let s = position(&e, &with_keepers(&[("blue", "Destroyer", "c3")]), "blue");
    assert_eq!(targets_from(&e, &s, "c3"), ["b3", "c4", "d3"]);
}
