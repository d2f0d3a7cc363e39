//! Thousands of random subjects and patterns, each run through the port
//! and through stock Lua, which must agree on every result and error.

use std::fmt;

use mlua::{Function, IntoLua, Lua, Value};

use super::States;

/// Both states get `probe(kind, s, p, a, b)`, which calls one pattern
/// function from Lua code (so errors carry a location) and shows what it
/// gave, as `show` does.
const PROBE: &str = r#"
local pack, unpack = table.pack, table.unpack
local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
local replacements = setmetatable(
  { a = "<A>", b = false, ab = 12, [2] = "two", x = {} },
  { __index = function(_, key) if key == "c" then return 1.5 end end })
local function replace(...)
  local first = ...
  if first == "a" then return nil end
  if first == "b" then return false end
  if first == "x" then return true end
  local captures = pack(...)
  return "[" .. table.concat(captures, ",", 1, captures.n) .. "]"
end
local calls = {
  find = function(s, p, a, b) return pack(find(s, p, a, b)) end,
  match = function(s, p, a) return pack(match(s, p, a)) end,
  gmatch = function(s, p, a) return pack(all(gmatch(s, p, a))) end,
  gsub = function(s, p, a, b) return pack(gsub(s, p, a, b)) end,
  gsub_table = function(s, p, _, b) return pack(gsub(s, p, replacements, b)) end,
  gsub_function = function(s, p, _, b) return pack(gsub(s, p, replace, b)) end,
}
function probe(kind, ...)
  local ok, r = pcall(calls[kind], ...)
  if not ok then return show(false, r) end
  return show(true, unpack(r, 1, r.n))
end
"#;

/// Subject bytes: letters the patterns name, the pattern's own special
/// characters, a `\0`, a non-ASCII byte and space characters.
const SUBJECT_BYTES: &[u8] = b"aaabbbcx1 (())[]%.-\0\xe9\n\x0b";

/// Single-character items, each of which may get a repetition suffix.
const SINGLE: &[&[u8]] = &[
    b"a",
    b"b",
    b"c",
    b"x",
    b"1",
    b" ",
    b".",
    b"\0",
    b"\xe9",
    b"%a",
    b"%d",
    b"%s",
    b"%w",
    b"%p",
    b"%l",
    b"%u",
    b"%x",
    b"%c",
    b"%g",
    b"%z",
    b"%A",
    b"%D",
    b"%S",
    b"%W",
    b"%P",
    b"%.",
    b"%%",
    b"%(",
    b"%]",
    b"%-",
    b"[ab]",
    b"[^a]",
    b"[a-c]",
    b"[%a_]",
    b"[]]",
    b"[^]]",
    b"[%]x]",
    b"[a-]",
    b"[-a]",
    b"[b-a]",
    b"[%d-z]",
    b"[^%s(]",
    b"[\0-\x20]",
];

/// Everything else: captures, back-references, `%b`, `%f`, anchors in odd
/// places and malformed pieces.
const OTHER: &[&[u8]] = &[
    b"(", b"(", b")", b")", b"()", b"%b()", b"%bab", b"%b((", b"%b", b"%b(", b"%f[%w]", b"%f[^%s]",
    b"%f[a]", b"%f[%z]", b"%f", b"%fx", b"%1", b"%1", b"%2", b"%3", b"%0", b"$", b"^", b"%", b"[",
    b"[a", b"[^",
];

const REPETITIONS: &[u8] = b"*+-?";

/// Pieces of gsub replacement strings.
const TEMPLATE: &[&[u8]] = &[
    b"x", b"<", b"%0", b"%1", b"%2", b"%9", b"%%", b"%", b"%a", b"",
];

/// xorshift64*: a small seeded generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn subject(&mut self) -> Vec<u8> {
        (0..self.below(13))
            .map(|_| self.pick(SUBJECT_BYTES))
            .collect()
    }

    /// Up to 7 pieces, at most 3 of them repeated, so that no case
    /// backtracks for long in stock Lua.
    fn pattern(&mut self) -> Vec<u8> {
        let mut pattern = Vec::new();
        if self.chance(20) {
            pattern.push(b'^');
        }
        let mut repeated = 0;
        for _ in 0..self.below(8) {
            match self.below(10) {
                0..=5 => {
                    pattern.extend_from_slice(self.pick(SINGLE));
                    if repeated < 3 && self.chance(40) {
                        repeated += 1;
                        pattern.push(self.pick(REPETITIONS));
                    }
                }
                6..=8 => pattern.extend_from_slice(self.pick(OTHER)),
                _ => pattern.push(self.pick(SUBJECT_BYTES)),
            }
        }
        if self.chance(15) {
            pattern.push(b'$');
        }
        pattern
    }

    fn template(&mut self) -> Vec<u8> {
        (0..self.below(4))
            .flat_map(|_| self.pick(TEMPLATE).to_vec())
            .collect()
    }

    /// A start position (or gsub count): mostly small, sometimes absent.
    fn position(&mut self) -> Option<i64> {
        (!self.chance(40)).then(|| self.below(31) as i64 - 15)
    }
}

/// An argument, made again in each state.
enum Arg {
    Bytes(Vec<u8>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Nil,
}

impl fmt::Debug for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bytes(bytes) => write!(f, "\"{}\"", bytes.escape_ascii()),
            Self::Int(i) => write!(f, "{i}"),
            Self::Float(x) => write!(f, "{x:?}"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Nil => f.write_str("nil"),
        }
    }
}

