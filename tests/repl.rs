//! The REPL, driven through the binary as a user would: command files
//! (`--commands FILE`) and, where the rules must change mid-game, commands
//! piped on standard input. The harness is in repl_fixtures/harness.rs.

#[path = "repl_fixtures/harness.rs"]
mod harness;

use harness::*;
use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::state::GameState;
use portolan::load::{Request, load};
use portolan::repl::line::SNAPSHOT_EVERY;
use portolan::repl::{Seat, Session};

#[test]
fn two_bots_play_a_game_to_its_end() {
    let out = play(
        &[
            "--seed",
            "7",
            "--seat",
            "blue=random",
            "--seat",
            "red=random",
        ],
        "log 1\n",
    );
    assert!(out.contains("game over:"), "{out}");
    let last = reply(&out, "log 1");
    assert!(
        last.contains("wins") || last.contains("no winner"),
        "{last}"
    );
}

#[test]
fn a_human_plays_by_number_to_the_end() {
    let commands = "place random\n".to_string() + &"1\n".repeat(400);
    let (out, _) = play_failing(&["--seed", "11"], &commands);
    assert!(out.contains("placed 10 pieces at random"), "{out}");
    assert!(out.contains("game over:"), "the game did not end:\n{out}");
    assert!(out.contains("'1' is not a command, and the game is over"));
}

#[test]
fn undo_and_redo_return_to_the_same_positions() {
    let out = play(
        &["--seed", "3"],
        "place random\n1\nboard\n2\n3\nboard\nundo 2\nboard\nredo 2\nboard\nundo 9\nredo\n",
    );
    let first = board(reply(&out, "1"));
    let second = board(reply(&out, "3"));
    // `board` is run twice: find each board by what follows it.
    assert_eq!(board(reply(&out, "undo 2")), first);
    assert_eq!(board(reply(&out, "redo 2")), second);
    assert!(reply(&out, "undo 9").contains("took back 4 steps"));
    assert!(reply(&out, "redo").contains("replayed 1 step"));
}

#[test]
fn forks_keep_their_own_line() {
    let (out, failed) = play_failing(
        &["--seed", "3"],
        "place random\nfork side\n1\n1\nbranches\nswitch side\nbranches\nswitch main\nswitch nowhere\nfork side\n",
    );
    assert!(
        failed.starts_with("2 commands failed (the first at line 9"),
        "{failed}"
    );
    assert!(out.contains("forked 'side' at ply 21"), "{out}");
    let listed = reply(&out, "branches");
    assert!(
        listed.contains("* side") && listed.contains("  main"),
        "{listed}"
    );
    assert!(reply(&out, "switch side").contains("switched to 'side' at ply 21"));
    assert!(reply(&out, "switch main").contains("switched to 'main' at ply 25"));
    assert!(reply(&out, "switch nowhere").contains("error: no branch 'nowhere'"));
    assert!(reply(&out, "fork side").contains("already a branch 'side'"));
}

#[test]
fn a_saved_game_loads_replays_and_continues() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    let first = play(
        &["--seed", "21", "--option", "coin-equal"],
        &format!("place random\n1\n2\n1\nboard\nsave {save}\n"),
    );
    let n: usize = reply(&first, &format!("save {save}"))
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 22, "{first}");
    let text = std::fs::read_to_string(save).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["format"], 2);
    assert_eq!(json["position_hash"], 2);
    assert_eq!(json["game"], "med-convoy");
    assert_eq!(json["seed"], 21);
    assert_eq!(json["options"][0], "coin-equal");
    assert_eq!(json["actions"].as_array().unwrap().len(), n);
    assert_eq!(json["seats"]["red"], "random");
    assert_eq!(json["rules_fingerprint"].as_str().unwrap().len(), 16);
    let no_temp = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(no_temp, 1, "the atomic write left a temporary file");

    let second = play(&["--seed", "1"], &format!("load {save}\noptions\n1\n"));
    let loaded = reply(&second, &format!("load {save}"));
    assert!(
        loaded.contains(&format!("after {n} actions (seed 21")),
        "{loaded}"
    );
    assert_eq!(board(loaded), board(reply(&first, "board")));
    assert!(reply(&second, "options").contains("[on ]  1. coin-equal"));
    assert!(reply(&second, "1").contains("Blue"), "play goes on");
}

#[test]
fn a_bad_save_is_refused_and_the_game_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let s = save.to_str().unwrap();
    play(&["--seed", "4"], &format!("place random\n1\n1\nsave {s}\n"));
    // Corrupt one action: the sixth is no longer legal.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    json["actions"][5] = "place z9".into();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&json).unwrap()).unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"format\": 1, \"game\": ").unwrap();
    let (out, failed) = play_failing(
        &["--seed", "9"],
        &format!(
            "board\nload {}\nload {}\nload {}/missing.json\nboard\n",
            bad.display(),
            broken.display(),
            dir.path().display()
        ),
    );
    let r = reply(&out, &format!("load {}", bad.display()));
    // The sixth action is Red's, a bot's: Blue's screen names it only as
    // a hidden action (screen_gate.rs has the rule).
    assert!(
        r.contains("action 6 (a hidden action) is now illegal"),
        "{r}"
    );
    assert!(r.contains("the current game is unchanged"), "{r}");
    let r = reply(&out, &format!("load {}", broken.display()));
    assert!(r.contains("not a Portolan save"), "{r}");
    assert!(out.contains("missing.json: No such file"), "{out}");
    assert!(
        failed.starts_with("3 commands failed (the first at line 2"),
        "{failed}"
    );
    let boards: Vec<&str> = out.split("> board\n").skip(1).collect();
    assert_eq!(board(boards[0]), board(boards[1]));
}

