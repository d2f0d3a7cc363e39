//! Mediterranea's movement phase lists the areas an army may still move
//! from with the record its context keeps of where the armies that have
//! had their move stand (`moved`, lib/movement.lua), not by asking every
//! army. That record is game state: a save, a load, an undo and a redo in
//! the middle of a movement phase must give the same listings as the game
//! played straight on.

use portolan::data::catalog::Catalog;
use portolan::load::Request;
use portolan::repl::{Seat, Session};

/// Age of Darkness at the REPL, every seat a human, so that the test
/// plays every decision itself.
fn session() -> Session {
    let request = Request {
        target: "mediterranea/age-of-darkness".into(),
        options: vec![],
        overlays: vec![],
    };
    let seats =
        ["white", "yellow", "green", "orange"].map(|p| (p.to_string(), Seat::parse("human")));
    let mut s = Session::start(Catalog::embedded(), request, Some(1), &seats)
        .expect("Age of Darkness loads");
    s.welcome();
    s
}

/// The pending decision's choices.
fn listing(s: &Session) -> Vec<String> {
    s.state().stack.last().map_or(vec![], |f| f.choices.clone())
}

/// Whether the pending decision is a movement phase's list of areas to
/// move from, after `armies` of its armies have had their move.
fn origins_after(s: &Session, armies: usize) -> bool {
    s.state().stack.last().is_some_and(|f| {
        !f.ctx.contains_key("from")
            && f.ctx
                .get("moved")
                .is_some_and(|v| v.to_string().split('|').count() >= armies)
    })
}

/// Plays the first choice until a movement phase has moved two armies and
/// asks which area the next one moves from; with the listing each
/// decision offered on the way, in order.
fn mid_movement() -> (Session, Vec<Vec<String>>) {
    let mut s = session();
    let mut shown = vec![];
    for _ in 0..5000 {
        if origins_after(&s, 2) && listing(&s).len() > 2 {
            return (s, shown);
        }
        shown.push(listing(&s));
        let reply = s.execute("1");
        assert!(!reply.failed, "{}", reply.text);
    }
    panic!("no movement phase moved two armies in 5000 decisions");
}

#[test]
fn a_save_loaded_mid_movement_lists_the_same_areas_to_move_from() {
    let (mut s, _) = mid_movement();
    let before = listing(&s);
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid-movement.json");
    let reply = s.execute(&format!("save {}", save.display()));
    assert!(!reply.failed, "{}", reply.text);
    let reply = s.execute(&format!("load {}", save.display()));
    assert!(!reply.failed, "{}", reply.text);
    assert!(origins_after(&s, 2), "the load lands on the same decision");
    assert_eq!(listing(&s), before);
}

#[test]
fn undo_and_redo_mid_movement_give_the_same_listings() {
    let (mut s, shown) = mid_movement();
    let state = s.state().clone();
    // Back over the last move's two decisions: its destination, then the
    // area it left, which is listed again (its army had not moved yet):
    // each listing is the one the game offered when it was played.
    s.execute("undo 1");
    assert_eq!(listing(&s), shown[shown.len() - 1]);
    s.execute("undo 1");
    assert_eq!(listing(&s), shown[shown.len() - 2]);
    assert!(!origins_after(&s, 2), "one army fewer has had its move");
    s.execute("redo 2");
    assert_eq!(
        *s.state(),
        state,
        "redo rebuilds the position that was played"
    );
    s.execute("undo 2");
    assert_eq!(listing(&s), shown[shown.len() - 2]);
}
