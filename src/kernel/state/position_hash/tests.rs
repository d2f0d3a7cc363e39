//! The position hash tells apart positions the rules can tell apart: the
//! findings of issue 19 first, then a property over random states.

use super::*;
use crate::kernel::board::SpaceId;
use crate::kernel::piece::{KindId, PieceId, PlayerId, PoolId};
use crate::kernel::rng::GameRng;

const SPACES: usize = 6;
const PLAYERS: usize = 3;

fn piece(kind: u16) -> Piece {
    Piece {
        kind: KindId(kind),
        owner: Some(PlayerId(0)),
        loc: Location::Space(SpaceId(0)),
        seen_by: 1,
        attrs: Vars::new(),
    }
}

fn two_pieces() -> GameState {
    GameState::new(vec![piece(0), piece(0)], SPACES, PLAYERS, GameRng::new(1))
}

#[test]
fn two_pieces_swapping_attribute_values_hash_differently() {
    let mut a = two_pieces();
    a.set_piece_attr(PieceId(0), "gold", Some(Value::Int(10)));
    a.set_piece_attr(PieceId(1), "gold", Some(Value::Int(20)));
    let mut b = two_pieces();
    b.set_piece_attr(PieceId(0), "gold", Some(Value::Int(20)));
    b.set_piece_attr(PieceId(1), "gold", Some(Value::Int(10)));
    assert_ne!(a.position_hash(), b.position_hash());
}

#[test]
fn a_variable_is_hashed_under_its_owner() {
    let mut on_piece = two_pieces();
    on_piece.set_piece_attr(PieceId(0), "x", Some(Value::Int(1)));
    let mut on_game = two_pieces();
    on_game.vars_mut().insert("x", Value::Int(1));
    let mut on_player = two_pieces();
    on_player.players[1].vars.insert("x", Value::Int(1));
    let hashes = [&on_piece, &on_game, &on_player].map(GameState::position_hash);
    assert_ne!(
        hashes[0], hashes[1],
        "a piece's attribute is not a game variable"
    );
    assert_ne!(hashes[1], hashes[2], "a game variable is not a player's");
    assert_ne!(hashes[0], hashes[2]);
}

#[test]
fn values_of_different_types_differ() {
    // Version 1 hashed `true` and the integer 45479 alike.
    let with = |v: Value| {
        let mut s = two_pieces();
        s.vars_mut().insert("x", v);
        s.position_hash()
    };
    assert_ne!(with(Value::Bool(true)), with(Value::Int(0xB1A7)));
    assert_ne!(with(Value::Int(1)), with(Value::Str("1".into())));
    assert_ne!(with(Value::Bool(false)), with(Value::Int(0)));
}

#[test]
fn the_choices_offered_are_part_of_the_position() {
    let mut a = two_pieces();
    let mut frame = Frame::new(0, PlayerId(0));
    frame.choices = vec!["attack".into(), "retreat".into()];
    a.stack.push(frame.clone());
    let mut b = two_pieces();
    frame.choices.reverse();
    b.stack.push(frame);
    assert_ne!(a.position_hash(), b.position_hash());
}

#[test]
fn who_may_see_a_frame_is_part_of_the_position() {
    let mut a = two_pieces();
    a.stack.push(Frame::new(1, PlayerId(0)));
    let mut b = a.clone();
    b.stack[0].seen_by = 1;
    assert_ne!(a.position_hash(), b.position_hash());
}

#[test]
fn the_hash_of_a_fixed_position_is_pinned() {
    // Saves record these hashes: if this moves, bump VERSION.
    let mut s = two_pieces();
    s.set_piece_attr(PieceId(1), "gold", Some(Value::Int(7)));
    s.vars_mut().insert("round", Value::Int(3));
    s.players[2].vars.insert("side", Value::Str("north".into()));
    let mut frame = Frame::new(1, PlayerId(2));
    frame.ctx.insert("area", Value::Str("gaul".into()));
    frame.choices = vec!["fight".into()];
    s.stack.push(frame);
    assert_eq!(s.position_hash(), PINNED, "{:#018x}", s.position_hash());
}

const PINNED: u64 = 0x0183_e88f_a028_85c4;

/// A state with everything the hash covers filled at random.
fn random_state(rng: &mut GameRng) -> GameState {
    let pieces = (0..1 + rng.below(12))
        .map(|_| Piece {
            kind: KindId(rng.below(4) as u16),
            owner: (rng.below(4) > 0).then(|| PlayerId(rng.below(PLAYERS as u32) as u8)),
            loc: random_place(rng),
            seen_by: rng.below(8) as u8,
            attrs: random_vars(rng),
        })
        .collect();
    let mut s = GameState::new(pieces, SPACES, PLAYERS, GameRng::new(1));
    *s.vars_mut() = random_vars(rng);
    for p in &mut s.players {
        p.vars = random_vars(rng);
        p.used_specials = rng.below(4);
    }
    for _ in 0..rng.below(4) {
        let mut frame = Frame::new(rng.below(3) as u16, PlayerId(rng.below(3) as u8));
        frame.step = rng.below(5);
        frame.ctx = random_vars(rng);
        frame.choices = (0..rng.below(3)).map(|i| format!("choice{i}")).collect();
        s.stack.push(frame);
    }
    s
}

