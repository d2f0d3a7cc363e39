//! Tests of the ported pattern functions, each checked against stock Lua:
//! every test runs the same Lua code in a state with the port installed
//! and in a plain state with the C originals.

use mlua::Lua;

use super::install;

mod api;
mod differential;
mod hostile;
mod items;
mod speed;

/// Lua helpers both states get: `show` turns a `pcall` result into text
/// that tells strings, integers and floats apart; `all` runs an iterator
/// to the end (at most 100 steps) and shows each step in braces.
const HELPERS: &str = r#"
local pack, concat, format = table.pack, table.concat, string.format
local function values(r)
  local out = {}
  for i = 1, r.n do
    local v = r[i]
    out[i] = type(v) == "string" and format("%q", v) or tostring(v)
  end
  return concat(out, ", ")
end
function show(ok, ...)
  return (ok and "" or "error: ") .. values(pack(...))
end
function all(iterator)
  local out = {}
  for _ = 1, 100 do
    local r = pack(iterator())
    if r[1] == nil then break end
    out[#out + 1] = "{" .. values(r) .. "}"
  end
  return concat(out)
end
"#;

/// A Lua state with the port, or with stock Lua's functions.
fn state(ported: bool) -> Lua {
    let lua = Lua::new();
    if ported {
        install(&lua, &lua.globals().get("string").expect("string table")).expect("install");
    }
    lua.load(HELPERS).exec().expect("helpers");
    lua
}

/// Both states, the port first.
struct States {
    port: Lua,
    stock: Lua,
}

impl States {
    fn new() -> Self {
        Self {
            port: state(true),
            stock: state(false),
        }
    }

    /// The results of the Lua expression list `expr`, shown as text, in
    /// the port; asserts the stock functions give the same bytes. An
    /// error reads `error: "test:1: message"`.
    fn eval(&self, expr: &str) -> String {
        let code = format!(
            "return show(pcall(function() local r = table.pack({expr}) \
             return table.unpack(r, 1, r.n) end))"
        );
        let run = |lua: &Lua| -> mlua::LuaString {
            lua.load(&code)
                .set_name("=test")
                .eval()
                .unwrap_or_else(|err| panic!("{expr}: {err}"))
        };
        let port = run(&self.port);
        assert_eq!(
            port.as_bytes(),
            run(&self.stock).as_bytes(),
            "port and stock differ on {expr}"
        );
        port.to_string_lossy()
    }

    /// Asserts that `expr` gives `expected` (as [`Self::eval`] shows it).
    fn check(&self, expr: &str, expected: &str) {
        assert_eq!(self.eval(expr), expected, "{expr}");
    }

    /// Asserts that the iterator `expr` yields the steps `expected`, as
    /// `all` shows them.
    fn check_steps(&self, expr: &str, expected: &str) {
        // `show` quotes the text `all` returns like Rust's `{:?}` does.
        self.check(&format!("all({expr})"), &format!("{expected:?}"));
    }

    /// Asserts that `expr` fails with `message`, raised at `test:1:`.
    fn check_error(&self, expr: &str, message: &str) {
        self.check(expr, &format!("error: \"test:1: {message}\""));
    }
}
