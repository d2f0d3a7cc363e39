//! Conformance tests for Treasure Fleet (`rules/treasure-fleet`): one test
//! per rule, each setting up a position (ships moved by hand, hands dealt
//! from a fixed choice of cards, dice forced), acting through the choices
//! the rules offer, and checking what the rule says happens.
//!
//! Side A's home port is a3 (west), Side B's g3 (east). Classes are dealt
//! to the ships at random in secret; `ready` deals them as listed here so
//! tests can name them: Side A's Defiance and Revenge (90 CP), Swallow and
//! Falcon (75), Hind and Otter (60); Side B's Triunfo and Santiago, Paloma
//! and Halcon, Cierva and Nutria.

#[allow(dead_code)]
mod common;

use common::{catalog, legal, play, play_all, player};
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{Location, PieceId, player_bit};
use portolan::kernel::state::GameState;
use portolan::kernel::value::Value;
use portolan::kernel::view::{View, Viewer};
use portolan::load::{Request, load};

fn engine() -> Engine {
    let request = Request {
        target: "treasure-fleet".into(),
        options: vec![],
        overlays: vec![],
    };
    load(&catalog(), &request)
        .unwrap_or_else(|e| panic!("treasure-fleet does not load:\n{e}"))
        .engine
}

/// Lua run on a copy of the game, with the rules' modules at hand.
fn lua(e: &Engine, s: &GameState, code: &str) -> String {
    let modules = "local fleet, wind, battle, ports, contact, victory = require('lib.fleet'), \
                   require('lib.wind'), require('lib.battle'), require('lib.ports'), \
                   require('lib.contact'), require('lib.victory')\n";
    e.lua_eval(s, &format!("{modules}{code}"))
        .unwrap_or_else(|err| panic!("{code}: {err}"))
}

fn ship(e: &Engine, s: &GameState, name: &str) -> PieceId {
    let n: u16 = lua(e, s, &format!("return battle.ship('{name}')"))
        .parse()
        .unwrap_or_else(|_| panic!("no ship {name}"));
    PieceId(n - 1)
}

fn attr(s: &GameState, id: PieceId, name: &str) -> Option<Value> {
    s.piece(id).attrs.get(name).cloned()
}

fn int(s: &GameState, id: PieceId, name: &str) -> i64 {
    match attr(s, id, name) {
        Some(Value::Int(i)) => i,
        other => panic!("{name} is {other:?}"),
    }
}

fn place(e: &Engine, name: &str) -> Location {
    match e.game.board.find(name) {
        Some(space) => Location::Space(space),
        None => Location::Pool(e.game.pool_index(name).expect("a space or a pool")),
    }
}

fn at(e: &Engine, s: &GameState, id: PieceId) -> String {
    e.location_name(s.piece(id).loc).to_string()
}

/// Moves a ship by hand: at sea (or docked) in a box, on a battle square,
/// or into a pool.
fn put(e: &Engine, s: &mut GameState, name: &str, to: &str, docked: bool) {
    let id = ship(e, s, name);
    s.set_location(id, place(e, to));
    s.set_piece_attr(id, "docked", Some(Value::Bool(docked)));
}

fn set(e: &Engine, s: &mut GameState, name: &str, key: &str, value: i64) {
    let id = ship(e, s, name);
    s.set_piece_attr(id, key, Some(Value::Int(value)));
}

/// Gives a side exactly these cards (its old hand goes back to the deck).
fn deal(e: &Engine, s: &mut GameState, side: &str, kinds: &[&str]) {
    let hand = place(e, &format!("hand_{side}"));
    let deck = place(e, "deck");
    for id in s.piece_ids().collect::<Vec<_>>() {
        if s.piece(id).loc == hand {
            s.set_location(id, deck);
            s.set_seen_by(id, 0);
        }
    }
    for kind in kinds {
        let k = e.game.kind_index(kind).expect("a card kind");
        let card = s
            .piece_ids()
            .find(|&id| s.piece(id).kind == k && s.piece(id).loc == deck)
            .unwrap_or_else(|| panic!("no {kind} left in the deck"));
        s.set_location(card, hand);
        s.set_seen_by(card, player_bit(player(e, side)));
    }
}

fn hand(e: &Engine, s: &GameState, side: &str) -> Vec<String> {
    let pool = place(e, &format!("hand_{side}"));
    let mut kinds: Vec<String> = s
        .piece_ids()
        .filter(|&id| s.piece(id).loc == pool)
        .map(|id| e.game.kind(s.piece(id).kind).name.clone())
        .collect();
    kinds.sort();
    kinds
}

fn count_in(e: &Engine, s: &GameState, pool: &str) -> usize {
    let pool = place(e, pool);
    s.piece_ids().filter(|&id| s.piece(id).loc == pool).count()
}

/// The classes of the module doc, by ship name.
const LISTED_CLASSES: [(&str, i64); 12] = [
    ("Defiance", 90),
    ("Revenge", 90),
    ("Swallow", 75),
    ("Falcon", 75),
    ("Hind", 60),
    ("Otter", 60),
    ("Triunfo", 90),
    ("Santiago", 90),
    ("Paloma", 75),
    ("Halcon", 75),
    ("Cierva", 60),
    ("Nutria", 60),
];

/// A game after secret placement with every ship docked at its home port,
/// the classes dealt as the module doc lists them: the first player is
/// about to decide on its hand.
fn ready(e: &Engine, seed: u64) -> GameState {
    let mut s = placed_at_home(e, e.new_game(seed).unwrap());
    for (name, cp) in LISTED_CLASSES {
        set(e, &mut s, name, "cp", cp);
        set(e, &mut s, name, "max_cp", cp);
    }
    s
}

/// Every ship noted docked at its home port, in the order asked.
fn placed_at_home(e: &Engine, mut s: GameState) -> GameState {
    let setup = e.game.phase_index("setup").unwrap();
    while s.stack.last().is_some_and(|f| f.phase == setup) {
        let side = e.game.player_id(e.to_move(&s).unwrap()).to_string();
        let first = legal(e, &s)[0].clone();
        let name = first.split(' ').next().unwrap();
        let home = if side == "a" { "a3" } else { "g3" };
        s = play(e, &s, &format!("{name} at {home}"));
    }
    s
}

/// A side's VP at home.
fn vp(e: &Engine, s: &GameState, side: &str) -> i64 {
    match s.players[player(e, side).0 as usize].vars.get("vp") {
        Some(Value::Int(v)) => *v,
        None => 0,
        other => panic!("vp is {other:?}"),
    }
}

/// The side to decide now.
fn deciding(e: &Engine, s: &GameState) -> String {
    e.game.player_id(e.to_move(s).unwrap()).to_string()
}

/// A position made by hand, then the start of `side`'s strategic turn
/// with `dice` forced; the side keeps its hand.
fn side_turn(e: &Engine, mut s: GameState, side: &str, dice: &[u32]) -> GameState {
    s.rng.force(dice.iter().copied());
    e.begin_phase(&mut s, "side_turn", player(e, side)).unwrap();
    play(e, &s, "keep the hand")
}

