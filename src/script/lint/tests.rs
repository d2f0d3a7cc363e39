use super::*;

/// The findings in one-file packages: `(file, line, col, message)`.
fn findings(files: &[(&str, &str)]) -> Vec<(String, usize, usize, String)> {
    let known = KnownGlobals::of_fresh_state().expect("a fresh state");
    let sources = files
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    check_files(&sources, &known)
        .into_iter()
        .map(|f| (f.file, f.at.0, f.at.1, f.message))
        .collect()
}

fn one(file: &str, source: &str) -> Vec<(String, usize, usize, String)> {
    findings(&[(file, source)])
}

#[test]
fn a_misspelt_api_function_is_found_at_its_name() {
    let found = one(
        "rules.lua",
        "function rules.attack()\n  return dice.rol('1D6')\nend\n",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let (file, line, col, message) = &found[0];
    assert_eq!((file.as_str(), *line, *col), ("rules.lua", 2, 15));
    assert!(
        message.contains("'dice.rol'") && message.contains("did you mean 'roll'?"),
        "{message}"
    );
}

#[test]
fn a_function_the_sandbox_removes_is_unknown() {
    let found = one(
        "rules.lua",
        "local dump = string.dump\nlocal r = math.random\n",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].3.contains("'string.dump'"), "{found:?}");
}

#[test]
fn an_api_table_kept_in_a_local_is_still_checked() {
    let found = one(
        "rules.lua",
        "local d = dice\nlocal get = vars.gett\nreturn d.rol\n",
    );
    let fields: Vec<(usize, usize)> = found.iter().map(|f| (f.1, f.2)).collect();
    assert_eq!(fields, [(2, 18), (3, 10)], "{found:?}");
}

#[test]
fn a_misspelt_module_function_is_found_in_the_file_that_calls_it() {
    let module = "local M = {}\nfunction M.modifier(x) return x end\nM.limit = 3\nreturn M\n";
    let user = "local combat = require(\"lib.combat\")\nfunction rules.hit()\n  return combat.modifer(1) + combat.limit\nend\n";
    let found = findings(&[("lib/combat.lua", module), ("rules.lua", user)]);
    assert_eq!(found.len(), 1, "{found:?}");
    let (file, line, col, message) = &found[0];
    assert_eq!((file.as_str(), *line, *col), ("rules.lua", 3, 17));
    assert!(
        message.contains("module 'lib.combat' (lib/combat.lua) has no 'modifer'")
            && message.contains("did you mean 'modifier'?"),
        "{message}"
    );
}

#[test]
fn a_field_another_file_adds_to_a_module_is_known() {
    let module = "return { base = 1 }\n";
    let option = "local m = require('lib.m')\nm.extra = 2\n";
    let user = "local m = require('lib.m')\nreturn m.base + m.extra\n";
    let found = findings(&[
        ("lib/m.lua", module),
        ("options/x.lua", option),
        ("rules.lua", user),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_module_whose_table_escapes_is_not_checked() {
    let module = "local M = {}\nsetmetatable(M, { __index = function() return 0 end })\nreturn M\n";
    let user = "local m = require('lib.m')\nreturn m.anything\n";
    assert!(findings(&[("lib/m.lua", module), ("rules.lua", user)]).is_empty());
}

#[test]
fn a_global_written_inside_a_function_is_found() {
    let found = one(
        "rules.lua",
        "total = 0\nfunction rules.count()\n  total = total + 1\nend\n",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let (_, line, col, message) = &found[0];
    assert_eq!((*line, *col), (3, 3));
    assert!(
        message.contains("global 'total' is written inside a function"),
        "{message}"
    );
}

#[test]
fn an_undefined_global_read_is_found_with_a_suggestion() {
    let found = one(
        "rules.lua",
        "function rules.go(player)\n  return pices.at(player)\nend\n",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let (_, line, col, message) = &found[0];
    assert_eq!((*line, *col), (2, 10));
    assert!(
        message.contains("'pices' is not defined") && message.contains("'pieces'"),
        "{message}"
    );
}

#[test]
fn locals_parameters_loop_variables_and_upvalues_are_not_globals() {
    let source = r##"
local ipairs = ipairs
local helper
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
helper = function(list)
  local sum = 0
  for i, v in ipairs(list) do sum = sum + v * i end
  for k = 1, 3 do sum = sum + k end
  repeat local again = false until not again
  return sum + fact(3)
end
function rules.score(player, ...)
  local t = { a = 1, ["b"] = 2 }
  return helper({ t.a, t.b, select("#", ...) }), player
end
function phases.turn.run(frame) return frame.step end
local P = {}
function P:name() return self.label end
P.label = "x"
"##;
    let found = one("rules.lua", source);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_global_the_package_defines_in_one_file_is_known_in_another() {
    let found = findings(&[
        ("a.lua", "function shared_helper() return 1 end\n"),
        ("b.lua", "function rules.x() return shared_helper() end\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_field_never_set_on_a_local_table_is_found_until_the_table_escapes() {
    let found = one("rules.lua", "local cfg = { size = 3 }\nreturn cfg.sise\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2), (2, 12));
    assert!(found[0].3.contains("did you mean 'size'?"), "{found:?}");
    let escaped = "local cfg = { size = 3 }\nfill(cfg)\nreturn cfg.sise\n";
    let found = one("rules.lua", escaped);
    assert!(found.iter().all(|f| !f.3.contains("sise")), "{found:?}");
}

#[test]
fn a_file_that_names_env_is_not_checked_for_globals() {
    let found = one("rules.lua", "local _ENV = { x = 1 }\nreturn y\n");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_file_lua_cannot_parse_is_left_to_the_loader() {
    assert!(one("rules.lua", "function (\n").is_empty());
}
