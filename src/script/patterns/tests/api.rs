//! The four functions' arguments, results and edge cases.

use super::States;

#[test]
fn find_start_positions() {
    let t = States::new();
    t.check(r#"("abcabc"):find("b", 3)"#, "5, 5");
    t.check(r#"("abcabc"):find("b", -2)"#, "5, 5");
    t.check(r#"("abcabc"):find("b", -1)"#, "nil");
    t.check(r#"("abcabc"):find("b", -5)"#, "2, 2");
    t.check(r#"("abcabc"):find("b", -100)"#, "2, 2");
    t.check(r#"("abcabc"):find("b", 0)"#, "2, 2");
    t.check(r#"("abc"):find("", 4)"#, "4, 3");
    t.check(r#"("abc"):find("", 5)"#, "nil");
    t.check(r#"("abc"):find("x*", 10)"#, "nil");
    t.check(r#"("abc"):find("b", 2.0)"#, "2, 2");
    t.check(r#"("abc"):find("b", "2")"#, "2, 2");
    t.check(r#"("abc"):find("b", math.mininteger)"#, "2, 2");
    t.check(r#"("abc"):find("b", math.maxinteger)"#, "nil");
    t.check(r#"("abc"):match("b", math.maxinteger)"#, "nil");
}

#[test]
fn find_plain_and_the_special_characters_shortcut() {
    let t = States::new();
    t.check(r#"("a.b"):find(".", 1, true)"#, "2, 2");
    t.check(r#"("a+b"):find("+", 1, 1)"#, "2, 2");
    t.check(r#"("a.b"):find(".", 1, false)"#, "1, 1");
    t.check(r#"("a.b"):find(".", 1, nil)"#, "1, 1");
    t.check(r#"("a(b"):find("(", 1, true)"#, "2, 2");
    t.check(r#"("hello"):find("ll")"#, "3, 4");
    t.check(r#"("hello"):find("")"#, "1, 0");
    t.check(r#"("hello"):find("", 10, true)"#, "nil");
    t.check(r#"("a\0b\0c"):find("b\0c")"#, "3, 5");
    t.check(r#"("aab"):find("ab", 1, true)"#, "2, 3");
    t.check(r#"("ab"):find("abc", 1, true)"#, "nil");
    // No special characters: a plain search, so `]` and `)` are fine.
    t.check(r#"("a])"):find("])")"#, "2, 3");
    t.check(r#"("a)"):find("a)")"#, "1, 2");
    t.check_error(r#"("a)"):match("a)")"#, "invalid pattern capture");
}

#[test]
fn match_returns_the_whole_match_or_the_captures() {
    let t = States::new();
    t.check(r#"("hello 42"):match("%d+")"#, r#""42""#);
    t.check(r#"("hello 42"):match("(%a+) (%d+)")"#, r#""hello", "42""#);
    t.check(r#"("hello 42"):match("%d+", -1)"#, r#""2""#);
    t.check(r#"("hello"):match(".-")"#, r#""""#);
    t.check(r#"("hello"):match("x")"#, "nil");
}

#[test]
fn gmatch_iterations() {
    let t = States::new();
    t.check_steps(
        r#"("one two  three"):gmatch("%a+")"#,
        r#"{"one"}{"two"}{"three"}"#,
    );
    t.check_steps(
        r#"("k=v, a=b"):gmatch("(%w+)=(%w+)")"#,
        r#"{"k", "v"}{"a", "b"}"#,
    );
    t.check_steps(r#"("abc"):gmatch("()")"#, "{1}{2}{3}{4}");
    // 5.4: no empty match right where the previous match ended.
    t.check_steps(r#"("abc"):gmatch("%a*")"#, r#"{"abc"}"#);
    t.check_steps(r#"("a,b,,c"):gmatch("[^,]*")"#, r#"{"a"}{"b"}{""}{"c"}"#);
    t.check_steps(r#"("abc"):gmatch(".", 2)"#, r#"{"b"}{"c"}"#);
    t.check_steps(r#"("abc"):gmatch(".", -1)"#, r#"{"c"}"#);
    t.check_steps(r#"("abc"):gmatch("", 10)"#, "");
    t.check_steps(r#"("abc"):gmatch("", 4)"#, r#"{""}"#);
    t.check_steps(r#"string.gmatch(12345, "%d%d")"#, r#"{"12"}{"34"}"#);
    // Errors show when iterating, at the loop's line.
    t.check_error(
        r#"(function() for _ in ("abc"):gmatch("%") do end end)()"#,
        "malformed pattern (ends with '%')",
    );
}

#[test]
fn gsub_with_a_replacement_string() {
    let t = States::new();
    t.check(r#"("hello world"):gsub("o", "0")"#, r#""hell0 w0rld", 2"#);
    t.check(
        r#"("hello world"):gsub("(%w+)", "<%1>")"#,
        r#""<hello> <world>", 2"#,
    );
    t.check(r#"("hello"):gsub("l+", "[%0]")"#, r#""he[ll]o", 1"#);
    t.check(r#"("hello"):gsub("", "-")"#, r#""-h-e-l-l-o-", 6"#);
    t.check(r#"("abc"):gsub("%w", "%1%1")"#, r#""aabbcc", 3"#);
    t.check(r#"("abc"):gsub("()b", "%1")"#, r#""a2c", 1"#);
    t.check(r#"("abc"):gsub("b", "%%")"#, r#""a%c", 1"#);
    t.check(r#"("abc"):gsub("b", 5)"#, r#""a5c", 1"#);
    t.check(r#"("abc"):gsub("b", 2.5)"#, r#""a2.5c", 1"#);
    t.check(r#"("abc"):gsub("x", "y")"#, r#""abc", 0"#);
    t.check(r#"("a b c"):gsub(" ", "", 1)"#, r#""ab c", 1"#);
    t.check(r#"("a b c"):gsub(" ", "", 0)"#, r#""a b c", 0"#);
    t.check(r#"("a b c"):gsub(" ", "", -1)"#, r#""a b c", 0"#);
    t.check(r#"("a b c"):gsub(" ", "", 2.0)"#, r#""abc", 2"#);
    t.check(r#"("abc"):gsub("%w", "x", 10)"#, r#""xxx", 3"#);
    t.check(r#"("aaa"):gsub("a*", "-")"#, r#""-", 1"#);
    t.check(r#"("abc"):gsub("b*", "-")"#, r#""-a-c-", 3"#);
    t.check_error(r#"("abc"):gsub("b", "%2")"#, "invalid capture index %2");
    t.check_error(r#"("abc"):gsub("(b)", "%2")"#, "invalid capture index %2");
    t.check_error(
        r#"("abc"):gsub("b", "%x")"#,
        "invalid use of '%' in replacement string",
    );
    t.check_error(
        r#"("abc"):gsub("b", "x%")"#,
        "invalid use of '%' in replacement string",
    );
    t.check(r#"("abc"):gsub("x", "%")"#, r#""abc", 0"#);
}

#[test]
fn gsub_with_a_table_or_function() {
    let t = States::new();
    let table = r#"{ hello = "HI", world = false, n = 7, pi = 3.5 }"#;
    t.check(
        &format!(r#"("hello world n pi"):gsub("%w+", {table})"#),
        r#""HI world 7 3.5", 4"#,
    );
    t.check(
        r#"("a=1 b=2"):gsub("(%w)=(%w)", { a = "A" })"#,
        r#""A b=2", 2"#,
    );
    t.check(r#"("ab"):gsub("()", { [1] = "<" })"#, r#""<ab", 3"#);
    t.check(
        r#"("ab"):gsub(".", setmetatable({}, { __index = function(_, k) return k:upper() end }))"#,
        r#""AB", 2"#,
    );
    t.check(
        r#"("a=1 b=2"):gsub("(%w)=(%w)", function(k, v) return v .. k end)"#,
        r#""1a 2b", 2"#,
    );
    t.check(
        r#"("abc"):gsub("%w", function(c) if c ~= "b" then return c:upper() end end)"#,
        r#""AbC", 3"#,
    );
    t.check(
        r#"("abc"):gsub("%w", function() return false end)"#,
        r#""abc", 3"#,
    );
    t.check(
        r##"("abc"):gsub("b", function(...) return select("#", ...) end)"##,
        r#""a1c", 1"#,
    );
    t.check(
        r#"("abc"):gsub("()(b)()", function(...) return table.concat({...}, ",") end)"#,
        r#""a2,b,3c", 1"#,
    );
    t.check_error(
        r#"("abc"):gsub("b", { b = {} })"#,
        "invalid replacement value (a table)",
    );
    t.check_error(
        r#"("abc"):gsub("b", function() return true end)"#,
        "invalid replacement value (a boolean)",
    );
    t.check_error(
        r#"("abc"):gsub("(b", function() end)"#,
        "unfinished capture",
    );
    // Errors from the function pass through unchanged, values included.
    t.check(
        r#"select(2, pcall(string.gsub, "abc", "b", function() error({code = 7}) end)).code"#,
        "7",
    );
    t.check_error(r#"("abc"):gsub("b", function() error("boom") end)"#, "boom");
}

#[test]
fn numbers_are_strings() {
    let t = States::new();
    t.check("string.find(12345, 3)", "3, 3");
    t.check("string.find(12345, 34.0)", "nil");
    t.check("string.match(1.5, '%d')", r#""1""#);
    t.check("string.gsub(100, 0, 1)", r#""111", 2"#);
    t.check(
        "string.gsub(2^63, '%.', ',')",
        r#""9,2233720368548e+18", 1"#,
    );
}

#[test]
fn bad_arguments() {
    let t = States::new();
    t.check_error(
        "string.find()",
        "bad argument #1 to 'find' (string expected, got no value)",
    );
    t.check_error(
        "string.find(nil, 'x')",
        "bad argument #1 to 'find' (string expected, got nil)",
    );
    t.check_error(
        "string.match('x', {})",
        "bad argument #2 to 'match' (string expected, got table)",
    );
    t.check_error(
        "string.find('x', 'x', 'y')",
        "bad argument #3 to 'find' (number expected, got string)",
    );
    t.check_error(
        "string.find('x', 'x', 1.5)",
        "bad argument #3 to 'find' (number has no integer representation)",
    );
    t.check_error(
        "string.gmatch('x')",
        "bad argument #2 to 'gmatch' (string expected, got no value)",
    );
    t.check_error(
        "string.gsub('x', 'x')",
        "bad argument #3 to 'gsub' (string/function/table expected, got no value)",
    );
    t.check_error(
        "string.gsub('x', 'x', true)",
        "bad argument #3 to 'gsub' (string/function/table expected, got boolean)",
    );
    t.check_error(
        "string.gsub('x', 'x', 'y', 'z')",
        "bad argument #4 to 'gsub' (number expected, got string)",
    );
    // Method calls do not count `self`, as stock Lua does.
    t.check_error(
        "('x'):find({})",
        "bad argument #1 to 'find' (string expected, got table)",
    );
    t.check_error(
        "(function() local f = string.gsub; local r = f('x') end)()",
        "bad argument #2 to 'f' (string expected, got no value)",
    );
    t.check(
        "select(2, pcall(string.find))",
        r#""bad argument #1 to 'string.find' (string expected, got no value)""#,
    );
}

#[test]
fn errors_carry_the_caller_s_location() {
    let t = States::new();
    let code = "local ok, err = pcall(function()\n  local i = ('x'):find('%')\nend)\nreturn err";
    for lua in [&t.port, &t.stock] {
        let err: String = lua
            .load(code)
            .set_name("=rules/x.lua")
            .eval()
            .expect("runs");
        assert_eq!(err, "rules/x.lua:2: malformed pattern (ends with '%')");
    }
    // From a C caller there is no Lua line to name.
    t.check(
        r#"select(2, pcall(string.find, "x", "%"))"#,
        r#""malformed pattern (ends with '%')""#,
    );
}
