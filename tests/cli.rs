//! The `portolan` binary, driven as a user would: list, check, play and
//! simulate, with good packages and with broken ones.

#[path = "common/package.rs"]
mod package;

use package::PackageCopy;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const OPTIONS: [&str; 8] = [
    "coin-equal",
    "coin-strike",
    "land-centre",
    "attacker-sunk",
    "marked-ship",
    "no-backward",
    "merchants-collide",
    "coin-sub-escape",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary from the repository's root, so it finds `rules/` and
/// `scenarios/` there, whatever the caller's environment says.
fn portolan(args: &[&str]) -> Output {
    binary(args).output().expect("the binary runs")
}

/// The command [`portolan`] runs, to give it other standard streams.
fn binary(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_portolan"));
    command
        .args(args)
        .current_dir(repo())
        .env_remove("PORTOLAN_RULES")
        .env_remove("PORTOLAN_SCENARIOS")
        .env("NO_COLOR", "1");
    command
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn assert_success(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
}

// ---------------------------------------------------------------- simulate

fn simulate_json(extra: &[&str]) -> Value {
    let mut args = vec!["simulate", "med-convoy", "--format", "json"];
    args.extend(extra);
    let o = portolan(&args);
    assert_success(&o);
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(&o)))
}

/// The report without what depends on the machine and the clock.
fn without_timing(mut report: Value) -> Value {
    let map = report.as_object_mut().expect("a JSON object");
    for key in ["seconds", "playouts_per_sec", "threads", "thinking"] {
        map.remove(key);
    }
    report
}

#[test]
fn simulate_json_has_the_documented_keys() {
    let r = simulate_json(&["--games", "200", "--seed", "1"]);
    for key in [
        "game",
        "games",
        "wins",
        "draws",
        "mean_plies",
        "playouts_per_sec",
        "seed",
    ] {
        assert!(r.get(key).is_some(), "no '{key}' in {r}");
    }
    assert_eq!(r["game"], "med-convoy");
    assert_eq!(r["games"], 200);
    assert_eq!(r["seed"], 1);
    let wins = r["wins"].as_object().expect("wins by player");
    assert_eq!(wins.keys().collect::<Vec<_>>(), ["blue", "red"]);
    let total: u64 =
        wins.values().map(|v| v.as_u64().unwrap()).sum::<u64>() + r["draws"].as_u64().unwrap();
    assert_eq!(total, 200, "every game is a win or a draw");
    assert!(r["mean_plies"].as_f64().unwrap() > 20.0);
}

#[test]
fn simulate_twice_with_one_seed_gives_the_same_report() {
    let args = ["--games", "200", "--seed", "1"];
    let a = without_timing(simulate_json(&args));
    let b = without_timing(simulate_json(&args));
    assert_eq!(a, b);
    let c = without_timing(simulate_json(&["--games", "200", "--seed", "2"]));
    assert_ne!(a, c, "another seed, other games");
}

#[test]
fn simulate_says_how_long_each_bot_thought() {
    let run = ["--games", "2", "--seed", "1", "--threads", "2"];
    let bots = ["--bots", "ismcts:20,random"];
    let o = portolan(&[&["simulate", "med-convoy"][..], &run, &bots].concat());
    assert_success(&o);
    let err = stderr(&o);
    let search = err
        .lines()
        .find(|l| l.starts_with("  blue (ismcts:20): "))
        .unwrap_or_else(|| panic!("no line for the search bot:\n{err}"));
    assert!(search.contains(" s a decision, ") && search.ends_with(" iterations/s"));
    assert!(
        !err.contains("red (random)"),
        "a random bot does not think:\n{err}"
    );

    let r = simulate_json(&[&run[..], &bots].concat());
    let blue = &r["thinking"]["blue"];
    let decisions = blue["decisions"].as_u64().expect("blue's decisions");
    assert!(decisions > 0);
    assert_eq!(
        blue["iterations"].as_u64(),
        Some(20 * decisions),
        "20 a decision"
    );
    assert_eq!(r["thinking"]["red"]["iterations"].as_u64(), Some(0));
}

