//! Conformance tests for Treasure Fleet (`rules/treasure-fleet`): one test
//! per rule, each setting up a position (ships moved by hand, hands dealt
//! from a fixed choice of cards, dice forced), acting through the choices
//! the rules offer, and checking what the rule says happens.
//!
//! Side A's home port is a3 (west), Side B's g3 (east). Side A's ships are
//! Defiance and Revenge (90 CP), Swallow and Falcon (75), Hind and Otter
//! (60); Side B's Triunfo and Santiago, Paloma and Halcon, Cierva and Nutria.

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

/// A game after secret placement with every ship docked at its home port:
/// the first player is about to decide on its hand.
fn ready(e: &Engine, seed: u64) -> GameState {
    let setup = e.game.phase_index("setup").unwrap();
    let mut s = e.new_game(seed).unwrap();
    while s.stack.last().is_some_and(|f| f.phase == setup) {
        let side = e.game.player_id(e.to_move(&s).unwrap()).to_string();
        let first = legal(e, &s)[0].clone();
        let name = first.split(' ').next().unwrap();
        let home = if side == "a" { "a3" } else { "g3" };
        s = play(e, &s, &format!("{name} at {home}"));
    }
    s
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
fn each_side_has_six_ships_two_of_each_class_with_status_cards() {
    let e = engine();
    let s = ready(&e, 1);
    for (name, cp) in [
        ("Defiance", 90),
        ("Revenge", 90),
        ("Swallow", 75),
        ("Falcon", 75),
        ("Hind", 60),
        ("Otter", 60),
    ] {
        let id = ship(&e, &s, name);
        assert_eq!(
            (
                int(&s, id, "cp"),
                int(&s, id, "max_cp"),
                int(&s, id, "cargo")
            ),
            (cp, cp, 0),
            "{name}"
        );
    }
    assert_eq!(int(&s, ship(&e, &s, "Triunfo"), "cp"), 90);
    assert_eq!(int(&s, ship(&e, &s, "Nutria"), "cp"), 60);
}

// ---------------------------------------------------------------- secret placement (11)

#[test]
fn placement_is_secret_anywhere_but_the_enemy_home_port_and_optionally_docked() {
    let e = engine();
    let s = e.new_game(5).unwrap();
    let side = e.game.player_id(e.to_move(&s).unwrap()).to_string();
    let (own, enemy) = if side == "a" {
        ("a3", "g3")
    } else {
        ("g3", "a3")
    };
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
    let other = if side == "a" { "b" } else { "a" };
    let theirs = View::new(&e.game, &s, Viewer::Player(player(&e, other)));
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
    // At the end of its turn the side gives up the card too many.
    let s = orders(&e, side_turn(&e, s, "a", &[]), &[]);
    assert_eq!(hand(&e, &s, "a").len(), 7);
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
    let offered = legal(&e, &s);
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
    s.set_piece_attr(hind, "left_from", Some(Value::Str("b1".into())));
    // Hind has 60 CP: a D100 of 30 or less brings it back.
    let stays = side_turn(&e, s.clone(), "a", &[31]);
    assert_eq!(at(&e, &stays, hind), "limbo");
    let back = side_turn(&e, s, "a", &[30]);
    assert_eq!(at(&e, &back, hind), "b1");
}

// ---------------------------------------------------------------- ports (7, 9e)

#[test]
fn a_docked_ship_loads_two_d10_times_the_distance_from_home() {
    let e = engine();
    let mut s = ready(&e, 7);
    let mut s_a = s.clone();
    put(&e, &mut s_a, "Hind", "f4", true);
    let s_a = orders(&e, side_turn(&e, s_a, "a", &[3, 4]), &[]);
    assert_eq!(
        int(&s_a, ship(&e, &s_a, "Hind"), "cargo"),
        35,
        "7 x 5 columns from a3"
    );
    put(&e, &mut s, "Cierva", "f4", true);
    let s_b = orders(&e, side_turn(&e, s, "b", &[3, 4]), &[]);
    assert_eq!(
        int(&s_b, ship(&e, &s_b, "Cierva"), "cargo"),
        7,
        "7 x 1 column from g3"
    );
}

#[test]
fn a_ship_carries_at_most_two_hundred_vp() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "f4", true);
    set(&e, &mut s, "Hind", "cargo", 190);
    let s = orders(&e, side_turn(&e, s, "a", &[10, 10]), &[]);
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
    s.rng.force([9, 8]);
    let s = play(&e, &s, "Hind repairs");
    let hind = ship(&e, &s, "Hind");
    assert_eq!((int(&s, hind, "cp"), int(&s, hind, "cargo")), (57, 0));
}

#[test]
fn repairs_never_pass_the_starting_cp() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "a3", true);
    set(&e, &mut s, "Hind", "cp", 55);
    // At home only repairs are possible: 3D10 there.
    let s = orders(&e, side_turn(&e, s, "a", &[10, 10, 10]), &[]);
    assert_eq!(int(&s, ship(&e, &s, "Hind"), "cp"), 60);
}

#[test]
fn cargo_is_secret_to_the_enemy() {
    let e = engine();
    let mut s = ready(&e, 7);
    put(&e, &mut s, "Hind", "f4", true);
    s.narrated = true;
    let s = orders(&e, side_turn(&e, s, "a", &[3, 4]), &[]);
    let hind = ship(&e, &s, "Hind");
    let told = |side: &str| {
        let view = View::new(&e.game, &s, Viewer::Player(player(&e, side)));
        view.events
            .iter()
            .any(|ev| format!("{ev:?}").contains("2D10 rolled 3+4 = 7"))
    };
    assert!(
        told("a") && !told("b"),
        "the treasure roll is narrated to its side only"
    );
    let theirs = View::new(&e.game, &s, Viewer::Player(player(&e, "b")));
    assert!(theirs.piece(hind).kind.is_some());
    assert!(theirs.piece(hind).attrs.get("cargo").is_none());
    let own = View::new(&e.game, &s, Viewer::Player(player(&e, "a")));
    assert_eq!(own.piece(hind).attrs.get("cargo"), Some(&Value::Int(35)));
    let status = e.status_text(&s, "b").unwrap().unwrap();
    assert!(
        status.contains("?  VP") || status.contains("? VP"),
        "{status}"
    );
    assert!(!status.contains(" 35 VP"), "{status}");
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
    let mut s = ready(e, 8);
    deal(e, &mut s, "a", &["No_Wind"]);
    put(e, &mut s, "Hind", "d3", false);
    put(e, &mut s, "Cierva", "d3", false);
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
    assert_eq!(legal(&e, &won)[0], "take all of Cierva's treasure");
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
fn the_winner_may_split_the_prize_treasure() {
    let e = engine();
    let mut s = meeting(&e, &[70, 3, 1]);
    set(&e, &mut s, "Cierva", "cargo", 80);
    set(&e, &mut s, "Hind", "cargo", 150);
    let code = "local h, c = battle.ship('Hind'), battle.ship('Cierva')
      battle.split(h, c, 'half')
      return pieces.attr(h, 'cargo') .. ' ' .. pieces.attr(c, 'cargo')";
    assert_eq!(lua(&e, &s, code), "\"190 40\"");
    let all = code.replace("'half'", "'all'");
    assert_eq!(lua(&e, &s, &all), "\"200 30\"", "as far as the hold allows");
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
    assert!(lines[0].starts_with("Side B Third moved"), "{lines:?}");
    assert!(lines[1].starts_with("Side A Third moved"), "{lines:?}");
}
