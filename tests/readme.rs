//! The README's examples must keep working: its minimal package passes
//! `check` and plays, and its scenario example loads.

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The YAML block that follows a marker sentence in the README.
fn yaml_after(marker: &str) -> String {
    let text = readme();
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("README lost '{marker}'"));
    let block = &text[start..];
    let open = block.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let close = block[open..].find("```").expect("the block ends");
    block[open..open + close].to_string()
}

fn portolan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_minimal_package_checks_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("skirmish");
    std::fs::create_dir(&package).unwrap();
    std::fs::write(package.join("game.yaml"), yaml_after("A minimal\ngame:")).unwrap();
    let check = portolan(&["check", package.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let sim = portolan(&[
        "simulate",
        package.to_str().unwrap(),
        "--games",
        "50",
        "--format",
        "json",
    ]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
    assert_eq!(report["games"], 50);
}

#[test]
fn the_scenario_example_loads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wolfpack.yaml");
    std::fs::write(&file, yaml_after("it may extend another scenario:")).unwrap();
    let check = portolan(&["check", file.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}
