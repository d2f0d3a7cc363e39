//! Patterns that would keep stock Lua's C matcher busy for minutes or
//! longer must fail with the step limit error instead, and patterns that
//! recurse too deeply with Lua's own error, without harming the state.
//! (These run in the port only: stock Lua would hang.)

use super::state;

/// Runs the statement `code` in a ported state and returns the error it
/// raised, after checking the state still works.
fn error_of(code: &str) -> String {
    let lua = state(true);
    let (ok, err): (bool, String) = lua
        .load(format!("return pcall(function() {code} end)"))
        .eval()
        .expect("pcall runs");
    assert!(!ok, "{code} should fail");
    let after: i64 = lua
        .load("return (('x=42'):match('=(%d+)'))")
        .eval()
        .expect("usable");
    assert_eq!(after, 42);
    err
}

fn assert_step_limit(code: &str) {
    let err = error_of(code);
    let expected = format!("exceeded its limit of {} steps", super::super::STEP_LIMIT);
    assert!(err.contains(&expected), "{code}: {err}");
}

#[test]
fn exponential_optional_items() {
    assert_step_limit(r#"local s = ("a"):rep(40) s:find(("a?"):rep(40) .. s)"#);
}

#[test]
fn high_polynomial_repetitions() {
    assert_step_limit(r#"string.find(("a"):rep(30000), ".-.-.-.-.-.-.-b")"#);
    assert_step_limit(r#"string.find(("a"):rep(2000), ("a*"):rep(10) .. "b")"#);
    assert_step_limit(r#"string.match(("a"):rep(5000), ("(.-)"):rep(5) .. "x")"#);
    assert_step_limit(r#"string.find(("a"):rep(50000), "()a*()b")"#);
}

#[test]
fn balanced_runs_and_back_references() {
    assert_step_limit(r#"string.find(("("):rep(200000), "%b()")"#);
    assert_step_limit(r#"string.find(("a"):rep(20000), "(.*)%1b")"#);
}

#[test]
fn plain_search_with_a_long_near_miss() {
    assert_step_limit(r#"string.find(("a"):rep(1000000), ("a"):rep(100000) .. "b", 1, true)"#);
    assert_step_limit(r#"string.find(("a"):rep(1000000), ("a"):rep(100000) .. "b")"#);
}

#[test]
fn gsub_and_gmatch() {
    assert_step_limit(r#"string.gsub(("a"):rep(20000), ".-.-.-b", "")"#);
    assert_step_limit(r#"string.gsub(("a"):rep(20000), ".-.-.-b", function() end)"#);
    assert_step_limit(r#"for _ in string.gmatch(("a"):rep(20000), "a*a*a*b") do end"#);
}

#[test]
fn deep_recursion_is_an_error() {
    let deep = |code: &str| {
        let err = error_of(code);
        assert!(err.ends_with("pattern too complex"), "{code}: {err}");
    };
    deep(r#"local s = ("a"):rep(100000) s:find(("a?"):rep(100000))"#);
    deep(r#"local s = ("a"):rep(100000) s:find(("a-"):rep(100000) .. "b")"#);
    deep(r#"local s = ("ab"):rep(100000) s:find(("[a]?b?"):rep(100000))"#);
}

#[test]
fn gsub_callbacks_recursing_forever_overflow_lua_s_stack_not_the_host_s() {
    let err = error_of(
        r#"local function deep(s) return (s:gsub(("a?"):rep(150), deep)) end
           deep(("a"):rep(150))"#,
    );
    assert!(err.contains("stack overflow"), "{err}");
}

#[test]
fn ordinary_work_on_megabytes_stays_within_the_limit() {
    let lua = state(true);
    let count: i64 = lua
        .load(
            r#"
            local text = ("the quick brown fox, 12 jumps over the lazy dog\n"):rep(60000)
            local _, words = text:gsub("(%w+)", "<%1>")
            local spaced = select(2, text:gsub("%s+", " "))
            local fields = 0
            for a, b in text:gmatch("(%a+) (%a+)") do fields = fields + 1 end
            assert(text:find("cat") == nil and text:find("%f[%d]%d+%s*$") == nil)
            assert(text:match("^.*()dog\n$") == #text - 3)
            return words + spaced + fields
            "#,
        )
        .eval()
        .expect("no limit hit");
    assert!(count > 0);
}
