//! Each pattern item, one test at a time.

use super::States;

#[test]
fn single_characters() {
    let t = States::new();
    t.check(r#"("hello"):find("l")"#, "3, 3");
    t.check(r#"("hello"):find("x")"#, "nil");
    t.check(r#"("a.b"):find(".b")"#, "2, 3");
    t.check(r#"("a.b"):find("%.")"#, "2, 2");
    t.check(r#"("50%"):match("%d+%%")"#, r#""50%""#);
    t.check(r#"("a\0b"):find("\0b")"#, "2, 3");
    t.check(r#"("\200\255"):find(".\255")"#, "1, 2");
    t.check(r#"("x]"):match("]")"#, r#""]""#);
}

#[test]
fn character_classes_use_the_c_locale() {
    let t = States::new();
    let subject = r#"("aZ09 \t\v\f\r\n!~_\0\127\128\200\255")"#;
    for class in "acdglpsuwxzACDGLPSUWXZ".chars() {
        t.eval(&format!("{subject}:gsub('%{class}', '*')"));
    }
    t.check(r#"("\v"):find("%s")"#, "1, 1");
    t.check(r#"("é"):find("%a")"#, "nil");
    t.check(r#"("a\0b"):gsub("%z", "0")"#, r#""a0b", 1"#);
    t.check(r#"("x-y"):match("%W")"#, r#""-""#);
    // `%` before a non-letter stands for that character.
    t.check(r#"("a(b)"):match("%((.)%)")"#, r#""b""#);
    t.check(r#"("q"):find("%q")"#, "1, 1");
}

#[test]
fn sets() {
    let t = States::new();
    t.check(r#"("hello world"):match("[wo]+")"#, r#""o""#);
    t.check(r#"("hello world"):match("[^%s]+$")"#, r#""world""#);
    t.check(r#"("x-y"):match("[a-z]+")"#, r#""x""#);
    t.check(r#"("a-b"):match("[a-]+")"#, r#""a-""#);
    t.check(r#"("-ab"):match("[-a]+")"#, r#""-a""#);
    t.check(r#"("ab]"):match("[]b]+")"#, r#""b]""#);
    t.check(r#"("ab]"):match("[^]]+")"#, r#""ab""#);
    t.check(r#"("a]%"):match("[%]%%]+")"#, r#""]%""#);
    t.check(r#"("x9_"):match("[%d_]+")"#, r#""9_""#);
    t.check(r#"("ba"):match("[b-a]")"#, "nil");
    t.check(r#"("\200"):find("[\128-\255]")"#, "1, 1");
    t.check_error(r#"("x"):find("[a")"#, "malformed pattern (missing ']')");
    t.check_error(r#"("x"):find("[]")"#, "malformed pattern (missing ']')");
    t.check_error(r#"("x"):find("[^]")"#, "malformed pattern (missing ']')");
    t.check_error(r#"("x"):find("[%")"#, "malformed pattern (missing ']')");
}

#[test]
fn repetitions() {
    let t = States::new();
    t.check(r#"("aaab"):match("a*")"#, r#""aaa""#);
    t.check(r#"("baaa"):match("a*")"#, r#""""#);
    t.check(r#"("aaab"):match("a+b")"#, r#""aaab""#);
    t.check(r#"("b"):match("a+b")"#, "nil");
    t.check(r#"("<a><b>"):match("<(.-)>")"#, r#""a""#);
    t.check(r#"("<a><b>"):match("<(.*)>")"#, r#""a><b""#);
    t.check(r#"("color colour"):gsub("colou?r", "C")"#, r#""C C", 2"#);
    t.check(r#"("ab"):match("a?a?b")"#, r#""ab""#);
    t.check(r#"("x*"):match("x%*")"#, r#""x*""#);
    // A suffix after a non-single-character item is literal.
    t.check(r#"("a*"):match("(a)*")"#, r#""a""#);
    t.check_error(r#"("x"):find("%")"#, "malformed pattern (ends with '%')");
}

#[test]
fn anchors() {
    let t = States::new();
    t.check(r#"("abc"):find("^b")"#, "nil");
    t.check(r#"("abc"):find("^a")"#, "1, 1");
    t.check(r#"("abc"):find("c$")"#, "3, 3");
    t.check(r#"("a$c"):find("$c")"#, "2, 3");
    t.check(r#"("a^c"):find("a^")"#, "1, 2");
    t.check(r#"("abc"):find("^", 4)"#, "4, 3");
    t.check(r#"("abc"):find("$")"#, "4, 3");
    t.check(r#"("abc"):find("^$")"#, "nil");
    t.check(r#"(""):find("^$")"#, "1, 0");
    t.check(r#"("aaa"):gsub("^a", "b")"#, r#""baa", 1"#);
    // gmatch takes `^` literally.
    t.check_steps(r#"("^a^a"):gmatch("^a")"#, r#"{"^a"}{"^a"}"#);
}

#[test]
fn captures() {
    let t = States::new();
    t.check(
        r#"("key = value"):match("(%w+)%s*=%s*(%w+)")"#,
        r#""key", "value""#,
    );
    t.check(r#"("hello"):find("(l)(l)")"#, r#"3, 4, "l", "l""#);
    t.check(r#"("hello"):match("()ll()")"#, "3, 5");
    t.check(r#"("hello"):find("()")"#, "1, 0, 1");
    t.check(r#"("abc"):match("((a)(b))")"#, r#""ab", "a", "b""#);
    t.check(r#"("abc"):match("(a)()(b)")"#, r#""a", 2, "b""#);
    t.check(r#"("abc"):match("a(.-)$")"#, r#""bc""#);
    let many = format!("({})", "(.)".repeat(31));
    t.eval(&format!("('{}'):match('{many}')", "x".repeat(40)));
    let too_many = "(.)".repeat(33);
    t.check_error(
        &format!("('{}'):match('{too_many}')", "x".repeat(40)),
        "too many captures",
    );
    t.check_error(r#"("abc"):match("a)")"#, "invalid pattern capture");
    t.check_error(r#"("abc"):find("(a")"#, "unfinished capture");
    t.check_error(r#"("abc"):match("(a")"#, "unfinished capture");
    t.check(r#"("abc"):find("x(a")"#, "nil");
}

#[test]
fn back_references() {
    let t = States::new();
    t.check(
        r#"([[say "hi" or 'bye']]):match("([\"'])(.-)%1")"#,
        r#""\"", "hi""#,
    );
    t.check(r#"("abab"):find("(ab)%1")"#, r#"1, 4, "ab""#);
    t.check(r#"("abba"):match("(a)(b)%2%1")"#, r#""a", "b""#);
    t.check(r#"("aa"):match("()%1")"#, "nil");
    t.check(r#"("xx"):match("(x*)%1$")"#, r#""x""#);
    t.check_error(r#"("aa"):find("%1")"#, "invalid capture index %1");
    t.check_error(r#"("aa"):find("(a%1)")"#, "invalid capture index %1");
    t.check_error(r#"("aa"):find("(a)%2")"#, "invalid capture index %2");
    t.check_error(r#"("aa"):find("(a)%0")"#, "invalid capture index %0");
}

#[test]
fn balanced_runs() {
    let t = States::new();
    t.check(r#"("f(a(b)c) d"):match("%b()")"#, r#""(a(b)c)""#);
    t.check(r#"("f(a(b c"):match("%b()")"#, "nil");
    t.check(r#"("[x]]"):match("%b[]")"#, r#""[x]""#);
    t.check(r#"([["a" "b"]]):match('%b""')"#, r#""\"a\"""#);
    t.check(r#"("(x)y"):match("%b()y")"#, r#""(x)y""#);
    t.check_error(
        r#"("x"):find("%b")"#,
        "malformed pattern (missing arguments to '%b')",
    );
    t.check_error(
        r#"("x"):find("%b(")"#,
        "malformed pattern (missing arguments to '%b')",
    );
}

#[test]
fn frontiers() {
    let t = States::new();
    t.check(
        r#"("THE (quick) fox"):gsub("%f[%a]%a+", "W")"#,
        r#""W (W) W", 3"#,
    );
    t.check(r#"("hello world"):find("%f[%w]%w+$")"#, "7, 11");
    t.check(r#"("abc"):find("%f[%z]")"#, "4, 3");
    t.check(r#"("abc"):find("%f[^%z]")"#, "1, 0");
    t.check(r#"("a1"):find("%f[%d]")"#, "2, 1");
    t.check_error(r#"("x"):find("%fa")"#, "missing '[' after '%f' in pattern");
    t.check_error(r#"("x"):find("%f")"#, "missing '[' after '%f' in pattern");
    t.check_error(r#"("x"):find("%f[a")"#, "malformed pattern (missing ']')");
}

#[test]
fn nested_recursion_past_lua_s_limit_is_too_complex() {
    let t = States::new();
    // Each `?` that matches recurses once; C allows 200 levels.
    t.check(
        &format!("('{}'):find('{}')", "a".repeat(199), "a?".repeat(199)),
        "1, 199",
    );
    t.check_error(
        &format!("('{}'):find('{}')", "a".repeat(250), "a?".repeat(250)),
        "pattern too complex",
    );
    t.check_error(
        &format!("('{}'):find('{}')", "a".repeat(250), "a-".repeat(250) + "$"),
        "pattern too complex",
    );
}
