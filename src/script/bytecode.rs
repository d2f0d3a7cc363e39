//! Reads the functions a package defined, as Lua 5.4 dumps them, to find
//! the ones that would keep state between calls in a local variable.
//!
//! Freezing the tables a package built while loading (see `freeze.rs`)
//! stops rules from remembering things in tables; the other place a
//! closure can remember is a local of an enclosing function that has
//! already returned, such as a file-level `local count = 0` that a rule
//! function increments. That write is the `SETUPVAL` instruction on an
//! upvalue that leads, through the chain of enclosing functions, to one of
//! the function's own upvalues (all closed once loading is done). Writes to
//! a local of a function that is still running (a helper closure updating
//! a total of the call that made it) are fresh each call, and allowed.

/// A write to an upvalue that outlives the call, for the error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatefulWrite {
    /// The chunk name of the writing function (`@rules/x/rules.lua`).
    pub source: String,
    pub line: i64,
    /// The variable's name, when the dump has debug information.
    pub variable: String,
}

/// The persistent upvalue writes of a dumped Lua function (`string.dump`
/// with debug information), or why the dump could not be read.
pub fn stateful_writes(dump: &[u8]) -> Result<Vec<StatefulWrite>, String> {
    let mut r = Reader { bytes: dump, at: 0 };
    r.header()?;
    r.byte()?; // the main closure's upvalue count
    let proto = r.function("")?;
    let persistent = vec![true; proto.upvalues.len()];
    let mut found = Vec::new();
    proto.writes(&persistent, &mut found);
    Ok(found)
}

/// The parts of a function prototype this check needs.
struct Proto {
    source: String,
    line_defined: i64,
    code: Vec<u32>,
    /// `(instack, index)`: a local of the enclosing function, or one of
    /// its upvalues.
    upvalues: Vec<(bool, usize)>,
    protos: Vec<Proto>,
    line_info: Vec<i8>,
    abs_line_info: Vec<(usize, i64)>,
    upvalue_names: Vec<String>,
}

/// Lua 5.4's `OP_SETUPVAL` (lopcodes.h).
const OP_SETUPVAL: u32 = 10;
/// The `lineinfo` mark for "see `abslineinfo`" (ldebug.h).
const ABS_LINE: i8 = -0x80;

impl Proto {
    /// Collects writes to upvalues marked persistent, here and in the
    /// functions nested in this one.
    fn writes(&self, persistent: &[bool], found: &mut Vec<StatefulWrite>) {
        for (pc, &instruction) in self.code.iter().enumerate() {
            let b = ((instruction >> 16) & 0xFF) as usize;
            if instruction & 0x7F == OP_SETUPVAL && persistent.get(b) == Some(&true) {
                found.push(StatefulWrite {
                    source: self.source.clone(),
                    line: self.line_of(pc),
                    variable: self.upvalue_names.get(b).cloned().unwrap_or_default(),
                });
            }
        }
        for child in &self.protos {
            let inherited: Vec<bool> = child
                .upvalues
                .iter()
                .map(|&(instack, index)| !instack && persistent.get(index) == Some(&true))
                .collect();
            child.writes(&inherited, found);
        }
    }