/// Gives the orders named (by ship) and lets every other ship stay docked.
fn orders(e: &Engine, mut s: GameState, wanted: &[&str]) -> GameState {
    let mut wanted = wanted.to_vec();
    loop {
        let offered = legal(e, &s);
        let Some(first) = offered.first() else {
            return s;
        };
        let name = first.split(' ').next().unwrap().to_string();
        let stay = format!("{name} stays docked");
        match wanted
            .iter()
            .position(|w| w.starts_with(&format!("{name} ")))
        {
            Some(i) => s = play(e, &s, wanted.remove(i)),
            None if offered.contains(&stay) => s = play(e, &s, &stay),
            None => return s,
        }
    }
}

// ---------------------------------------------------------------- map and fleets

#[test]
fn the_map_has_home_ports_at_opposite_ends_and_treasure_grows_with_distance() {
    let e = engine();
    let s = e.new_game(1).unwrap();
    assert_eq!(
        e.game
            .board
            .space_kind_name(e.game.board.find("a3").unwrap()),
        "port"
    );
    assert_eq!(
        e.game
            .board
            .space_kind_name(e.game.board.find("g3").unwrap()),
        "port"
    );
    // The article's example: Pais de los Muertos is one column from B's
    // home port and five from A's.
    assert_eq!(
        lua(
            &e,
            &s,
            "return ports.distance('a', 'f4') .. ' ' .. ports.distance('b', 'f4')"
        ),
        "\"5 1\""
    );
    assert_eq!(
        lua(&e, &s, "return fleet.place('f4')"),
        "\"f4 (Pais de los Muertos)\""
    );
}

#[test]
fn each_side_has_six_ships_two_of_each_class_dealt_to_the_names_at_random() {
    let e = engine();
    let mut dealt = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let s = e.new_game(seed).unwrap();
        for names in [
            ["Defiance", "Revenge", "Swallow", "Falcon", "Hind", "Otter"],
            [
                "Triunfo", "Santiago", "Paloma", "Halcon", "Cierva", "Nutria",
            ],
        ] {
            let mut classes: Vec<i64> = names
                .iter()
                .map(|name| {
                    let id = ship(&e, &s, name);
                    assert_eq!(int(&s, id, "cp"), int(&s, id, "max_cp"), "{name}");
                    assert_eq!(int(&s, id, "cargo"), 0, "{name}");
                    int(&s, id, "max_cp")
                })
                .collect();
            dealt.insert(classes.clone());
            classes.sort();
            assert_eq!(classes, [60, 60, 75, 75, 90, 90], "seed {seed}");
        }
    }
    assert!(dealt.len() > 1, "a name does not give its class away");
}

/// A choice names a ship of the side deciding: when a scenario gives both
/// sides a ship of the same name, side B's order moves side B's ship.
#[test]
fn a_choice_names_a_ship_of_the_side_deciding() {
    let e = engine();
    let mut s = ready(&e, 1);
    let theirs = ship(&e, &s, "Triunfo");
    s.set_piece_attr(theirs, "name", Some(Value::Str("Revenge".into())));
    let ours = ship(&e, &s, "Revenge");
    assert_ne!(ours, theirs);
    let found = |side: &str| {
        lua(
            &e,
            &s,
            &format!("return fleet.ship_in('Revenge sails E 1', '{side}')"),
        )
    };
    assert_eq!(
        found("b"),
        (theirs.0 + 1).to_string(),
        "side B's own Revenge"
    );
    assert_eq!(found("a"), (ours.0 + 1).to_string(), "side A's own Revenge");
}

// ---------------------------------------------------------------- secret placement (11)

#[test]
fn placement_is_secret_anywhere_but_the_enemy_home_port_and_optionally_docked() {
    let e = engine();
    let s = e.new_game(5).unwrap();
    let side = e.game.player_id(e.to_move(&s).unwrap()).to_string();
    let (own, enemy) = ("a3", "g3");
    let offered = legal(&e, &s);
    let name = offered[0].split(' ').next().unwrap().to_string();
    assert!(offered.contains(&format!("{name} at {own}")));
    assert!(
        !offered.iter().any(|o| o.contains(enemy)),
        "never the enemy home port"
    );
    assert!(
        offered.contains(&format!("{name} at f4 docked")),
        "docked at an island"
    );
    assert!(
        !offered.contains(&format!("{name} at d3 docked")),
        "no dock at open sea"
    );
    let s = play(&e, &s, &format!("{name} at f4 docked"));
    let id = ship(&e, &s, &name);
    let theirs = View::new(&e.game, &s, Viewer::Player(player(&e, "b")));
    assert_eq!(side, "a");
    assert!(
        theirs.piece(id).attrs.get("plan").is_none(),
        "the other side does not see the plan"
    );
    assert_eq!(
        at(&e, &s, id),
        "reserve",
        "ships are set out only when all are placed"
    );
}

#[test]
fn ships_are_set_out_where_noted_and_each_side_is_dealt_eight_cards() {
    let e = engine();
    let s = ready(&e, 2);
    assert_eq!(at(&e, &s, ship(&e, &s, "Otter")), "a3");
    assert_eq!(
        attr(&s, ship(&e, &s, "Otter"), "docked"),
        Some(Value::Bool(true))
    );
    assert_eq!(hand(&e, &s, "a").len(), 8);
    assert_eq!(hand(&e, &s, "b").len(), 8);
    assert_eq!(count_in(&e, &s, "deck"), 48 - 16);
    assert_eq!(legal(&e, &s), ["keep the hand", "exchange the hand"]);
}

// ---------------------------------------------------------------- wind cards (6)

#[test]
fn a_hand_holds_two_cards_more_than_the_fleet_has_ships() {
    let e = engine();
    let mut s = ready(&e, 3);
    assert_eq!(lua(&e, &s, "return wind.hand_size('a')"), "8");
    put(&e, &mut s, "Hind", "eliminated", false);
    assert_eq!(lua(&e, &s, "return wind.hand_size('a')"), "7");
    deal(
        &e,
        &mut s,
        "a",
        &[
            "Wind_E", "Wind_E", "Wind_N", "Wind_N", "No_Wind", "No_Wind", "Wind_S", "Wind_W",
        ],
    );
    // At the end of its turn the side gives up the card too many, of the
    // kind it chooses.
    let s = orders(&e, side_turn(&e, s, "a", &[]), &[]);
    assert_eq!(
        legal(&e, &s),
        [
            "give up No_Wind",
            "give up Wind_E",
            "give up Wind_N",
            "give up Wind_S",
            "give up Wind_W"
        ]
    );
    let s = play(&e, &s, "give up Wind_S");
    assert_eq!(
        hand(&e, &s, "a"),
        [
            "No_Wind", "No_Wind", "Wind_E", "Wind_E", "Wind_N", "Wind_N", "Wind_W"
        ]
    );
    assert_eq!(count_in(&e, &s, "discard"), 1);
}