#[test]
fn simulate_gives_the_same_report_on_one_thread_or_two() {
    let one = simulate_json(&["--games", "200", "--seed", "3", "--threads", "1"]);
    let two = simulate_json(&["--games", "200", "--seed", "3", "--threads", "2"]);
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(without_timing(one), without_timing(two));
}

#[test]
fn simulate_with_options_reports_them() {
    let r = simulate_json(&[
        "--games",
        "50",
        "--seed",
        "4",
        "--option",
        "land-centre",
        "--option",
        "coin-equal",
    ]);
    let mut options: Vec<_> = r["options"].as_array().unwrap().iter().collect();
    options.sort_by_key(|v| v.as_str().unwrap().to_string());
    assert_eq!(options, ["coin-equal", "land-centre"]);
}

#[test]
fn simulate_ten_thousand_games() {
    let o = portolan(&["simulate", "med-convoy", "--games", "10000", "--seed", "7"]);
    assert_success(&o);
    assert!(stdout(&o).contains("10000"), "{}", stdout(&o));
}

// ---------------------------------------------------------------- list and check

#[test]
fn list_shows_the_game_its_options_and_its_scenarios() {
    let o = portolan(&["list"]);
    assert_success(&o);
    let out = stdout(&o);
    assert!(out.contains("med-convoy"), "{out}");
    for option in OPTIONS {
        assert!(out.contains(option), "option {option}:\n{out}");
    }
    let scenarios = std::fs::read_dir(repo().join("scenarios/med-convoy")).unwrap();
    let mut names = 0;
    for s in scenarios.flatten() {
        let name = s.file_name().to_string_lossy().to_string();
        if let Some(id) = name.strip_suffix(".yaml") {
            assert!(
                out.contains(&format!("med-convoy/{id}")),
                "scenario {id}:\n{out}"
            );
            names += 1;
        }
    }
    assert!(names >= 1, "the game has scenarios");
}

#[test]
fn check_accepts_the_stock_package_and_a_scenario() {
    let o = portolan(&["check", "med-convoy"]);
    assert_success(&o);
    let out = stdout(&o);
    for option in OPTIONS {
        assert!(out.contains(option), "check tries option {option}:\n{out}");
    }
    assert_success(&portolan(&["check", "med-convoy/radical"]));
}

#[test]
fn check_rejects_an_unknown_game_with_a_suggestion() {
    let o = portolan(&["check", "med-convoi"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("med-convoy"), "{}", stderr(&o));
}

/// Checks a broken package: non-zero exit, and the error names `place`
/// (`file:line:col` or `file.lua:line`) and says `what`.
#[track_caller]
fn assert_check_fails(copy: &PackageCopy, place: &str, what: &str) {
    let o = portolan(&["check", copy.root.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(
        !o.status.success(),
        "a broken package passed:\n{}",
        stdout(&o)
    );
    assert!(err.contains(place), "no '{place}' in:\n{err}");
    assert!(err.contains(what), "no '{what}' in:\n{err}");
}

fn yaml_place(copy: &PackageCopy, needle: &str) -> String {
    let (line, col) = copy.position_of("game.yaml", needle);
    format!("med-convoy/game.yaml:{line}:{col}")
}

#[test]
fn check_locates_an_unknown_yaml_key() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "first_player: coin",
        "first_player: coin\nfirst_playr: coin",
    );
    assert_check_fails(
        &copy,
        &yaml_place(&copy, "first_playr"),
        "unknown key 'first_playr': did you mean 'first_player'?",
    );
}

#[test]
fn check_locates_a_value_of_the_wrong_type() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "Cruiser: { short: C, count: 1 }",
        "Cruiser: { short: C, count: many }",
    );
    assert_check_fails(
        &copy,
        &yaml_place(&copy, "many"),
        "'count' must be a whole number from 0 to 65535, not \"many\"",
    );
}

#[test]
fn check_locates_an_unknown_piece_kind_in_the_victory_conditions() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "reach: { kind: Merchant,",
        "reach: { kind: Trader,",
    );
    assert_check_fails(
        &copy,
        &yaml_place(&copy, "Trader"),
        "unknown piece kind 'Trader'",
    );
}