#[test]
fn bad_commands_give_a_reason_and_change_nothing() {
    let (out, failed) = play_failing(
        &["--seed", "5"],
        "place random\nboard\nbogus\nundoo\n99\nplace z9\nz9 z8\nseat green human\nview purple\nnew +no-such\nodds 2Q6\nboard\n",
    );
    assert!(
        failed.contains("9 commands failed (the first at line 3: bogus)"),
        "{failed}"
    );
    assert!(reply(&out, "bogus").starts_with("error: unknown command 'bogus'"));
    assert!(reply(&out, "undoo").contains("did you mean 'undo'?"));
    assert!(reply(&out, "99").contains("there is no action 99"));
    assert!(reply(&out, "z9 z8").contains("closest legal:"));
    assert!(reply(&out, "seat green human").contains("no player 'green'"));
    assert!(reply(&out, "view purple").contains("no player 'purple'"));
    assert!(reply(&out, "new +no-such").contains("no optional rule 'no-such'"));
    assert!(reply(&out, "odds 2Q6").contains("cannot read dice"));
    for c in ["bogus", "undoo", "99", "z9 z8", "seat green human"] {
        assert_eq!(reply(&out, c).lines().count(), 1, "one line for '{c}'");
    }
    let boards: Vec<&str> = out.split("> board\n").skip(1).collect();
    assert_eq!(board(boards[0]), board(boards[1]));
}

#[test]
fn an_ambiguous_action_lists_the_candidates() {
    let out = play(&["--seed", "5"], "place random\nmoves\n");
    let moves = reply(&out, "moves");
    // A cell that two legal moves start from.
    let froms: Vec<&str> = moves
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    let twice = froms
        .iter()
        .find(|f| froms.iter().filter(|g| g == f).count() > 1)
        .expect("some piece has two moves");
    let (out, _) = play_failing(&["--seed", "5"], &format!("place random\n{twice}\n"));
    assert!(
        reply(&out, twice).contains("is ambiguous: it could be"),
        "{out}"
    );
}

#[test]
fn hot_seat_never_shows_one_player_the_others_hidden_pieces() {
    let out = play(
        &["--seed", "3", "--seat", "red=human"],
        &("place random\nplace random\n".to_string() + &"1\n".repeat(6)),
    );
    let screens = screens(&out);
    assert!(screens.len() >= 6, "{out}");
    for (owner, screen) in &screens {
        let (other, other_name) = if owner == "blue" {
            ('r', "Red")
        } else {
            ('b', "Blue")
        };
        for kind in ['C', 'D', 'M', 'S'] {
            assert!(
                !screen.contains(&format!("{other}{kind} ")),
                "{owner}'s screen shows a hidden {other}{kind}:\n{screen}"
            );
        }
        for kind in ["Cruiser", "Destroyer", "Merchant", "Submarine"] {
            assert!(
                !screen.contains(&format!("{other_name} {kind} set up")),
                "{screen}"
            );
        }
    }
    // Before the first pass to Red, Blue sees Red's ships as unknown.
    let (owner, blue) = screens
        .iter()
        .find(|(o, s)| o == "blue" && s.contains("r?"))
        .unwrap();
    assert_eq!(owner, "blue");
    assert!(blue.contains("bC") || blue.contains("bM"), "{blue}");
}

#[test]
fn god_view_is_marked_and_view_returns() {
    let out = play(&["--seed", "3"], "view all\nyes\nview red\nview auto\n");
    let god = reply(&out, "yes");
    assert!(god.contains("GOD VIEW"), "{god}");
    assert!(god.contains("rC") || god.contains("rM"), "{god}");
    let red = reply(&out, "view red");
    assert!(
        !red.contains("GOD VIEW") && red.contains("Red's view"),
        "{red}"
    );
    assert!(reply(&out, "view auto").contains("Blue's view"));
}

#[test]
fn reload_replays_the_game_under_unchanged_rules() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let out = play_with(
        &["--rules", dir.to_str().unwrap()],
        &["--seed", "5"],
        "place random\n1\n1\nreload\n",
    );
    let r = reply(&out, "reload");
    assert!(r.contains("same positions"), "{r}");
    assert!(r.contains("replayed 2"), "{r}");
}

