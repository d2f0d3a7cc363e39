//! Balance reports from the command line: simulate's measures, shards
//! merged into exactly one machine's report, and the balance command.

#[allow(dead_code)]
mod common;

use portolan::plot::Player;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn portolan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .current_dir(repo())
        .env_remove("PORTOLAN_RULES")
        .env_remove("PORTOLAN_SCENARIOS")
        .output()
        .expect("the binary runs")
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let o = portolan(args);
    assert!(
        o.status.success(),
        "{args:?}: exit {:?}\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[track_caller]
fn fails(args: &[&str]) -> String {
    let o = portolan(args);
    assert!(!o.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// JSON without what depends on the clock and the machine.
fn without_timing(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap();
    let map = v.as_object_mut().unwrap();
    for key in ["seconds", "playouts_per_sec", "threads", "thinking"] {
        map.remove(key);
    }
    for variant in map
        .get_mut("variants")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        variant.as_object_mut().unwrap().remove("seconds");
    }
    v
}

const RUN: [&str; 6] = ["--games", "300", "--seed", "5", "--option", "coin-equal"];

#[test]
fn merged_shards_print_exactly_the_report_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let file = path(dir.path(), &format!("s{i}.json"));
        let shard = format!("{i}/3");
        let mut args = vec!["simulate", "med-convoy", "--shard", &shard, "--out", &file];
        args.extend(RUN);
        args.extend(["--threads", if i == 1 { "2" } else { "1" }]);
        ok(&args);
        files.push(file);
    }
    // Given in any order.
    files.reverse();
    for format in ["table", "csv"] {
        let mut whole = vec!["simulate", "med-convoy", "--format", format];
        whole.extend(RUN);
        let one = ok(&whole);
        let mut merge = vec!["merge", "--format", format];
        merge.extend(files.iter().map(String::as_str));
        assert_eq!(ok(&merge), one, "{format}");
    }
    let mut whole = vec!["simulate", "med-convoy", "--format", "json"];
    whole.extend(RUN);
    let mut merge = vec!["merge", "--format", "json"];
    merge.extend(files.iter().map(String::as_str));
    assert_eq!(without_timing(&ok(&merge)), without_timing(&ok(&whole)));

    let e = fails(&["merge", &files[0], &files[1]]);
    assert!(e.contains("shard 0/3 is missing"), "{e}");
    let e = fails(&["merge", &files[0], &files[0], &files[1], &files[2]]);
    assert!(e.contains("both shard"), "{e}");
    let other = path(dir.path(), "other.json");
    ok(&[
        "simulate",
        "med-convoy",
        "--games",
        "300",
        "--shard",
        "0/3",
        "--out",
        &other,
    ]);
    let e = fails(&["merge", &other, &files[0], &files[1]]);
    assert!(e.contains("different runs"), "{e}");
}

#[test]
fn simulate_reports_every_measure_with_intervals() {
    let out = ok(&[
        "simulate",
        "med-convoy",
        "--games",
        "200",
        "--bots",
        "red=random,blue=random",
    ]);
    for line in [
        "blue wins",
        "red wins",
        "draws",
        "1st to move wins",
        "first-player advantage",
        "ended by a limit",
        "95% interval",
        "median",
        "p90",
        "turns",
        "endings",
    ] {
        assert!(out.contains(line), "no '{line}' in\n{out}");
    }
    let json: Value = serde_json::from_str(&ok(&[
        "simulate",
        "med-convoy",
        "--games",
        "200",
        "--format",
        "json",
    ]))
    .unwrap();
    let blue = &json["win_rate"]["blue"];
    assert!(blue["low"].as_f64().unwrap() < blue["rate"].as_f64().unwrap());
    assert!(blue["high"].as_f64().unwrap() > blue["rate"].as_f64().unwrap());
    assert_eq!(json["bots"]["red"], "random");
    let e = fails(&[
        "simulate",
        "med-convoy",
        "--games",
        "5",
        "--bots",
        "green=random",
    ]);
    assert!(e.contains("no player 'green'"), "{e}");
}

