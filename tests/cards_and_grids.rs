//! The kernel's services for card games and for games with two boards:
//! decks and hidden hands (the `cards` API), attributes only a piece's
//! owner sees (`pieces.private_attrs`), and named grids beside the main
//! one (`board.grids`). A small probe package of its own exercises each.

#[allow(dead_code)]
mod common;

use portolan::kernel::determinize::sample;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{Location, PieceId, PlayerId};
use portolan::kernel::rng::GameRng;
use portolan::kernel::state::GameState;
use portolan::kernel::value::Value;
use portolan::kernel::view::{View, Viewer};
use std::fs;

const GAME: &str = "\
id: cardprobe
title: Card probe
players: [{ id: one }, { id: two }]
board:
  grid: { columns: 2, rows: 2 }
  grids:
    battle: { columns: 3, rows: 3, kind: open, diagonals: true }
pools: [deck, hand_one, hand_two, discard]
pieces:
  private_attrs: [cargo]
  kinds:
    Ship: { count: 1, attrs: { cargo: 0 } }
    North: {}
    South: {}
  setup:
    - { kind: North, at: deck, count: 3 }
    - { kind: South, at: deck, count: 2 }
phases: { play: { kind: script } }
flow: [play]
scripts: [rules.lua]
";

/// Deals two cards to each hand and loads cargo aboard both ships.
const RULES: &str = "\
phases.play = {}
function phases.play.run(frame)
  if frame.step == 0 then
    frame.step = 1
    cards.shuffle('deck')
    for _, p in ipairs(game.players()) do
      cards.draw('deck', 'hand_' .. p, p)
      cards.draw('deck', 'hand_' .. p, p)
      local ship = pieces.list{ owner = p, kind = 'Ship' }[1]
      pieces.move(ship, p == 'one' and 'a1' or 'battle.b2')
      pieces.reveal(ship)
      pieces.set_attr(ship, 'cargo', 40)
    end
  end
  return { 'wait' }
end
function phases.play.choose(frame, choice) end
";

fn probe() -> (tempfile::TempDir, Engine) {
    common::temp_package("cardprobe", GAME, RULES)
}

fn in_pool(e: &Engine, s: &GameState, pool: &str) -> Vec<PieceId> {
    let pool = e.game.pool_index(pool).unwrap();
    s.piece_ids()
        .filter(|&id| s.piece(id).loc == Location::Pool(pool))
        .collect()
}

const ONE: PlayerId = PlayerId(0);
const TWO: PlayerId = PlayerId(1);

#[test]
fn a_hand_is_seen_by_its_holder_only_and_the_deck_by_nobody() {
    let (_dir, e) = probe();
    let s = e.new_game(3).unwrap();
    let (hand, deck) = (in_pool(&e, &s, "hand_one"), in_pool(&e, &s, "deck"));
    assert_eq!((hand.len(), deck.len()), (2, 1));
    let (mine, theirs) = (
        View::new(&e.game, &s, Viewer::Player(ONE)),
        View::new(&e.game, &s, Viewer::Player(TWO)),
    );
    for &id in &hand {
        assert!(mine.piece(id).kind.is_some(), "the holder sees its card");
        assert_eq!(theirs.piece(id).kind, None, "the other sees its back");
    }
    assert_eq!(mine.piece(deck[0]).kind, None, "the deck is face down");
}

#[test]
fn an_empty_deck_is_refilled_from_the_shuffled_discard_pile() {
    let (_dir, e) = probe();
    let s = e.new_game(3).unwrap();
    let code = "for _, c in ipairs(pieces.at('deck')) do pieces.move(c, 'discard'); pieces.reveal(c) end
      local id = cards.draw('deck', 'hand_one', 'one', 'discard')
      local none = cards.draw('deck', 'hand_one', 'one')
      return #pieces.at('discard') .. ' ' .. #pieces.at('deck') .. ' '
        .. tostring(pieces.seen(id, 'one')) .. ' ' .. tostring(pieces.seen(id, 'two')) .. ' ' .. tostring(none)";
    assert_eq!(
        e.lua_eval(&s, code).unwrap(),
        "\"0 0 true false nil\"",
        "the REPL quotes text"
    );
}

