//! Balance overlays (`src/data/overlay.rs`): each edit on real game data,
//! each mistake reported at its line and column, overlays from scenarios,
//! the command line, `balance` and saves. Mediterranea's own overlays are
//! played in tests/mediterranea.rs; hostile overlay files are in
//! tests/hostile_files.rs.

mod hostile;

use hostile::write;
use portolan::data::catalog::Catalog;
use portolan::load::{Loaded, Request, load};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// Loads `target` with overlay files written from `texts` into `dir`.
fn with_overlays(dir: &Path, target: &str, texts: &[&str]) -> Result<Loaded, String> {
    let overlays = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.join(format!("overlay{i}.yaml"));
            write(&path, text);
            path.display().to_string()
        })
        .collect();
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays,
    };
    load(&Catalog::embedded(), &request).map_err(|e| e.to_string())
}

/// Why `request` does not load.
fn refused(request: &Request) -> String {
    match load(&Catalog::embedded(), request) {
        Ok(_) => panic!("{} loaded with {:?}", request.target, request.overlays),
        Err(e) => e.to_string(),
    }
}

fn kind_count(l: &Loaded, kind: &str) -> u32 {
    let g = &l.engine.game;
    let k = g.kind_index(kind).expect("a kind");
    g.start.iter().filter(|s| s.kind == k).count() as u32
}

#[test]
fn set_merge_append_swap_and_remove_change_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let l = with_overlays(
        dir.path(),
        "med-convoy",
        &["game: med-convoy
title: Every edit
changes:
  - path: pieces.kinds.Merchant.count
    set: 6
  - path: pieces.kinds.Cruiser
    merge: { count: 2 }
  - path: phases.setup.quotas
    set: { home_row: 7, second_row: 6 }
  - path: tables.attack_results.Merchant
    merge: { Submarine: win }
  - path: tables.attack_results.Cruiser
    set: { Cruiser: win, Destroyer: win, Merchant: win, Submarine: win }
  - path: tables.attack_results.Cruiser
    merge: { Cruiser: both, Submarine: bounce }
  - path: players
    item: { id: red }
    merge: { name: Crimson }
"],
    )
    .unwrap();
    assert_eq!(kind_count(&l, "Merchant"), 2 * 6);
    assert_eq!(kind_count(&l, "Cruiser"), 2 * 2);
    let t = &l.engine.game.tables;
    assert_eq!(
        t["attack_results"]["Merchant"],
        json!({"Cruiser": "bounce", "Destroyer": "bounce", "Merchant": "bounce", "Submarine": "win"})
    );
    assert_eq!(
        t["attack_results"]["Cruiser"],
        json!({"Cruiser": "both", "Destroyer": "win", "Merchant": "win", "Submarine": "bounce"})
    );
    assert_eq!(l.engine.game.players[1].name, "Crimson");
    assert_eq!(l.overlays.len(), 1);

    // The edits of a list, on Mediterranea's scenario suffixes [E, W].
    let l = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: List edits
changes:
  - path: tables.scenario.suffixes
    append: X
  - path: tables.scenario.suffixes
    swap: [E, X]
  - path: tables.scenario.suffixes
    item: 1
    remove: true
  - path: tables.scenario.suffixes.0
    set: Z
  - path: tables.scenario.targets
    merge: { green: null, white: 100 }
"],
    )
    .unwrap();
    assert_eq!(
        l.engine.game.tables["scenario"]["suffixes"],
        json!(["Z", "E"])
    );
    assert_eq!(
        l.engine.game.tables["scenario"]["targets"],
        json!({"orange": 118, "white": 100, "yellow": 195})
    );
}

#[test]
fn overlays_apply_in_order_after_the_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let set = |kind: &str, n: u32| {
        format!(
            "game: med-convoy\ntitle: t\nchanges:\n  - path: pieces.kinds.{kind}.count\n    set: {n}\n"
        )
    };
    // Wolf pack has 2 Destroyers and 3 Submarines; the second overlay's
    // Submarines win over the first's.
    let l = with_overlays(
        dir.path(),
        "med-convoy/wolfpack",
        &[
            &set("Submarine", 5),
            &set("Submarine", 2),
            &set("Merchant", 5),
        ],
    )
    .unwrap();
    assert_eq!(kind_count(&l, "Submarine"), 2 * 2);
    assert_eq!(kind_count(&l, "Destroyer"), 2 * 2);
    assert_eq!(kind_count(&l, "Merchant"), 2 * 5);
}