#[test]
fn check_locates_an_unknown_zone() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "zone: far_row }", "zone: farrow }");
    assert_check_fails(
        &copy,
        &yaml_place(&copy, "farrow"),
        "did you mean 'far_row'",
    );
}

#[test]
fn check_locates_a_lua_syntax_error() {
    let copy = PackageCopy::new();
    let text = copy.read("rules.lua");
    let line = text.lines().count() + 1;
    copy.write("rules.lua", &format!("{text}x = = 1\n"));
    assert_check_fails(&copy, &format!("rules.lua:{line}:"), "syntax error");
}

#[test]
fn check_locates_a_lua_error_in_an_option_script() {
    let copy = PackageCopy::new();
    copy.write("options/no_backward.lua", "local x = nil\nreturn x.field\n");
    assert_check_fails(
        &copy,
        "options/no_backward.lua:2:",
        "attempt to index a nil value",
    );
}

#[test]
fn check_names_a_missing_option_script() {
    let copy = PackageCopy::new();
    std::fs::remove_file(copy.path("options/no_backward.lua")).unwrap();
    assert_check_fails(&copy, "med-convoy/game.yaml", "options/no_backward.lua");
}

#[test]
fn check_locates_a_missing_option_script() {
    let copy = PackageCopy::new();
    std::fs::remove_file(copy.path("options/no_backward.lua")).unwrap();
    // The error points at the file name itself, the value to fix.
    let place = yaml_place(&copy, "options/no_backward.lua");
    assert_check_fails(&copy, &place, "options/no_backward.lua");
}

#[test]
fn check_names_a_bad_combat_result() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "Cruiser: { Cruiser: both, Destroyer: win,",
        "Cruiser: { Cruiser: both, Destroyer: wins,",
    );
    assert_check_fails(
        &copy,
        "med-convoy/game.yaml",
        "attack_results.Cruiser.Destroyer",
    );
}

#[test]
fn check_locates_a_bad_combat_result() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "Cruiser: { Cruiser: both, Destroyer: win,",
        "Cruiser: { Cruiser: both, Destroyer: wins,",
    );
    let (line, _) = copy.position_of("game.yaml", "Destroyer: wins");
    assert_check_fails(&copy, &format!("med-convoy/game.yaml:{line}:"), "wins");
}

#[test]
fn check_reports_each_error_once() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "zone: far_row }", "zone: farrow }");
    let o = portolan(&["check", copy.root.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(err.matches("unknown zone 'farrow'").count(), 1, "{err}");
}

/// Every error `check` prints, one a line.
fn check_errors(copy: &PackageCopy) -> Vec<String> {
    let o = portolan(&["check", copy.root.to_str().unwrap()]);
    assert!(
        !o.status.success(),
        "a broken package passed:\n{}",
        stdout(&o)
    );
    stderr(&o).lines().map(String::from).collect()
}

/// Each kind of name the data hands to the scripts, misspelt: `check`
/// names the function and the place in game.yaml that names it.
#[test]
fn check_locates_every_script_name_no_script_defines() {
    // (written, misspelt, the function, where the data names it)
    let cases = [
        (
            "script: air_strike",
            "script: air_strik",
            "air_strik",
            "air_strik",
        ),
        (
            "script: end_by_repetition",
            "script: end_by_repetitio",
            "end_by_repetitio",
            "end_by_repetitio",
        ),
        (
            "Merchant: { Cruiser: bounce, Destroyer: bounce, Merchant: bounce,",
            "Merchant: { Cruiser: bounce, Destroyer: bounce, Merchant: { script: merchant_duel },",
            "merchant_duel",
            "combat: attack_results",
        ),
    ];
    for (from, to, function, named_at) in cases {
        let copy = PackageCopy::new();
        copy.replace("game.yaml", from, to);
        let (line, _) = copy.position_of("game.yaml", named_at);
        let errors = check_errors(&copy);
        let place = format!("med-convoy/game.yaml:{line}:");
        assert!(
            errors
                .iter()
                .any(|e| e.contains(&place) && e.contains(function)),
            "no error at {place} naming '{function}':\n{errors:#?}"
        );
    }
}

#[test]
fn check_locates_a_scripted_phase_no_script_defines() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "flow: [setup, sailing]",
        "  storm: { kind: script }\nflow: [setup, sailing, storm]",
    );
    let (line, _) = copy.position_of("game.yaml", "storm: { kind: script }");
    assert_check_fails(
        &copy,
        &format!("med-convoy/game.yaml:{line}:"),
        "no script defines phases.storm.run",
    );
}