#[test]
fn reload_finds_where_a_changed_table_diverges_and_a_broken_script_changes_nothing() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let save = rules.path().join("game.json");
    let mut repl = Live::start(
        &["--rules", dir.to_str().unwrap()],
        &[
            "--seed",
            "5",
            "--seat",
            "blue=random",
            "--seat",
            "red=random",
        ],
    );
    let before = repl.run(&format!("save {}\nlog 3", save.display()));
    assert!(before.contains("wins") || before.contains("no winner"));
    let k = first_attack(&save);

    // Every result of the table changes, so the first attack diverges.
    let yaml = dir.join("med-convoy/game.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let swapped: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with(|c: char| c.is_ascii_uppercase()) && l.contains(": {") {
                l.replace("win", "W")
                    .replace("lose", "win")
                    .replace('W', "lose")
                    .replace("bounce", "B")
                    .replace("both", "bounce")
                    .replace('B', "both")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&yaml, swapped).unwrap();
    let r = repl.run("reload");
    assert!(
        r.contains(&format!("replayed {} of", k - 1)) && r.contains(&format!("action {k} (")),
        "expected a stop at action {k}:\n{r}"
    );
    assert!(
        r.contains("reload keep | reload truncate | reload restart"),
        "{r}"
    );
    let kept = repl.run("reload keep\nlog 3");
    assert!(kept.contains("kept the old rules"), "{kept}");
    assert_eq!(reply(&kept, "log 3"), reply(&before, "log 3"));

    // A syntax error in Lua: located, and nothing changes.
    let lua = dir.join("med-convoy/rules.lua");
    let mut code = std::fs::read_to_string(&lua).unwrap();
    code += "\nfunction broken(\n";
    std::fs::write(&lua, &code).unwrap();
    let r = repl.run("reload\nlog 3");
    assert!(r.contains("the game and its rules are unchanged"), "{r}");
    let broken_line = code.lines().count();
    let at = r.rfind("rules.lua:").expect("the file is named");
    let line: usize = r[at + "rules.lua:".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .expect("a line number follows the file");
    assert!(line >= broken_line, "line {line} in:\n{r}");
    assert_eq!(reply(&r, "log 3"), reply(&before, "log 3"));

    // Fixed again, the changed table can be taken with the game cut.
    std::fs::write(&lua, code.replace("\nfunction broken(\n", "")).unwrap();
    let r = repl.run("reload\nreload truncate\nundo 1000");
    assert!(
        r.contains(&format!("cut to its first {} actions", k - 1)),
        "{r}"
    );
    let r = repl.run("reload restart");
    assert!(r.contains("no reload is waiting"), "{r}");
}

#[test]
fn odds_are_exact_for_dice_and_the_combat_table() {
    let out = play(
        &["--seed", "3"],
        "odds 2D6\nroll coin\nodds attack\nnew +coin-equal\nodds attack_results\n",
    );
    let dice = reply(&out, "odds 2D6");
    assert!(dice.contains("36 equally likely outcomes"));
    assert!(dice.contains("      7   16.67%    58.33%"), "{dice}");
    assert!(reply(&out, "roll coin").contains("the game's dice are not touched"));
    let base = reply(&out, "odds attack");
    assert!(
        base.contains("Cruiser      Cruiser          0%     0%     0%   100%"),
        "{base}"
    );
    assert!(
        base.starts_with("attack results in the Sailing phase, optional rules: none\n"),
        "the table and the phase by their names, not their ids: {base}"
    );
    let coin = reply(&out, "odds attack_results");
    assert!(
        coin.contains("optional rules: Coin flip for equal types"),
        "{coin}"
    );
    assert!(
        coin.contains("Cruiser      Cruiser         50%     0%    50%     0%"),
        "{coin}"
    );
    assert!(
        coin.contains("Merchant     Merchant         0%   100%"),
        "{coin}"
    );
}

#[test]
fn designer_tools_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = play_failing(
        &["--seed", "3"],
        &format!(
            "lua #pieces.all()\nyes\nsheet\nsheet {}/s.md\nscenarios\nnew radical\noptions\nhelp\nhelp reload\nshow c4\nshow #1\nlog 2\n",
            dir.path().display()
        ),
    );
    assert_eq!(reply(&out, "yes").trim(), "20");
    assert!(reply(&out, "sheet").contains("has no game sheet"));
    assert!(reply(&out, "scenarios").contains("radical"));
    assert!(reply(&out, "new radical").contains("scenario: Radical convoy"));
    let opts = reply(&out, "options");
    assert!(opts.contains("[on ]  4. attacker-sunk") && opts.contains("[on ]  6. no-backward"));
    let help = reply(&out, "help");
    for c in [
        "moves",
        "undo",
        "fork",
        "save",
        "reload",
        "odds",
        "sheet",
        "place random",
    ] {
        assert!(help.contains(c), "help lacks {c}");
    }
    assert!(reply(&out, "help reload").contains("reload truncate"));
    assert!(reply(&out, "show c4").contains("next to:"));
    // Ids are shuffled when faces are hidden: #1 is some ship of either side.
    let one = reply(&out, "show #1");
    assert!(
        one.starts_with("#1 ") && (one.contains("Blue") || one.contains("Red")),
        "{one}"
    );
}