#[test]
fn an_item_selector_changes_every_match_and_only_them() {
    let dir = tempfile::tempdir().unwrap();
    let l = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: t
changes:
  - path: tables.arrivals.Huns
    item: { turn: 3, leader: Attila }
    merge: { armies: 9 }
"],
    )
    .unwrap();
    let huns = l.engine.game.tables["arrivals"]["Huns"].as_array().unwrap();
    let armies: Vec<Value> = huns.iter().map(|e| e["armies"].clone()).collect();
    assert_eq!(
        armies,
        [json!(2), json!(0), json!(9), json!(9), Value::Null]
    );
}

/// Each mistake names the overlay file, the line and column of the
/// change's path, and what to write instead; the others are all reported.
#[test]
fn every_mistake_is_placed_at_its_change_with_a_fix() {
    let dir = tempfile::tempdir().unwrap();
    let err = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: Mistakes
changes:
  - path: tables.arrivals.Hunz
    item: { turn: 3 }
    merge: { armies: 4 }
  - path: tables.arrivals.Huns
    item: { turn: 9 }
    merge: { armies: 4 }
  - path: tables.turn_order
    swap: [Gauls, Gothz]
  - path: tables.turn_order.99
    set: Gauls
  - path: tables.scenario.name.first
    set: 1
  - path: tables.scenario
    append: 1
"],
    )
    .err()
    .expect("the overlay is refused");
    let file = dir.path().join("overlay0.yaml").display().to_string();
    for expected in [
        format!("{file}:4:11: no 'Hunz' under 'tables.arrivals': did you mean 'Huns'?"),
        format!(
            "{file}:7:11: no item of 'tables.arrivals.Huns' matches {{\"turn\":9}} \
             (its items have turn 2, 3, 4)"
        ),
        format!("{file}:10:11: 'tables.turn_order' has no item \"Gothz\""),
        format!(
            "{file}:12:11: 'tables.turn_order' is a list of 29: name an item by number (0 to 28)"
        ),
        format!("{file}:14:11: 'tables.scenario.name' is a single value, with no 'first' inside"),
        format!("{file}:16:11: 'tables.scenario' is not a list"),
    ] {
        assert!(err.contains(&expected), "missing {expected}\nin:\n{err}");
    }
}

/// A key the data does not have, at any depth, is refused at the line and
/// column it was written, with the nearest keys: an arrival's misspelt
/// `army`, a new table no rule reads, a misspelt field of an appended
/// item, a misspelt field inside a value `set` whole.
#[test]
fn a_key_the_data_does_not_have_is_refused_where_it_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game: mediterranea
title: Misspelt
changes:
  - path: tables.arrivals.Gauls
    item: { turn: 2 }
    merge: { army: 2 }
  - path: tables.burhs
    set: 8
  - path: tables.arrivals.Saxons
    append: { turn: 12, armies: 1, at: [Wessex], ledaer: Alfred }
  - path: tables.combat.fortress
    set: { area: Constantinople, natoin: Byzantines, modifier: -1 }
";
    let err = with_overlays(dir.path(), "mediterranea", &[text])
        .err()
        .expect("the overlay is refused");
    let file = dir.path().join("overlay0.yaml").display().to_string();
    for expected in [
        format!(
            "{file}:6:14: 'army' is not a key of tables.arrivals.Gauls.0 or of any map like it"
        ),
        format!("{file}:7:11: 'burhs' is not a key of tables (known: arrivals, combat,"),
        format!(
            "{file}:10:50: 'ledaer' is not a key of tables.arrivals.Saxons.5 or of any map \
             like it (did you mean 'leader'?): an overlay writes only keys game.yaml gives; \
             declare a new one in game.yaml first"
        ),
        format!(
            "{file}:12:34: 'natoin' is not a key of tables.combat.fortress (did you mean 'nation'?)"
        ),
    ] {
        assert!(err.contains(&expected), "missing {expected}\nin:\n{err}");
    }

    // `check` refuses it the same way, from the command line.
    let o = portolan(&["check", "mediterranea", "--overlay", &file]);
    assert!(!o.status.success());
    let out = String::from_utf8_lossy(&o.stderr);
    assert!(
        out.contains(&format!("{file}:6:14: 'army' is not a key")),
        "{out}"
    );
}

