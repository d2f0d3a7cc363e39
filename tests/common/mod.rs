//! Helpers shared by the conformance tests: load Mediterranean Convoy from
//! the repository's `rules/` folder, set up a position by hand, play moves
//! in notation, and ask what stands where.

use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::board::SpaceId;
use portolan::kernel::engine::Engine;
use portolan::kernel::event::{Event, Resolved};
use portolan::kernel::piece::{ELIMINATED, Location, PieceId, PlayerId};
use portolan::kernel::state::GameState;
use portolan::load::{Request, load};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The seed of every hand-made position (it fixes only who set up first).
pub const SEED: u64 = 42;

/// The repository's catalog: its `rules/` and `scenarios/` folders, by
/// absolute path so the tests do not depend on the working directory.
pub fn catalog() -> Catalog {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    Catalog::new(Some(root.join("rules")), Some(root.join("scenarios")))
}

/// A stock game or scenario of the repository (`solo-convoy`,
/// `mediterranea/jihad`), as `portolan play TARGET` loads it.
pub fn stock(target: &str) -> Engine {
    stock_with(target, &[])
}

/// A stock game or scenario with the game's own balance overlays laid on.
pub fn stock_with(target: &str, overlays: &[&str]) -> Engine {
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays: overlays.iter().map(|o| o.to_string()).collect(),
    };
    match load(&catalog(), &request) {
        Ok(l) => l.engine,
        Err(e) => panic!("{target} with {overlays:?} does not load: {e}"),
    }
}

/// Mediterranean Convoy with the given optional rules switched on.
pub fn engine(options: &[&str]) -> Engine {
    let request = Request {
        target: "med-convoy".into(),
        options: options.iter().map(|o| o.to_string()).collect(),
        overlays: vec![],
    };
    match load(&catalog(), &request) {
        Ok(loaded) => loaded.engine,
        Err(e) => panic!("med-convoy with {options:?} does not load:\n{e}"),
    }
}

/// A package of one game.yaml and one rules.lua, written to a temporary
/// folder named `name` and loaded; the folder lives as long as the guard.
pub fn temp_package(name: &str, game: &str, rules: &str) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path().join(name);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("game.yaml"), game).unwrap();
    std::fs::write(root.join("rules.lua"), rules).unwrap();
    let request = Request {
        target: root.to_string_lossy().into_owned(),
        options: vec![],
        overlays: vec![],
    };
    let engine = load(&Catalog::embedded(), &request)
        .map(|l| l.engine)
        .unwrap_or_else(|e| panic!("the package {name} loads: {e}"));
    (dir, engine)
}

/// The error a package or scenario at `target` is refused with (it must
/// not load).
pub fn load_error(target: &str) -> String {
    let request = Request {
        target: target.to_string(),
        options: vec![],
        overlays: vec![],
    };
    load(&Catalog::embedded(), &request)
        .err()
        .unwrap_or_else(|| panic!("{target} is refused"))
        .to_string()
}

pub fn player(engine: &Engine, id: &str) -> PlayerId {
    engine
        .game
        .player_index(id)
        .unwrap_or_else(|| panic!("no player '{id}'"))
}

pub fn cell(engine: &Engine, name: &str) -> SpaceId {
    engine
        .game
        .board
        .find(name)
        .unwrap_or_else(|| panic!("no cell '{name}'"))
}

/// A new game with [`SEED`], ships arranged by [`arrange`].
pub fn position(engine: &Engine, ships: &[(&str, &str, &str)], to_move: &str) -> GameState {
    let mut state = engine.new_game(SEED).expect("a new game starts");
    arrange(engine, &mut state, ships, to_move);
    state
}

/// Puts each listed ship `(player, kind, cell)` on its cell (taking that
/// player's pieces of that kind in turn), sends every other piece to the
/// `eliminated` pool, and starts the sailing phase with `to_move` to move.
pub fn arrange(
    engine: &Engine,
    state: &mut GameState,
    ships: &[(&str, &str, &str)],
    to_move: &str,
) {
    arrange_for(engine, state, ships, "sailing", to_move);
}

/// [`arrange`] in any game: the listed pieces on their spaces (a space
/// may take several), every other piece eliminated, and `phase` started
/// with `to_move` to move.
pub fn arrange_for(
    engine: &Engine,
    state: &mut GameState,
    ships: &[(&str, &str, &str)],
    phase: &str,
    to_move: &str,
) {
    let mut used = BTreeSet::new();
    for &(owner, kind, at) in ships {
        let owner = player(engine, owner);
        let kind_id = engine
            .game
            .kind_index(kind)
            .unwrap_or_else(|| panic!("no kind '{kind}'"));
        let id = state
            .piece_ids()
            .find(|&id| {
                let p = state.piece(id);
                !used.contains(&id) && p.owner == Some(owner) && p.kind == kind_id
            })
            .unwrap_or_else(|| panic!("no unused {kind} left for player {owner:?}"));
        used.insert(id);
        state.set_location(id, Location::Space(cell(engine, at)));
    }
    for id in state.piece_ids().collect::<Vec<_>>() {
        if !used.contains(&id) {
            state.set_location(id, Location::Pool(ELIMINATED));
        }
    }
    let p = player(engine, to_move);
    engine
        .begin_phase(state, phase, p)
        .unwrap_or_else(|e| panic!("the {phase} phase starts: {e}"));
}

