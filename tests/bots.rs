//! Bots: specs, fairness under hidden information, and strength.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

// Only some of the package helpers are needed here.
#[allow(dead_code)]
#[path = "common/package.rs"]
mod package;

use common::engine;
use package::PackageCopy;
use portolan::bots::{self, Sight};
use portolan::data::catalog::Catalog;
use portolan::kernel::determinize;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{PieceId, PlayerId};
use portolan::kernel::rng::GameRng;
use portolan::kernel::state::GameState;
use portolan::load::{Request, load};
use portolan::sim::{game_seed, play_game};

/// Plays `games` Convoy games between two bot specs, swapping seats every
/// game; returns (wins of `a`, wins of `b`, draws).
fn match_up(engine: &Engine, a: &str, b: &str, games: u64, seed: u64) -> (u32, u32, u32) {
    engine.set_narration(false);
    let (mut wa, mut wb, mut draws) = (0, 0, 0);
    for g in 0..games {
        let a_seat = (g % 2) as u8;
        let seats: Vec<String> = if a_seat == 0 {
            vec![a.into(), b.into()]
        } else {
            vec![b.into(), a.into()]
        };
        let end = play_game(engine, game_seed(seed, g), &seats).expect("the game plays");
        match end.result.and_then(|r| r.winner) {
            Some(w) if w.0 == a_seat => wa += 1,
            Some(_) => wb += 1,
            None => draws += 1,
        }
    }
    (wa, wb, draws)
}

/// The solitaire convoy game's mean score under a bot, over `games`.
fn mean_score(engine: &Engine, bot: &str, games: u64, seed: u64) -> f64 {
    engine.set_narration(false);
    let total: i64 = (0..games)
        .map(|g| {
            let end = play_game(engine, game_seed(seed, g), &[bot.to_string()])
                .expect("the journey plays");
            end.result.expect("the journey ends").scores[0]
        })
        .sum();
    total as f64 / games as f64
}

fn solo() -> Engine {
    let request = Request {
        target: "solo-convoy".into(),
        options: vec![],
        overlays: vec![],
    };
    load(&common::catalog(), &request)
        .expect("solo-convoy loads")
        .engine
}