/// What an overlay may add: a field another item like it has (`ships`
/// on the Gauls' arrival, which only other nations' arrivals have), an
/// area a victory card may score though no card scores it yet (a name of
/// the game's map), and the fields the rules read in a list game.yaml
/// declares empty for overlays.
#[test]
fn a_field_of_a_map_like_it_or_a_name_of_the_game_may_be_added() {
    let dir = tempfile::tempdir().unwrap();
    let l = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: Additions
changes:
  - path: tables.arrivals.Gauls
    item: { turn: 2 }
    merge: { ships: true }
  - path: tables.victory.white
    item: 0
    merge: { areas: { Frisia: 1 } }
  - path: tables.increase_multipliers
    append: { nation: Saxons, turn: 12, times: 2 }
"],
    )
    .unwrap();
    let t = &l.engine.game.tables;
    assert_eq!(t["arrivals"]["Gauls"][0]["ships"], true);
    assert_eq!(t["victory"]["white"][0]["areas"]["Frisia"], 1);
    assert_eq!(t["increase_multipliers"][0]["times"], 2);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
}

/// A leader serves one nation-turn and leaves the game [5.2], [5.7]: an
/// overlay that gives him a second turn, or another nation's armies, is
/// refused when the rules prepare the chart, naming the overlay and the
/// entry.
#[test]
fn a_leader_given_a_second_turn_or_another_nation_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: Stilicho again
changes:
  - path: tables.arrivals.Romans
    append: { turn: 3, armies: 1, at: [Rome], leader: Stilicho, P: true }
"],
    )
    .err()
    .expect("a second turn is refused");
    let file = dir.path().join("overlay0.yaml").display().to_string();
    assert!(
        err.contains(&format!("game.yaml with the overlays {file}"))
            && err.contains(
                "tables.arrivals.Romans.3 gives Stilicho a second turn: he already took the \
                 field in turn 2 (pulse 1, tables.arrivals.Romans.0)"
            ),
        "{err}"
    );
    let err = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: mediterranea
title: Stilicho leads the Gauls
changes:
  - path: tables.arrivals.Gauls
    item: { turn: 2 }
    merge: { leader: Stilicho }
"],
    )
    .err()
    .expect("another nation's leader is refused");
    assert!(
        err.contains(
            "tables.arrivals.Gauls.0 gives Stilicho to the Gauls, but Stilicho leads the Romans"
        ),
        "{err}"
    );
}

/// A package whose rules read `tables.combat.hits` and nothing else of
/// the tables, for overlays that edit data no rule reads.
fn unread_probe(dir: &Path) -> String {
    let root = dir.join("unread-probe");
    write(
        &root.join("game.yaml"),
        "id: unread-probe\ntitle: Unread probe\n\
         players: [{ id: blue, name: Blue }, { id: red, name: Red }]\n\
         phases: { p: { kind: script } }\nflow: [p]\n\
         tables: { combat: { hits: 5, note: 1 } }\nscripts: [rules.lua]\n",
    );
    write(
        &root.join("rules.lua"),
        "phases.p = { run = function(frame)\n  vars.set('h', tables.combat.hits)\n\
         \x20 game.finish{ winner = 'blue', reason = 'done' }\nend }\n",
    );
    root.display().to_string()
}