#[test]
fn a_one_seat_save_loads_through_that_seats_eyes() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("red.json");
    let s = save.to_str().unwrap();
    play(
        &[
            "--seed",
            "3",
            "--seat",
            "blue=random",
            "--seat",
            "red=human",
        ],
        &format!("place random\n1\nsave {s}\n"),
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(json["viewer"], "red");
    // Loaded in a session where Blue was the human: Red's seat comes back.
    let out = play(&["--seed", "1"], &format!("load {s}\nboard\n"));
    let loaded = reply(&out, &format!("load {s}"));
    assert!(loaded.contains("seats: blue random, red human"), "{loaded}");
    for kind in ['C', 'D', 'M', 'S'] {
        assert!(!loaded.contains(&format!("b{kind} ")), "{loaded}");
    }
    assert!(loaded.contains("b?") && loaded.contains("rC"), "{loaded}");
}

#[test]
fn reload_keeps_forks_that_still_replay() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let out = play_with(
        &["--rules", dir.to_str().unwrap()],
        &["--seed", "5"],
        "place random\nfork side\n1\nreload\nbranches\nswitch side\n",
    );
    assert!(reply(&out, "reload").contains("same positions"), "{out}");
    assert!(reply(&out, "branches").contains("side"));
    assert!(reply(&out, "switch side").contains("switched to 'side'"));
}