impl Arg {
    fn in_state(&self, lua: &Lua) -> Value {
        match self {
            Self::Bytes(bytes) => Value::String(lua.create_string(bytes).expect("string")),
            Self::Int(i) => Value::Integer(*i),
            Self::Float(f) => Value::Number(*f),
            Self::Bool(b) => Value::Boolean(*b),
            Self::Nil => Value::Nil,
        }
    }

    fn position(rng: &mut Rng) -> Self {
        rng.position().map_or(Self::Nil, Self::Int)
    }

    /// Mostly `bytes`, sometimes a number, which the functions convert.
    fn string_or_number(rng: &mut Rng, bytes: Vec<u8>) -> Self {
        match rng.below(40) {
            0 => Self::Int(rng.below(1000) as i64),
            1 => Self::Float(rng.below(100) as f64 / 4.0),
            _ => Self::Bytes(bytes),
        }
    }
}

/// A Lua state with the probe harness, and its `probe` function.
struct Prober {
    lua: Lua,
    probe: Function,
}

impl Prober {
    fn new(lua: Lua) -> Self {
        lua.load(PROBE)
            .set_name("=differential")
            .exec()
            .expect("probe harness");
        let probe = lua.globals().get("probe").expect("probe");
        Self { lua, probe }
    }

    /// The bytes `probe` shows, which may not be UTF-8.
    fn run(&self, kind: &str, args: &[Arg]) -> Vec<u8> {
        let lua = &self.lua;
        let values = std::iter::once(kind.into_lua(lua).expect("kind"))
            .chain(args.iter().map(|arg| arg.in_state(lua)));
        let shown: mlua::LuaString = self
            .probe
            .call(mlua::MultiValue::from_iter(values))
            .expect("probe runs");
        shown.as_bytes().to_vec()
    }
}

/// Tallies of one kind of probe, to show the generator reaches matches,
/// failures and errors alike.
#[derive(Default, Debug)]
struct Tally {
    errors: usize,
    misses: usize,
    hits: usize,
}

impl Tally {
    /// A miss is no match: `nil`, no gmatch step, no substitution.
    fn add(&mut self, shown: &[u8]) {
        if shown.starts_with(b"error: ") {
            self.errors += 1;
        } else if shown == b"nil" || shown == b"\"\"" || shown.ends_with(b", 0") {
            self.misses += 1;
        } else {
            self.hits += 1;
        }
    }

    /// Each outcome must make up at least 5% of the cases.
    fn assert_varied(&self, kind: &str) {
        let total = self.errors + self.misses + self.hits;
        for count in [self.errors, self.misses, self.hits] {
            assert!(count * 20 >= total, "{kind}: too uniform a mix: {self:?}");
        }
    }
}

/// Runs `cases` random probes of `kind`, with arguments from `make`, in
/// both states, and asserts they show the same results.
fn run_cases(seed: u64, kind: &str, cases: usize, make: impl Fn(&mut Rng) -> Vec<Arg>) {
    let States { port, stock } = States::new();
    let (port, stock) = (Prober::new(port), Prober::new(stock));
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    for _ in 0..cases {
        let args = make(&mut rng);
        let shown = port.run(kind, &args);
        let expected = stock.run(kind, &args);
        assert!(
            shown == expected,
            "{kind} differs on {args:?}:\n port: {}\nstock: {}",
            String::from_utf8_lossy(&shown),
            String::from_utf8_lossy(&expected)
        );
        tally.add(&shown);
    }
    tally.assert_varied(kind);
}

fn subject_and_pattern(rng: &mut Rng) -> Vec<Arg> {
    let subject = rng.subject();
    let pattern = rng.pattern();
    vec![
        Arg::string_or_number(rng, subject),
        Arg::string_or_number(rng, pattern),
    ]
}

#[test]
fn find() {
    run_cases(0x9E37_79B9_7F4A_7C15, "find", 20_000, |rng| {
        let mut args = subject_and_pattern(rng);
        args.push(Arg::position(rng));
        args.push(match rng.below(4) {
            0 => Arg::Bool(true),
            1 => Arg::Bool(false),
            _ => Arg::Nil,
        });
        args
    });
}

#[test]
fn match_() {
    run_cases(0xD1B5_4A32_D192_ED03, "match", 20_000, |rng| {
        let mut args = subject_and_pattern(rng);
        args.push(Arg::position(rng));
        args
    });
}

#[test]
fn gmatch() {
    run_cases(0xA076_1D64_78BD_642F, "gmatch", 10_000, |rng| {
        let mut args = subject_and_pattern(rng);
        args.push(Arg::position(rng));
        args
    });
}

fn gsub_cases(seed: u64, kind: &str) {
    run_cases(seed, kind, 10_000, |rng| {
        let mut args = subject_and_pattern(rng);
        let template = rng.template();
        args.push(Arg::string_or_number(rng, template));
        args.push(Arg::position(rng));
        args
    });
}

#[test]
fn gsub_with_strings() {
    gsub_cases(0xE703_7ED1_A0B4_28DB, "gsub");
}

#[test]
fn gsub_with_a_table() {
    gsub_cases(0x8EBC_6AF0_9C88_C6E3, "gsub_table");
}

#[test]
fn gsub_with_a_function() {
    gsub_cases(0x5891_59F5_C1EA_B5E9, "gsub_function");
}