#[test]
fn the_hands_are_hidden_from_the_other_side() {
    let e = engine();
    let s = ready(&e, 3);
    let theirs = View::new(&e.game, &s, Viewer::Player(player(&e, "b")));
    let pool = place(&e, "hand_a");
    for id in s.piece_ids().filter(|&id| s.piece(id).loc == pool) {
        assert_eq!(theirs.piece(id).kind, None);
    }
    let status = e.status_text(&s, "b").unwrap().unwrap();
    assert!(status.contains("hand: 8 cards"), "{status}");
}

#[test]
fn a_side_may_exchange_its_whole_hand() {
    let e = engine();
    let s = ready(&e, 4);
    let side = e.game.player_id(e.to_move(&s).unwrap()).to_string();
    let s = play(&e, &s, "exchange the hand");
    assert_eq!(hand(&e, &s, &side).len(), 8);
    assert_eq!(
        count_in(&e, &s, "discard"),
        8,
        "the old hand is face up on the discard pile"
    );
    assert_eq!(count_in(&e, &s, "deck"), 48 - 24);
}

#[test]
fn played_cards_are_replaced_from_the_deck() {
    let e = engine();
    let mut s = ready(&e, 4);
    deal(
        &e,
        &mut s,
        "a",
        &[
            "Wind_E", "Wind_E", "Wind_N", "No_Wind", "No_Wind", "Wind_S", "Wind_W", "Wind_W",
        ],
    );
    put(&e, &mut s, "Hind", "b3", false);
    let s = orders(&e, side_turn(&e, s, "a", &[]), &["Hind sails E 2"]);
    assert_eq!(hand(&e, &s, "a").len(), 8);
    assert_eq!(count_in(&e, &s, "discard"), 1);
}

// ---------------------------------------------------------------- sailing (6)

#[test]
fn a_favorable_wind_card_moves_a_ship_one_or_two_boxes_in_its_direction() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &["Wind_E", "No_Wind"]);
    put(&e, &mut s, "Hind", "b3", false);
    let s = side_turn(&e, s, "a", &[]);
    let s = orders(&e, s, &[]);
    let offered: Vec<String> = legal(&e, &s)
        .into_iter()
        .filter(|c| c.starts_with("Hind "))
        .collect();
    assert_eq!(
        offered,
        [
            "Hind holds",
            "Hind drifts",
            "Hind sails E 1",
            "Hind sails E 2"
        ],
        "the directions of the cards held only, no diagonals"
    );
    let s = play(&e, &s, "Hind sails E 2");
    assert_eq!(at(&e, &s, ship(&e, &s, "Hind")), "d3");
}

#[test]
fn a_ship_at_sea_without_a_no_wind_card_drifts_one_box_at_random() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &["Wind_E"]);
    put(&e, &mut s, "Hind", "c3", false);
    let s = side_turn(&e, s, "a", &[]);
    assert!(
        !legal(&e, &s).contains(&"Hind holds".to_string()),
        "holding needs a No Wind card"
    );
    let mut s = s;
    s.rng.force([2]); // 1D4: N, E, S, W
    let s = orders(&e, s, &["Hind drifts"]);
    assert_eq!(at(&e, &s, ship(&e, &s, "Hind")), "d3");
}

#[test]
fn a_docked_ship_needs_no_card_to_stay() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &[]);
    put(&e, &mut s, "Hind", "c2", true);
    let s = side_turn(&e, s, "a", &[]);
    let s = orders(&e, s, &[]);
    assert_eq!(at(&e, &s, ship(&e, &s, "Hind")), "c2");
    assert_eq!(
        attr(&s, ship(&e, &s, "Hind"), "docked"),
        Some(Value::Bool(true))
    );
}

#[test]
fn a_ship_at_sea_in_an_island_box_may_dock_and_a_sail_may_end_docked() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &["Wind_N"]);
    put(&e, &mut s, "Hind", "c2", false);
    put(&e, &mut s, "Otter", "d3", false);
    let s = side_turn(&e, s, "a", &[]);
    let s = orders(&e, s, &["Hind docks", "Otter sails N 1 and docks"]);
    assert_eq!(
        attr(&s, ship(&e, &s, "Hind"), "docked"),
        Some(Value::Bool(true))
    );
    assert_eq!(at(&e, &s, ship(&e, &s, "Otter")), "d4");
    assert_eq!(
        attr(&s, ship(&e, &s, "Otter"), "docked"),
        Some(Value::Bool(true))
    );
}

#[test]
fn a_ship_sailing_off_the_map_goes_into_limbo() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &["Wind_S"]);
    put(&e, &mut s, "Hind", "b2", false);
    let s = orders(&e, side_turn(&e, s, "a", &[]), &["Hind sails S 2"]);
    let hind = ship(&e, &s, "Hind");
    assert_eq!(at(&e, &s, hind), "limbo");
    assert_eq!(attr(&s, hind, "left_from"), Some(Value::Str("b1".into())));
}

#[test]
fn a_ship_in_limbo_returns_with_a_chance_of_half_its_cp() {
    let e = engine();
    let mut s = ready(&e, 6);
    put(&e, &mut s, "Hind", "limbo", false);
    let hind = ship(&e, &s, "Hind");
    s.set_piece_attr(hind, "left_from", Some(Value::Str("b2".into())));
    // Hind has 60 CP: a D100 of 30 or less brings it back.
    let stays = side_turn(&e, s.clone(), "a", &[31]);
    assert_eq!(at(&e, &stays, hind), "limbo");
    let back = side_turn(&e, s, "a", &[30]);
    assert_eq!(at(&e, &back, hind), "b2");
}

// ---------------------------------------------------------------- ports (7, 9e)

#[test]
fn a_docked_ship_loads_twice_one_d10_times_the_distance_from_home() {
    let e = engine();
    let mut s = ready(&e, 7);
    let mut s_a = s.clone();
    put(&e, &mut s_a, "Hind", "f4", true);
    // "2 x 10-sided die" read as twice one die: a single D10 of 7 loads 14
    // a column (README, 2 x 10-sided die).
    let s_a = orders(&e, side_turn(&e, s_a, "a", &[7]), &[]);
    assert_eq!(
        int(&s_a, ship(&e, &s_a, "Hind"), "cargo"),
        70,
        "2 x 7 x 5 columns from a3"
    );
    put(&e, &mut s, "Cierva", "f4", true);
    let s_b = orders(&e, side_turn(&e, s, "b", &[7]), &[]);
    assert_eq!(
        int(&s_b, ship(&e, &s_b, "Cierva"), "cargo"),
        14,
        "2 x 7 x 1 column from g3"
    );
    assert_eq!(s_b.rng.forced_left(), 0);
}

#[test]
fn a_ship_carries_at_most_two_hundred_vp() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "f4", true);
    set(&e, &mut s, "Hind", "cargo", 190);
    let s = orders(&e, side_turn(&e, s, "a", &[10]), &[]);
    assert_eq!(int(&s, ship(&e, &s, "Hind"), "cargo"), 200);
}