#[test]
fn check_locates_a_script_file_not_in_the_package() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "scripts: [rules.lua,", "scripts: [rule.lua,");
    assert_check_fails(&copy, &yaml_place(&copy, "rule.lua"), "'rule.lua'");
}

#[test]
fn check_reports_every_schema_error_not_only_the_first() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "columns: 7,", "columns: \"seven\",");
    copy.replace(
        "game.yaml",
        "Cruiser: { short: C, count: 1 }",
        "Cruiser: { short: C, count: -3 }",
    );
    copy.replace(
        "game.yaml",
        "first_player: coin",
        "first_player: coin\nfoo: 1\nbar: 2",
    );
    let errors = check_errors(&copy);
    for (needle, what) in [
        (
            "\"seven\"",
            "'columns' must be a whole number from 0 to 255",
        ),
        ("-3", "'count' must be a whole number from 0 to 65535"),
        ("foo", "unknown key 'foo'"),
        ("bar", "unknown key 'bar'"),
    ] {
        let place = yaml_place(&copy, needle);
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(&format!("{}{place}", copy_prefix(&copy)))
                    && e.contains(what)),
            "no '{what}' at {place}:\n{errors:#?}"
        );
    }
    assert_eq!(errors.len(), 4, "{errors:#?}");
}

/// The folder a [`PackageCopy`] lives in, as error lines start with it.
fn copy_prefix(copy: &PackageCopy) -> String {
    let root = copy.root.to_str().unwrap();
    root.strip_suffix("med-convoy").unwrap().to_string()
}

#[test]
fn check_reports_data_and_script_errors_together() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "zone: far_row }", "zone: farrow }");
    let text = copy.read("rules.lua");
    copy.write("rules.lua", &format!("{text}x = = 1\n"));
    let errors = check_errors(&copy).join("\n");
    assert!(errors.contains("unknown zone 'farrow'"), "{errors}");
    assert!(errors.contains("rules.lua:"), "{errors}");
}

#[test]
fn check_names_the_file_and_the_problem_of_a_yaml_syntax_error() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "flow: [setup, sailing]",
        "flow: [setup, sailing",
    );
    let errors = check_errors(&copy);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with(&format!("{}med-convoy/game.yaml:", copy_prefix(&copy))),
        "{errors:#?}"
    );
    assert!(!errors[0].contains("<input>"), "{errors:#?}");
}

#[test]
fn check_rejects_duplicate_option_ids_and_numbers() {
    let copy = PackageCopy::new();
    copy.replace("game.yaml", "id: merchants-collide", "id: no-backward");
    copy.replace("game.yaml", "number: 8", "number: 7");
    let errors = check_errors(&copy).join("\n");
    let text = copy.read("game.yaml");
    let second = |needle: &str| {
        let lines = text.lines().enumerate().filter(|(_, l)| l.contains(needle));
        lines.map(|(i, _)| i + 1).nth(1).unwrap()
    };
    let (id_line, number_line) = (second("id: no-backward"), second("number: 7"));
    assert!(
        errors.contains(&format!(
            "game.yaml:{id_line}:9: optional rule id 'no-backward'"
        )),
        "{errors}"
    );
    assert!(
        errors.contains(&format!(
            "game.yaml:{number_line}:13: optional rule number 7"
        )),
        "{errors}"
    );
}

#[test]
fn check_names_the_optional_rule_whose_configure_fails() {
    let copy = PackageCopy::new();
    copy.write(
        "options/no_backward.lua",
        "function configure(data)\n  error('no such board')\nend\n",
    );
    assert_check_fails(
        &copy,
        "options/no_backward.lua:2:",
        "the configure() of optional rule 6 (no-backward) failed",
    );
}

// ---------------------------------------------------------------- broken scenarios

