//! Reading a YAML file into a raw schema type (`game.yaml`'s
//! [`crate::data::game_file::GameFile`], a scenario file), for people:
//! every problem at once, each at its line and column in the named file,
//! in the file's words.
//!
//! The typed read keeps the positions that errors found later need (the
//! `Spanned` references); when it fails, the file is read again as a plain
//! tree and [`crate::data::schema`] lists every problem in it.

use crate::data::error::{DataError, DataErrors};
use crate::data::locate::Outline;
use crate::data::schema::{self, Fault, Problem};
use crate::untrusted::echo;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{Error as YamlError, MessageFormatter, UserMessageFormatter};
use std::borrow::Cow;

/// The most YAML nodes (mappings, lists, keys and values) in one file: a
/// package file holds at most 4 MiB, and a map of 50,000 connections,
/// five nodes each, must load. The library's other limits (nesting depth,
/// aliases and their expansion) stay as they are.
const MAX_NODES: usize = 1_000_000;

/// How Portolan reads YAML: the library's defaults, with room for large
/// maps.
pub fn options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_NODES;
    budget.max_events = budget.max_events.max(4 * MAX_NODES);
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options
}

/// Reads a YAML text as `T`; `file` names it in errors.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataErrors> {
    let first = match serde_saphyr::from_str_with_options::<T>(text, options()) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let outline = match Outline::parse(text) {
        Ok(outline) => outline,
        // Not YAML at all: that is the one thing to fix first.
        Err(syntax) => return Err(yaml_error(file, text, &syntax).into()),
    };
    let written = |path: &[String]| {
        let path = || path.iter().map(String::as_str);
        outline.has(path()).then(|| {
            let (line, col) = outline.find_at(path())?;
            Some(scalar_at(text, line, col).to_string())
        })?
    };
    let problems = schema::read_as_written::<T>(outline.to_json(), written)
        .err()
        .unwrap_or_default();
    let mut errors = placed(problems, |path, key| {
        let path = path.iter().map(String::as_str);
        let at = if key {
            outline.find_key(path)
        } else {
            outline.find_at(path)
        };
        (file.to_string(), at)
    });
    let first = yaml_error(file, text, &first);
    if !errors.iter().any(|e| same_line(e, &first)) {
        errors.push(first);
    }
    errors.sort_by_key(|e| e.at);
    Err(DataErrors(errors))
}

/// Reads a tree built from YAML files (game data with a scenario's
/// overrides merged in) as `T`. `place` says in which file, and where,
/// a path was written (`true`: the key itself is at fault).
pub fn from_tree<T: DeserializeOwned>(
    tree: Json,
    place: impl Fn(&[String], bool) -> (String, Option<(u64, u64)>),
) -> Result<T, DataErrors> {
    schema::read::<T>(tree).map_err(|problems| {
        let mut errors = placed(problems, place);
        errors.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
        DataErrors(errors)
    })
}

/// Problems as errors, each placed by `place`.
fn placed(
    problems: Vec<Problem>,
    place: impl Fn(&[String], bool) -> (String, Option<(u64, u64)>),
) -> Vec<DataError> {
    problems
        .into_iter()
        .map(|p| {
            let (file, at) = place(&problem_path(&p), is_key(&p));
            DataError {
                file,
                at,
                message: p.message(),
            }
        })
        .collect()
}

/// The path of the spot to point at: an unknown key itself, else the
/// value at fault.
fn problem_path(p: &Problem) -> Vec<String> {
    let mut path = p.path.clone();
    if let Fault::UnknownKey { key, .. } = &p.fault {
        path.push(key.clone());
    }
    path
}

fn is_key(p: &Problem) -> bool {
    matches!(p.fault, Fault::UnknownKey { .. })
}

fn same_line(a: &DataError, b: &DataError) -> bool {
    a.at.map(|(line, _)| line) == b.at.map(|(line, _)| line)
}

/// The YAML library's error, placed and worded for people (no snippet,
/// no `<input>` header: the file and position lead the line, as in every
/// other error).
fn yaml_error(file: &str, text: &str, err: &YamlError) -> DataError {
    let err = err.without_snippet();
    let at = err
        .location()
        .filter(|l| l.line() > 0)
        .map(|l| (l.line(), l.column()));
    let written = at.map_or("", |(line, col)| scalar_at(text, line, col));
    DataError {
        file: file.to_string(),
        at,
        message: Wording { written }.format_message(err).into_owned(),
    }
}

/// The plain scalar written at a line and column (up to the next
/// separator), to quote a value the YAML library rejected.
fn scalar_at(text: &str, line: u64, col: u64) -> &str {
    let Some(line) = text.lines().nth((line - 1) as usize) else {
        return "";
    };
    let start = line
        .char_indices()
        .nth((col - 1) as usize)
        .map_or(line.len(), |(i, _)| i);
    let rest = &line[start..];
    let end = rest.find([',', '}', ']', '#']).unwrap_or(rest.len());
    rest[..end].trim()
}

/// How the YAML library's errors read in Portolan.
struct Wording<'t> {
    /// The value written where the error is, for quoting.
    written: &'t str,
}

