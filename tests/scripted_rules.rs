//! What the Lua host guarantees any package, hostile or careless: every
//! game starts from the same script state (rules keep nothing between
//! calls), scripts cannot change the API, no argument can make the host
//! panic, and what scripts keep in the kernel is bounded.
//!
//! Each test writes a small package of its own (a probe game with one
//! scripted phase) into a temporary folder.

use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::state::GameState;
use portolan::kernel::value::Value;
use portolan::load::{Request, load};
use portolan::sim::{self, Run};
use std::fs;
use tempfile::TempDir;

/// The probe game: two players pick `a` or `b` three times each; the
/// rules script `rules` decides the rest. `phases.play` is the rules'.
const GAME: &str = "\
id: probe
title: Probe
players:
  - { id: one }
  - { id: two }
phases:
  play: { kind: script }
flow: [play]
max_plies: 50
tables:
  coin: { dice: 1D6, rows: [{ roll: [1, 3], result: low }, { roll: [4, 6], result: high }] }
scripts: [rules.lua]
";

/// A probe whose `play` phase offers a or b six times, then ends the game
/// with a score computed by `score` (Lua code evaluating to a number, run
/// with `frame` in scope at the end).
fn probe_rules(before: &str, score: &str) -> String {
    format!(
        "{before}\n\
         phases.play = {{}}\n\
         function phases.play.run(frame)\n\
           if frame.step >= 6 then\n\
             game.finish {{ scores = {{ one = {score}, two = 0 }} }}\n\
             return nil\n\
           end\n\
           return {{ 'a', 'b' }}\n\
         end\n\
         function phases.play.choose(frame, choice)\n\
           frame.step = frame.step + 1\n\
           vars.add(choice, dice.roll('1D6'))\n\
           frame.player = game.next_player(frame.player)\n\
         end\n"
    )
}

struct Probe {
    _dir: TempDir,
    root: String,
}

fn probe(rules: &str) -> Probe {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path().join("probe");
    fs::create_dir_all(&root).unwrap();
    fs::write(root.join("game.yaml"), GAME).unwrap();
    fs::write(root.join("rules.lua"), rules).unwrap();
    Probe {
        root: root.to_string_lossy().into_owned(),
        _dir: dir,
    }
}

/// Gives the probe a piece kind `x` with no pieces, for scripts to create.
fn with_piece_kind_x(p: &Probe) {
    let game = fs::read_to_string(format!("{}/game.yaml", p.root)).unwrap();
    fs::write(
        format!("{}/game.yaml", p.root),
        game.replace("phases:", "pieces:\n  kinds:\n    x: { count: 0 }\nphases:"),
    )
    .unwrap();
}

fn load_probe(p: &Probe) -> Result<Engine, String> {
    let request = Request {
        target: p.root.clone(),
        options: vec![],
        overlays: vec![],
    };
    load(&Catalog::embedded(), &request)
        .map(|l| l.engine)
        .map_err(|e| e.to_string())
}

fn simulate(p: &Probe, threads: usize) -> Result<Vec<i64>, String> {
    let run = Run::new(40, 7, threads, vec!["random".into()]);
    let (results, _, _) = sim::run(|| load_probe(p), &run)?;
    Ok(results.iter().map(|r| r.outcome.scores[0]).collect())
}

/// Plays a game to its end, each player taking its first choice.
fn play_out(engine: &Engine) -> Result<GameState, String> {
    let mut state = engine.new_game(3).map_err(|e| e.0)?;
    while engine.to_move(&state).is_some() {
        engine
            .apply(&mut state, Action::Choice(0))
            .map_err(|e| e.0)?;
    }
    Ok(state)
}

#[test]
fn an_honest_probe_plays_the_same_for_any_thread_count() {
    let p = probe(&probe_rules(
        "",
        "(vars.get('a') or 0) + (vars.get('b') or 0)",
    ));
    let one = simulate(&p, 1).expect("the probe plays");
    assert_eq!(simulate(&p, 2).unwrap(), one);
    assert_eq!(simulate(&p, 4).unwrap(), one);
}

