//! What a package can reach: the restricted libraries, text-only `load`,
//! `require` within the package, and errors that name file and line.

use super::{assert_usable, exec, runtime_message, sandbox_with};
use crate::script::error::ScriptError;

#[test]
fn coroutines_still_behave_like_lua_coroutines() {
    let sandbox = sandbox_with(&[]);
    let sum: i64 = sandbox
        .call(|lua| {
            lua.load(
                "local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
                 local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
                 local _, first = coroutine.resume(co, 10)
                 local _, second = coroutine.resume(co, 5)
                 return gen() + gen() + gen() + first + second",
            )
            .eval()
        })
        .unwrap();
    assert_eq!(sum, 6 + 11 + 10);
    let message = runtime_message(exec(
        &sandbox,
        "coroutine.wrap(function() error('inner') end)()",
    ));
    assert_eq!(message, "rules/test/snippet.lua:1: inner");
}

#[test]
fn io_os_debug_and_package_are_absent() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "io.open('x')"));
    assert_eq!(
        message,
        "rules/test/snippet.lua:1: attempt to index a nil value (global 'io')"
    );
    let message = runtime_message(exec(&sandbox, "os.execute('ls')"));
    assert_eq!(
        message,
        "rules/test/snippet.lua:1: attempt to index a nil value (global 'os')"
    );
    assert_usable(&sandbox);
}

