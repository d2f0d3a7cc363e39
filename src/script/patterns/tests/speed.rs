//! Speed figures, port against stock Lua; they print, never assert:
//! `cargo test --release --lib patterns::tests::speed -- --ignored --nocapture`.

use std::time::Instant;

use mlua::Lua;

use super::state;

/// Set-up shared by the cases: a short key-value string and a 100 KB text.
const SETUP: &str = r#"
pair = "speed=42"
text = ("the quick brown fox, 12 jumps over the lazy dog\n"):rep(2100)
"#;

/// (what, Lua loop body, iterations)
const CASES: &[(&str, &str, u32)] = &[
    (
        "find ^(%w+)=(%d+)$ on 8 bytes",
        r#"pair:find("^(%w+)=(%d+)$")"#,
        1_000_000,
    ),
    (
        "match (%d+) on 8 bytes",
        r#"pair:match("(%d+)")"#,
        1_000_000,
    ),
    (
        "find plain '=' on 8 bytes",
        r#"pair:find("=", 1, true)"#,
        1_000_000,
    ),
    ("gsub %s+ over 100 KB", r#"text:gsub("%s+", " ")"#, 50),
    (
        "gsub (%w+) -> <%1> over 100 KB",
        r#"text:gsub("(%w+)", "<%1>")"#,
        50,
    ),
    (
        "gsub %a+ -> function over 100 KB",
        r#"text:gsub("%a+", string.upper)"#,
        50,
    ),
    (
        "gmatch %a+ over 100 KB",
        r#"for w in text:gmatch("%a+") do end"#,
        50,
    ),
    (
        "find %d%d%d (none) over 100 KB",
        r#"text:find("%d%d%d")"#,
        200,
    ),
    (
        "find 'lazy cat' (none) over 100 KB",
        r#"text:find("lazy cat")"#,
        200,
    ),
];

/// Nanoseconds per iteration of `body`, best of 5 runs.
fn time(lua: &Lua, body: &str, iterations: u32) -> f64 {
    let run = lua
        .load(format!("for _ = 1, {iterations} do {body} end"))
        .into_function()
        .expect("compiles");
    (0..5)
        .map(|_| {
            let start = Instant::now();
            run.call::<()>(()).expect("runs");
            start.elapsed().as_nanos() as f64 / f64::from(iterations)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "prints speed figures; run in release mode with --nocapture"]
fn speed() {
    let [port, stock] = [true, false].map(|ported| {
        let lua = state(ported);
        lua.load(SETUP).exec().expect("set-up");
        lua
    });
    println!(
        "{:<36} {:>12} {:>12} {:>6}",
        "case", "stock ns", "port ns", "ratio"
    );
    for &(what, body, iterations) in CASES {
        let (stock_ns, port_ns) = (
            time(&stock, body, iterations),
            time(&port, body, iterations),
        );
        println!(
            "{what:<36} {stock_ns:>12.0} {port_ns:>12.0} {:>6.2}",
            port_ns / stock_ns
        );
    }
    let bomb = r#"pcall(string.find, ("a"):rep(30000), (".-"):rep(7) .. "b")"#;
    let bomb_ms = time(&port, bomb, 1) / 1e6;
    println!("port stops {bomb} after {bomb_ms:.0} ms (stock Lua would not finish in years)");
}