#[test]
fn a_damaged_docked_ship_loads_or_repairs_not_both() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "c2", true);
    set(&e, &mut s, "Hind", "cp", 40);
    let s = orders(&e, side_turn(&e, s, "a", &[]), &[]);
    assert_eq!(legal(&e, &s), ["Hind loads treasure", "Hind repairs"]);
    let mut s = s;
    s.rng.force([9]);
    let s = play(&e, &s, "Hind repairs");
    let hind = ship(&e, &s, "Hind");
    assert_eq!((int(&s, hind, "cp"), int(&s, hind, "cargo")), (58, 0));
}

#[test]
fn repairs_never_pass_the_starting_cp() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "a3", true);
    set(&e, &mut s, "Hind", "cp", 55);
    // At home only repairs are possible: three times a D10 there.
    let s = orders(&e, side_turn(&e, s, "a", &[10]), &[]);
    assert_eq!(int(&s, ship(&e, &s, "Hind"), "cp"), 60);
}

#[test]
fn cargo_is_secret_to_the_enemy() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "f4", true);
    s.narrated = true;
    let s = orders(&e, side_turn(&e, s, "a", &[7]), &[]);
    let hind = ship(&e, &s, "Hind");
    let told = |side: &str| {
        let view = View::new(&e.game, &s, Viewer::Player(player(&e, side)));
        view.events
            .iter()
            .any(|ev| format!("{ev:?}").contains("loads 70 VP"))
    };
    assert!(
        told("a") && !told("b"),
        "the treasure roll is narrated to its side only"
    );
    let theirs = View::new(&e.game, &s, Viewer::Player(player(&e, "b")));
    assert!(theirs.piece(hind).kind.is_some());
    assert!(theirs.piece(hind).attrs.get("cargo").is_none());
    let own = View::new(&e.game, &s, Viewer::Player(player(&e, "a")));
    assert_eq!(own.piece(hind).attrs.get("cargo"), Some(&Value::Int(70)));
    let status = e.status_text(&s, "b").unwrap().unwrap();
    assert!(
        status.contains("?  VP") || status.contains("? VP"),
        "{status}"
    );
    assert!(!status.contains(" 70 VP"), "{status}");
}

// ---------------------------------------------------------------- contact (3)

#[test]
fn contact_chance_is_sixty_percent_plus_five_per_ship_in_the_box() {
    let e = engine();
    let mut s = ready(&e, 8);
    put(&e, &mut s, "Hind", "d3", false);
    put(&e, &mut s, "Cierva", "d3", false);
    assert_eq!(lua(&e, &s, "return contact.chance('d3')"), "70");
    for name in [
        "Defiance", "Revenge", "Swallow", "Falcon", "Otter", "Triunfo", "Santiago",
    ] {
        put(&e, &mut s, name, "d3", false);
    }
    assert_eq!(
        lua(&e, &s, "return contact.chance('d3')"),
        "100",
        "never above 100"
    );
}

/// Hind (A) holds at d3 where Cierva (B) is; A's contact roll is forced.
fn meeting(e: &Engine, dice: &[u32]) -> GameState {
    meeting_at(e, ready(e, 8), "d3", false, dice)
}

/// Hind (A) holds at sea in `box` where Cierva (B) is, docked or not, in
/// the position `s`; A's contact roll is forced.
fn meeting_at(
    e: &Engine,
    mut s: GameState,
    place: &str,
    cierva_docked: bool,
    dice: &[u32],
) -> GameState {
    deal(e, &mut s, "a", &["No_Wind"]);
    put(e, &mut s, "Hind", place, false);
    put(e, &mut s, "Cierva", place, cierva_docked);
    orders(e, side_turn(e, s, "a", dice), &["Hind holds"])
}

#[test]
fn a_contact_roll_within_the_chance_starts_a_battle_and_one_above_does_not() {
    let e = engine();
    let missed = meeting(&e, &[71]);
    assert_eq!(at(&e, &missed, ship(&e, &missed, "Hind")), "d3");
    // 70: contact; 1D8 wind 3 (from the east); activation card 1 (A's).
    let found = meeting(&e, &[70, 3, 1]);
    assert_eq!(at(&e, &found, ship(&e, &found, "Hind")), "battle.b2");
    assert_eq!(at(&e, &found, ship(&e, &found, "Cierva")), "battle.g2");
    assert_eq!(found.rng.forced_left(), 0);
}

// ---------------------------------------------------------------- battle (9, 10)

#[test]
fn movement_follows_the_point_of_sailing_halved_when_crippled() {
    let e = engine();
    let s = meeting(&e, &[70, 3, 1]);
    // Hind heads east into an east wind: in irons, it may only pivot.
    assert_eq!(
        legal(&e, &s),
        [
            "Hind moves 0",
            "Hind moves 0 and turns to port",
            "Hind moves 0 and turns to starboard"
        ]
    );
    let code = "return battle.point_of_sailing(3, 7) .. ' ' .. battle.point_of_sailing(1, 3) .. ' ' .. battle.point_of_sailing(2, 3)";
    assert_eq!(lua(&e, &s, code), "\"running beam_reach close_hauled\"");
    let hind = "local id = battle.ship('Hind'); pieces.set_attr(id, 'heading', 4)\n";
    assert_eq!(
        lua(
            &e,
            &s,
            &format!(
                "{hind}local most, least = battle.allowance(id, 7); return most .. ' ' .. least"
            )
        ),
        "\"4 2\""
    );
    let crippled = format!(
        "{hind}pieces.set_attr(id, 'cp', 30); local most, least = battle.allowance(id, 7); return most .. ' ' .. least"
    );
    assert_eq!(lua(&e, &s, &crippled), "\"2 1\"");
}

#[test]
fn a_move_goes_straight_ahead_then_pivots_45_degrees() {
    let e = engine();
    let mut s = meeting(&e, &[70, 7, 1]);
    // Wind from the west: Hind, heading east, runs before it (3 squares, at least 2).
    assert_eq!(legal(&e, &s).len(), 6);
    s = play(&e, &s, "Hind moves 3 and turns to port");
    let hind = ship(&e, &s, "Hind");
    assert_eq!(at(&e, &s, hind), "battle.e2");
    assert_eq!(int(&s, hind, "heading"), 2, "north-east");
}

/// Battle at d3: Hind (A, 60 CP) on b2 heading east, Cierva (B) moved to
/// b7 heading `heading`; the wind is from the east, A's card is drawn.
fn broadside(e: &Engine, heading: i64, hind_cp: i64) -> GameState {
    let mut s = meeting(e, &[70, 3, 1]);
    let cierva = ship(e, &s, "Cierva");
    s.set_location(cierva, place(e, "battle.b7"));
    s.set_piece_attr(cierva, "heading", Some(Value::Int(heading)));
    set(e, &mut s, "Hind", "cp", hind_cp);
    play(e, &s, "Hind moves 0")
}