    /// The source line of instruction `pc` (as `luaG_getfuncline`).
    fn line_of(&self, pc: usize) -> i64 {
        let mut line = self.line_defined;
        for (i, &delta) in self.line_info.iter().enumerate().take(pc + 1) {
            if delta == ABS_LINE {
                line = self
                    .abs_line_info
                    .iter()
                    .find(|&&(at, _)| at == i)
                    .map_or(line, |&(_, l)| l);
            } else {
                line += i64::from(delta);
            }
        }
        line
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("the dump ends early")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    /// `dumpSize`: 7 bits a byte, most significant first, the last byte
    /// marked by its high bit.
    fn size(&mut self) -> Result<usize, String> {
        let mut x: usize = 0;
        loop {
            let b = self.byte()?;
            x = x.checked_mul(128).ok_or("a size in the dump overflows")? | usize::from(b & 0x7F);
            if b & 0x80 != 0 {
                return Ok(x);
            }
        }
    }

    fn string(&mut self) -> Result<Option<String>, String> {
        match self.size()? {
            0 => Ok(None),
            n => Ok(Some(
                String::from_utf8_lossy(self.take(n - 1)?).into_owned(),
            )),
        }
    }

    fn header(&mut self) -> Result<(), String> {
        let expected: &[u8] = b"\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08";
        if self.take(expected.len())? != expected {
            return Err("not a Lua 5.4 dump of this build".into());
        }
        self.take(16).map(|_| ()) // LUAC_INT and LUAC_NUM
    }

    fn function(&mut self, parent_source: &str) -> Result<Proto, String> {
        let source = self.string()?.unwrap_or_else(|| parent_source.to_string());
        let line_defined = self.size()? as i64;
        self.size()?; // lastlinedefined
        self.take(3)?; // numparams, is_vararg, maxstacksize
        let n = self.size()?;
        let code = self
            .take(n.checked_mul(4).ok_or("code size overflows")?)?
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        for _ in 0..self.size()? {
            match self.byte()? {
                3 | 19 => drop(self.take(8)?),  // integer, float
                4 | 20 => drop(self.string()?), // short, long string
                _ => {}                         // nil, false, true
            }
        }
        let mut upvalues = Vec::new();
        for _ in 0..self.size()? {
            let b = self.take(3)?;
            upvalues.push((b[0] != 0, usize::from(b[1])));
        }
        let mut protos = Vec::new();
        for _ in 0..self.size()? {
            protos.push(self.function(&source)?);
        }
        let n = self.size()?;
        let line_info = self.take(n)?.iter().map(|&b| b as i8).collect();
        let mut abs_line_info = Vec::new();
        for _ in 0..self.size()? {
            abs_line_info.push((self.size()?, self.size()? as i64));
        }
        for _ in 0..self.size()? {
            self.string()?;
            self.size()?;
            self.size()?;
        }
        let mut upvalue_names = Vec::new();
        for _ in 0..self.size()? {
            upvalue_names.push(self.string()?.unwrap_or_default());
        }
        Ok(Proto {
            source,
            line_defined,
            code,
            upvalues,
            protos,
            line_info,
            abs_line_info,
            upvalue_names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::{Function, Lua};

    fn writes_of(code: &str, name: &str) -> Vec<(i64, String)> {
        let lua = Lua::new();
        lua.load(code).set_name("@t.lua").exec().unwrap();
        let f: Function = lua.globals().get(name).unwrap();
        stateful_writes(&f.dump(false))
            .unwrap()
            .into_iter()
            .map(|w| {
                assert_eq!(w.source, "@t.lua");
                (w.line, w.variable)
            })
            .collect()
    }

    #[test]
    fn a_file_local_written_by_a_rule_is_found_with_its_line() {
        let code = "local count = 0\nfunction f()\n  count = count + 1\nend";
        assert_eq!(writes_of(code, "f"), [(3, "count".to_string())]);
    }

    #[test]
    fn writes_through_nested_closures_are_found() {
        let code =
            "local n = 0\nfunction f()\n  local g = function()\n    n = 1\n  end\n  g()\nend";
        assert_eq!(writes_of(code, "f"), [(4, "n".to_string())]);
    }

    #[test]
    fn locals_of_the_running_call_are_fresh_each_call() {
        let code = "local k = 2\nfunction f(list)\n  local total = 0\n  for _, x in ipairs(list) do\n    \
                    (function() total = total + x * k end)()\n  end\n  return total\nend";
        assert!(writes_of(code, "f").is_empty());
        assert!(
            writes_of("function f() x = 1 end", "f").is_empty(),
            "a global write is a table write"
        );
    }
}