/// An edit of data no rule reads loads, with a warning at the change's
/// line; `check` shows it, and `simulate` shows it once however many
/// threads load the game.
#[test]
fn an_edit_of_data_no_rule_reads_is_a_warning_shown_once() {
    let dir = tempfile::tempdir().unwrap();
    let package = unread_probe(dir.path());
    let overlay = dir.path().join("note.yaml");
    write(
        &overlay,
        "game: unread-probe\ntitle: A note\nchanges:\n  - path: tables.combat.hits\n    set: 4\n\
         \x20 - path: tables.combat.note\n    set: 2\n",
    );
    let overlay = overlay.display().to_string();
    let request = Request {
        target: package.clone(),
        options: vec![],
        overlays: vec![overlay.clone()],
    };
    let l = load(&Catalog::embedded(), &request).unwrap();
    let warnings: Vec<String> = l.warnings.iter().map(ToString::to_string).collect();
    let expected = format!(
        "{overlay}:6:11: no rule reads 'note' (no Lua file of the package names it): this \
         change edits data that changes nothing in a game"
    );
    assert_eq!(warnings, std::slice::from_ref(&expected));

    let o = portolan(&["check", &package, "--overlay", &overlay]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    assert!(out.contains(&format!("warning: {expected}")), "{out}");

    let o = portolan(&[
        "simulate",
        &package,
        "--overlay",
        &overlay,
        "--games",
        "4",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches(&expected).count(), 1, "{err}");
}

#[test]
fn a_change_must_say_one_thing_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |change: &str| {
        let text = format!("game: med-convoy\ntitle: t\nchanges:\n  - path: {change}");
        with_overlays(dir.path(), "med-convoy", &[&text])
            .err()
            .expect("the overlay is refused")
    };
    for (change, expected) in [
        (
            "pieces.kinds.Merchant.count\n",
            ":4:11: the change at 'pieces.kinds.Merchant.count' says nothing to do",
        ),
        ("a\n    set: 3\n    remove: true\n", "gives several edits"),
        (
            "a\n    item: [1]\n    set: 3\n",
            "must be a map of fields to match",
        ),
        ("a\n    sett: 3\n", ":5:5: unknown key 'sett'"),
        ("a..b\n    set: 3\n", "'a..b' is not a path"),
    ] {
        let err = refused(change);
        assert!(err.contains(expected), "{change}: {err}");
    }
}

/// A value the schema refuses, written by an overlay, is blamed on the
/// overlay's change, not on game.yaml.
#[test]
fn a_bad_value_is_blamed_on_the_change_that_wrote_it() {
    let dir = tempfile::tempdir().unwrap();
    let err = with_overlays(
        dir.path(),
        "med-convoy",
        &["game: med-convoy\ntitle: t\nchanges:\n  - path: pieces.kinds.Merchant\n    merge: { count: lots }\n"],
    )
    .err()
    .unwrap();
    let file = dir.path().join("overlay0.yaml").display().to_string();
    assert!(err.contains(&format!("{file}:4:11:")), "{err}");
}

#[test]
fn an_overlay_of_another_game_or_an_unknown_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = with_overlays(
        dir.path(),
        "mediterranea",
        &["game: med-convoy\ntitle: t\nchanges: []\n"],
    )
    .err()
    .unwrap();
    assert!(
        err.contains("this overlay is for 'med-convoy', not 'mediterranea'"),
        "{err}"
    );
    let request = Request {
        target: "mediterranea".into(),
        options: vec![],
        overlays: vec!["white-upp".into()],
    };
    let err = refused(&request);
    assert!(
        err.contains("--overlay white-upp: no overlay 'white-upp' in rules/mediterranea/overlays/")
            && err.contains("did you mean 'white-up'"),
        "{err}"
    );
}

/// A scenario names overlays its game ships; an unknown one is blamed on
/// the scenario's line.
#[test]
fn a_scenario_lays_the_overlays_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("tuned.yaml");
    write(
        &scenario,
        "game: mediterranea\ntitle: Tuned\nextends: decline-and-fall\noverlays: [white-up, yellow-down]\n",
    );
    let request = Request {
        target: scenario.display().to_string(),
        options: vec![],
        overlays: vec!["white-up".into(), "green-up".into()],
    };
    let l = load(&Catalog::embedded(), &request).unwrap();
    let labels: Vec<&str> = l.overlays.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["white-up", "yellow-down", "green-up"]);
    let gauls = &l.engine.game.tables["arrivals"]["Gauls"][0];
    assert_eq!(gauls["armies"], 2);
    assert_eq!(l.engine.game.tables["scenario"]["name"], "Decline and Fall");

    write(
        &scenario,
        "game: mediterranea\ntitle: Tuned\noverlays:\n  - white-up\n  - whitte-down\n",
    );
    let err = refused(&request);
    assert!(
        err.contains(&format!(
            "{}:5:5: no overlay 'whitte-down'",
            scenario.display()
        )) && err.contains("did you mean 'white-down'"),
        "{err}"
    );
}