#[test]
fn the_firing_example_sixty_percent_to_hit_a_roll_of_47_costs_14_cp() {
    let e = engine();
    // 90 CP at 5 squares (30 units of range): P(hit) = 60.
    let s = broadside(&e, 7, 90);
    assert_eq!(
        legal(&e, &s),
        ["Cierva fires at Hind", "Cierva holds fire"],
        "the stationary side fires first"
    );
    let mut s = play(&e, &s, "Cierva holds fire");
    assert_eq!(
        lua(
            &e,
            &s,
            "return battle.hit_chance(battle.ship('Hind'), battle.ship('Cierva'))"
        ),
        "60"
    );
    s.rng.force([47]);
    let s = play(&e, &s, "Hind fires at Cierva");
    assert_eq!(int(&s, ship(&e, &s, "Cierva"), "cp"), 60 - 14);
}

#[test]
fn a_roll_above_the_chance_misses() {
    let e = engine();
    let mut s = play(&e, &broadside(&e, 7, 90), "Cierva holds fire");
    s.rng.force([61]);
    let s = play(&e, &s, "Hind fires at Cierva");
    assert_eq!(int(&s, ship(&e, &s, "Cierva"), "cp"), 60);
}

#[test]
fn raking_fire_from_ahead_or_astern_does_four_times_the_units_die() {
    let e = engine();
    // Cierva heads south: Hind lies dead ahead of it (and out of its arc).
    let mut s = broadside(&e, 5, 90);
    s.rng.force([47]);
    let s = play(&e, &s, "Hind fires at Cierva");
    assert_eq!(int(&s, ship(&e, &s, "Cierva"), "cp"), 60 - 28);
    assert_eq!(
        lua(&e, &s, "return battle.damage(50, false)"),
        "20",
        "a units die of 0 reads 10"
    );
}

#[test]
fn ships_fire_only_on_the_broadside_and_sink_at_zero_cp() {
    let e = engine();
    let s = meeting(&e, &[70, 3, 1]);
    // Face to face along row 2: neither may fire.
    assert_eq!(
        lua(&e, &s, "return #battle.targets(battle.ship('Hind'))"),
        "0"
    );
    let mut s = play(&e, &broadside(&e, 7, 90), "Cierva holds fire");
    set(&e, &mut s, "Cierva", "cp", 10);
    s.rng.force([47]);
    let s = play(&e, &s, "Hind fires at Cierva");
    assert_eq!(at(&e, &s, ship(&e, &s, "Cierva")), "eliminated");
    assert!(
        s.stack
            .iter()
            .all(|f| f.phase != e.game.phase_index("battle").unwrap()),
        "the battle is over"
    );
}

#[test]
fn boarding_the_defender_fires_first_then_the_boarder_boards_with_its_cp_in_percent() {
    let e = engine();
    let mut s = meeting(&e, &[70, 3, 1]);
    let cierva = ship(&e, &s, "Cierva");
    s.set_location(cierva, place(&e, "battle.b3"));
    let s = play(&e, &s, "Hind moves 0");
    let s = play(&e, &s, "Cierva holds fire");
    assert!(legal(&e, &s).contains(&"Hind boards Cierva".to_string()));
    // Cierva fires at point-blank range (60 - 6 = 54): 99 misses; the boarding roll 61 fails.
    let mut failed = s.clone();
    failed.rng.force([99, 61]);
    let failed = play(&e, &failed, "Hind boards Cierva");
    assert_eq!(failed.piece(cierva).owner, Some(player(&e, "b")));
    // 60 boards; the melee: rounds at 60/(60+60) = 50%: 50 and 50 win two for Hind.
    let mut won = s;
    won.rng.force([99, 60, 50, 1, 1, 50, 1, 1]);
    let won = play(&e, &won, "Hind boards Cierva");
    assert_eq!(won.piece(cierva).owner, Some(player(&e, "a")));
    assert_eq!(attr(&won, cierva, "prize"), Some(Value::Bool(true)));
    assert_eq!(
        at(&e, &won, cierva),
        "d3",
        "the prize sails at once to the battle's box"
    );
    assert!(
        !legal(&e, &won).iter().any(|c| c.contains(" takes ")),
        "nothing aboard to divide: {:?}",
        legal(&e, &won)
    );
}

#[test]
fn melee_rounds_are_won_with_probability_cp_a_over_cp_a_plus_cp_b_best_of_three() {
    let e = engine();
    let mut s = meeting(&e, &[70, 3, 1]);
    set(&e, &mut s, "Hind", "cp", 90);
    // 90 against 60: Hind wins a round on 60 or less; each round costs both a D10.
    let code = "local w, l = battle.melee(battle.ship('Hind'), battle.ship('Cierva'))
      return fleet.name(w) .. ' ' .. fleet.cp(w) .. ' ' .. fleet.cp(l)";
    let mut won = s.clone();
    won.rng.force([60, 1, 1, 61, 1, 1, 59, 2, 3]);
    assert_eq!(lua(&e, &won, code), "\"Hind 86 55\"");
    s.rng.force([61, 1, 1, 61, 1, 1]);
    assert_eq!(lua(&e, &s, code), "\"Cierva 58 88\"");
}

#[test]
fn the_winner_divides_the_prize_treasure_in_any_amount_its_hold_takes() {
    let e = engine();
    let mut s = meeting(&e, &[70, 3, 1]);
    set(&e, &mut s, "Cierva", "cargo", 80);
    set(&e, &mut s, "Hind", "cargo", 150);
    let cierva = ship(&e, &s, "Cierva");
    s.set_location(cierva, place(&e, "battle.b3"));
    let mut s = play_all(&e, &s, &["Hind moves 0", "Cierva holds fire"]);
    // Cierva misses (99), Hind boards (60) and wins the melee.
    s.rng.force([99, 60, 50, 1, 1, 50, 1, 1]);
    let s = play(&e, &s, "Hind boards Cierva");
    let amounts: Vec<String> = (0..=50)
        .map(|n| format!("Hind takes {n} VP from Cierva"))
        .collect();
    assert_eq!(legal(&e, &s), amounts, "as far as Hind's hold allows");
    let s = play(&e, &s, "Hind takes 37 VP from Cierva");
    let hind = ship(&e, &s, "Hind");
    assert_eq!(
        (int(&s, hind, "cargo"), int(&s, cierva, "cargo")),
        (187, 43)
    );
}

#[test]
fn a_docked_ship_gets_under_way_with_a_chance_of_half_its_cp_and_cannot_fire_before() {
    let e = engine();
    let mut s = ready(&e, 8);
    deal(&e, &mut s, "a", &["No_Wind"]);
    put(&e, &mut s, "Hind", "c2", false);
    put(&e, &mut s, "Cierva", "c2", true);
    // Contact 70; wind 3; B's card (4 of 6); Cierva (60 CP) stays moored on 31.
    let s = orders(&e, side_turn(&e, s, "a", &[70, 3, 4, 31]), &["Hind holds"]);
    let cierva = ship(&e, &s, "Cierva");
    assert_eq!(attr(&s, cierva, "moored"), Some(Value::Bool(true)));
    assert_eq!(
        lua(
            &e,
            &s,
            "return tostring(battle.under_way(battle.ship('Cierva')))"
        ),
        "\"false\""
    );
    // The battle moved on to A's fire, with no B decision: moored ships do not act.
    assert!(
        legal(&e, &s).iter().all(|c| c.starts_with("Hind")),
        "{:?}",
        legal(&e, &s)
    );
}