impl MessageFormatter for Wording<'_> {
    fn format_message<'a>(&self, err: &'a YamlError) -> Cow<'a, str> {
        let not = || match self.written {
            "" => String::new(),
            w => format!(", not {}", echo(w)),
        };
        let owned = match err {
            YamlError::InvalidScalar { ty, .. } => {
                format!("expected {} here{}", schema::in_words(ty), not())
            }
            YamlError::InvalidBooleanStrict { .. } => {
                format!("expected true or false here{}", not())
            }
            YamlError::SerdeInvalidType {
                unexpected,
                expected,
                ..
            }
            | YamlError::SerdeInvalidValue {
                unexpected,
                expected,
                ..
            } => format!(
                "expected {} here, not {}",
                schema::in_words(expected),
                echo(unexpected)
            ),
            YamlError::SerdeUnknownField {
                field, expected, ..
            } => {
                format!(
                    "unknown key '{}': allowed here: {}",
                    echo(field),
                    expected.join(", ")
                )
            }
            YamlError::SerdeMissingField { field, .. } => format!("this needs a '{field}' key"),
            YamlError::SerdeUnknownVariant {
                variant, expected, ..
            } => format!(
                "'{}' is not allowed here: allowed here: {}",
                echo(variant),
                expected.join(", ")
            ),
            YamlError::DuplicateMappingKey { key: Some(key), .. } => {
                format!("the key '{}' is written twice here", echo(key))
            }
            YamlError::Budget {
                breach: BudgetBreach::Nodes { nodes },
                ..
            } => format!(
                "the file is too large: more than {} YAML values, keys and list items",
                nodes - 1
            ),
            other => {
                let said = UserMessageFormatter.format_message(other);
                match syntax_hint(&said) {
                    Some(hint) => format!("{said}: {hint}"),
                    None => return said,
                }
            }
        };
        Cow::Owned(owned)
    }
}

/// What to do about a YAML syntax error, from the parser's words: they
/// say what the parser met, not what the writer most likely did.
fn syntax_hint(said: &str) -> Option<&'static str> {
    let said = said.to_ascii_lowercase();
    let hints: [(&[&str], &str); 6] = [
        (
            &["tab"],
            "indent with spaces; YAML does not allow tabs in indentation",
        ),
        (
            &["mapping values are not allowed"],
            "check this line's indentation against the lines above, or put quotes around a value that holds ': '",
        ),
        (
            &[
                "did not find expected key",
                "block mapping",
                "block sequence",
            ],
            "check the indentation: the keys of one mapping, and the '-' items of one list, line up",
        ),
        (
            &["quoted scalar", "quoted string"],
            "a quoted text is not closed: check its closing quote, on this line or above",
        ),
        (
            &[
                "flow sequence",
                "flow mapping",
                "':' indicator",
                "',' or ']'",
                "',' or '}'",
            ],
            "a '[' or '{' above may be missing its ']' or '}'; put quotes around a text that holds ':', ',' or brackets",
        ),
        (
            &["cannot start any token"],
            "put quotes around a value that starts with a character such as '@' or '`'",
        ),
    ];
    hints
        .into_iter()
        .find(|(signs, _)| signs.iter().any(|s| said.contains(s)))
        .map(|(_, hint)| hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::game_file::GameFile;

    const GAME: &str =
        "id: g\ntitle: G\nplayers: [{ id: a }]\nphases: { p: { kind: script } }\nflow: [p]\n";

    fn errors(text: &str) -> Vec<String> {
        match parse::<GameFile>("g/game.yaml", text) {
            Ok(_) => Vec::new(),
            Err(e) => e.0.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_good_file_reads() {
        assert!(errors(GAME).is_empty());
    }

    #[test]
    fn every_schema_error_is_reported_at_its_place() {
        let text = format!(
            "{GAME}board:\n  grid: {{ columns: \"seven\", rows: 5 }}\npieces:\n  kinds:\n    Ship: {{ count: -3 }}\nfoo: 1\nbar: 2\n"
        );
        let got = errors(&text);
        assert_eq!(
            got,
            [
                "g/game.yaml:7:20: 'columns' must be a whole number from 0 to 255, not \"seven\"",
                "g/game.yaml:10:20: 'count' must be a whole number from 0 to 65535, not -3",
                "g/game.yaml:11:1: unknown key 'foo': did you mean 'flow'? (allowed here: id, title, summary, players, first_player, board, pieces, pools, zones, phases, flow, victory, tables, options, scripts, vars, public_player_vars, secrets, max_plies, move_help)",
                "g/game.yaml:12:1: unknown key 'bar': did you mean 'board'? (allowed here: id, title, summary, players, first_player, board, pieces, pools, zones, phases, flow, victory, tables, options, scripts, vars, public_player_vars, secrets, max_plies, move_help)",
            ]
        );
    }

    #[test]
    fn text_written_as_yes_no_or_a_number_is_text_beside_another_error() {
        // The stock Norsemen are `short: No`: a typo elsewhere must not
        // make it a boolean that the schema refuses.
        let text = format!(
            "{GAME}pieces:\n  kinds:\n    Norsemen: {{ short: No }}\n    Ship: {{ short: 7 }}\nmax_plie: 3\n"
        );
        let got = errors(&text);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("unknown key 'max_plie'"), "{got:?}");
    }

    #[test]
    fn a_syntax_error_says_what_to_do() {
        for (text, hint) in [
            ("id: g\n\ttitle: G\n", "indent with spaces"),
            ("id: g\nflow: [a, b\nphases: {}\n", "may be missing its ']'"),
            ("id: g\ntitle: \"G\n", "a quoted text is not closed"),
            ("id: g\n  title: G\n", "check this line's indentation"),
        ] {
            let got = errors(text);
            assert!(got.iter().any(|e| e.contains(hint)), "{text:?}: {got:?}");
        }
    }

    #[test]
    fn a_syntax_error_names_the_file_and_the_problem() {
        let got = errors("id: g\ntitle: [unclosed\n");
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].starts_with("g/game.yaml:"), "{got:?}");
        assert!(!got[0].contains("<input>"), "{got:?}");
    }
}