#[test]
fn a_solitaire_scored_game_shows_its_scores_not_wins() {
    let out = ok(&["simulate", "solo-convoy", "--games", "200"]);
    assert!(out.contains("score     convoy: mean"), "{out}");
    assert!(!out.contains("not won"), "{out}");
    assert!(!out.contains("to move wins"), "{out}");
}

#[test]
fn balance_plays_the_same_games_on_one_thread_or_two() {
    let args = |threads| {
        vec![
            "balance",
            "med-convoy",
            "--variant",
            "base=",
            "--variant",
            "radical=+attacker-sunk,+no-backward",
            "--variant",
            "file=scenarios/med-convoy/wolfpack.yaml",
            "--games",
            "200",
            "--format",
            "json",
            "--threads",
            threads,
        ]
    };
    let one = without_timing(&ok(&args("1")));
    assert_eq!(one, without_timing(&ok(&args("2"))));
    let rows = one["comparisons"].as_array().unwrap();
    let blue = rows.iter().find(|r| r["metric"] == "blue wins").unwrap();
    assert_eq!(blue["cells"].as_array().unwrap().len(), 3);
    assert!(blue["cells"][1]["p_holm"].as_f64().is_some());
    assert_eq!(one["variants"][2]["options"][0], "land-centre");
}

#[test]
fn balance_runs_every_stock_game_with_a_plot() {
    let dir = tempfile::tempdir().unwrap();
    let list = ok(&["list"]);
    let games: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(games.len() >= 2, "{list}");
    for game in games {
        let plot = path(dir.path(), &format!("{game}.svg"));
        let out = ok(&[
            "balance",
            game,
            "--each-option",
            "--games",
            "40",
            "--plot",
            &plot,
        ]);
        assert!(
            out.contains("p (Holm)") && out.contains("Holm-Bonferroni"),
            "{out}"
        );
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("variant"),
            "{game}: {svg:.200}"
        );
        for player in Player::of_game(&common::stock(game).game) {
            let fill = format!("fill=\"{}\"", player.colour.hex());
            assert!(
                svg.contains(&fill),
                "{game}: {} is not drawn in {fill}",
                player.id
            );
        }
    }
}

#[test]
fn balance_explains_bad_variants() {
    let e = fails(&["balance", "med-convoy", "--variant", "x"]);
    assert!(e.contains("NAME=SPEC"), "{e}");
    let e = fails(&[
        "balance",
        "med-convoy",
        "--variant",
        "a=",
        "--variant",
        "a=+coin-equal",
    ]);
    assert!(e.contains("two variants are named 'a'"), "{e}");
    let e = fails(&[
        "balance",
        "med-convoy",
        "--variant",
        "a=",
        "--variant",
        "b=solo-convoy/long-run",
    ]);
    assert!(e.contains("variants of one game"), "{e}");
    let e = fails(&["balance", "med-convoy"]);
    assert!(e.contains("--each-option"), "{e}");
}

#[test]
fn coverage_lists_every_convoy_table_cell_and_what_each_option_changed() {
    let out = ok(&[
        "simulate",
        "med-convoy",
        "--games",
        "300",
        "--coverage",
        "--option",
        "coin-strike",
        "--option",
        "merchants-collide",
        "--format",
        "json",
    ]);
    let json: Value = serde_json::from_str(&out).unwrap();
    let c = &json["coverage"];
    assert_eq!(c["games"], 300);
    let cells = c["combat"][0]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 16, "every attacker against every defender");
    let merchants = cells
        .iter()
        .find(|x| x["attacker"] == "Merchant" && x["defender"] == "Merchant")
        .unwrap();
    assert_eq!(
        merchants["entry"], "both",
        "the option's overlay is what is counted"
    );
    assert!(merchants["reads"].as_u64().unwrap() > 0);
    let options = c["options"].as_array().unwrap();
    assert_eq!(options.len(), 2);
    for o in options {
        let changed = o["games_changed"].as_u64().unwrap();
        assert!(changed > 0 && changed <= 300, "{o}");
    }
    let strike = c["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["defined_by"] == "optional rule 2 (coin-strike)")
        .expect("the option's own air strike is counted");
    assert!(strike["calls"].as_u64().unwrap() > 0);

    let solo = ok(&["simulate", "solo-convoy", "--games", "200", "--coverage"]);
    for line in [
        "table contact",
        "row 7   roll 8",
        "Attack force",
        "rules.engagement",
        "never used",
    ] {
        assert!(solo.contains(line), "no '{line}' in\n{solo}");
    }
}