#[test]
fn a_yaml_error_on_reload_is_located_and_changes_nothing() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let mut repl = Live::start(&["--rules", dir.to_str().unwrap()], &["--seed", "5"]);
    let before = repl.run("place random\n1\nboard");
    let yaml = dir.join("med-convoy/game.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.contains("home_row: {"))
        .unwrap();
    std::fs::write(
        &yaml,
        text.replace("home_row: { ranks: [1],", "home_row: { ranks: [1 ,"),
    )
    .unwrap();
    let r = repl.run("reload\nboard");
    assert!(r.contains(&format!("game.yaml:{line}:")), "{r}");
    assert!(r.contains("unchanged"), "{r}");
    assert_eq!(board(reply(&r, "board")), board(reply(&before, "board")));
}

/// A session on the shuttle package (two boats sailing to and fro until
/// the 20,000-ply limit), both seats bots, so the game plays out at once.
fn long_game() -> (Session, Engine) {
    let target = repo().join("tests/repl_fixtures/shuttle");
    let request = Request {
        target: target.to_str().unwrap().into(),
        options: vec![],
        overlays: vec![],
    };
    let seats =
        [("east", "random"), ("west", "random")].map(|(p, s)| (p.to_string(), Seat::parse(s)));
    let mut session = Session::start(Catalog::embedded(), request.clone(), Some(1), &seats)
        .expect("the shuttle package loads");
    session.welcome();
    let engine = load(&Catalog::embedded(), &request).unwrap().engine;
    (session, engine)
}

/// The state a game had after its first `n` actions, replayed from the seed.
fn replayed_to(engine: &Engine, log: &[Action], n: usize) -> GameState {
    let mut state = engine.new_game(1).unwrap();
    for &action in &log[..n] {
        engine.apply(&mut state, action).unwrap();
    }
    state
}

#[test]
fn a_long_game_keeps_memory_linear_in_its_length() {
    let (mut s, _) = long_game();
    let plies = s.state().log.len();
    assert_eq!(plies, 20_000, "the game runs to its ply limit");
    let kept = s.kept();
    assert_eq!(kept.states, 1, "one whole state, not one per ply");
    assert_eq!(kept.snapshots, plies / SNAPSHOT_EVERY + 1);
    // A ply keeps an event (96 bytes), an action and a position hash in
    // lists up to twice their length (by capacity), and a share of the
    // ~1 KB snapshot taken every 64 plies: about 250 bytes at most.
    let budget = 256;
    let per_ply = kept.bytes / plies;
    assert!(per_ply <= budget, "{per_ply} bytes a ply: {kept:?}");
    // Undo, redo and forks add whole states per line, never per ply.
    for command in [
        "undo 15000",
        "fork back",
        "redo 7000",
        "fork ahead",
        "undo 3",
    ] {
        s.execute(command);
    }
    let kept = s.kept();
    assert_eq!(kept.states, 3, "{kept:?}");
    assert_eq!(
        kept.snapshots,
        plies / SNAPSHOT_EVERY + 1,
        "forks share snapshots"
    );
    assert!(kept.bytes / plies <= 3 * budget, "{kept:?}");
}

#[test]
fn undo_and_redo_rebuild_the_positions_that_were_played() {
    let (mut s, engine) = long_game();
    let log = s.state().log.clone();
    let end = log.len();
    // Steps that land on, before and after snapshots, and far back.
    let mut at = end;
    for n in [1, 63, 1, 64, 65, 128, 5000, 9000] {
        s.execute(&format!("undo {n}"));
        at -= n;
        assert_eq!(*s.state(), replayed_to(&engine, &log, at), "after undo {n}");
    }
    s.execute("redo 70");
    at += 70;
    assert_eq!(*s.state(), replayed_to(&engine, &log, at), "after redo 70");
    s.execute("redo 100000");
    assert_eq!(s.state().log.len(), end);
    assert_eq!(*s.state(), replayed_to(&engine, &log, end));
}

#[test]
fn the_lua_command_changes_neither_the_rules_nor_the_game() {
    let (out, failed) = play_failing(
        &["--seed", "3"],
        "board\n\
         lua rules.air_strike = nil\n\
         yes\n\
         lua rules.air_strike ~= nil\n\
         lua rawset(pieces, 'at', nil)\n\
         lua type(pieces.at)\n\
         lua x = 1\n\
         lua x\n\
         lua tables.attack_results.Cruiser.Cruiser = 'win'\n\
         lua tables.attack_results.Cruiser.Cruiser\n\
         lua pieces.move(pieces.all()[1], 'd3')\n\
         board\n",
    );
    // Changes to the package's own tables are undone and reported...
    let r = reply(&out, "yes");
    assert!(r.contains("error: rules.air_strike was removed"), "{r}");
    assert!(r.contains("the change has been undone"), "{r}");
    assert_eq!(reply(&out, "lua rules.air_strike ~= nil").trim(), "true");
    let r = reply(&out, "lua tables.attack_results.Cruiser.Cruiser = 'win'");
    assert!(r.contains("was changed"), "{r}");
    assert_eq!(
        reply(&out, "lua tables.attack_results.Cruiser.Cruiser").trim(),
        "\"both\""
    );
    // ...writes to the API and to globals are refused at once...
    let r = reply(&out, "lua rawset(pieces, 'at', nil)");
    assert!(r.contains("cannot set field \"at\""), "{r}");
    assert!(!r.contains("stack traceback"), "{r}");
    assert_eq!(reply(&out, "lua type(pieces.at)").trim(), "\"function\"");
    assert!(reply(&out, "lua x = 1").contains("cannot set global \"x\""));
    assert_eq!(reply(&out, "lua x").trim(), "nil");
    // ...and the game is a copy: moving a piece there moves nothing here.
    let boards: Vec<&str> = out.split("> board\n").skip(1).collect();
    assert_eq!(board(boards[0]), board(boards[1]));
    assert!(failed.starts_with("4 commands failed"), "{failed}");
}

/// Hot-seat Convoy, both fleets set up at random; with this seed Red
/// moves first, and Blue's ships are hidden from Red.
const HOT_SEAT: [&str; 4] = ["--seed", "3", "--seat", "red=human"];
const SET_UP: &str = "place random\nplace random\n";

#[test]
fn on_a_shared_screen_hidden_faces_show_only_after_a_yes_and_until_the_turn_passes() {
    let where_cruiser = "lua pieces.get(pieces.list{owner='blue', kind='Cruiser'}[1]).at";
    let out = play(
        &HOT_SEAT,
        &format!(
            "{SET_UP}view all\nno\nboard\nview blue\nno\n{where_cruiser}\nno\n\
             view all\nyes\n{where_cruiser}\n1\nboard\nlua 1\n"
        ),
    );
    // Asked and refused: the screen stays Red's, Blue's ships hidden.
    let asked = reply(&out, "view all");
    assert!(asked.contains("would show Blue's hidden pieces"), "{asked}");
    let red = replies(&out, "board")[0];
    assert!(red.contains("b?") && !red.contains("GOD VIEW"), "{red}");
    assert!(reply(&out, "view blue").contains("would show Blue's hidden pieces"));
    let [asked, answered] = replies(&out, where_cruiser)[..] else {
        panic!("lua ran twice:\n{out}")
    };
    assert!(
        asked.contains("'lua' reads the game as the rules do"),
        "{asked}"
    );
    // A yes shows them, and answers lua, until Red's turn is over.
    let god = reply(&out, "yes");
    assert!(
        god.contains("GOD VIEW") && god.contains("until the turn passes"),
        "{god}"
    );
    assert!(god.contains("bC"), "{god}");
    assert!(
        answered.trim().starts_with("\"") && answered.trim().len() == 4,
        "{answered}"
    );
    // The terminal passes to Blue: Blue's own view, Red's ships hidden,
    // and the yes no longer holds.
    let blue = &out[out.rfind("-- pass to BLUE").expect("a handover")..];
    let blue = &blue[..blue.find("blue> lua 1").unwrap()];
    assert!(!blue.contains("GOD VIEW"), "{blue}");
    for kind in ['C', 'D', 'M', 'S'] {
        assert!(
            !blue.contains(&format!("r{kind} ")),
            "Blue sees Red's ships:\n{blue}"
        );
    }
    assert!(reply(&out, "lua 1").contains("would show Red's hidden pieces"));
}

#[test]
fn new_and_load_ask_before_dropping_an_unsaved_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let save = save.to_str().unwrap();
    let out = play(
        &["--seed", "3"],
        &format!(
            "new\nplace random\nfork side\nnew\nno\nboard\nnew seed=9\nyes\nplace random\nsave {save}\nnew\nplace random\nload {save}\nyes\n"
        ),
    );
    assert!(
        reply(&out, "new").contains("seed:"),
        "a fresh game asks nothing"
    );
    let asked = replies(&out, "new")[1];
    assert!(
        asked.contains(
            "This game (ply 21) and its forks (side) are not saved, and 'new' would drop them"
        ),
        "{asked}"
    );
    assert!(reply(&out, "no").starts_with("not done: new"));
    assert!(
        out.contains("[main] blue> board"),
        "the game and its fork are kept"
    );
    assert!(replies(&out, "yes")[0].contains("seed: 9"), "{out}");
    // Saved: no question; then played on: asked again before a load.
    let saved = after(&out, &format!("save {save}"));
    let fresh = &saved[saved.find("> new\n").unwrap()..];
    assert!(
        fresh.contains("seed:"),
        "saved: 'new' asks nothing\n{fresh}"
    );
    assert!(reply(&out, &format!("load {save}")).contains("is not saved"));
}