#[test]
fn a_forced_die_picks_the_card_drawn_and_a_shuffle_turns_faces_down() {
    let (_dir, e) = probe();
    let mut s = e.new_game(3).unwrap();
    s.rng.force([1]);
    let code = "local first = pieces.at('deck')[1]
      local id = cards.draw('deck', 'hand_two', 'two')
      pieces.reveal(id)
      local n = cards.shuffle('deck', 'hand_two')
      return tostring(first == id) .. ' ' .. n .. ' ' .. tostring(pieces.seen(id, 'two'))";
    assert_eq!(
        e.lua_eval(&s, code).unwrap(),
        "\"true 3 false\"",
        "the REPL quotes text"
    );
}

#[test]
fn a_search_sample_deals_the_unseen_cards_anew_and_keeps_the_seen_ones() {
    let (_dir, e) = probe();
    let s = e.new_game(3).unwrap();
    let kinds = |st: &GameState, ids: &[PieceId]| {
        let mut k: Vec<_> = ids.iter().map(|&id| st.piece(id).kind).collect();
        k.sort();
        k
    };
    let mine = in_pool(&e, &s, "hand_one");
    let mut unseen = in_pool(&e, &s, "hand_two");
    unseen.extend(in_pool(&e, &s, "deck"));
    let mut dealt = std::collections::BTreeSet::new();
    let mut rng = GameRng::new(9);
    for _ in 0..40 {
        let sample = sample(&e, &s, ONE, &mut rng)
            .expect("the game keeps no secret the kernel cannot sample");
        assert_eq!(kinds(&sample, &mine), kinds(&s, &mine));
        for &id in &mine {
            assert_eq!(sample.piece(id).kind, s.piece(id).kind);
        }
        assert_eq!(kinds(&sample, &unseen), kinds(&s, &unseen));
        dealt.insert(
            unseen
                .iter()
                .map(|&id| sample.piece(id).kind)
                .collect::<Vec<_>>(),
        );
    }
    assert!(
        dealt.len() > 1,
        "the unseen cards are dealt in more than one way"
    );
}

#[test]
fn a_private_attribute_is_hidden_from_the_other_players_and_their_samples() {
    let (_dir, e) = probe();
    let s = e.new_game(3).unwrap();
    let ship = *s.pieces_of(ONE).first().unwrap();
    let cargo = |attrs: &portolan::kernel::value::Vars| attrs.get("cargo").cloned();
    let own = View::new(&e.game, &s, Viewer::Player(ONE));
    let other = View::new(&e.game, &s, Viewer::Player(TWO));
    assert_eq!(cargo(&own.piece(ship).attrs), Some(Value::Int(40)));
    assert!(
        other.piece(ship).kind.is_some(),
        "the ship's face is public"
    );
    assert_eq!(cargo(&other.piece(ship).attrs), None, "its cargo is not");
    let seen_by_two = sample(&e, &s, TWO, &mut GameRng::new(1))
        .expect("the game keeps no secret the kernel cannot sample");
    assert_eq!(cargo(&seen_by_two.piece(ship).attrs), Some(Value::Int(0)));
    let seen_by_one = sample(&e, &s, ONE, &mut GameRng::new(1))
        .expect("the game keeps no secret the kernel cannot sample");
    assert_eq!(cargo(&seen_by_one.piece(ship).attrs), Some(Value::Int(40)));
}

#[test]
fn a_named_grid_is_a_second_board_with_eight_directions() {
    let (_dir, e) = probe();
    let s = e.new_game(3).unwrap();
    let code = "local c = board.space('battle.b2')
      return c.grid .. ' ' .. c.kind .. ' ' .. c.column .. c.row .. ' ' .. #board.neighbours('battle.b2')
        .. ' ' .. #board.neighbours('a1') .. ' ' .. #pieces.at('battle.b2')";
    assert_eq!(
        e.lua_eval(&s, code).unwrap(),
        "\"battle open 22 8 2 1\"",
        "the REPL quotes text"
    );
}

#[test]
fn a_bad_named_grid_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("cardprobe");
    fs::create_dir_all(&root).unwrap();
    let bad = GAME.replace("battle: { columns: 3", "bat.tle: { columns: 3");
    fs::write(root.join("game.yaml"), bad).unwrap();
    fs::write(root.join("rules.lua"), RULES).unwrap();
    let err = common::load_error(&root.to_string_lossy());
    assert!(
        err.contains("game.yaml:7:5") && err.contains("letters, digits or '_'"),
        "{err}"
    );
}