#[test]
fn a_rule_writing_a_global_is_refused_at_its_line() {
    let p = probe(&probe_rules(
        "",
        "(function() count = (count or 0) + 1 return count end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let err = play_out(&engine).unwrap_err();
    assert!(err.contains("rules.lua:5:"), "{err}");
    assert!(err.contains("cannot set global \"count\""), "{err}");
    // The same error, whatever the thread count: never a thread-dependent result.
    for threads in [1, 2, 4] {
        let e = simulate(&p, threads).unwrap_err();
        assert!(e.contains("cannot set global \"count\""), "{threads}: {e}");
    }
}

#[test]
fn a_file_local_kept_between_calls_is_refused_when_the_package_loads() {
    let p = probe(&probe_rules(
        "local count = 0\nlocal function bump() count = count + 1 return count end",
        "bump()",
    ));
    let err = load_probe(&p).err().expect("the package is refused");
    assert!(err.contains("rules.lua:2:"), "{err}");
    assert!(err.contains("'count'"), "{err}");
}

#[test]
fn a_change_to_a_table_of_the_package_is_undone_and_reported() {
    let p = probe(&probe_rules(
        "local memory = { count = 0 }",
        "(function() memory.count = memory.count + 1 return memory.count end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let first = play_out(&engine).expect("a game plays");
    let err = engine.check_scripts().unwrap_err().0;
    assert!(err.contains(".count was changed during a game"), "{err}");
    // Undone: the next game starts from the state the package loaded in.
    let second = play_out(&engine).expect("a game plays");
    assert_eq!(second.result, first.result);
    // A simulation that meets it fails, rather than report games that
    // depended on each other.
    let e = simulate(&p, 2).unwrap_err();
    assert!(e.contains("was changed during a game"), "{e}");
}

#[test]
fn a_coroutine_made_while_loading_is_refused() {
    let p = probe(&probe_rules(
        "local worker = coroutine.wrap(function() while true do coroutine.yield(1) end end)\n\
         rules.steps = { coroutine.create(function() end) }",
        "worker()",
    ));
    let err = load_probe(&p).err().expect("the package is refused");
    assert!(
        err.contains("rules.steps[1] is a coroutine made while the package loads"),
        "{err}"
    );
}

#[test]
fn api_tables_cannot_be_changed_by_rawset_or_metatable_tricks() {
    for (trick, says) in [
        ("rawset(pieces, 'at', nil)", "cannot set field \"at\""),
        ("pieces.at = print", "cannot set field \"at\""),
        ("setmetatable(vars, {})", "protected metatable"),
        ("getmetatable(dice).__index = {}", "attempt to index"),
        ("rawset(_G, 'vars', {})", "cannot set global \"vars\""),
        ("string.find = nil", "cannot set field \"find\""),
        ("rawset(rules, 'x', 1)", "cannot set field \"x\""),
        ("rawset(vars.game, 'a', 99)", "cannot set field \"a\""),
        ("setmetatable(vars.game, {})", "protected metatable"),
        (
            "for k in pairs(vars.game) do end",
            "vars.game cannot be walked",
        ),
        ("vars.game[1] = 2", "bad argument #1 to 'vars.game'"),
        ("vars.game.a = {}", "bad argument #2 to 'vars.game'"),
    ] {
        let p = probe(&probe_rules(
            "",
            &format!("(function() {trick} return 1 end)()"),
        ));
        let engine = load_probe(&p).expect("the package loads");
        let err = play_out(&engine).unwrap_err();
        assert!(err.contains(says), "{trick}: {err}");
        // Nothing changed: an honest game still plays.
        let honest = probe(&probe_rules("", "1"));
        assert!(play_out(&load_probe(&honest).unwrap()).is_ok());
    }
}

/// Arguments no API function expects: metatables that call the API back,
/// cycles, huge and NaN numbers, wrong types.
const HOSTILE_ARGUMENTS: &str = "
local reentrant = setmetatable({}, {
  __index = function(t, k) vars.set('x', 1) return pieces.at('reserve') end,
  __len = function() return game.ply() end,
  __tostring = function() return vars.get('x') end,
})
local cycle = {}
cycle.self = cycle
return {
  reentrant, cycle, 0 / 0, math.huge, -math.huge, math.maxinteger, math.mininteger,
  2^63, -1, 0, 1e308, '', string.rep('x', 10000), '\\0\\255', true, false,
  print, coroutine.create(function() end), {}, { 1, 2, 3 }, 'reserve', 'one',
}
";

#[test]
fn no_api_function_panics_whatever_its_arguments() {
    let caller = format!(
        "local function try_all()\n\
           local hostile = (function() {HOSTILE_ARGUMENTS} end)()\n\
           local calls = 0\n\
           for _, area in ipairs {{ 'board', 'pieces', 'dice', 'game', 'vars', 'math', 'cards', 'table' }} do\n\
             for name, f in pairs(_ENV[area]) do\n\
               if type(f) == 'function' and name ~= 'finish' then\n\
                 for i, a in ipairs(hostile) do\n\
                   pcall(f, a)\n\
                   for j = 1, #hostile, 3 do\n\
                     pcall(f, hostile[j], a, hostile[i % #hostile + 1])\n\
                     calls = calls + 1\n\
                   end\n\
                 end\n\
               end\n\
             end\n\
           end\n\
           for _, k in ipairs(hostile) do\n\
             for _, v in ipairs(hostile) do\n\
               pcall(function() vars.game[k] = v end)\n\
               pcall(function() return vars.game[k] end)\n\
               calls = calls + 1\n\
             end\n\
           end\n\
           return calls\n\
         end"
    );
    let p = probe(&probe_rules(&caller, "try_all()"));
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("every call returned or raised a Lua error");
    assert!(
        state.result.unwrap().scores[0] > 1000,
        "the calls were made"
    );
}

#[test]
fn an_api_call_from_a_metamethod_inside_an_api_call_is_a_lua_error_or_works() {
    let p = probe(&probe_rules(
        "local ctx = setmetatable({}, { __index = function(_, k)\n\
           vars.set('seen', true) return 1 end, __pairs = function(t)\n\
           vars.set('walked', true) return next, {}, nil end })",
        "(function() pcall(game.push_phase, 'play', 'one', ctx) return 1 end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    play_out(&engine).expect("a metamethod may call the API while its arguments are read");
}

#[test]
fn a_filter_is_read_as_data() {
    let p = probe(&probe_rules(
        "local filter = setmetatable({}, { __index = function(_, k)\n\
           vars.set('seen', true) return 'one' end })",
        "(function()\n\
           local mine = pieces.create('x', 'one', 'reserve')\n\
           pieces.create('x', 'two', 'reserve')\n\
           assert(#pieces.list { owner = 'one' } == 1 and pieces.list { owner = 'one' }[1] == mine)\n\
           -- No metamethod runs: the filter is empty, so every piece comes back.\n\
           assert(#pieces.list(filter) == 2 and #pieces.all() == 2 and vars.get('seen') == nil)\n\
           assert(#pieces.list() == #pieces.all())\n\
           local ok, err = pcall(pieces.list, { kind = 3 })\n\
           assert(not ok and err:find(\"bad field 'kind' in argument #1 to 'pieces.list'\"), err)\n\
           ok, err = pcall(pieces.list, 'x')\n\
           assert(not ok and err:find('table or nil expected'), err)\n\
           ok, err = pcall(pieces.list, { owner = 'nobody' })\n\
           assert(not ok and err:find(\"no player 'nobody'\"), err)\n\
           assert(#pieces.list { on_board = true, owner = 'one' } == 0)\n\
           return #pieces.all() + 1\n\
         end)()",
    ));
    with_piece_kind_x(&p);
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("the filter checks hold");
    assert_eq!(state.result.unwrap().scores[0], 3);
}

#[test]
fn the_outcome_is_read_as_data() {
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local ok, err = pcall(game.finish, { scores = { one = 1.5 } })\n\
           assert(not ok and err:find('a whole number expected, got a fraction'), err)\n\
           ok, err = pcall(game.finish, { scores = 'many' })\n\
           assert(not ok and err:find(\"bad field 'scores' in argument #1 to 'game.finish'\"), err)\n\
           ok, err = pcall(game.finish, { winner = 'nobody' })\n\
           assert(not ok and err:find(\"no player 'nobody'\"), err)\n\
           ok, err = pcall(game.finish, 7)\n\
           assert(not ok and err:find('table expected'), err)\n\
           return 4\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("the outcome checks hold");
    assert_eq!(state.result.unwrap().scores, vec![4, 0]);
}

#[test]
fn pieces_never_wrap_past_the_id_range() {
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local ok, err = pcall(function() for i = 1, 70000 do pieces.create('x', nil, 'reserve') end end)\n\
           assert(not ok and tostring(err):find('at most 65535 pieces'), tostring(err))\n\
           return #pieces.all()\n\
         end)()",
    ));
    with_piece_kind_x(&p);
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("the rules catch the error");
    assert_eq!(state.result.unwrap().scores[0], 65535);
}

#[test]
fn what_scripts_keep_in_the_kernel_is_bounded() {
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local big = string.rep('x', 1024 * 1024)\n\
           local refused\n\
           local ok, err = pcall(function() for i = 1, 64 do refused = 'v' .. i; vars.set(refused, big) end end)\n\
           assert(not ok and tostring(err):find('would take more than'), tostring(err))\n\
           -- The refused write left nothing behind; the ones before it stay.\n\
           assert(vars.get(refused) == nil and vars.get('v1') == big)\n\
           return 1\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    play_out(&engine).expect("the rules catch the error");
}

#[test]
fn each_new_game_starts_from_the_data_s_variables() {
    // New games share the engine's starting variables until they write:
    // what one game wrote is not where the next starts.
    let p = probe(&probe_rules(
        "",
        "(function() vars.set('start', vars.get('start') + 98) return vars.get('start') end)()",
    ));
    let yaml = fs::read_to_string(format!("{}/game.yaml", p.root)).unwrap();
    fs::write(
        format!("{}/game.yaml", p.root),
        format!("{yaml}vars:\n  start: 1\n"),
    )
    .unwrap();
    let engine = load_probe(&p).expect("the package loads");
    let first = play_out(&engine).expect("the game plays");
    assert_eq!(first.vars().get("start"), Some(&Value::Int(99)));
    let next = engine.new_game(4).expect("a game starts");
    assert_eq!(next.vars().get("start"), Some(&Value::Int(1)));
    assert_eq!(next.vars(), &engine.game.vars);
    assert_eq!(engine.game.vars.get("start"), Some(&Value::Int(1)));
}

#[test]
fn bad_variable_writes_name_the_function_and_the_line_and_change_nothing() {
    // Each refused write: the error names the function and the script's
    // line, and the variable keeps its value. A whole float is stored as
    // the integer it equals, whichever way it is written.
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local function refused(f, want)\n\
             local ok, err = pcall(f)\n\
             err = tostring(err)\n\
             assert(not ok and err:find(want, 1, true) and err:find('rules.lua:%d+:'), err)\n\
           end\n\
           vars.set('n', 5)\n\
           refused(function() vars.set('n', 0.5) end, \"bad argument #2 to 'vars.set' (game variables hold whole numbers, not fractions)\")\n\
           refused(function() vars.set('n', {}) end, \"bad argument #2 to 'vars.set' (game variables hold booleans, whole numbers and strings, not a table\")\n\
           refused(function() vars.set(7, 1) end, \"bad argument #1 to 'vars.set' (a UTF-8 string expected, got number)\")\n\
           refused(function() vars.set('n', '\\255') end, \"vars.set: a variable's text must be UTF-8\")\n\
           refused(function() vars.game.n = print end, \"bad argument #2 to 'vars.game' (game variables hold booleans, whole numbers and strings, not a function\")\n\
           refused(function() vars.add('n', 1.5) end, \"bad argument #2 to 'vars.add' (game variables hold whole numbers, not fractions)\")\n\
           refused(function() vars.add('n', 'x') end, \"bad argument #2 to 'vars.add' (number expected)\")\n\
           refused(function() vars.add('n', math.maxinteger) end, 'vars.add: the sum does not fit in a whole number')\n\
           vars.set('t', 'text')\n\
           refused(function() vars.add('t', 1) end, 'vars.add: the variable holds text or a boolean, not a whole number')\n\
           assert(vars.get('n') == 5 and vars.game.n == 5 and vars.get('t') == 'text')\n\
           vars.set('n', 6.0)\n\
           assert(math.type(vars.game.n) == 'integer' and vars.game.n == 6)\n\
           local sum = vars.add('n', 2.0)\n\
           assert(math.type(sum) == 'integer' and sum == 8 and math.type(vars.get('n')) == 'integer')\n\
           return vars.get('n')\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("every refusal is caught");
    assert_eq!(state.vars().get("n"), Some(&Value::Int(8)));
    assert_eq!(state.result.unwrap().scores[0], 8);
}

#[test]
fn game_variables_read_and_write_as_fields_of_vars_game() {
    let p = probe(&probe_rules(
        "rawset(vars.game, 'planted', 7)",
        "(function()\n\
           local var = vars.game\n\
           -- A key put in raw while loading hides nothing.\n\
           assert(var.planted == nil and rawget(var, 'planted') == nil)\n\
           assert(getmetatable(var) == false)\n\
           -- Reads see every write, whichever way it was made.\n\
           local a = var.a\n\
           assert(a == vars.get('a') and a >= 1, tostring(a))\n\
           var.a = a + 10\n\
           assert(vars.get('a') == a + 10 and var.a == a + 10)\n\
           vars.set('s', 'text')\n\
           assert(var.s == 'text')\n\
           var.s = nil\n\
           assert(var.s == nil and vars.get('s') == nil)\n\
           var.f = 3.0\n\
           assert(math.type(var.f) == 'integer')\n\
           assert(not pcall(function() var.f = 0.5 end) and var.f == 3)\n\
           return var.a\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("the fields work");
    let a = state.vars().get("a").cloned();
    assert!(
        matches!(a, Some(portolan::kernel::value::Value::Int(n)) if n >= 11),
        "{a:?}"
    );
}

#[test]
fn data_dice_and_other_dice_roll_alike() {
    // "1D6" is the data's text (tables.coin.dice), which the host knows by
    // its address; "1d6" is another text for the same dice, found by its
    // text; a table with a name too long for Lua to keep one copy of is
    // found by its text as well. A whole-number modifier written as a
    // float reads as that number, and a narrated game takes the ordinary
    // path. Each way draws the same numbers and reads the same rows.
    let long = "a_coin_with_a_name_longer_than_forty_characters";
    let sums = |dice: &str, table: &str, modifier: &str, narrated: bool| {
        let p = probe(&probe_rules(
            "",
            &format!(
                "(function()\n\
                   local sum = 0\n\
                   for _ = 1, 20 do sum = sum * 7 + dice.roll('{dice}', 'a label') end\n\
                   for _ = 1, 20 do sum = sum * 3 + select(2, dice.on('{table}', 'edge', {modifier}, 'nil', nil)) end\n\
                   return sum\n\
                 end)()"
            ),
        ));
        let game = fs::read_to_string(format!("{}/game.yaml", p.root)).unwrap();
        fs::write(
            format!("{}/game.yaml", p.root),
            game.replace(
                "tables:\n",
                &format!(
                    "tables:\n  {long}: {{ dice: 1D6, rows: [{{ roll: [1, 6], result: any }}] }}\n"
                ),
            ),
        )
        .unwrap();
        if narrated {
            // One game, told (the REPL's way) and not: the same result.
            let engine = load_probe(&p).expect("the probe loads");
            let quiet = play_out(&engine).expect("a game plays").result;
            engine.set_narration(true);
            let told = play_out(&engine).expect("a game plays").result;
            assert!(told.is_some() && told == quiet, "{told:?} {quiet:?}");
        }
        simulate(&p, 1).expect("the probe plays")
    };
    let known = sums("1D6", "coin", "-1", false);
    assert_eq!(sums("1d6", long, "-1", false), known);
    assert_eq!(sums("1D6", "coin", "-1.0", false), known);
    assert_eq!(sums("1D6", "coin", "-1", true), known);
    assert!(known.iter().any(|&s| s != known[0]), "{known:?}");
}

#[test]
fn odd_dice_arguments_fare_alike_told_or_not() {
    // A simulation's dice calls take the quick paths (dice/quick.rs),
    // which hand anything unusual to the ordinary path; a narrated game
    // takes the ordinary path for every call. Both must give the same
    // results and the same errors, drawing the same numbers.
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local log = {}\n\
           local function try(...)\n\
             local got = table.pack(pcall(...))\n\
             for i = 1, got.n do\n\
               local v = got[i]\n\
               log[#log + 1] = type(v) == 'table' and tostring(v.result) or tostring(v)\n\
             end\n\
             log[#log + 1] = '|'\n\
           end\n\
           local sly = setmetatable({}, { __index = function() return 1 end,\n\
             __tostring = function() return 'coin' end, __eq = function() return true end })\n\
           local max = math.maxinteger\n\
           try(dice.on, 'coin')\n\
           try(dice.on, 'coin', 'edge', -1, 'nil', nil)\n\
           try(function() return dice.on('coin', 'least', -9) == tables.coin.rows[1] end)\n\
           try(dice.on, 'coin', 'huge', max, 'again', max)\n\
           try(dice.on, 'coin', 'low', math.mininteger, 'again', -1)\n\
           try(dice.on, 'coin', 'whole float', 2.0)\n\
           try(dice.on, 'coin', 'fraction', 2.5)\n\
           try(dice.on, 'coin', 'text', '2')\n\
           try(dice.on, 'coin', 'sly', sly)\n\
           try(dice.on, 'coin', 'odd')\n\
           try(dice.on, 'coin', true, 1)\n\
           try(dice.on, sly)\n\
           try(dice.on, {})\n\
           try(dice.on, 7)\n\
           try(dice.on)\n\
           try(dice.on, 'nothing')\n\
           try(dice.roll, '1D6')\n\
           try(dice.roll, '1D6', 'a label', 'more')\n\
           try(dice.roll, '1D6', false)\n\
           try(dice.roll, '1D6', true)\n\
           try(dice.roll, '1D6', sly)\n\
           try(dice.roll, '1D6', 3)\n\
           try(dice.roll, sly)\n\
           try(dice.roll, {})\n\
           try(dice.roll)\n\
           try(dice.roll, 'coin')\n\
           vars.set('log', table.concat(log, ' '))\n\
           return 1\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the probe loads");
    let log = |engine: &Engine| match play_out(engine).expect("a game plays").vars().get("log") {
        Some(Value::Str(text)) => text.clone(),
        other => panic!("{other:?}"),
    };
    let quiet = log(&engine);
    engine.set_narration(true);
    assert_eq!(log(&engine), quiet);
    assert!(quiet.starts_with("true"), "{quiet}");
    assert!(
        quiet.contains("| true true |"),
        "the row is the data's: {quiet}"
    );
    assert!(quiet.contains("true high 6"), "{quiet}");
    assert!(quiet.contains("true low 1"), "{quiet}");
    assert!(quiet.contains("no integer representation"), "{quiet}");
}

#[test]
fn every_game_starts_with_no_variables_but_its_own() {
    // Each game reads `seen` before setting it, and sets names no other
    // game sets, so a variable left over from an earlier game on the same
    // thread would show in the score.
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local var = vars.game\n\
           local left = (var.seen and 100 or 0) + (var['game_' .. (var.a or 0)] and 1 or 0)\n\
           var.seen = true\n\
           var['game_' .. (var.a or 0)] = true\n\
           return left\n\
         end)()",
    ));
    let scores = simulate(&p, 1).expect("the probe plays");
    assert!(scores.iter().all(|&s| s == 0), "{scores:?}");
}

#[test]
fn dice_tables_are_read_natively_with_clamping() {
    let p = probe(&probe_rules(
        "",
        "(function()\n\
           local row, read = dice.on('coin', 'hostile', -100)\n\
           assert(row.result == 'low' and read == 1)\n\
           row, read = dice.on('coin', 'lucky', 100)\n\
           assert(row.result == 'high' and read == 6)\n\
           assert(not pcall(dice.on, 'nothing'))\n\
           return 1\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    play_out(&engine).expect("dice.on reads the rows");
}

#[test]
fn a_clone_sees_its_own_variables_after_a_sibling_changed_them() {
    // A bot weighing moves plays each on a clone of one state. The host's
    // mirror of the variables goes back from one clone to the next by the
    // names the last move changed: the second clone must read the state's
    // `v1`, not the first clone's.
    let p = probe(
        "phases.play = {}\n\
         function phases.play.run(frame)\n\
           if frame.step == 0 then\n\
             for i = 1, 8 do vars.set('v' .. i, i) end\n\
           end\n\
           return { 'a', 'b' }\n\
         end\n\
         function phases.play.choose(frame, choice)\n\
           frame.step = frame.step + 1\n\
           if choice == 'a' then vars.add('v1', 100) else vars.set('v2', vars.get('v1') * 10) end\n\
         end\n",
    );
    let engine = load_probe(&p).expect("the package loads");
    let state = engine.new_game(1).expect("a game starts");
    // Another game moves the mirror away, so the first clone loads it.
    engine.new_game(2).expect("a game starts");
    let v = |s: &GameState, name: &str| s.vars().get(name).cloned();
    assert_eq!(v(&state, "v1"), Some(Value::Int(1)));
    let mut first = state.clone();
    engine.apply(&mut first, Action::Choice(0)).unwrap();
    assert_eq!(v(&first, "v1"), Some(Value::Int(101)));
    let mut second = state.clone();
    engine.apply(&mut second, Action::Choice(1)).unwrap();
    assert_eq!(v(&second, "v2"), Some(Value::Int(10)));
    // And back to the first clone, which the mirror no longer holds.
    engine.apply(&mut first, Action::Choice(1)).unwrap();
    assert_eq!(v(&first, "v2"), Some(Value::Int(1010)));
}

#[test]
fn a_frame_context_holds_named_game_values_however_it_is_read() {
    // A plain table is read raw, one with a metatable through the
    // sandbox's `next`: both refuse what a game variable cannot hold.
    let p = probe(&probe_rules(
        "local function refused(ctx, wanted)\n\
           local ok, err = pcall(game.push_phase, 'play', 'one', ctx)\n\
           assert(not ok and tostring(err):find(wanted, 1, true), tostring(err))\n\
         end\n\
         local function both(ctx, wanted)\n\
           refused(ctx, wanted)\n\
           refused(setmetatable(ctx, {}), wanted)\n\
         end",
        "(function()\n\
           both({ [1] = 'a' }, 'variable names are strings, not integer')\n\
           both({ [true] = 1 }, 'variable names are strings, not boolean')\n\
           both({ a = {} }, 'not table')\n\
           both({ a = print }, 'not function')\n\
           both({ a = 0 / 0 }, 'not number')\n\
           both({ a = 1.5 }, 'not number')\n\
           both({ a = coroutine.create(print) }, 'not thread')\n\
           return 1\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    play_out(&engine).expect("each context is refused with a Lua error");
}

#[test]
fn frame_step_takes_whole_numbers_it_can_hold_and_names_every_other_value() {
    // `frame.step` has a quick path for a read and for a whole number
    // written; everything else goes through the checked native.
    let p = probe(&probe_rules(
        "local function refused(f, wanted)\n\
           local ok, err = pcall(f)\n\
           assert(not ok and tostring(err):find(wanted, 1, true), tostring(err))\n\
         end",
        "(function()\n\
           assert(frame.step == 6 and math.type(frame.step) == 'integer')\n\
           refused(function() frame.step = -1 end, 'frame.step counts from 0 to 4294967295')\n\
           refused(function() frame.step = 4294967296 end, 'frame.step counts from 0')\n\
           refused(function() frame.step = 1.5 end, 'number has no integer representation')\n\
           refused(function() frame.step = 'x' end, 'number expected, got string')\n\
           refused(function() return frame.stp end, \"not 'stp'\")\n\
           refused(function() frame.stp = 1 end, \"not 'stp'\")\n\
           frame.step = 4294967295\n\
           assert(frame.step == 4294967295)\n\
           frame.step = 2.0\n\
           assert(math.type(frame.step) == 'integer')\n\
           return frame.step\n\
         end)()",
    ));
    let engine = load_probe(&p).expect("the package loads");
    let state = play_out(&engine).expect("every bad value is a Lua error");
    assert_eq!(state.result.unwrap().scores[0], 2);
}