#[test]
fn a_bot_stuck_on_a_broken_rule_moves_once_reload_fixes_it() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("call");
    copy_tree(&repo().join("tests/repl_fixtures/call"), &package);
    let rules = package.join("rules.lua");
    let good = std::fs::read_to_string(&rules).unwrap();
    let broken = good.replace(
        "function phases.calls.choose(frame, choice)\n",
        "function phases.calls.choose(frame, choice)\n  if frame.player == \"south\" then error(\"a broken rule\") end\n",
    );
    std::fs::write(&rules, broken).unwrap();
    let mut repl = Live::start(&[], &[package.to_str().unwrap(), "--seed", "1"]);
    let r = repl.run("1");
    assert!(r.contains("north calls heads"), "{r}");
    assert!(
        r.contains("error: a rule script failed during the bot's move"),
        "{r}"
    );
    assert!(r.contains("a broken rule"), "{r}");
    assert!(repl.run("1").contains("it is a bot's turn"));
    std::fs::write(&rules, good).unwrap();
    let r = repl.run("reload");
    assert!(r.contains("same positions"), "{r}");
    assert!(
        r.contains("south calls"),
        "the bot moved under the fixed rule:\n{r}"
    );
    assert!(repl.run("1").contains("north calls heads"));
}

#[test]
fn untrusted_text_is_escaped_and_cut_short() {
    let long = "x".repeat(500);
    let (out, _) = play_failing(
        &["--seed", "3"],
        &format!("bogus\u{1b}[2J\nlua error('\\27]52;c;aGk=\\7')\nyes\n{long}\n"),
    );
    assert!(
        !out.contains('\u{1b}'),
        "a raw escape reached the terminal:\n{out}"
    );
    assert!(out.contains("bogus\\u001b[2J"), "{out}");
    assert!(out.contains("\\u001b]52;c;aGk=\\u0007"), "{out}");
    let r = reply(&out, &long);
    assert!(r.len() < 200 && r.contains("xxx..."), "{r}");
}

#[test]
fn table_odds_clamp_a_modified_roll_as_the_rules_do() {
    let out = play(
        &["solo-convoy", "--seed", "3"],
        "odds contact -1\nodds contact +3\n",
    );
    // A 1 and a 2 less one both read the first row, as dice.on reads them.
    let low = reply(&out, "odds contact -1");
    assert!(low.contains("        1    33.33%  Dumb luck"), "{low}");
    assert!(!low.contains("no row for"), "{low}");
    let high = reply(&out, "odds contact +3");
    assert!(high.contains("        8    33.33%  Attack force"), "{high}");
}

#[test]
fn the_reserve_groups_pieces_by_owner() {
    let out = play(
        &[
            "--seed",
            "3",
            "--seat",
            "red=human",
            "--seat",
            "blue=random",
        ],
        "view all\nyes\n",
    );
    let god = reply(&out, "yes");
    let line = god
        .lines()
        .find(|l| l.trim_start().starts_with("reserve:"))
        .unwrap_or_else(|| panic!("no reserve line:\n{god}"));
    let owners: String = line
        .split_whitespace()
        .skip(1)
        .filter(|t| *t != "|")
        .map(|t| &t[..1])
        .collect();
    assert_eq!(
        owners,
        format!("{}{}", "b".repeat(10), "r".repeat(10)),
        "{line}"
    );
    assert_eq!(line.matches(" | ").count(), 1, "{line}");
}

/// Sends one command; a question it asks ("Answer 'yes' ...") is answered
/// yes at once (any other line would drop it). Returns the reply that
/// settles it.
fn accepted(repl: &mut Live, command: &str) -> String {
    let mut r = repl.run(command);
    if r.contains("Answer 'yes'") {
        let asked_and_answered = repl.run(&format!("{command}\nyes"));
        r = after(&asked_and_answered, "yes").to_string();
    }
    assert!(
        !r.contains("error:") && !r.contains("not a legal action"),
        "'{command}' was refused:\n{r}"
    );
    r
}