fn random_place(rng: &mut GameRng) -> Location {
    match rng.below(3) {
        0 => Location::Pool(PoolId(rng.below(3) as u8)),
        _ => Location::Space(SpaceId(rng.below(SPACES as u32) as u16)),
    }
}

fn random_vars(rng: &mut GameRng) -> Vars {
    (0..rng.below(4))
        .map(|_| (random_name(rng), random_value(rng)))
        .collect()
}

fn random_name(rng: &mut GameRng) -> String {
    ["gold", "strength", "side", "x"][rng.below(4) as usize].to_string()
}

fn random_value(rng: &mut GameRng) -> Value {
    match rng.below(3) {
        0 => Value::Bool(rng.coin()),
        1 => Value::Int(i64::from(rng.below(5)) - 2),
        _ => Value::Str(["north", "south", ""][rng.below(3) as usize].into()),
    }
}

/// Changes one field the rules can read, at random; says which.
fn change_one_field(s: &mut GameState, rng: &mut GameRng) -> &'static str {
    let piece = PieceId(rng.below(s.pieces().len() as u32) as u16);
    let (name, value) = (random_name(rng), random_value(rng));
    match rng.below(11) {
        0 => {
            s.set_piece_attr(piece, &name, Some(value));
            "a piece's attribute"
        }
        1 => {
            let kind = KindId((s.piece(piece).kind.0 + 1) % 4);
            s.set_kind(piece, kind);
            "a face"
        }
        2 => {
            s.set_seen_by(piece, s.piece(piece).seen_by ^ 0b10);
            "who sees a face"
        }
        3 => {
            s.set_location(piece, random_place(rng));
            "a piece's place (a space or a pool)"
        }
        4 => {
            let owner = s
                .piece(piece)
                .owner
                .map_or(0, |o| (o.0 + 1) % PLAYERS as u8);
            s.set_owner(piece, Some(PlayerId(owner)));
            "an owner"
        }
        5 => {
            s.vars_mut().insert(name, value);
            "a game variable"
        }
        6 => {
            let p = rng.below(PLAYERS as u32) as usize;
            s.players[p].vars.insert(name, value);
            "a player's variable"
        }
        7 => {
            let p = rng.below(PLAYERS as u32) as usize;
            s.players[p].used_specials ^= 1 << rng.below(3);
            "a used special action"
        }
        8 | 9 if !s.stack.is_empty() => {
            let depth = rng.below(s.stack.len() as u32) as usize;
            let frame = &mut s.stack[depth];
            if rng.coin() {
                frame.ctx.insert(name, value);
                "a frame's context"
            } else {
                frame.choices.push(name);
                "a frame's choices"
            }
        }
        8 | 9 => {
            s.stack.push(Frame::new(0, PlayerId(0)));
            "a frame pushed"
        }
        _ => {
            s.flow += 1;
            "the flow"
        }
    }
}

#[test]
fn changing_any_one_field_changes_the_hash() {
    let mut rng = GameRng::new(19);
    let mut tried = 0;
    for _ in 0..5000 {
        let mut s = random_state(&mut rng);
        let before = (s.clone(), s.position_hash());
        let what = change_one_field(&mut s, &mut rng);
        if s == before.0 {
            continue; // The change wrote the value already there.
        }
        tried += 1;
        let after = s.position_hash();
        assert_ne!(after, before.1, "{what} changed, the hash did not: {s:?}");
        s.rebuild_index(SPACES);
        assert_eq!(s.position_hash(), after, "the incremental hash drifted");
    }
    assert!(tried > 3000, "only {tried} changes were real");
}

#[test]
fn pieces_swapping_any_attributes_hash_differently() {
    let mut rng = GameRng::new(20);
    for _ in 0..2000 {
        let mut s = random_state(&mut rng);
        if s.pieces().len() < 2 {
            continue;
        }
        let (a, b) = (PieceId(0), PieceId(1));
        let (attrs_a, attrs_b) = (s.piece(a).attrs.clone(), s.piece(b).attrs.clone());
        if attrs_a == attrs_b {
            continue;
        }
        let before = s.position_hash();
        s.set_piece_attrs(a, attrs_b);
        s.set_piece_attrs(b, attrs_a);
        assert_ne!(s.position_hash(), before, "{s:?}");
    }
}

#[test]
fn part_keys_kept_across_states_give_the_hash_computed_afresh() {
    // One set of kept keys across many states and changes, as the engine
    // keeps them across its games: every frame's player, step, sight,
    // context and choices, each player's used specials and the turn
    // change under it, and two frames share a slot (depth 1, player 1
    // and depth 0, player 0).
    let mut rng = GameRng::new(21);
    let mut parts = PartKeys::default();
    for _ in 0..500 {
        let mut s = random_state(&mut rng);
        for _ in 0..20 {
            let what = change_one_field(&mut s, &mut rng);
            if let Some(frame) = s.stack.last_mut() {
                frame.player = PlayerId(rng.below(PLAYERS as u32) as u8);
                frame.step = rng.below(2);
                frame.seen_by ^= (rng.below(2) as u8) << 1;
                if rng.coin() {
                    frame.ctx = Vars::new();
                    frame.choices.clear();
                }
            }
            s.first_player = PlayerId(rng.below(PLAYERS as u32) as u8);
            assert_eq!(
                s.position_hash_with(&mut parts),
                s.position_hash(),
                "after {what}: {s:?}"
            );
        }
    }
}