#[test]
fn a_ship_that_sails_off_the_battle_board_returns_to_the_adjacent_box() {
    let e = engine();
    // Wind from the west; Cierva moved to g5 heading east, before Hind moves.
    let mut s = meeting(&e, &[70, 7, 1]);
    let cierva = ship(&e, &s, "Cierva");
    s.set_location(cierva, place(&e, "battle.g5"));
    s.set_piece_attr(cierva, "heading", Some(Value::Int(3)));
    let s = play_all(&e, &s, &["Hind moves 2", "Cierva holds fire"]);
    let mut s = s;
    s.rng.force([3]); // the next activation card: 3 of 5 left is B's
    let s = play(&e, &s, "Hind holds fire");
    assert!(legal(&e, &s).contains(&"Cierva sails off the board".to_string()));
    let s = play(&e, &s, "Cierva sails off the board");
    assert_eq!(
        at(&e, &s, cierva),
        "e3",
        "the box east of the battle's box, d3"
    );
    // Alone on the battle board, Hind ends the battle back in its box.
    assert_eq!(at(&e, &s, ship(&e, &s, "Hind")), "d3");
}

// ---------------------------------------------------------------- victory (4, 12)

#[test]
fn treasure_counts_when_it_reaches_the_home_port_and_500_vp_wins() {
    let e = engine();
    let mut s = ready(&e, 9);
    deal(&e, &mut s, "a", &["Wind_W"]);
    put(&e, &mut s, "Hind", "b3", false);
    set(&e, &mut s, "Hind", "cargo", 150);
    let a = player(&e, "a");
    s.players[a.0 as usize].vars.insert("vp", Value::Int(349));
    let short = orders(&e, side_turn(&e, s.clone(), "a", &[]), &["Hind sails W 1"]);
    assert_eq!(
        short.players[a.0 as usize].vars.get("vp"),
        Some(&Value::Int(499))
    );
    assert_eq!(int(&short, ship(&e, &short, "Hind"), "cargo"), 0);
    s.players[a.0 as usize].vars.insert("vp", Value::Int(350));
    let won = orders(&e, side_turn(&e, s, "a", &[]), &["Hind sails W 1"]);
    let result = won.result.as_ref().expect("the game is over");
    assert_eq!(result.winner, Some(a));
    assert_eq!(result.reason, "Side A brought 500 VP home first");
}

#[test]
fn a_captured_ship_brought_home_counts_its_starting_cp() {
    let e = engine();
    let mut s = ready(&e, 9);
    deal(&e, &mut s, "a", &["Wind_W"]);
    let triunfo = ship(&e, &s, "Triunfo");
    s.set_owner(triunfo, Some(player(&e, "a")));
    s.set_piece_attr(triunfo, "prize", Some(Value::Bool(true)));
    put(&e, &mut s, "Triunfo", "b3", false);
    set(&e, &mut s, "Triunfo", "cp", 20);
    let s = orders(&e, side_turn(&e, s, "a", &[]), &["Triunfo sails W 1"]);
    let a = player(&e, "a");
    assert_eq!(
        s.players[a.0 as usize].vars.get("vp"),
        Some(&Value::Int(90))
    );
    assert_eq!(at(&e, &s, triunfo), "prizes");
}

#[test]
fn vp_totals_are_announced_every_turn() {
    let e = engine();
    let mut s = ready(&e, 10);
    e.set_narration(true);
    s.narrated = true;
    while s.result.is_none() && lua(&e, &s, "return vars.get('turn')") == "1" {
        let first = legal(&e, &s)[0].clone();
        s = play(&e, &s, &first);
    }
    let log = lua(&e, &s, "return 1");
    assert_eq!(log, "1");
    let text: Vec<String> = s.events.iter().map(|ev| format!("{ev:?}")).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("Turn 1: VP at home: Side A 0, Side B 0")),
        "{text:?}"
    );
}

#[test]
fn whole_games_between_bots_reach_an_end() {
    let e = engine();
    for seed in 0..3 {
        let bots = ["random".to_string(), "random".to_string()];
        let s = portolan::sim::play_game(&e, seed, &bots).unwrap();
        let result = s.result.expect("the game ended");
        assert!(
            !result.by_limit,
            "seed {seed}: ended by the rules, not the ply limit"
        );
    }
}

#[test]
fn the_log_names_a_prize_under_the_side_that_owned_it_then() {
    use portolan::kernel::event::Event;
    use portolan::repl::narrate::narrate_all;
    let e = engine();
    let mut s = meeting(&e, &[70, 3, 1]);
    let cierva = ship(&e, &s, "Cierva");
    let (d3, b3) = (place(&e, "d3"), place(&e, "battle.b3"));
    s.set_location(cierva, b3);
    let s = play(&e, &s, "Hind moves 0");
    let mut s = play(&e, &s, "Cierva holds fire");
    s.narrated = true;
    s.rng.force([99, 60, 50, 1, 1, 50, 1, 1]);
    let won = play(&e, &s, "Hind boards Cierva");
    assert_eq!(won.piece(cierva).owner, Some(player(&e, "a")));
    let taken: Vec<Event> = won
        .events
        .iter()
        .filter(|ev| matches!(ev, Event::OwnerChanged { piece, .. } if *piece == cierva))
        .cloned()
        .collect();
    assert_eq!(taken.len(), 1, "the capture is recorded: {:?}", won.events);
    // Cierva's sail before the battle, then the capture, then a sail after.
    let (Location::Space(from), Location::Space(to)) = (d3, b3) else {
        panic!("boxes are spaces")
    };
    let sail = Event::Moved {
        piece: cierva,
        from,
        to,
    };
    let log = [sail.clone(), taken[0].clone(), sail];
    let view = View::new(&e.game, &won, Viewer::All);
    let lines = narrate_all(&e, &view, &log);
    // Each line names the ship by its name, and the square by the battle
    // board's name, never by the kind or the space's id (`battle.b3`).
    assert_eq!(lines[0], "Side B Cierva moved d3 -> battle b3", "{lines:?}");
    assert_eq!(lines[1], "Side A Cierva moved d3 -> battle b3", "{lines:?}");
}

// ---------------------------------------------------------------- home ports (4)

#[test]
fn a_ship_fleeing_a_battle_into_its_home_port_unloads() {
    let e = engine();
    let mut s = ready(&e, 8);
    set(&e, &mut s, "Hind", "cargo", 50);
    // A battle at b3, next to A's home port; wind from the east, A's card.
    let mut s = meeting_at(&e, s, "b3", false, &[70, 3, 1]);
    let hind = ship(&e, &s, "Hind");
    s.set_location(hind, place(&e, "battle.a2"));
    s.set_piece_attr(hind, "heading", Some(Value::Int(7)));
    // Heading west on the west edge; no shots; A's card again (1 of 5).
    s.rng.force([1]);
    let s = play(&e, &s, "Hind moves 0");
    let s = play(&e, &s, "Hind sails off the board");
    assert_eq!(at(&e, &s, hind), "a3");
    assert_eq!((vp(&e, &s, "a"), int(&s, hind, "cargo")), (50, 0));
}