// ---- the command line ----

fn portolan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("PORTOLAN_RULES")
        .env_remove("PORTOLAN_SCENARIOS")
        .output()
        .expect("the binary runs")
}

#[test]
fn simulate_and_list_name_the_overlays() {
    let o = portolan(&[
        "simulate",
        "mediterranea/decline-and-fall",
        "--overlay",
        "white-up",
        "--games",
        "2",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let json: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["overlays"], json!(["white-up"]));

    let list = String::from_utf8(portolan(&["list"]).stdout).unwrap();
    assert!(list.contains("overlay  white-up"), "{list}");
    let check = portolan(&["check", "mediterranea"]);
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(out.contains("ok  overlay orange-up"), "{out}");
}

#[test]
fn balance_compares_each_overlay_on_the_same_seeds() {
    let o = portolan(&[
        "balance",
        "mediterranea/decline-and-fall",
        "--each-overlay",
        "--variant",
        "base=",
        "--variant",
        "both=@white-up,@green-up",
        "--games",
        "2",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let json: Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = json["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[..3], ["base", "both", "green-down"]);
    assert_eq!(names.len(), 2 + 8);
    assert_eq!(
        json["variants"][1]["rules"],
        "mediterranea/decline-and-fall @white-up @green-up"
    );
}

// ---- saves ----

#[test]
fn a_save_remembers_its_overlays_and_never_reads_a_file_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let mut s = hostile::session_with(&Request {
        target: "mediterranea/decline-and-fall".into(),
        options: vec![],
        overlays: vec!["white-up".into()],
    });
    s.execute("1");
    let r = s.execute(&format!("save {}", save.display())).text;
    assert!(r.starts_with("saved "), "{r}");
    let text = std::fs::read_to_string(&save).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["overlays"], json!(["white-up"]));

    // A plain session loads it with the overlay the rules package ships.
    let mut plain = hostile::session("mediterranea/decline-and-fall");
    let r = plain.execute(&format!("load {}", save.display())).text;
    assert!(r.starts_with("loaded "), "{r}");
    assert!(plain.execute("overlays").text.contains("* white-up"));

    // An overlay from a file is never read because a save names it.
    let planted = dir.path().join("planted.yaml");
    write(
        &planted,
        "game: mediterranea\ntitle: planted\nchanges: []\n",
    );
    let mut json = json;
    json["overlays"] = json!([planted.display().to_string()]);
    let edited = dir.path().join("edited.json");
    write(&edited, serde_json::to_string(&json).unwrap());
    let r = plain.execute(&format!("load {}", edited.display())).text;
    assert!(
        r.contains("which is not one rules/mediterranea ships")
            && r.contains("the current game is unchanged"),
        "{r}"
    );
}

#[test]
fn new_lays_and_lifts_overlays_at_the_repl() {
    let mut s = hostile::session("mediterranea/decline-and-fall");
    let r = s.execute("new @yellow-up").text;
    assert!(r.contains("overlays: yellow-up\n"), "{r}");
    assert!(s.execute("overlays").text.contains("* yellow-up"));
    let r = s.execute("new -@yellow-up").text;
    assert!(!r.contains("error"), "{r}");
    assert!(s.execute("overlays").text.contains("  yellow-up"));
    let r = s.execute("new -@green-up").text;
    assert!(r.contains("no overlay 'green-up' to drop"), "{r}");
    let r = s.execute("new @nope").text;
    assert!(r.contains("no overlay 'nope'"), "{r}");
}
