//! Data tables answer a misspelt key with an error at the line that read
//! it, naming the table, the key, the file and the nearest key (issue 21,
//! item 4); `rawget` reads an optional key, and lists end at `nil` as Lua
//! lists do.

#[allow(dead_code)]
mod common;

use portolan::kernel::value::Value;

const GAME: &str = "id: tables-probe\ntitle: Tables probe\n\
    players: [{ id: blue, name: Blue }, { id: red, name: Red }]\n\
    phases: { p: { kind: script } }\nflow: [p]\n\
    tables: { combat: { leader_hrc: 2, terrain: { hills: 1 } }, list: [1, 2, 3] }\n\
    scripts: [rules.lua]\n";

/// A package whose one phase runs `body`, then ends the game.
fn package(body: &str) -> (tempfile::TempDir, portolan::kernel::engine::Engine) {
    let rules = format!(
        "phases.p = {{ run = function(frame)\n{body}\n  game.finish{{ winner = \"blue\", reason = \"done\" }}\nend }}\n"
    );
    common::temp_package("tables-probe", GAME, &rules)
}

#[test]
fn a_misspelt_key_stops_the_rule_at_its_line_with_the_nearest_key() {
    let (_dir, engine) = package("  local bonus = tables.combat.leader_hre + 1");
    let err = engine.new_game(1).expect_err("a missing key is an error").0;
    for want in [
        "rules.lua:2",
        "tables.combat has no key \"leader_hre\"",
        "game.yaml, under tables",
        "did you mean 'leader_hrc'?",
        "rawget(tables.combat, \"leader_hre\")",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
    let (_dir, engine) = package("  local x = tables.combat.terrain.swamp");
    let err = engine.new_game(1).expect_err("nested too").0;
    assert!(
        err.contains("tables.combat.terrain has no key \"swamp\"") && err.contains("hills"),
        "{err}"
    );
}

#[test]
fn rawget_reads_an_optional_key_and_lists_end_at_nil() {
    let (_dir, engine) = package(
        "  local n = 0\n  for _, v in ipairs(tables.list) do n = n + v end\n\
         \x20 if tables.list[#tables.list + 1] == nil then n = n + 100 end\n\
         \x20 vars.set(\"n\", n)\n\
         \x20 vars.set(\"absent\", rawget(tables.combat, \"leader_hre\") == nil)",
    );
    let state = engine.new_game(1).expect("optional reads are no error");
    assert_eq!(state.vars().get("n"), Some(&Value::Int(106)));
    assert_eq!(state.vars().get("absent"), Some(&Value::Bool(true)));
}
