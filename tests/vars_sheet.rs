//! `vars.sheet` and `vars.slots`: game variables that the rules read and
//! write as a plain array. The kernel must still hold every variable
//! whenever no rule runs, every way of reading a variable must see one
//! value, and what the kernel cannot hold must be refused, as with
//! `vars.set`.

#[allow(dead_code)]
mod common;

use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::script_data::Scope;
use portolan::kernel::state::GameState;
use portolan::kernel::value::Value;
use tempfile::TempDir;

/// One player, one scripted phase that offers `go` until `rules.done()`
/// says it is over; `rules.lua` is the test's.
const GAME: &str = "\
id: sheet-probe
title: Sheet probe
players:
  - { id: one }
phases:
  play: { kind: script }
flow: [play]
max_plies: 50
scripts: [rules.lua]
";

/// A package whose `prepare()` lays out `count`, `name` and `flag` (slots
/// 1 to 3, in that order), then runs `setup`; each choice runs `step`.
fn package(setup: &str, step: &str) -> (TempDir, Engine) {
    let rules = format!(
        "local sheet = vars.sheet\n\
         local at\n\
         function prepare()\n\
           at = vars.slots {{ 'count', 'name', 'flag' }}\n\
           {setup}\n\
         end\n\
         phases.play = {{}}\n\
         function phases.play.run(frame)\n\
           if frame.step >= 3 then game.finish {{ scores = {{ one = 0 }} }} return nil end\n\
           return {{ 'go' }}\n\
         end\n\
         function phases.play.choose(frame)\n\
           frame.step = frame.step + 1\n\
           {step}\n\
         end\n"
    );
    common::temp_package("sheet-probe", GAME, &rules)
}

fn var(state: &GameState, name: &str) -> Option<Value> {
    state.vars().get(name).cloned()
}

fn go(engine: &Engine, state: &mut GameState) -> Result<(), String> {
    engine.apply(state, Action::Choice(0)).map_err(|e| e.0)
}

#[test]
fn the_kernel_holds_what_the_rules_wrote_in_the_sheet_when_the_call_returns() {
    let (_dir, engine) = package(
        "",
        "sheet[at.count] = (sheet[at.count] or 0) + 1\n\
         sheet[at.name] = 'turn ' .. sheet[at.count]\n\
         sheet[at.flag] = not sheet[at.flag]",
    );
    let mut state = engine.new_game(1).unwrap();
    go(&engine, &mut state).unwrap();
    assert_eq!(var(&state, "count"), Some(Value::Int(1)));
    assert_eq!(var(&state, "name"), Some(Value::Str("turn 1".into())));
    assert_eq!(var(&state, "flag"), Some(Value::Bool(true)));
    // A clone goes on from the state, whatever another game did meanwhile.
    let mut clone = state.clone();
    engine.new_game(2).unwrap();
    go(&engine, &mut state).unwrap();
    go(&engine, &mut clone).unwrap();
    for s in [&state, &clone] {
        assert_eq!(var(s, "count"), Some(Value::Int(2)));
        assert_eq!(var(s, "name"), Some(Value::Str("turn 2".into())));
        assert_eq!(var(s, "flag"), Some(Value::Bool(false)));
    }
    // A state read back from its save plays on the same.
    let mut read: GameState =
        serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    read.rebuild_index(engine.game.board.len());
    go(&engine, &mut read).unwrap();
    assert_eq!(var(&read, "count"), Some(Value::Int(3)));
}

#[test]
fn every_way_of_reading_and_writing_a_laid_out_variable_sees_one_value() {
    let (_dir, engine) = package(
        "",
        "sheet[at.count] = 5\n\
         assert(vars.get('count') == 5 and vars.game.count == 5)\n\
         vars.set('count', 7)\n\
         assert(sheet[at.count] == 7)\n\
         assert(vars.add('count', 1) == 8 and sheet[at.count] == 8)\n\
         vars.game.count = 9\n\
         assert(sheet[at.count] == 9 and vars.get('count') == 9)\n\
         vars.set('name', 'by name')\n\
         assert(sheet[at.name] == 'by name')\n\
         sheet[at.name] = nil\n\
         assert(vars.get('name') == nil and vars.game.name == nil)\n\
         vars.set('other', 1)\n\
         assert(vars.game.other == 1)",
    );
    let mut state = engine.new_game(1).unwrap();
    go(&engine, &mut state).unwrap();
    assert_eq!(var(&state, "count"), Some(Value::Int(9)));
    assert_eq!(var(&state, "name"), None);
    assert_eq!(var(&state, "other"), Some(Value::Int(1)));
}