/// Plays one action given in notation; panics with the engine's words if
/// it is not legal or the rules fail.
pub fn play(engine: &Engine, state: &GameState, text: &str) -> GameState {
    let action = engine
        .parse_action(state, text)
        .unwrap_or_else(|e| panic!("{e}"));
    engine
        .try_apply(state, action)
        .unwrap_or_else(|e| panic!("'{text}' failed: {e}"))
}

/// Plays several actions in notation, one after the other.
pub fn play_all(engine: &Engine, state: &GameState, moves: &[&str]) -> GameState {
    moves.iter().fold(state.clone(), |s, m| play(engine, &s, m))
}

/// The legal actions, in notation.
pub fn legal(engine: &Engine, state: &GameState) -> Vec<String> {
    let mut actions = Vec::new();
    engine.legal_actions(state, &mut actions);
    actions
        .into_iter()
        .map(|a| engine.notation(state, a))
        .collect()
}

/// The legal actions as the engine lists them.
pub fn legal_actions(engine: &Engine, state: &GameState) -> Vec<Action> {
    let mut actions = Vec::new();
    engine.legal_actions(state, &mut actions);
    actions
}

/// Panics unless the decision's actions counted and taken by index
/// (`kernel::legal`, what bots read) are the listed ones, in order.
pub fn assert_counted_as_listed(engine: &Engine, state: &GameState, what: &str) {
    let listed = legal_actions(engine, state);
    let mut buffer = Vec::new();
    let legal = portolan::kernel::legal::Legal::new(engine, state, &mut buffer);
    assert_eq!(
        legal.len(),
        listed.len(),
        "{what}, ply {}: the count",
        state.ply
    );
    for (i, &action) in listed.iter().enumerate() {
        assert_eq!(
            legal.get(i),
            action,
            "{what}, ply {}, action {i}",
            state.ply
        );
    }
}

/// The cells one ship may move to (attacks included), sorted.
pub fn targets_from(engine: &Engine, state: &GameState, from: &str) -> Vec<String> {
    let prefix = format!("{from} ");
    let mut cells: Vec<String> = legal(engine, state)
        .into_iter()
        .filter_map(|n| n.strip_prefix(&prefix).map(String::from))
        .collect();
    cells.sort();
    cells
}

/// The cells the Air Strike may be called on, sorted.
pub fn strike_targets(engine: &Engine, state: &GameState) -> Vec<String> {
    targets_from(engine, state, "strike")
}

/// Who owns what on a cell, as names: `("blue", "Destroyer")`.
pub fn kind_at(engine: &Engine, state: &GameState, at: &str) -> Option<(String, String)> {
    let id = state.first_at(cell(engine, at))?;
    let p = state.piece(id);
    let owner = engine.game.player_id(p.owner.expect("ships have owners"));
    Some((owner.to_string(), engine.game.kind(p.kind).name.clone()))
}

/// Asserts what stands on a cell (`None`: nothing).
#[track_caller]
pub fn assert_at(engine: &Engine, state: &GameState, at: &str, want: Option<(&str, &str)>) {
    let got = kind_at(engine, state, at);
    let got = got.as_ref().map(|(o, k)| (o.as_str(), k.as_str()));
    assert_eq!(got, want, "on {at}");
}

/// The piece standing on a cell; panics if it is empty.
pub fn piece_at(engine: &Engine, state: &GameState, at: &str) -> PieceId {
    state
        .first_at(cell(engine, at))
        .unwrap_or_else(|| panic!("nothing on {at}"))
}

pub fn is_eliminated(state: &GameState, id: PieceId) -> bool {
    state.piece(id).loc == Location::Pool(ELIMINATED)
}

/// The result of the last attack in the event log.
pub fn last_attack(state: &GameState) -> Option<(Resolved, Option<bool>)> {
    state.events.iter().rev().find_map(|e| match e {
        Event::Attack { result, coin, .. } => Some((*result, *coin)),
        _ => None,
    })
}

/// The player to move, by id.
pub fn to_move(engine: &Engine, state: &GameState) -> Option<String> {
    engine
        .to_move(state)
        .map(|p| engine.game.player_id(p).to_string())
}

/// The winner's id, if the game is over and someone won.
pub fn winner(engine: &Engine, state: &GameState) -> Option<String> {
    let result = state.result.as_ref()?;
    result.winner.map(|p| engine.game.player_id(p).to_string())
}
