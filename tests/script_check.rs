//! `portolan check` reads every script of a package for mistakes that
//! Lua reports only when the faulty line runs: misspelt API and module
//! names, undefined globals, globals written inside rules. The stock
//! packages and the documented example have none; each mistake put into a
//! copy of a stock package is reported at its file, line and column.

#[path = "common/package.rs"]
mod package;

use package::PackageCopy;
use std::path::PathBuf;
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(target: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(["check", target])
        .current_dir(repo())
        .env_remove("PORTOLAN_RULES")
        .env_remove("PORTOLAN_SCENARIOS")
        .output()
        .expect("the binary runs")
}

/// The lines `check` prints on standard error.
fn errors(copy: &PackageCopy) -> Vec<String> {
    let o = check(copy.root.to_str().unwrap());
    assert!(!o.status.success(), "check should fail");
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// `<copy>/<file>:<line>:<col>:` of the first `needle` in a file.
fn place(copy: &PackageCopy, file: &str, needle: &str) -> String {
    let (line, col) = copy.position_of(file, needle);
    format!("{}:{line}:{col}:", copy.path(file).display())
}

#[test]
fn the_stock_packages_and_the_documented_example_have_no_findings() {
    let targets = [
        "med-convoy",
        "mediterranea",
        "solo-convoy",
        "treasure-fleet",
        "docs/examples/secret-sampler",
    ];
    for target in targets {
        let o = check(target);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.contains("ok  scripts of"),
            "{target}:\n{out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_misspelt_module_function_is_reported_where_it_is_used() {
    let copy = PackageCopy::of("mediterranea");
    copy.replace(
        "rules.lua",
        "run = combat.order_run",
        "run = combat.order_rnu",
    );
    let at = place(&copy, "rules.lua", "order_rnu");
    let errors = errors(&copy);
    let found = errors.iter().find(|e| e.starts_with(&at));
    let found = found.unwrap_or_else(|| panic!("no error at {at}:\n{errors:#?}"));
    assert!(
        found.contains("module 'lib.combat' (lib/combat.lua) has no 'order_rnu'")
            && found.contains("did you mean 'order_run'?"),
        "{found}"
    );
}

#[test]
fn a_misspelt_api_function_in_a_module_is_reported_at_its_line() {
    let copy = PackageCopy::of("mediterranea");
    let text = copy.read("lib/combat.lua");
    let first = text.find("dice.roll(").expect("combat.lua rolls dice");
    let broken = format!("{}dice.rol({}", &text[..first], &text[first + 10..]);
    copy.write("lib/combat.lua", &broken);
    let at = place(&copy, "lib/combat.lua", "rol(");
    let errors = errors(&copy);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with(&at) && e.contains("'dice.rol'") && e.contains("'roll'")),
        "no error at {at}:\n{errors:#?}"
    );
}

#[test]
fn a_global_written_in_a_rule_and_an_undefined_one_are_reported() {
    let copy = PackageCopy::new();
    let rules = copy.read("rules.lua");
    copy.write(
        "rules.lua",
        &format!("{rules}\nfunction rules.tally()\n  strikes = 1\n  return strikse\nend\n"),
    );
    let errors = errors(&copy);
    let write = place(&copy, "rules.lua", "strikes = 1");
    let read = place(&copy, "rules.lua", "strikse");
    assert!(
        errors.iter().any(|e| e.starts_with(&write)
            && e.contains("global 'strikes' is written inside a function")),
        "no error at {write}:\n{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with(&read) && e.contains("'strikse' is not defined")),
        "no error at {read}:\n{errors:#?}"
    );
    let outside = ["DESIGN", "principle", "selene", "luacheck"];
    for e in &errors {
        assert!(
            !outside.iter().any(|w| e.contains(w)),
            "cites outside the repository: {e}"
        );
    }
}