#[test]
#[ignore = "a measurement: GAMES=N BOT=SPEC cargo test --release --test bots -- --ignored --nocapture"]
fn measure_solo() {
    let e = solo();
    let bot = std::env::var("BOT").unwrap_or("greedy".into());
    let n: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(2000);
    let t = std::time::Instant::now();
    let mean = mean_score(&e, &bot, n, 1);
    println!(
        "solo-convoy, {bot}, {n} journeys: mean score {mean:.2} ({:.1} s)",
        t.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "a measurement: BOT_A=SPEC BOT_B=SPEC GAMES=N cargo test --release --test bots -- --ignored --nocapture"]
fn measure() {
    let e = engine(&[]);
    let a = std::env::var("BOT_A").unwrap_or("ismcts:300".into());
    let b = std::env::var("BOT_B").unwrap_or("random".into());
    let n: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(200);
    let t = std::time::Instant::now();
    let (wa, wb, d) = match_up(&e, &a, &b, n, 1);
    println!(
        "{a} vs {b}, {n} games: {wa} wins, {wb} losses, {d} draws ({:.1} s)",
        t.elapsed().as_secs_f64()
    );
}

/// A game some way in, played by random bots from seed 7.
fn midgame(engine: &Engine, plies: u32) -> GameState {
    engine.set_narration(false);
    let mut state = engine.new_game(7).expect("a new game");
    let mut rng = GameRng::new(3);
    let mut legal = Vec::new();
    while state.ply < plies && engine.to_move(&state).is_some() {
        engine.legal_actions(&state, &mut legal);
        let pick = rng.below(legal.len() as u32) as usize;
        engine
            .apply(&mut state, legal[pick])
            .expect("a legal action");
    }
    state
}

/// The same game with two of `owner`'s ships, unseen by `seat` and of
/// different types, swapping types: `seat` cannot tell the two apart.
fn swap_hidden(state: &GameState, owner: PlayerId, seat: PlayerId) -> GameState {
    let unseen: Vec<PieceId> = state
        .piece_ids()
        .filter(|&id| state.piece(id).is_owned_by(owner) && !state.piece(id).visible_to(seat))
        .collect();
    let a = unseen[0];
    let b = *unseen
        .iter()
        .find(|&&b| state.piece(b).kind != state.piece(a).kind)
        .expect("two unseen ships of different types");
    let mut other = state.clone();
    let (ka, kb) = (state.piece(a).kind, state.piece(b).kind);
    other.set_kind(a, kb);
    other.set_kind(b, ka);
    other
}

#[test]
fn a_sample_depends_only_on_what_the_seat_sees() {
    let e = engine(&[]);
    let state = midgame(&e, 30);
    let (blue, red) = (common::player(&e, "blue"), common::player(&e, "red"));
    let other = swap_hidden(&state, red, blue);
    assert_ne!(state, other);
    let a = determinize::sample(&e, &state, blue, &mut GameRng::new(5))
        .expect("the game keeps no secret the kernel cannot sample");
    let b = determinize::sample(&e, &other, blue, &mut GameRng::new(5))
        .expect("the game keeps no secret the kernel cannot sample");
    assert_eq!(a, b);
    // Blue's own ships keep their types; the sample is a full Convoy fleet.
    for id in state.pieces_of(blue) {
        assert_eq!(a.piece(*id).kind, state.piece(*id).kind);
    }
    let kinds = |s: &GameState| {
        let mut k: Vec<_> = s
            .pieces_of(red)
            .iter()
            .map(|&id| s.piece(id).kind)
            .collect();
        k.sort();
        k
    };
    assert_eq!(kinds(&a), kinds(&state));
}

/// From several positions, plays blue's decisions with `spec` in two games
/// that differ only in red's hidden types (red answering with the same
/// random moves in both) and checks that the bot chose alike while blue
/// saw the same game; at least `decisions` are compared in all.
fn assert_blind_to_hidden_types(spec: &str, decisions: usize) {
    let e = engine(&[]);
    let (blue, red) = (common::player(&e, "blue"), common::player(&e, "red"));
    let mut made = 0;
    for plies in [30, 40, 50, 60] {
        let start = midgame(&e, plies);
        let mut worlds = [start.clone(), swap_hidden(&start, red, blue)];
        let mut bots = [bots::make(spec, 11).unwrap(), bots::make(spec, 11).unwrap()];
        let mut opponent = GameRng::new(13);
        let mut legal = Vec::new();
        // Until an attack shows a swapped face (the games differ then).
        while Sight::new(&e, &worlds[0], blue).view() == Sight::new(&e, &worlds[1], blue).view() {
            let Some(player) = e.to_move(&worlds[0]) else {
                break;
            };
            e.legal_actions(&worlds[0], &mut legal);
            let action = if player == blue {
                let picks: Vec<_> = bots
                    .iter_mut()
                    .zip(&worlds)
                    .map(|(bot, w)| bot.choose(&Sight::new(&e, w, blue), &legal).unwrap())
                    .collect();
                assert_eq!(
                    picks[0], picks[1],
                    "{spec} chose differently from ply {}",
                    worlds[0].ply
                );
                made += 1;
                legal[picks[0]]
            } else {
                legal[opponent.below(legal.len() as u32) as usize]
            };
            for w in &mut worlds {
                e.apply(w, action).unwrap();
            }
            if made >= decisions {
                return;
            }
        }
    }
    panic!("only {made} decisions compared");
}

#[test]
fn ismcts_decides_alike_whatever_the_hidden_types() {
    assert_blind_to_hidden_types("ismcts:200", 6);
}

#[test]
fn greedy_decides_alike_whatever_the_hidden_types() {
    assert_blind_to_hidden_types("greedy", 6);
}

#[test]
fn ismcts_beats_random_clearly() {
    let (won, lost, _) = match_up(&engine(&[]), "ismcts:100", "random", 10, 2);
    assert!(
        won >= 9,
        "ismcts:100 won {won}, lost {lost} of 10 against random"
    );
}

#[test]
fn greedy_beats_random() {
    let (won, lost, _) = match_up(&engine(&[]), "greedy", "random", 10, 2);
    assert!(
        won >= 8,
        "greedy won {won}, lost {lost} of 10 against random"
    );
}

#[test]
fn greedy_spends_the_solitaire_options_better_than_chance() {
    let e = solo();
    let (greedy, random) = (
        mean_score(&e, "greedy", 300, 4),
        mean_score(&e, "random", 300, 4),
    );
    assert!(greedy > random, "greedy {greedy:.2}, random {random:.2}");
}

#[test]
fn bad_specs_are_refused_with_the_valid_forms() {
    let e = bots::make("ismcts:lots", 1).err().expect("an error");
    assert!(e.contains("ismcts:2000") && e.contains("greedy"), "{e}");
}

/// What the REPL prints for Convoy (seed 3) given `commands` on a pipe.
fn convoy_at_the_repl(commands: &[u8]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(["play", "med-convoy", "--seed", "3"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(commands)?;
            child.wait_with_output()
        })
        .expect("the binary runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_repl_seats_bots_by_spec() {
    let text = convoy_at_the_repl(b"seat red minimax\nseat red ismcts:30\nseat blue greedy\n");
    assert!(text.contains("bad bot 'minimax': no such bot"), "{text}");
    assert!(text.contains("seats: blue human, red ismcts:30"), "{text}");
    assert!(
        text.contains("game over"),
        "two bots play to the end: {text}"
    );
    assert!(
        !text.contains("thinks..."),
        "no progress line off a terminal: {text}"
    );
}

/// At the REPL a search named without a budget thinks a bounded time.
#[test]
fn a_search_seated_without_a_budget_thinks_a_second_at_the_repl() {
    let text = convoy_at_the_repl(b"seat red ismcts\n");
    assert!(text.contains("seats: blue human, red ismcts:1s"), "{text}");
}

#[test]
fn a_time_budget_bounds_a_decision() {
    let e = engine(&[]);
    let state = midgame(&e, 30);
    let seat = e.to_move(&state).expect("the game goes on");
    let mut legal = Vec::new();
    e.legal_actions(&state, &mut legal);
    let mut bot = bots::make("ismcts:50ms", 1).unwrap();
    let clock = std::time::Instant::now();
    let pick = bot.choose(&Sight::new(&e, &state, seat), &legal).unwrap();
    assert!(pick < legal.len());
    // One playout past the budget at most, with room for a loaded machine.
    assert!(clock.elapsed() < std::time::Duration::from_millis(1000));
}

/// A heuristic that returns NaN (or an infinity) is a rule error naming
/// `rules.evaluate`, not a bot that cannot choose.
#[test]
fn an_evaluate_that_is_not_a_number_is_a_rule_error() {
    for value in ["0/0", "math.huge"] {
        let copy = PackageCopy::new();
        copy.replace(
            "evaluate.lua",
            "function rules.evaluate(player)\n",
            &format!("function rules.evaluate(player)\n  if player then return {value} end\n"),
        );
        let catalog = Catalog::new(Some(copy.root.parent().unwrap().to_path_buf()), None);
        let request = Request {
            target: "med-convoy".into(),
            options: vec![],
            overlays: vec![],
        };
        let engine = load(&catalog, &request).expect("the copy loads").engine;
        let seats = ["greedy".to_string(), "greedy".to_string()];
        let err = play_game(&engine, 1, &seats).expect_err("greedy cannot compare NaN");
        assert!(
            err.0.contains("rules.evaluate returned") && err.0.contains("finite number"),
            "{value}: {}",
            err.0
        );
    }
}

/// Mediterranea loaded to count its rule-function calls.
fn counted_mediterranea() -> Engine {
    let request = Request {
        target: "mediterranea/age-of-darkness".into(),
        options: vec![],
        overlays: vec![],
    };
    portolan::load::load_counted(&common::catalog(), &request, true)
        .expect("mediterranea loads")
        .engine
}

fn evaluate_calls(engine: &Engine) -> u64 {
    let counts = engine.script_counts().expect("a counted engine");
    counts
        .functions
        .iter()
        .filter(|(name, _, _)| name == "rules.evaluate")
        .map(|(_, _, calls)| calls)
        .sum()
}

/// Nothing in Mediterranea is hidden, so greedy weighs an action that
/// rolls no dice once, not once for each of its identical samples; an
/// action that rolls is still weighed on every sample's dice.
#[test]
fn greedy_weighs_a_dice_free_action_once_when_the_seat_sees_everything() {
    let e = counted_mediterranea();
    let mut state = midgame(&e, 40);
    let mut legal = common::legal_actions(&e, &state);
    while legal.len() < 3 {
        e.apply(&mut state, legal[0]).unwrap();
        legal = common::legal_actions(&e, &state);
    }
    let seat = e.to_move(&state).expect("the game goes on");
    let sight = Sight::new(&e, &state, seat);
    assert!(!sight.samples_differ(), "Mediterranea hides nothing");
    let rolling = legal
        .iter()
        .filter(|&&a| {
            let mut next = state.clone();
            let before = next.rng.word_pos();
            e.apply(&mut next, a).unwrap();
            next.rng.word_pos() != before
        })
        .count() as u64;
    let before = evaluate_calls(&e);
    bots::make("greedy", 1)
        .unwrap()
        .choose(&sight, &legal)
        .unwrap();
    let samples = 8;
    assert_eq!(
        evaluate_calls(&e) - before,
        legal.len() as u64 + (samples - 1) * rolling,
        "{} actions, {rolling} of them rolling dice",
        legal.len()
    );
}

#[test]
fn samples_differ_where_a_face_is_hidden_from_the_seat() {
    let e = engine(&[]);
    let state = midgame(&e, 30);
    let blue = common::player(&e, "blue");
    assert!(Sight::new(&e, &state, blue).samples_differ());
}

/// The first decision of a game with more than one action to choose
/// from, after `plies` random ones.
fn a_choice(engine: &Engine, plies: u32) -> (GameState, Vec<portolan::kernel::action::Action>) {
    let mut state = midgame(engine, plies);
    let mut legal = common::legal_actions(engine, &state);
    while legal.len() < 2 {
        engine.apply(&mut state, legal[0]).unwrap();
        legal = common::legal_actions(engine, &state);
    }
    (state, legal)
}

#[test]
fn ismcts_spends_its_iterations_and_stops_when_asked() {
    let e = engine(&[]);
    let (state, legal) = a_choice(&e, 30);
    let seat = e.to_move(&state).unwrap();
    let watch = bots::Watch::default();
    watch.begin();
    let mut bot = bots::make("ismcts:40", 1).unwrap();
    let pick = bot
        .choose(&Sight::new(&e, &state, seat).watched(&watch), &legal)
        .unwrap();
    assert!(pick < legal.len());
    assert_eq!(watch.iterations(), 40);
    // Stopped (Ctrl-C at the REPL): one iteration, then its best move.
    watch.begin();
    watch.stop();
    let mut bot = bots::make("ismcts:60s", 1).unwrap();
    let pick = bot
        .choose(&Sight::new(&e, &state, seat).watched(&watch), &legal)
        .unwrap();
    assert!(pick < legal.len());
    assert_eq!(watch.iterations(), 1);
}

/// Four players (Mediterranea, each faction's reward its own) and the
/// naval game with its private cargo and hands: the search chooses a
/// legal action from a position well into the game.
#[test]
fn ismcts_decides_for_four_players_and_under_a_sampler() {
    for target in ["mediterranea/age-of-darkness", "treasure-fleet"] {
        let e = common::stock(target);
        let (state, legal) = a_choice(&e, 60);
        let seat = e.to_move(&state).unwrap();
        let watch = bots::Watch::default();
        watch.begin();
        let pick = bots::make("ismcts:30", 1)
            .unwrap()
            .choose(&Sight::new(&e, &state, seat).watched(&watch), &legal)
            .unwrap();
        assert!(pick < legal.len(), "{target}");
        assert_eq!(watch.iterations(), 30, "{target}");
    }
}

/// The solitaire game: a search that plays for the expected score does
/// better than the random captain.
#[test]
fn ismcts_plays_the_solitaire_game_for_score() {
    let e = solo();
    let (search, random) = (
        mean_score(&e, "ismcts:30", 40, 4),
        mean_score(&e, "random", 40, 4),
    );
    assert!(search > random, "ismcts:30 {search:.2}, random {random:.2}");
}

/// A captain takes the gold (worth 10, lost at any of six storms where
/// the captain jettisons it) or the lead (worth 1, never lost); `{}` is
/// where the package's `tables:` go.
const STORM_RUN: &str = "\
id: storm-run
title: Storm run
players: [{ id: captain, name: Captain }]
first_player: captain
vars: { cargo: 0 }
phases: { voyage: { kind: script } }
flow: [voyage]
scripts: [rules.lua]
";

const STORM_RUN_RULES: &str = r#"
phases.voyage = {
  run = function(frame)
    if frame.step == 0 then return { "take the gold", "take the lead" } end
    if frame.step <= 6 then return { "stow the gold", "jettison the gold" } end
    game.finish { reason = "the voyage is over", scores = { captain = vars.get("cargo") } }
  end,
  choose = function(frame, choice)
    if frame.step == 0 then
      vars.set("cargo", choice == "take the gold" and 10 or 1)
    elseif choice == "jettison the gold" and vars.get("cargo") == 10 then
      vars.set("cargo", 0)
    end
    frame.step = frame.step + 1
  end,
}
function rules.evaluate(player) return vars.get("cargo") end
"#;

/// The storm run with `tables` added to its game.yaml.
fn storm_run(tables: &str) -> (tempfile::TempDir, Engine) {
    let game = format!("{STORM_RUN}{tables}\n");
    common::temp_package("storm-run", &game, STORM_RUN_RULES)
}

/// A package declares how many random decisions a playout makes before
/// the heuristic scores it. Random moves jettison the gold in 63 lines
/// of 64: with the twelve a search plays by default it takes the lead in
/// every voyage; declaring none, it scores the line where its tree ends
/// and takes the gold.
#[test]
fn a_package_declares_how_far_a_search_plays_at_random() {
    let (_dir, by_default) = storm_run("");
    let (_dir2, declared) = storm_run("tables: { search: { playout: 0 } }");
    for bot in ["ismcts:10", "ismcts:100"] {
        assert_eq!(mean_score(&by_default, bot, 8, 1), 1.0, "{bot}");
        assert_eq!(mean_score(&declared, bot, 8, 1), 10.0, "{bot}");
    }
}

/// A bad playout length is the package's error, at its line, when the
/// game loads (so `check` finds it), not the first search's.
#[test]
fn a_playout_length_that_is_not_a_whole_number_is_refused_at_its_line() {
    let package = PackageCopy::of("treasure-fleet");
    package.replace(
        "game.yaml",
        "search: { playout: 0 }",
        "search: { playout: -1 }",
    );
    let (line, _) = package.position_of("game.yaml", "playout: -1");
    let err = common::load_error(&package.root.to_string_lossy());
    assert!(
        err.contains(&format!("game.yaml:{line}:"))
            && err.contains("tables.search.playout is -1")
            && err.contains("from 0 to 1000"),
        "{err}"
    );
}