#[test]
fn a_ship_at_sea_in_its_home_port_that_docks_unloads() {
    let e = engine();
    let mut s = ready(&e, 8);
    put(&e, &mut s, "Hind", "a3", false);
    set(&e, &mut s, "Hind", "cargo", 40);
    let s = orders(&e, side_turn(&e, s, "a", &[]), &["Hind docks"]);
    assert_eq!(vp(&e, &s, "a"), 40);
    assert_eq!(int(&s, ship(&e, &s, "Hind"), "cargo"), 0);
}

#[test]
fn a_prize_taken_in_the_captors_home_port_is_sold_at_once() {
    let e = engine();
    let mut s = ready(&e, 8);
    set(&e, &mut s, "Hind", "cargo", 30);
    // Hind sails into B's home port and finds the fleet docked there.
    let mut s = meeting_at(&e, s, "g3", true, &[70, 3, 1]);
    let (hind, cierva) = (ship(&e, &s, "Hind"), ship(&e, &s, "Cierva"));
    s.set_location(cierva, place(&e, "battle.b3"));
    let mut s = play(&e, &s, "Hind moves 0");
    // Moored Cierva cannot fire; Hind boards (60) and loses the melee.
    s.rng.force([60, 61, 1, 1, 61, 1, 1]);
    let s = play(&e, &s, "Hind boards Cierva");
    assert_eq!(s.piece(hind).owner, Some(player(&e, "b")));
    let s = play(&e, &s, "Cierva takes 10 VP from Hind");
    assert_eq!(at(&e, &s, hind), "prizes", "sold where it was taken");
    // 60 for the prize and the 20 VP left aboard it, then Cierva's 10
    // unloaded at the end of the battle.
    assert_eq!(vp(&e, &s, "b"), 90);
    assert_eq!(int(&s, cierva, "cargo"), 0);
}

// ---------------------------------------------------------------- boarding (10h)

/// Hind (A, b2, heading east) alongside Cierva (B, under way) at
/// `cierva_at`, A's card, Hind has moved: the stationary side's fire.
/// The log is kept.
fn alongside(e: &Engine, cierva_at: &str) -> GameState {
    let mut s = meeting(e, &[70, 3, 1]);
    let cierva = ship(e, &s, "Cierva");
    s.set_location(cierva, place(e, cierva_at));
    s.narrated = true;
    play(e, &s, "Hind moves 0")
}

/// How many lines of the log contain `text`.
fn logged(s: &GameState, text: &str) -> usize {
    s.events
        .iter()
        .filter(|ev| format!("{ev:?}").contains(text))
        .count()
}

#[test]
fn the_boarded_ship_fires_once_a_card_and_only_on_its_broadside() {
    let e = engine();
    let hind_grappled = "return battle.grappled(battle.ship('Cierva')) == battle.ship('Hind')";
    // Cierva has fired on this card already: no second shot at the boarder.
    let mut s = alongside(&e, "battle.b3");
    s.rng.force([99]);
    let mut s = play(&e, &s, "Cierva fires at Hind");
    s.rng.force([61]);
    let s = play(&e, &s, "Hind boards Cierva");
    assert_eq!(logged(&s, "Cierva fires at Hind"), 1, "{:?}", s.events);
    assert_eq!(logged(&s, "Hind fails to board"), 1);
    assert_eq!(lua(&e, &s, hind_grappled), "true");
    // Hind dead ahead of Cierva: out of its arc, no shot either.
    let mut s = alongside(&e, "battle.c2");
    assert_eq!(legal(&e, &s), ["Hind boards Cierva", "Hind holds fire"]);
    s.rng.force([61]);
    let s = play(&e, &s, "Hind boards Cierva");
    assert_eq!(logged(&s, "Cierva fires at Hind"), 0, "{:?}", s.events);
    assert_eq!(logged(&s, "Hind fails to board"), 1);
}

#[test]
fn a_grappled_ship_may_try_to_cast_off_with_its_cp_in_percent() {
    let e = engine();
    let s = play(&e, &alongside(&e, "battle.b3"), "Cierva holds fire");
    // Cierva misses (99); the boarding fails (61); B's card is next (3 of 5).
    let mut s = s;
    s.rng.force([99, 61, 3]);
    let s = play(&e, &s, "Hind boards Cierva");
    assert_eq!(legal(&e, &s), ["Cierva casts off", "Cierva stays grappled"]);
    let mut free = s.clone();
    free.rng.force([60]);
    let free = play(&e, &free, "Cierva casts off");
    assert!(
        legal(&e, &free)
            .iter()
            .all(|c| c.starts_with("Cierva moves") || c == "Cierva sails off the board"),
        "free, Cierva moves: {:?}",
        legal(&e, &free)
    );
    let mut held = s;
    // 61 fails; the card after this one is A's (1 of 4).
    held.rng.force([61, 1]);
    let held = play(&e, &held, "Cierva casts off");
    // Still grappled: Cierva neither moves nor fires on this card.
    assert_eq!(
        legal(&e, &held),
        ["Hind fires at Cierva", "Hind holds fire"]
    );
    let held = play(&e, &held, "Hind holds fire");
    assert!(
        legal(&e, &held).iter().all(|c| c.starts_with("Hind moves")),
        "A's card, with no fire from Cierva before it: {:?}",
        legal(&e, &held)
    );
}

#[test]
fn a_ship_captured_in_the_enemys_half_turn_takes_orders_in_the_captors() {
    let e = engine();
    let mut s = play(&e, &alongside(&e, "battle.b3"), "Cierva holds fire");
    // Cierva misses (99); Hind boards (60) and loses the melee to Cierva.
    s.rng.force([99, 60, 61, 1, 1, 61, 1, 1]);
    let s = play(&e, &s, "Hind boards Cierva");
    let hind = ship(&e, &s, "Hind");
    assert_eq!(s.piece(hind).owner, Some(player(&e, "b")));
    assert_eq!(at(&e, &s, hind), "d3");
    let s = side_turn(&e, s, "b", &[]);
    assert!(
        legal(&e, &s).contains(&"Hind drifts".to_string()),
        "{:?}",
        legal(&e, &s)
    );
}

// ---------------------------------------------------------------- the players' decisions (6, 10)

#[test]
fn a_ship_that_drifts_into_an_island_box_may_dock_there() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &[]);
    put(&e, &mut s, "Hind", "c3", false);
    let mut s = side_turn(&e, s, "a", &[]);
    s.rng.force([3]); // 1D4: south, to the island box c2
    let s = orders(&e, s, &["Hind drifts"]);
    assert_eq!(legal(&e, &s), ["Hind docks", "Hind stays at sea"]);
    let hind = ship(&e, &s, "Hind");
    let docked = play(&e, &s, "Hind docks");
    assert_eq!(
        (at(&e, &docked, hind), attr(&docked, hind, "docked")),
        ("c2".to_string(), Some(Value::Bool(true)))
    );
    let at_sea = play(&e, &s, "Hind stays at sea");
    assert_eq!(attr(&at_sea, hind, "docked"), Some(Value::Bool(false)));
}

