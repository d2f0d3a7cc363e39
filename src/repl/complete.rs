//! The line editor's helper: completion of commands, legal actions, space
//! names, piece ids, options, scenarios, players, branches and file paths;
//! hints from history; highlighting of the command word; and multi-line
//! input for `lua` code with open brackets.
//!
//! The helper cannot borrow the session (the editor owns it), so the loop
//! hands it a fresh [`Words`] before each line.

use crate::repl::commands::{ALIASES, COMMANDS};
use crate::repl::session::Session;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};
use std::borrow::Cow;

/// What can be completed now, taken from the session before each line.
#[derive(Clone, Debug, Default)]
pub struct Words {
    pub actions: Vec<String>,
    pub spaces: Vec<String>,
    pub pieces: Vec<String>,
    pub options: Vec<String>,
    pub scenarios: Vec<String>,
    pub players: Vec<String>,
    pub branches: Vec<String>,
    pub tables: Vec<String>,
}

pub fn words(s: &Session) -> Words {
    let engine = &s.loaded.engine;
    let g = &engine.game;
    Words {
        actions: crate::repl::play::legal(s)
            .into_iter()
            .map(|a| engine.notation(s.state(), a))
            .collect(),
        spaces: g.board.ids().map(|i| g.board.name(i).to_string()).collect(),
        pieces: (1..=s.state().pieces().len())
            .map(|i| format!("#{i}"))
            .collect(),
        options: g.options.iter().map(|o| o.id.clone()).collect(),
        scenarios: s.catalog.scenario_ids(&g.id),
        players: g.players.iter().map(|p| p.id.clone()).collect(),
        branches: s.branches.keys().cloned().collect(),
        tables: g.tables.keys().cloned().chain(["attack".into()]).collect(),
    }
}

pub struct ReplHelper {
    pub words: Words,
    files: FilenameCompleter,
    hinter: HistoryHinter,
    colour: bool,
}

impl ReplHelper {
    pub fn new(colour: bool) -> ReplHelper {
        ReplHelper {
            words: Words::default(),
            files: FilenameCompleter::new(),
            hinter: HistoryHinter::new(),
            colour,
        }
    }

    /// Candidates for the argument of a command.
    fn arguments(&self, command: &str, before: &[&str]) -> Vec<String> {
        let w = &self.words;
        let fixed = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        match command {
            "help" | "?" => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            "show" => w.spaces.iter().chain(&w.pieces).cloned().collect(),
            "new" => {
                let mut v = w.scenarios.clone();
                for o in &w.options {
                    v.push(format!("+{o}"));
                    v.push(format!("-{o}"));
                }
                v
            }
            "seat" if before.is_empty() => w.players.clone(),
            "seat" => fixed(&[
                "human",
                "random",
                "greedy",
                "ismcts",
                "ismcts:1000",
                "ismcts:100ms",
                "ismcts:1s",
            ]),
            "view" => w
                .players
                .iter()
                .cloned()
                .chain(fixed(&["all", "auto"]))
                .collect(),
            "switch" => w.branches.clone(),
            "reload" => fixed(&["keep", "truncate", "restart"]),
            "odds" | "roll" => w
                .tables
                .iter()
                .cloned()
                .chain(fixed(&["2D6", "1D6", "3D6", "D100", "coin"]))
                .collect(),
            "place" => fixed(&["random"]),
            "log" | "undo" | "redo" => Vec::new(),
            _ => Vec::new(),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = &line[..pos];
        let first = typed.split_whitespace().next().unwrap_or("");
        let past_first = typed.trim_start().len() > first.len();
        if past_first && matches!(first, "save" | "load" | "sheet" | "map") {
            return self.files.complete(line, pos, ctx);
        }
        let pair = |s: &str| Pair {
            display: s.to_string(),
            replacement: s.to_string(),
        };
        // A legal action in notation is completed as a whole line.
        let mut out: Vec<Pair> = self
            .words
            .actions
            .iter()
            .filter(|a| a.starts_with(typed.trim_start()) && !typed.trim().is_empty())
            .map(|a| pair(a))
            .collect();
        if !out.is_empty() {
            return Ok((typed.len() - typed.trim_start().len(), out));
        }
        let start = typed.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &typed[start..];
        let candidates: Vec<String> = if past_first {
            let before: Vec<&str> = typed[..start].split_whitespace().skip(1).collect();
            self.arguments(first, &before)
        } else {
            COMMANDS
                .iter()
                .map(|c| c.name.to_string())
                .chain(ALIASES.iter().map(|a| a.to_string()))
                .collect()
        };
        out = candidates
            .iter()
            .filter(|c| c.starts_with(word))
            .map(|c| pair(c))
            .collect();
        out.sort_by(|a, b| a.display.cmp(&b.display));
        out.dedup_by(|a, b| a.display == b.display);
        Ok((start, out))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.colour {
            return Cow::Borrowed(line);
        }
        let end = line.find(char::is_whitespace).unwrap_or(line.len());
        let word = &line[..end];
        let known = COMMANDS.iter().any(|c| c.name == word) || ALIASES.contains(&word);
        if known {
            Cow::Owned(format!("\x1b[1;36m{word}\x1b[0m{}", &line[end..]))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.colour {
            Cow::Owned(format!("\x1b[90m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.colour
    }
}

impl Validator for ReplHelper {
    /// `lua` code with an open bracket or an unfinished block continues on
    /// the next line.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        if input.trim_start().starts_with("lua ") && lua_open(input) {
            return Ok(ValidationResult::Incomplete);
        }
        Ok(ValidationResult::Valid(None))
    }
}

impl Helper for ReplHelper {}

/// Whether Lua text has unclosed brackets or blocks (strings are skipped;
/// a rough count, enough to know whether to wait for another line).
pub fn lua_open(code: &str) -> bool {
    let mut depth: i32 = 0;
    let mut quote: Option<char> = None;
    let mut word = String::new();
    let close_word = |w: &mut String, depth: &mut i32| {
        match w.as_str() {
            "function" | "do" | "then" | "repeat" => *depth += 1,
            "end" | "until" | "elseif" => *depth -= 1,
            _ => {}
        }
        w.clear();
    };
    let mut prev = '\0';
    for c in code.chars() {
        if let Some(q) = quote {
            if c == q && prev != '\\' {
                quote = None;
            }
            prev = c;
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            close_word(&mut word, &mut depth);
            match c {
                '"' | '\'' => quote = Some(c),
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => depth -= 1,
                _ => {}
            }
        }
        prev = c;
    }
    close_word(&mut word, &mut depth);
    depth > 0 || quote.is_some()
}

#[cfg(test)]
mod tests {
    use super::lua_open;

    #[test]
    fn open_lua_waits_for_more() {
        assert!(lua_open("lua (function() return 1"));
        assert!(lua_open("lua { 1, 2"));
        assert!(!lua_open("lua (function() return 1 end)()"));
        assert!(!lua_open("lua '(' .. 1"));
        // `if ... then ... end` opens once with `then` and closes with `end`.
        assert!(!lua_open(
            "lua (function() if true then return 1 end end)()"
        ));
    }
}