/// The calls of `function` in a coverage report, by who defined it.
fn calls_of(report: &Value, function: &str) -> Vec<(String, u64)> {
    report["coverage"]["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["function"] == function)
        .map(|f| {
            let by = f["defined_by"].as_str().unwrap().to_string();
            (by, f["calls"].as_u64().unwrap())
        })
        .collect()
}

/// Treasure Fleet lists the orders of every ship not yet ordered at each
/// decision; the side's hand is counted once a listing, not once a ship.
#[test]
fn treasure_fleet_counts_a_hand_once_per_orders_listing() {
    let args = ["simulate", "treasure-fleet", "--games", "2", "--seed", "1"];
    let report: Value =
        serde_json::from_str(&ok(
            &[&args[..], &["--coverage", "--format", "json"]].concat()
        ))
        .unwrap();
    let calls = |function: &str| -> u64 { calls_of(&report, function).iter().map(|c| c.1).sum() };
    let (counted, listed) = (calls("lib.wind.counts"), calls("lib.sailing.orders"));
    let turns = calls("phases.side_turn.run");
    assert!(
        counted > 0 && counted <= turns,
        "{counted} counts, {turns} runs"
    );
    assert!(
        listed > counted,
        "{listed} ships listed, {counted} hands counted"
    );
}

#[test]
fn coverage_counts_a_module_function_and_the_option_that_wraps_it() {
    let run = |options: &[&str]| -> Value {
        let mut args = vec!["simulate", "docs/examples/volleys", "--games", "100"];
        args.extend_from_slice(&["--coverage", "--format", "json"]);
        args.extend_from_slice(options);
        serde_json::from_str(&ok(&args)).unwrap()
    };
    let base = calls_of(&run(&[]), "lib.combat.modifier");
    assert_eq!(base.len(), 1, "{base:?}");
    assert_eq!(base[0].0, "docs/examples/volleys/lib/combat.lua");
    assert!(base[0].1 > 0, "every volley asks the modifier: {base:?}");

    let veterans = run(&["--option", "veterans"]);
    let wrapped = calls_of(&veterans, "lib.combat.modifier");
    let by = |who: &str| wrapped.iter().find(|(by, _)| by == who).map(|x| x.1);
    let module = by("docs/examples/volleys/lib/combat.lua").expect("the kept function");
    let option = by("optional rule 1 (veterans)").expect("the option's wrapper");
    assert!(module > 0, "{wrapped:?}");
    assert_eq!(
        module, option,
        "each call of the wrapper calls the kept function once"
    );
    let volleys = calls_of(&veterans, "lib.combat.volley");
    assert_eq!(
        volleys[0].1, option,
        "combat.volley calls the wrapper through the table"
    );
}

#[test]
fn coverage_merges_from_shards_too() {
    let dir = tempfile::tempdir().unwrap();
    let run = ["--games", "120", "--coverage", "--option", "coin-equal"];
    let mut files = Vec::new();
    for i in 0..2 {
        let file = path(dir.path(), &format!("c{i}.json"));
        let shard = format!("{i}/2");
        let mut args = vec!["simulate", "med-convoy", "--shard", &shard, "--out", &file];
        args.extend(run);
        ok(&args);
        files.push(file);
    }
    let mut whole = vec!["simulate", "med-convoy", "--threads", "1"];
    whole.extend(run);
    assert_eq!(ok(&["merge", &files[0], &files[1]]), ok(&whole));
    let plain = path(dir.path(), "plain.json");
    ok(&[
        "simulate",
        "med-convoy",
        "--games",
        "120",
        "--option",
        "coin-equal",
        "--shard",
        "1/2",
        "--out",
        &plain,
    ]);
    let e = fails(&["merge", &files[0], &plain]);
    assert!(
        e.contains("coverage false against true") || e.contains("coverage true against false"),
        "{e}"
    );
}
