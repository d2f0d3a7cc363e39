//! The names a package's Lua can read the data by: every field written
//! after a dot (`entry.armies`, `tables.combat`) and every string literal
//! (`entry[flag]` with `flag = "ships"`, `rawget(t, "leader")`).
//!
//! A key of the data that no Lua file names can be reached only by
//! walking a table with `pairs` or by a key computed at run time (a
//! nation's name, a turn's number): a record's field, like an arrival's
//! `armies`, is read by name or not at all. So an overlay that writes a
//! field no file names edits data no rule reads
//! ([`crate::data::overlay`]). Read statically, the answer is the same for
//! every game and needs no game played: a run-time record of reads would
//! answer only for the turns the games reached, and would put a hook on
//! every read of the data, which the rules make on the hot path. The
//! look errs one way only: a name a file uses for something else counts
//! as read.

use full_moon::LuaVersion;
use full_moon::tokenizer::{Lexer, LexerResult, Symbol, TokenType};
use std::collections::{BTreeMap, BTreeSet};

/// Every field name and string the Lua sources name, over all files.
pub fn read_by_name(sources: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for source in sources.values() {
        let tokens = match Lexer::new(source, LuaVersion::lua54()).collect() {
            LexerResult::Ok(tokens) | LexerResult::Recovered(tokens, _) => tokens,
            // A file that does not lex is reported by the loader.
            LexerResult::Fatal(_) => continue,
        };
        let mut after_dot = false;
        for token in tokens.iter().filter(|t| !t.token_type().is_trivia()) {
            match token.token_type() {
                TokenType::Identifier { identifier } if after_dot => {
                    names.insert(identifier.to_string());
                }
                TokenType::StringLiteral { literal, .. } => {
                    names.insert(literal.to_string());
                }
                _ => {}
            }
            after_dot = matches!(
                token.token_type(),
                TokenType::Symbol {
                    symbol: Symbol::Dot
                }
            );
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_after_a_dot_and_strings_are_read_locals_and_methods_are_not() {
        let source = "local armies = require('lib.armies')\n\
                      local n = entry.armies + #t -- entry.comment\n\
                      local s = x:method()\n\
                      if entry[\"ships\"] then return [[long]] end\n";
        let sources = BTreeMap::from([("a.lua".to_string(), source.to_string())]);
        let names = read_by_name(&sources);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(names, ["armies", "lib.armies", "long", "ships"]);
    }
}