/// A scenarios folder holding one scenario file for med-convoy.
fn scenario(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("med-convoy").join(format!("{name}.yaml"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

#[track_caller]
fn assert_scenario_fails(dir: &Path, file: &Path, name: &str, what: &str) {
    let by_id = portolan(&[
        "--scenarios",
        dir.to_str().unwrap(),
        "check",
        &format!("med-convoy/{name}"),
    ]);
    let by_path = portolan(&["check", file.to_str().unwrap()]);
    for o in [by_id, by_path] {
        let err = stderr(&o);
        assert!(!o.status.success());
        assert!(
            err.contains(&format!("{name}.yaml")),
            "the scenario is not named:\n{err}"
        );
        assert!(err.contains(what), "no '{what}' in:\n{err}");
    }
}

#[test]
fn check_names_a_scenario_with_an_unknown_override_key() {
    let text = "game: med-convoy\ntitle: Bad\noverrides:\n  pieces:\n    kinds:\n      Destroyer: { cnt: 2 }\n";
    let (dir, file) = scenario("bad-override", text);
    assert_scenario_fails(dir.path(), &file, "bad-override", "cnt");
}

#[test]
fn check_locates_a_bad_override_in_the_scenario_file() {
    let text = "game: med-convoy\ntitle: Bad\noverrides:\n  pieces:\n    kinds:\n      Destroyer: { cnt: 2 }\n      Cruiser: { count: many }\n";
    let (dir, file) = scenario("bad-override", text);
    assert_scenario_fails(
        dir.path(),
        &file,
        "bad-override",
        "bad-override.yaml:6:20: unknown key 'cnt': did you mean 'count'?",
    );
    assert_scenario_fails(
        dir.path(),
        &file,
        "bad-override",
        "bad-override.yaml:7:25: 'count' must be a whole number from 0 to 65535, not \"many\"",
    );
}

#[test]
fn check_locates_a_rule_function_a_scenario_names_but_no_script_defines() {
    let text = "game: med-convoy\ntitle: Bad\noverrides:\n  victory:\n    repetition: { count: 3, script: end_by_repetitio }\n";
    let (dir, file) = scenario("bad-script", text);
    assert_scenario_fails(
        dir.path(),
        &file,
        "bad-script",
        "bad-script.yaml:5:37: the data names the rule function 'end_by_repetitio'",
    );
}

#[test]
fn check_locates_a_compile_error_in_the_overrides_that_cause_it() {
    let text = "game: med-convoy\ntitle: Bad\noverrides:\n  phases:\n    setup:\n      quotas: { home_row: 7, secnd_row: 3 }\n";
    let (dir, file) = scenario("bad-quota", text);
    assert_scenario_fails(
        dir.path(),
        &file,
        "bad-quota",
        "bad-quota.yaml:6:41: phase 'setup' places into unknown zone 'secnd_row'",
    );
}

#[test]
fn check_locates_a_misspelt_name_in_the_overrides() {
    let text = "game: med-convoy\ntitle: Bad\noverrides:\n  victory:\n    reach: { kind: Merchant, zone: farrow }\n";
    let (dir, file) = scenario("bad-zone", text);
    assert_scenario_fails(
        dir.path(),
        &file,
        "bad-zone",
        "bad-zone.yaml:5:36: unknown zone 'farrow': did you mean 'far_row'?",
    );
}

#[test]
fn check_locates_an_unknown_scenario_key() {
    let (dir, file) = scenario("bad-key", "game: med-convoy\ntitle: Bad\nsetting: 3\n");
    assert_scenario_fails(dir.path(), &file, "bad-key", "bad-key.yaml:3:1");
}

#[test]
fn check_names_a_scenario_with_an_unknown_option() {
    let (dir, file) = scenario(
        "bad-option",
        "game: med-convoy\ntitle: Bad\noptions: [no-backwards]\n",
    );
    assert_scenario_fails(dir.path(), &file, "bad-option", "no-backwards");
}

#[test]
fn check_rejects_a_scenario_with_an_unknown_option() {
    let (dir, _) = scenario(
        "bad-option",
        "game: med-convoy\ntitle: Bad\noptions: [no-backwards]\n",
    );
    let o = portolan(&[
        "--scenarios",
        dir.path().to_str().unwrap(),
        "check",
        "med-convoy/bad-option",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("did you mean 'no-backward'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_reports_a_cycle_of_scenarios() {
    let (dir, file) = scenario("a", "game: med-convoy\ntitle: A\nextends: b\n");
    std::fs::write(
        file.with_file_name("b.yaml"),
        "game: med-convoy\ntitle: B\nextends: a\n",
    )
    .unwrap();
    let o = portolan(&[
        "--scenarios",
        dir.path().to_str().unwrap(),
        "check",
        "med-convoy/a",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cycle"), "{}", stderr(&o));
}

#[test]
fn check_locates_an_extends_of_an_unknown_scenario() {
    let (dir, file) = scenario("c", "game: med-convoy\ntitle: C\nextends: nowhere\n");
    assert_scenario_fails(
        dir.path(),
        &file,
        "c",
        "c.yaml:3:10: extends unknown scenario 'nowhere'",
    );
}

#[test]
fn simulate_rejects_an_unknown_option_with_the_known_ones() {
    let o = portolan(&[
        "simulate",
        "med-convoy",
        "--games",
        "5",
        "--option",
        "no-backwards",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("did you mean 'no-backward'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn simulate_zero_games_says_there_is_nothing_to_play() {
    let o = portolan(&["simulate", "med-convoy", "--games", "0", "--format", "json"]);
    assert!(!o.status.success());
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(stderr(&o).contains("nothing to play"), "{}", stderr(&o));
}

#[test]
fn simulate_refuses_zero_threads() {
    let o = portolan(&["simulate", "med-convoy", "--games", "5", "--threads", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--threads 1 or more"), "{}", stderr(&o));
}

#[test]
fn simulate_reports_the_threads_that_ran() {
    let few_games = simulate_json(&["--games", "3", "--threads", "100000"]);
    assert_eq!(few_games["threads"], 3, "one thread per game at most");
    let many_games = simulate_json(&["--games", "100", "--threads", "100000"]);
    assert_eq!(many_games["threads"], 64, "64 threads at most");
}

#[test]
fn scripts_that_print_leave_the_json_report_valid() {
    let copy = PackageCopy::new();
    let rules = copy.read("rules.lua");
    copy.write(
        "rules.lua",
        &format!(
            "print('loading the rules')\n{rules}\nlocal strike = rules.air_strike\nfunction rules.air_strike(player, cell)\n  print('strike on', cell)\n  return strike(player, cell)\nend\n"
        ),
    );
    let o = portolan(&[
        "simulate",
        copy.root.to_str().unwrap(),
        "--games",
        "50",
        "--format",
        "json",
    ]);
    assert_success(&o);
    let report: Value = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(&o)));
    assert_eq!(report["games"], 50);
}

// ---------------------------------------------------------------- folders and arguments

fn quit_file() -> tempfile::NamedTempFile {
    commands("quit\n")
}

/// A `--rules` folder that holds no packages would play the stock rules
/// without a word: each kind of wrong folder is refused, saying why.
#[test]
fn a_rules_folder_that_holds_no_packages_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.yaml");
    std::fs::write(&file, "id: x\n").unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let package = PackageCopy::new();
    let quit = quit_file();
    let cases = [
        (dir.path().join("missing"), "no such folder"),
        (file, "not a folder"),
        (package.root.clone(), "is a rules package itself"),
        (empty, "no rules package here"),
    ];
    for (rules, why) in cases {
        let rules = rules.to_str().unwrap();
        let o = portolan(&[
            "--rules",
            rules,
            "play",
            "med-convoy",
            "--commands",
            quit.path().to_str().unwrap(),
        ]);
        assert!(!o.status.success(), "--rules {rules} played");
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("--rules {rules}: ")) && err.contains(why),
            "{err}"
        );
    }
}

#[test]
fn the_rules_folder_named_by_the_environment_is_checked_too() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let o = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .arg("list")
        .env("PORTOLAN_RULES", &missing)
        .env_remove("PORTOLAN_SCENARIOS")
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("PORTOLAN_RULES=") && err.contains("no such folder"),
        "{err}"
    );
}

#[test]
fn a_scenarios_folder_that_holds_no_scenarios_is_refused() {
    let o = portolan(&["--scenarios", "scenarios/med-convoy", "list"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("give the folder above it"),
        "{}",
        stderr(&o)
    );
    let o = portolan(&["--scenarios", "no-such-folder", "list"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no such folder"), "{}", stderr(&o));
}

#[test]
fn an_option_written_without_option_gets_the_right_spelling() {
    for (word, hint) in [
        ("-no-backward", "write --option -no-backward"),
        ("+no-backward", "write --option no-backward"),
    ] {
        let o = portolan(&["simulate", "med-convoy", word]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(hint), "{word}: {}", stderr(&o));
    }
}

#[test]
fn option_flags_switch_rules_on_and_off() {
    let on = simulate_json(&["--games", "5", "--option", "+no-backward"]);
    assert_eq!(on["options"], serde_json::json!(["no-backward"]));
    let o = portolan(&[
        "simulate",
        "med-convoy/wolfpack",
        "--games",
        "5",
        "--format",
        "json",
        "--option",
        "-land-centre",
    ]);
    assert_success(&o);
    let off: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        off["options"],
        serde_json::json!([]),
        "the scenario's option is off"
    );
}

/// A number of games too large to keep is refused before anything is
/// allocated for it (it used to abort on a capacity overflow).
#[test]
fn too_many_games_are_refused_with_the_limit() {
    for args in [
        ["simulate", "med-convoy", "--games", "18446744073709551615"],
        ["balance", "med-convoy", "--games", "10000000001"],
    ] {
        let o = portolan(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("at most 10000000 games"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

// ---------------------------------------------------------------- output

/// `portolan list | head -1`: the reader is gone before anything is
/// written. Each command ends quietly: no panic, no error, exit 0.
#[test]
fn output_to_a_closed_pipe_ends_quietly() {
    let work = tempfile::tempdir().unwrap();
    let script = work.path().join("commands.txt");
    std::fs::write(&script, "board\nmoves\n").unwrap();
    let script = script.to_str().unwrap();
    let commands: [&[&str]; 4] = [
        &["list"],
        &["check", "med-convoy"],
        &["simulate", "med-convoy", "--games", "2", "--format", "json"],
        &["play", "med-convoy", "--commands", script],
    ];
    for args in commands {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = binary(args).stdout(writer).output().unwrap();
        assert_success(&o);
        assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn text_from_a_package_reaches_the_terminal_escaped() {
    let copy = PackageCopy::new();
    copy.replace(
        "game.yaml",
        "title: Mediterranean Convoy",
        "title: \"Convoy\\e[2J\\a\"",
    );
    let rules = copy.root.parent().unwrap().to_str().unwrap();
    let o = portolan(&["--rules", rules, "list"]);
    assert_success(&o);
    let out = stdout(&o);
    assert!(!out.contains(['\u{1b}', '\u{7}']), "{out:?}");
    assert!(out.contains("Convoy\\u001b[2J\\u0007"), "{out}");
}

#[test]
fn a_huge_wrong_value_is_echoed_cut() {
    let huge = format!("{}\u{1b}", "x".repeat(100_000));
    let o = portolan(&["simulate", "med-convoy", "--option", &huge]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("unknown optional rule 'xxx"),
        "{}",
        &err[..200]
    );
    assert!(err.len() < 10_000, "{} bytes echoed", err.len());
    assert!(!err.contains('\u{1b}'));
}

// ---------------------------------------------------------------- play

fn commands(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

#[test]
fn play_with_two_bots_runs_to_the_end_and_quits() {
    let file = commands("quit\n");
    let o = portolan(&[
        "play",
        "med-convoy",
        "--seed",
        "5",
        "--seat",
        "blue=random",
        "--seat",
        "red=random",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    assert_success(&o);
    let out = stdout(&o);
    assert!(out.contains("wins") || out.contains("no winner"), "{out}");
    // The same seed replays the same game.
    let again = portolan(&[
        "play",
        "med-convoy",
        "--seed",
        "5",
        "--seat",
        "blue=random",
        "--seat",
        "red=random",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    assert_eq!(out, stdout(&again));
}

#[test]
fn play_lists_moves_for_a_human_seat_and_rejects_an_illegal_one() {
    let file = commands("moves\nz9 z8\nquit\n");
    let o = portolan(&[
        "play",
        "med-convoy",
        "--seed",
        "5",
        "--seat",
        "blue=human",
        "--seat",
        "red=human",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    // A command file with a failed command exits with a failure status.
    assert_eq!(o.status.code(), Some(1));
    let errors = String::from_utf8_lossy(&o.stderr);
    assert!(
        errors.contains("1 command failed (the first at line 2: z9 z8)"),
        "{errors}"
    );
    let out = stdout(&o);
    assert!(
        out.contains("place"),
        "set-up placements are listed:\n{out}"
    );
    assert!(out.contains("not a legal action"), "{out}");
}

#[test]
fn play_rejects_a_seat_for_an_unknown_player() {
    let file = commands("quit\n");
    let o = portolan(&[
        "play",
        "med-convoy",
        "--seat",
        "green=random",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("green"), "{}", stderr(&o));
}

#[test]
fn play_rejects_an_unknown_bot() {
    let file = commands("quit\n");
    let o = portolan(&[
        "play",
        "med-convoy",
        "--seat",
        "blue=robot",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("robot"), "{}", stderr(&o));
}

/// Lua's string hashes are seeded by the build (.cargo/config.toml), not by
/// the clock, so `pairs` visits string keys in the same order in every
/// process and a rules script that iterates with it still replays exactly.
#[test]
fn lua_pairs_order_is_the_same_in_every_process() {
    let dir = tempfile::tempdir().unwrap();
    let commands = dir.path().join("pairs.txt");
    std::fs::write(
        &commands,
        "lua (function() local t = {} for i = 1, 40 do t['k' .. i] = i end local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ',') end)()\nyes\nquit\n",
    )
    .unwrap();
    let order = || {
        let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
            .args([
                "play",
                "med-convoy",
                "--seed",
                "1",
                "--commands",
                commands.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines()
            .find(|l| l.starts_with("\"k"))
            .map(String::from)
            .expect("the lua command answered")
    };
    assert_eq!(order(), order());
}

#[test]
fn a_failing_status_hook_makes_a_command_file_fail() {
    let copy = PackageCopy::new();
    let rules = copy.read("rules.lua");
    copy.write(
        "rules.lua",
        &format!("{rules}\nfunction rules.status()\n  error(nil)\nend\n"),
    );
    let file = commands("board\n");
    let o = portolan(&[
        "play",
        copy.root.to_str().unwrap(),
        "--seed",
        "5",
        "--commands",
        file.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let errors = stderr(&o);
    assert!(
        errors.contains("commands failed") && errors.contains("(the opening position)"),
        "{errors}"
    );
    let out = stdout(&o);
    let line = rules.lines().count() + 3;
    assert!(
        out.contains(&format!("rules.lua:{line}: error(nil)")),
        "the failure names its line:\n{out}"
    );
}

#[test]
fn a_scenario_typo_is_the_only_error_reported() {
    let text = "game: med-convoy\ntitle: Typo\ndescriptoin: one key misspelt\noverrides:\n  pieces:\n    kinds:\n      Destroyer: { short: No }\n";
    let (dir, file) = scenario("typo", text);
    assert_scenario_fails(dir.path(), &file, "typo", "unknown key 'descriptoin'");
    let o = portolan(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(
        err.lines().filter(|l| l.contains("typo.yaml")).count(),
        1,
        "{err}"
    );
    assert!(!err.contains("span-aware"), "{err}");
}

/// A scenario's `tables` override may change only what game.yaml declares,
/// with the same kind of value: a misspelt key would change nothing, and a
/// word for a number would fail deep in a rule.
#[test]
fn a_tables_override_the_game_does_not_declare_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mediterranea").join("short.yaml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "game: mediterranea\ntitle: Short\noverrides:\n  tables:\n    scenario:\n      last_trun: 4\n      first_turn: four\n",
    )
    .unwrap();
    let o = portolan(&["check", file.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("short.yaml:6:7: 'last_trun' is not in the game's tables.scenario")
            && err.contains("did you mean 'last_turn'?"),
        "{err}"
    );
    assert!(
        err.contains("short.yaml:7:7: 'first_turn' must be a number as in game.yaml, not text"),
        "{err}"
    );
}