#[test]
fn a_value_the_kernel_cannot_hold_is_refused_when_the_call_returns() {
    for (value, wanted) in [
        ("{}", "vars.sheet[1] ('count') holds a table"),
        ("1.5", "holds 1.5, not a whole number"),
        ("print", "holds a function"),
        // Text is read in memory when it can be: bytes that are not UTF-8
        // are still refused.
        ("'caf\\xe9'", "holds text that is not UTF-8"),
    ] {
        let (_dir, engine) = package(
            "",
            &format!(
                "if frame.step == 1 then sheet[at.count] = 1 else sheet[at.count] = {value} end"
            ),
        );
        let mut state = engine.new_game(1).unwrap();
        go(&engine, &mut state).unwrap();
        let err = go(&engine, &mut state.clone()).unwrap_err();
        assert!(err.contains(wanted), "{value}: {err}");
        // The sheet is loaded again from the kernel, which kept 1.
        assert_eq!(var(&state, "count"), Some(Value::Int(1)));
    }
    // A whole float is kept as the integer it equals; text longer than
    // Lua interns is kept whole.
    let (_dir, engine) = package(
        "",
        "sheet[at.count] = 2.0\n\
         sheet[at.name] = string.rep('long ', 12)",
    );
    let mut state = engine.new_game(1).unwrap();
    go(&engine, &mut state).unwrap();
    assert_eq!(var(&state, "count"), Some(Value::Int(2)));
    assert_eq!(var(&state, "name"), Some(Value::Str("long ".repeat(12))));
}

#[test]
fn the_sheet_refuses_keys_it_has_no_slot_for_and_rawset() {
    for (code, wanted) in [
        (
            "sheet.extra = 1",
            "vars.sheet has slots 1 to 3: 'extra' is not one of them",
        ),
        (
            "sheet[4] = 1",
            "vars.sheet has slots 1 to 3: 4 is not one of them",
        ),
        ("local n = #sheet", "vars.sheet has no length"),
        ("table.insert(sheet, 1)", "vars.sheet has no length"),
        ("local n = rawlen(sheet)", "vars.sheet has no length"),
        ("rawset(sheet, 1, 2)", "rawset cannot write vars.sheet"),
        ("setmetatable(sheet, nil)", "protected metatable"),
        (
            "vars.slots { 'late' }",
            "the sheet is laid out while the package loads",
        ),
        ("local x = at.cuont", "no slot for cuont"),
    ] {
        let (_dir, engine) = package("", code);
        let mut state = engine.new_game(1).unwrap();
        let err = go(&engine, &mut state).unwrap_err();
        assert!(err.contains(wanted), "{code}: {err}");
        assert!(
            err.contains("rules.lua:"),
            "{code}: the error names the line: {err}"
        );
    }
}

#[test]
fn the_sheet_holds_no_game_while_the_package_loads() {
    let (_dir, engine) = package(
        "assert(vars.get('count') == nil)\n\
         assert(not pcall(vars.set, 'count', 1), 'no game is lent to write')",
        "",
    );
    engine.new_game(1).unwrap();
}

#[test]
fn laying_out_names_the_wrong_things_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("sheet-probe");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("game.yaml"), GAME).unwrap();
    let refused = |setup: &str| {
        let rules =
            format!("{setup}\nphases.play = {{}}\nfunction phases.play.run() return nil end\n");
        std::fs::write(root.join("rules.lua"), rules).unwrap();
        common::load_error(&root.to_string_lossy())
    };
    let err = refused("function prepare() vars.slots { 'a', 7 } end");
    assert!(
        err.contains("vars.slots: item 2 is not a variable's name: names are strings, not integer"),
        "{err}"
    );
    let err = refused("rawset(vars.sheet, 'memo', {})\nfunction prepare() vars.slots { 'a' } end");
    assert!(err.contains("vars.sheet holds the key memo"), "{err}");
}

#[test]
fn the_sheet_keeps_nothing_from_one_game_to_the_next() {
    let (_dir, engine) = package(
        "",
        "assert(sheet[at.count] == nil, 'a new game starts with an empty sheet')\n\
         sheet[at.count] = 42",
    );
    for seed in 1..4 {
        let mut state = engine.new_game(seed).unwrap();
        go(&engine, &mut state).unwrap();
        assert_eq!(var(&state, "count"), Some(Value::Int(42)));
    }
}

#[test]
fn what_the_sheet_holds_counts_against_the_kernels_data_limit() {
    let (_dir, engine) = package(
        "for i = 1, 20 do vars.slots { 'big' .. i } end",
        "if frame.step == 2 and not sheet[at.flag] then\n\
           local big = string.rep('x', 1024 * 1024)\n\
           for i = 4, 23 do sheet[i] = big end\n\
         else\n\
           local n = 0\n\
           for i = 4, 23 do if sheet[i] then n = n + 1 end end\n\
           sheet[at.count] = n\n\
         end",
    );
    let mut state = engine.new_game(1).unwrap();
    go(&engine, &mut state).unwrap();
    let mut refused = state.clone();
    let err = go(&engine, &mut refused).unwrap_err();
    assert!(err.contains("would take more than"), "{err}");
    assert!(err.contains("('big10' grew the most)"), "{err}");
    // None of the sheet's values is kept: the limit applies to them all.
    assert!((1..=20).all(|i| var(&refused, &format!("big{i}")).is_none()));
    // The next call on the state before it starts from what that state
    // holds, not from what the refused call left in the sheet.
    state
        .set_script_var(Scope::Game, "flag", Some(Value::Bool(true)), usize::MAX)
        .unwrap();
    go(&engine, &mut state).unwrap();
    assert_eq!(var(&state, "count"), Some(Value::Int(0)));
}