#[test]
fn a_ship_back_from_limbo_in_an_island_box_may_dock_there() {
    let e = engine();
    let mut s = ready(&e, 6);
    put(&e, &mut s, "Hind", "limbo", false);
    let hind = ship(&e, &s, "Hind");
    s.set_piece_attr(hind, "left_from", Some(Value::Str("c2".into())));
    s.rng.force([30]);
    e.begin_phase(&mut s, "side_turn", player(&e, "a")).unwrap();
    assert_eq!(legal(&e, &s), ["Hind docks", "Hind stays at sea"]);
    let s = play(&e, &s, "Hind docks");
    assert_eq!(attr(&s, hind, "docked"), Some(Value::Bool(true)));
    assert_eq!(legal(&e, &s), ["keep the hand", "exchange the hand"]);
}

#[test]
fn a_side_gives_its_ships_orders_in_the_order_it_chooses() {
    let e = engine();
    let mut s = ready(&e, 6);
    deal(&e, &mut s, "a", &["Wind_E", "Wind_E"]);
    put(&e, &mut s, "Hind", "b3", false);
    put(&e, &mut s, "Otter", "b4", false);
    let s = side_turn(&e, s, "a", &[]);
    let offered = legal(&e, &s);
    assert!(offered.contains(&"Defiance stays docked".to_string()));
    assert!(offered.contains(&"Hind sails E 1".to_string()));
    assert!(offered.contains(&"Otter sails E 2".to_string()));
    let s = play(&e, &s, "Otter sails E 2");
    let offered = legal(&e, &s);
    assert!(offered.contains(&"Hind sails E 1".to_string()));
    assert!(!offered.iter().any(|c| c.starts_with("Otter")));
}

// ---------------------------------------------------------------- set-up and first player (11)

#[test]
fn ships_are_placed_before_the_throw_for_who_goes_first() {
    let e = engine();
    for seed in 0..6 {
        let s = e.new_game(seed).unwrap();
        assert_eq!(deciding(&e, &s), "a", "seed {seed}: A notes first");
    }
    for (throw, first) in [(1, "a"), (2, "b")] {
        let mut s = e.new_game(3).unwrap();
        // The first roll after the last placement is the throw.
        s.rng.force([throw]);
        let s = placed_at_home(&e, s);
        assert_eq!(deciding(&e, &s), first);
        assert_eq!(
            lua(&e, &s, "return game.first_player()"),
            format!("\"{first}\"")
        );
        assert_eq!(legal(&e, &s), ["keep the hand", "exchange the hand"]);
    }
}

// ---------------------------------------------------------------- enemy strength (11)

#[test]
fn the_enemy_class_and_cp_stay_hidden_until_a_battle_shows_them() {
    let e = engine();
    let s = ready(&e, 8);
    let (hind, defiance) = (ship(&e, &s, "Hind"), ship(&e, &s, "Defiance"));
    let hidden = |s: &GameState, id: PieceId, viewer: Viewer| {
        let view = View::new(&e.game, s, viewer);
        ["cp", "max_cp", "known_cp", "known_max_cp"]
            .iter()
            .all(|key| view.piece(id).attrs.get(key).is_none())
    };
    let b = Viewer::Player(player(&e, "b"));
    assert!(hidden(&s, hind, b) && hidden(&s, hind, Viewer::Public));
    let status = e.status_text(&s, "b").unwrap().unwrap();
    let line = status.lines().find(|l| l.contains("Hind")).unwrap();
    assert!(
        line.contains("?/ ? CP") && !line.contains("Third"),
        "{line}"
    );
    // The battle at d3 shows Hind to B, class and CP; Defiance stays unseen.
    let s = meeting(&e, &[70, 3, 1]);
    let view = View::new(&e.game, &s, b);
    assert_eq!(
        view.piece(hind).attrs.get("known_cp"),
        Some(&Value::Int(60))
    );
    assert_eq!(
        view.piece(hind).attrs.get("known_max_cp"),
        Some(&Value::Int(60))
    );
    assert!(view.piece(hind).attrs.get("cp").is_none());
    assert!(hidden(&s, defiance, b));
    let status = e.status_text(&s, "b").unwrap().unwrap();
    let line = status.lines().find(|l| l.contains("Hind")).unwrap();
    assert!(line.contains("Third  60/60 CP seen"), "{line}");
}

#[test]
fn search_samples_deal_unseen_enemy_classes_from_those_not_yet_shown() {
    use portolan::kernel::determinize::sample;
    use portolan::kernel::rng::GameRng;
    let e = engine();
    let s = meeting(&e, &[70, 3, 1]);
    let others = ["Defiance", "Revenge", "Swallow", "Falcon", "Otter"];
    let mut rng = GameRng::new(1);
    let mut defiance = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let drawn = sample(&e, &s, player(&e, "b"), &mut rng).unwrap();
        let hind = ship(&e, &drawn, "Hind");
        assert_eq!(
            (int(&drawn, hind, "cp"), int(&drawn, hind, "max_cp")),
            (60, 60)
        );
        let mut classes: Vec<i64> = others
            .iter()
            .map(|name| {
                let id = ship(&e, &drawn, name);
                assert_eq!(int(&drawn, id, "cp"), int(&drawn, id, "max_cp"));
                int(&drawn, id, "max_cp")
            })
            .collect();
        defiance.insert(classes[0]);
        classes.sort();
        assert_eq!(classes, [60, 75, 75, 90, 90], "Hind's 60 is shown");
    }
    assert!(
        defiance.len() > 1,
        "an unseen class is a guess: {defiance:?}"
    );
}

#[test]
fn search_bots_play_b_alike_whatever_the_classes_of_a_unseen_ships() {
    use portolan::bots::{self, Sight};
    let e = engine();
    let b = player(&e, "b");
    let mut s = ready(&e, 8);
    put(&e, &mut s, "Cierva", "f4", false);
    let real = side_turn(&e, s, "b", &[]);
    // The same game but for the classes of two of A's ships, never seen.
    let mut swapped = real.clone();
    set(&e, &mut swapped, "Defiance", "cp", 60);
    set(&e, &mut swapped, "Defiance", "max_cp", 60);
    set(&e, &mut swapped, "Hind", "cp", 90);
    set(&e, &mut swapped, "Hind", "max_cp", 90);
    assert_eq!(
        Sight::new(&e, &real, b).view(),
        Sight::new(&e, &swapped, b).view()
    );
    let mut offered = Vec::new();
    e.legal_actions(&real, &mut offered);
    for spec in ["greedy", "ismcts:40"] {
        let picks: Vec<usize> = [&real, &swapped]
            .iter()
            .map(|s| {
                bots::make(spec, 11)
                    .unwrap()
                    .choose(&Sight::new(&e, s, b), &offered)
                    .unwrap_or_else(|err| panic!("{spec} is refused: {err}"))
            })
            .collect();
        assert_eq!(picks[0], picks[1], "{spec} read the hidden classes");
    }
}