#[test]
fn every_example_help_shows_is_accepted() {
    let work = tempfile::tempdir().unwrap();
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let scenarios = repo().join("scenarios");
    let mut repl = Live::start_in(
        work.path(),
        &[
            "--rules",
            dir.to_str().unwrap(),
            "--scenarios",
            scenarios.to_str().unwrap(),
        ],
        &["--seed", "3"],
    );
    // The actions help suggests now are legal now.
    let help = accepted(&mut repl, "help");
    let now = &help[help.find("(now, e.g. ").expect("action examples") + 11..];
    let now = &now[..now.find(')').unwrap()];
    for action in now.split(", ") {
        accepted(&mut repl, action.trim_matches('\''));
        accepted(&mut repl, "undo");
    }
    // Each command's examples, in an order that gives each its setting:
    // a step to undo before `autoplace`, a fork before `switch`, a save
    // before `load`, a reload that stops before `reload truncate`.
    let mut run = Vec::new();
    let mut example = |repl: &mut Live, line: &str| {
        accepted(repl, line);
        run.push(line.to_string());
    };
    for line in [
        "help reload",
        "moves",
        "help moves",
        "board",
        "board full",
        "show c4",
        "show #12",
        "log",
        "log 30",
    ] {
        example(&mut repl, line);
    }
    example(&mut repl, "place random");
    accepted(&mut repl, "undo");
    example(&mut repl, "autoplace");
    for _ in 0..4 {
        accepted(&mut repl, "1");
    }
    for line in [
        "undo",
        "undo 3",
        "redo",
        "redo 2",
        "fork before-attack",
        "branches",
        "switch before-attack",
        "switch main",
        "save convoy.json",
        "load convoy.json",
        "map board.svg",
        "reload",
    ] {
        example(&mut repl, line);
    }
    let yaml = dir.join("med-convoy/game.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("home_row: 7, second_row: 3", "home_row: 6, second_row: 4"),
    )
    .unwrap();
    assert!(repl.run("reload").contains("reload truncate"));
    for line in [
        "reload truncate",
        "options",
        "scenarios",
        "new",
        "new radical",
        "new standard +no-backward -coin-equal",
        "seat red random",
        "seat red greedy",
        "seat red ismcts:1000",
        "seat red human",
        "view red",
        "view all",
        "view auto",
        "lua #pieces.list{owner='red', on_board=true}",
        "lua game.players()",
        "roll 2D6",
        "roll coin",
        "odds 3D6",
        "odds attack",
        "board web",
    ] {
        example(&mut repl, line);
    }
    // Convoy has no game sheet; the solitaire game has.
    let mut solo = Live::start_in(work.path(), &[], &["solo-convoy", "--seed", "3"]);
    for line in ["sheet", "sheet game.md"] {
        example(&mut solo, line);
    }
    // Convoy ships no balance overlays; Mediterranea has.
    let mut med = Live::start_in(work.path(), &[], &["mediterranea/decline-and-fall"]);
    for line in ["overlays", "new @white-up"] {
        example(&mut med, line);
    }
    assert!(work.path().join("convoy.json").is_file() && work.path().join("game.md").is_file());
    assert!(work.path().join("board.svg").is_file());
    // `quit` ends the session: the harness sends it last.
    let shown: Vec<&str> = portolan::repl::commands::COMMANDS
        .iter()
        .flat_map(|c| c.examples.iter().copied())
        .filter(|&e| e != "quit")
        .collect();
    let mut missing: Vec<&&str> = shown
        .iter()
        .filter(|e| !run.contains(&e.to_string()))
        .collect();
    missing.retain(|e| **e != "help");
    assert!(missing.is_empty(), "examples never tried: {missing:?}");
}

#[test]
fn a_solitaire_game_ends_with_its_score_and_narrates_each_roll_once() {
    let commands = "1\n".repeat(60) + "sheet\n";
    let (out, _) = play_failing(&["solo-convoy", "--seed", "4"], &commands);
    let opening = &out[..out.find("convoy> ").unwrap()];
    assert_eq!(opening.matches("Cargo ships:").count(), 1, "{opening}");
    assert_eq!(opening.matches("journey length").count(), 1, "{opening}");
    assert!(!out.contains("no winner"), "{out}");
    let score = out.find("Final score: ").expect("a final score");
    let points = out[score + 13..].split_whitespace().next().unwrap();
    assert!(
        out.contains(&format!("Game over: score {points} (")),
        "{out}"
    );
    assert!(
        out.contains(&format!("game over: score {points} (")),
        "{out}"
    );
    let sheet = reply(&out, "sheet");
    assert_eq!(sheet.matches("halfway:").count(), 1, "{sheet}");
}

#[test]
fn an_action_out_of_place_says_why_not_unknown_command() {
    let (out, failed) = play_failing(
        &["--seed", "5"],
        "cruiser d3\nplace Cruiser z9\nplace random\nplace Cruiser a1\nstrike a1\n",
    );
    assert!(failed.starts_with("4 commands failed"), "{failed}");
    for line in [
        "cruiser d3",
        "place Cruiser z9",
        "place Cruiser a1",
        "strike a1",
    ] {
        let r = reply(&out, line);
        assert!(r.contains("is not a legal action now"), "{line}: {r}");
        assert!(!r.contains("unknown command"), "{line}: {r}");
    }
    // During set-up: where that piece may go.
    assert!(reply(&out, "cruiser d3").contains("a Cruiser may be set up on"));
    // While sailing: set-up is over, and the phase is named as the data names it.
    let r = reply(&out, "place Cruiser a1");
    assert!(
        r.contains("pieces are set up only during set-up (now: Sailing)"),
        "{r}"
    );
    assert!(out.contains("Blue to move (Sailing)"), "{out}");
}