#[test]
fn only_the_sandboxed_globals_exist() {
    let sandbox = sandbox_with(&[]);
    let names: String = sandbox
        .call(|lua| {
            lua.load(
                "local names = {}
                 for name in pairs(_G) do names[#names + 1] = name end
                 for _, lib in ipairs({'string', 'math', 'table', 'utf8', 'coroutine'}) do
                   for name in pairs(_G[lib]) do names[#names + 1] = lib .. '.' .. name end
                 end
                 table.sort(names)
                 return table.concat(names, ' ')",
            )
            .eval()
        })
        .unwrap();
    let names: Vec<&str> = names.split(' ').collect();
    for absent in [
        "dofile",
        "loadfile",
        "collectgarbage",
        "io",
        "os",
        "debug",
        "package",
        "string.dump",
        "math.random",
        "math.randomseed",
    ] {
        assert!(!names.contains(&absent), "{absent} should not exist");
    }
    for present in [
        "load",
        "pcall",
        "xpcall",
        "require",
        "setmetatable",
        "string.format",
        "math.floor",
        "table.sort",
        "utf8.char",
        "coroutine.wrap",
    ] {
        assert!(names.contains(&present), "{present} should exist");
    }
}

#[test]
fn message_handlers_and_string_methods_still_work() {
    let sandbox = sandbox_with(&[]);
    let (handled, repeated): (String, String) = sandbox
        .call(|lua| {
            lua.load(
                "local _, handled = xpcall(error, function(e) return 'handled ' .. e end, 'oops', 0)
                 return handled, ('ab'):rep(2)",
            )
            .eval()
        })
        .unwrap();
    assert_eq!(
        (handled.as_str(), repeated.as_str()),
        ("handled oops", "abab")
    );
    // Locked, so that no script can give strings a __tostring.
    let message = runtime_message(exec(&sandbox, "getmetatable('').__tostring = print"));
    assert!(
        message.ends_with("attempt to index a boolean value"),
        "{message}"
    );
}

#[test]
fn binary_chunks_are_forbidden() {
    let sandbox = sandbox_with(&[("compiled.lua", "\x1bLuaT\0garbage")]);
    let message = runtime_message(exec(&sandbox, "load(string.dump(function() end))"));
    assert!(message.ends_with("attempt to call a nil value (field 'dump')"));
    for code in ["load('\\27LuaT\\0')", "load('\\27LuaT\\0', 'x', 'b')"] {
        assert_eq!(
            exec(&sandbox, code),
            Err(ScriptError::Forbidden {
                what: "a binary (precompiled) chunk".to_owned(),
                location: Some("rules/test/snippet.lua:1".to_owned()),
            })
        );
    }
    assert_eq!(
        sandbox.run_file("compiled.lua"),
        Err(ScriptError::Forbidden {
            what: "a binary (precompiled) chunk".to_owned(),
            location: Some("rules/test/compiled.lua".to_owned()),
        })
    );
    assert_usable(&sandbox);
}

#[test]
fn load_compiles_text_into_the_package_globals() {
    let sandbox = sandbox_with(&[]);
    let sum: i64 = sandbox
        .call(|lua| {
            lua.load(
                "x = 2
                 local own_env = load('return x', 'chunk', 't', { x = 5 })()
                 return load('return x')() + own_env + load('return 1', 'c', 'b')()",
            )
            .eval()
        })
        .unwrap();
    assert_eq!(sum, 2 + 5 + 1);
}

#[test]
fn gc_metamethods_are_forbidden() {
    let sandbox = sandbox_with(&[]);
    let result = exec(
        &sandbox,
        "setmetatable({}, { __gc = function() while true do end end })",
    );
    assert!(matches!(
        result,
        Err(ScriptError::Forbidden { what, location: Some(l) })
            if what.starts_with("a __gc metamethod") && l == "rules/test/snippet.lua:1"
    ));
    exec(&sandbox, "setmetatable({}, { __index = {} })").unwrap();
}

#[test]
fn require_refuses_paths() {
    let sandbox = sandbox_with(&[]);
    let result = exec(&sandbox, "require('../etc/passwd')");
    assert_eq!(
        result,
        Err(ScriptError::Require {
            module: "../etc/passwd".to_owned(),
            root: "rules/test".to_owned(),
            searched: vec![],
            location: Some("rules/test/snippet.lua:1".to_owned()),
        })
    );
    for name in [
        "/etc/passwd",
        "lib..util",
        "lib/util",
        ".util",
        "util.",
        "C:\\\\x",
        "",
    ] {
        let result = exec(&sandbox, &format!("require('{name}')"));
        assert!(
            matches!(&result, Err(ScriptError::Require { searched, .. }) if searched.is_empty()),
            "{name}: {result:?}"
        );
    }
}

#[test]
fn require_of_a_missing_module_says_what_was_searched() {
    let sandbox = sandbox_with(&[("lib/util.lua", "return {}")]);
    let err = exec(&sandbox, "\nrequire('lib.missing')").unwrap_err();
    assert_eq!(
        err,
        ScriptError::Require {
            module: "lib.missing".to_owned(),
            root: "rules/test".to_owned(),
            searched: vec![
                "lib/missing.lua".to_owned(),
                "lib/missing/init.lua".to_owned()
            ],
            location: Some("rules/test/snippet.lua:2".to_owned()),
        }
    );
    assert!(err.to_string().starts_with(
        "rules/test/snippet.lua:2: require(\"lib.missing\"): no such module in package rules/test \
         (searched lib/missing.lua, lib/missing/init.lua)"
    ));
}

#[test]
fn require_loads_package_modules_once() {
    let sandbox = sandbox_with(&[
        (
            "lib/util.lua",
            "loads = (loads or 0) + 1\nreturn { double = function(x) return 2 * x end }",
        ),
        ("tables/init.lua", "return { name = ... }"),
        (
            "main.lua",
            "util = require('lib.util')\nsame = require('lib.util') == util",
        ),
    ]);
    sandbox.run_file("main.lua").unwrap();
    let (doubled, loads, same, name): (i64, i64, bool, String) = sandbox
        .call(|lua| {
            lua.load("return util.double(21), loads, same, require('tables').name")
                .eval()
        })
        .unwrap();
    assert_eq!(
        (doubled, loads, same, name.as_str()),
        (42, 1, true, "tables")
    );
}

#[test]
fn errors_name_the_file_and_line() {
    let sandbox = sandbox_with(&[
        ("combat.lua", "local odds = 3\nerror('no such unit')"),
        ("bad.lua", "local x = \n"),
        ("lib/broken.lua", "\n\nlocal t = nil\nreturn t.field"),
    ]);
    match sandbox.run_file("combat.lua") {
        Err(ScriptError::Runtime { message, traceback }) => {
            assert_eq!(message, "rules/test/combat.lua:2: no such unit");
            assert!(
                traceback
                    .unwrap()
                    .contains("rules/test/combat.lua:2: in main chunk")
            );
        }
        other => panic!("expected a runtime error, got {other:?}"),
    }
    match sandbox.run_file("bad.lua") {
        Err(ScriptError::Syntax { message }) => {
            assert!(message.starts_with("rules/test/bad.lua:2:"), "{message}")
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    let message = runtime_message(exec(&sandbox, "require('lib.broken')"));
    assert_eq!(
        message,
        "rules/test/lib/broken.lua:4: attempt to index a nil value (local 't')"
    );
    assert_eq!(
        sandbox.run_file("missing.lua"),
        Err(ScriptError::MissingFile {
            root: "rules/test".to_owned(),
            path: "missing.lua".to_owned(),
        })
    );
}