#[test]
fn the_end_names_the_zone_as_the_data_does() {
    let out = play(
        &[
            "--seed",
            "2",
            "--seat",
            "blue=random",
            "--seat",
            "red=random",
        ],
        "log 3\n",
    );
    assert!(out.contains("Merchant reached the far row"), "{out}");
    assert!(!out.contains("far_row"), "{out}");
}

/// Every action as `moves` lists it can be typed back as listed, in every
/// stock game: the listed text names exactly that action, and typing one
/// plays it (`no option`, the solitaire game's action, is not taken for
/// an answer to a question).
#[test]
fn every_listed_move_is_accepted_as_typed() {
    let games: [(&str, &[&str]); 4] = [
        ("med-convoy", &["blue", "red"]),
        ("mediterranea", &["white", "yellow", "green", "orange"]),
        ("solo-convoy", &["convoy"]),
        ("treasure-fleet", &["a", "b"]),
    ];
    for (game, players) in games {
        let request = Request {
            target: game.into(),
            options: vec![],
            overlays: vec![],
        };
        let seats: Vec<(String, Seat)> = players
            .iter()
            .map(|p| (p.to_string(), Seat::Human))
            .collect();
        let mut session = Session::start(Catalog::embedded(), request, Some(3), &seats)
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        session.welcome();
        for ply in 0..15 {
            if session.state().result.is_some() {
                break;
            }
            let listed = session.execute("moves").text;
            let moves: Vec<&str> = listed
                .lines()
                .filter_map(|l| l.trim_start().split_once(". "))
                .filter(|(n, _)| n.parse::<usize>().is_ok())
                .map(|(_, notation)| notation)
                .collect();
            assert!(!moves.is_empty(), "{game}: no moves listed:\n{listed}");
            let mut seen = Vec::new();
            for &notation in &moves {
                let action = portolan::repl::play::listed(&session, notation)
                    .unwrap_or_else(|| panic!("{game}: '{notation}' is listed but not typed"));
                assert!(
                    !seen.contains(&action),
                    "{game}: two listed moves read as one: '{notation}'"
                );
                seen.push(action);
            }
            // The last listed move every other ply (the solitaire game's
            // `no option`), another one between.
            let typed = match ply % 2 {
                0 => moves[moves.len() - 1],
                _ => moves[(ply * 7) % moves.len()],
            };
            let before = session.state().log.len();
            let reply = session.execute(typed);
            assert!(!reply.failed, "{game}: '{typed}' failed:\n{}", reply.text);
            assert!(
                session.state().log.len() > before,
                "{game}: '{typed}' did not play"
            );
        }
    }
}

/// Hints point somewhere: the nearest names rather than a count, a swapped
/// pair of letters is one typo, an empty list says so, and a typo is a
/// typo whoever is to move.
#[test]
fn messages_name_what_was_meant() {
    let (out, _) = play_failing(
        &["mediterranea", "--seed", "1", "--seat", "white=random"],
        "help xyzzy\nshow Atlantis\nswitch nowhere\nMacedno\nshwo\n",
    );
    let help = reply(&out, "help xyzzy");
    assert!(help.contains("the nearest of the 2"), "{help}");
    let show = reply(&out, "show Atlantis");
    assert!(
        show.contains("the nearest of the") && !show.contains("see the file"),
        "{show}"
    );
    assert!(reply(&out, "switch nowhere").contains("there are none"));
    assert!(reply(&out, "Macedno").contains("did you mean 'Macedon'?"));
    // The game is over (every seat is a bot): still a typo, not the bots.
    assert!(reply(&out, "shwo").contains("did you mean 'show'?"));
}

#[test]
fn help_moves_explains_each_stock_games_moves_from_its_package() {
    let catalog = Catalog::embedded();
    for (game, words) in [
        ("med-convoy", &["place Cruiser b1", "strike"][..]),
        (
            "mediterranea",
            &["Neustria > Frisia", "end movement", "retreat to"][..],
        ),
        (
            "solo-convoy",
            &["decoy", "split", "evade", "screen", "no option"][..],
        ),
        (
            "treasure-fleet",
            &["keep the hand", "sails E 2", "fires at"][..],
        ),
    ] {
        let out = play(&[game, "--seed", "1"], "help moves\n");
        let text = reply(&out, "help moves");
        let request = Request {
            target: game.into(),
            options: vec![],
            overlays: vec![],
        };
        let loaded = load(&catalog, &request).unwrap();
        let help = &loaded.engine.game.move_help;
        assert!(help.len() >= 3, "{game} explains too few moves: {help:?}");
        for entry in help {
            assert!(
                text.contains(&entry.kind) && text.contains(&entry.typed),
                "{game}: no '{}' in\n{text}",
                entry.kind
            );
            let start: String = entry
                .means
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            assert!(text.contains(&start), "{game}: no '{start}' in\n{text}");
        }
        for word in words {
            assert!(text.contains(word), "{game}: no '{word}' in\n{text}");
        }
    }
    let out = play(&["tests/repl_fixtures/rolls"], "help moves\n");
    let text = reply(&out, "help moves");
    assert!(
        text.contains("Rolls does not explain its moves")
            && text.contains("move_help")
            && text.contains("docs/game-yaml.md"),
        "{text}"
    );
}
