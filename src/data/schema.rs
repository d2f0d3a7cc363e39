//! Every schema problem of a data tree at once, in the file's words.
//!
//! serde stops at the first value that does not fit the schema. A designer
//! who wrote `columns: "seven"` and `count: -3` should hear about both in
//! one `check`, so [`problems`] reads the tree, and after each problem
//! mends the tree at that spot (drops an unknown key, puts a stand-in of
//! the right shape where a value was wrong or missing) and reads again,
//! until the tree fits or a problem cannot be mended. The stand-ins only
//! let reading go on: the data is refused whenever there is a problem.
//!
//! Problems are worded for people: `'columns' must be a whole number from
//! 0 to 255, not "seven"`, not `invalid type: string, expected u8`.

use crate::data::error::suggest;
use crate::untrusted::echo;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

/// The most problems one reading reports; a file with more has a deeper
/// trouble that the first ones show.
pub const MAX_PROBLEMS: usize = 50;

/// One value that does not fit the schema, at a path of keys and list
/// positions (from 0) in the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub path: Vec<String>,
    pub fault: Fault,
}

/// What is wrong at a problem's path.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// A key this place does not have (`path` is the map holding it).
    UnknownKey { key: String, known: Vec<String> },
    /// A key this place needs (`path` is the map that lacks it).
    MissingKey { key: String },
    /// A value of the wrong kind or out of range.
    WrongValue { found: String, expected: String },
    /// A word that is not one of the words allowed here.
    UnknownWord { word: String, known: Vec<String> },
    /// Anything else, in serde's words.
    Other(String),
}

/// Reads a tree as `T`, or lists its problems in the order found, at
/// most [`MAX_PROBLEMS`].
pub fn read<T: DeserializeOwned>(tree: Json) -> Result<T, Vec<Problem>> {
    read_as_written(tree, |_| None)
}

/// [`read`], for a tree read from YAML text: `written(path)` gives the
/// plain scalar written at a path (`No`, `007`). Where the schema wants
/// text, a scalar YAML would read as a boolean or a number is the text as
/// written, as the YAML library reads it into a text field (`short: No`
/// is the Norsemen's letter, not `false`).
pub fn read_as_written<T: DeserializeOwned>(
    mut tree: Json,
    written: impl Fn(&[String]) -> Option<String>,
) -> Result<T, Vec<Problem>> {
    let mut found: Vec<Problem> = Vec::new();
    // Each pass mends one spot, and a spot is mended once.
    for _ in 0..4 * MAX_PROBLEMS {
        let problem = match attempt::<T>(&tree) {
            Ok(value) if found.is_empty() => return Ok(value),
            Ok(_) => break,
            Err(problem) => problem,
        };
        if let Some(text) = text_as_written(&tree, &problem, &written) {
            put(&mut tree, &problem.path, Some(Json::String(text)));
            continue;
        }
        if read_only_from_yaml(&problem) {
            put(&mut tree, &problem.path, None);
            continue;
        }
        if found.len() >= MAX_PROBLEMS || found.contains(&problem) {
            break;
        }
        let mended = mend::<T>(&mut tree, &problem);
        found.push(problem);
        if mended.is_none() {
            break;
        }
    }
    Err(found)
}

/// The text written where the schema wants text and the tree holds the
/// boolean or number YAML read there.
fn text_as_written(
    tree: &Json,
    problem: &Problem,
    written: impl Fn(&[String]) -> Option<String>,
) -> Option<String> {
    let Fault::WrongValue { expected, .. } = &problem.fault else {
        return None;
    };
    if in_words(expected) != "text" {
        return None;
    }
    match node(tree, &problem.path)? {
        Json::Bool(_) => written(&problem.path),
        Json::Number(n) => written(&problem.path).or_else(|| Some(n.to_string())),
        _ => None,
    }
}

/// A value only the YAML library can read (a part of a scenario kept with
/// the positions of its keys, to place later errors): plain data cannot
/// stand for it, so reading on plain data skips it. It was read from the
/// file before, so it is not where the author's mistake is.
fn read_only_from_yaml(problem: &Problem) -> bool {
    matches!(&problem.fault, Fault::WrongValue { expected, .. } if expected == SPANNED)
}

/// What serde says a value kept with its positions expects.
const SPANNED: &str = "a span-aware newtype wrapper";

/// Mends the tree at a problem with the first edit that moves the reading
/// past it; returns the next problem (`Some(None)`: none left), or `None`
/// when no edit helps and reading must stop.
fn mend<T: DeserializeOwned>(tree: &mut Json, problem: &Problem) -> Option<Option<Problem>> {
    for (path, value) in edits(tree, problem) {
        let Some(old) = put(tree, &path, value) else {
            continue;
        };
        let after = first_problem::<T>(tree);
        if !after.as_ref().is_some_and(|p| caused_by_edit(p, &path)) {
            return Some(after);
        }
        put(tree, &path, old);
    }
    None
}

/// Whether a problem lies in what an edit at `path` put or removed.
fn caused_by_edit(problem: &Problem, path: &[String]) -> bool {
    let inside = problem.path.starts_with(path);
    let removed_needed_key = matches!(&problem.fault, Fault::MissingKey { key }
        if path.split_last().is_some_and(|(last, parent)| last == key && problem.path == parent));
    inside || removed_needed_key
}

/// The edits that could mend a problem, likeliest first: a value to put
/// at a path, or `None` to remove the key there.
fn edits(tree: &Json, problem: &Problem) -> Vec<(Vec<String>, Option<Json>)> {
    let at = |key: &str| {
        let mut path = problem.path.clone();
        path.push(key.to_string());
        path
    };
    match &problem.fault {
        Fault::UnknownKey { key, .. } => vec![(at(key), None)],
        Fault::UnknownWord { word, known } => {
            let Some(stand_in) = known.first().map(|k| Json::from(k.as_str())) else {
                return Vec::new();
            };
            let tag = node(tree, &problem.path)
                .and_then(Json::as_object)
                .and_then(|m| m.iter().find(|(_, v)| v.as_str() == Some(word)))
                .map(|(k, _)| at(k));
            vec![(tag.unwrap_or_else(|| problem.path.clone()), Some(stand_in))]
        }
        Fault::MissingKey { key } => stand_ins("")
            .into_iter()
            .map(|v| (at(key), Some(v)))
            .collect(),
        Fault::WrongValue { expected, .. } => {
            let mut edits: Vec<_> = stand_ins(expected)
                .into_iter()
                .map(|v| (problem.path.clone(), Some(v)))
                .collect();
            // An optional key is mended by its absence.
            edits.push((problem.path.clone(), None));
            edits
        }
        Fault::Other(_) => Vec::new(),
    }
}

/// Values of every shape, the likeliest for what serde expected first.
fn stand_ins(expected: &str) -> Vec<Json> {
    let mut shapes = vec![
        Json::Object(Default::default()),
        Json::from(0),
        Json::from(false),
        Json::from(""),
        Json::Array(Vec::new()),
        Json::Null,
    ];
    let likeliest = match expected {
        e if e.starts_with(['u', 'i', 'f']) => 1,
        "a boolean" => 2,
        e if e.contains("string") || e.contains("variant") => 3,
        e if e.contains("sequence") || e.contains("array") => 4,
        _ => 0,
    };
    shapes.swap(0, likeliest);
    shapes
}

/// Puts a value at a path (`None`: removes the key there) and returns
/// what was there before, or `None` when the path has no parent to hold it.
fn put(tree: &mut Json, path: &[String], value: Option<Json>) -> Option<Option<Json>> {
    let (last, parent) = path.split_last()?;
    match (node_mut(tree, parent)?, value) {
        (Json::Object(m), Some(v)) => Some(m.insert(last.clone(), v)),
        (Json::Object(m), None) => Some(m.remove(last)),
        (Json::Array(items), Some(v)) => {
            let slot = items.get_mut(last.parse::<usize>().ok()?)?;
            Some(Some(std::mem::replace(slot, v)))
        }
        _ => None,
    }
}

/// The first problem serde meets, or `None` when the tree fits.
fn first_problem<T: DeserializeOwned>(tree: &Json) -> Option<Problem> {
    attempt::<T>(tree).err()
}

/// The tree as `T`, or the first problem serde meets.
fn attempt<T: DeserializeOwned>(tree: &Json) -> Result<T, Problem> {
    let err = match serde_path_to_error::deserialize::<_, T>(tree) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let mut path = Vec::new();
    for segment in err.path() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => path.push(index.to_string()),
            serde_path_to_error::Segment::Map { key } => path.push(key.clone()),
            serde_path_to_error::Segment::Enum { .. } => {}
            serde_path_to_error::Segment::Unknown => break,
        }
    }
    let message = err.inner().to_string();
    if let Some(named) = message.strip_prefix("unknown field `") {
        let known = backticked(after_expected(&message));
        // The path ends with the key, except inside an internally tagged
        // enum (a phase), whose keys serde reads from a buffer.
        let key = match path.last() {
            Some(last)
                if named
                    .strip_prefix(last.as_str())
                    .is_some_and(|r| r.starts_with('`')) =>
            {
                path.pop().unwrap_or_default()
            }
            _ => named.split('`').next().unwrap_or_default().to_string(),
        };
        return Err(Problem {
            path,
            fault: Fault::UnknownKey { key, known },
        });
    }
    let fault = fault_of(&message, node(tree, &path));
    Err(Problem { path, fault })
}

/// What serde's message says it expected.
fn after_expected(message: &str) -> &str {
    message.rsplit_once(", expected ").map_or("", |(_, e)| e)
}

/// Reads serde's standard messages (`missing field `x``, `invalid type:
/// ..., expected u8`); the values come from the tree itself, so odd
/// characters in a value cannot confuse it.
fn fault_of(message: &str, at: Option<&Json>) -> Fault {
    let expected = || after_expected(message).to_string();
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.trim_end_matches('`').to_string();
        return Fault::MissingKey { key };
    }
    if message.starts_with("unknown variant `") {
        let known = backticked(expected().as_str());
        let word = at.and_then(|v| unknown_word(v, &known));
        return word.map_or(Fault::Other(message.into()), |word| Fault::UnknownWord {
            word,
            known,
        });
    }
    if message.starts_with("invalid type: ")
        || message.starts_with("invalid value: ")
        || message.starts_with("invalid length ")
    {
        return Fault::WrongValue {
            found: at.map_or_else(|| "this".into(), described),
            expected: expected(),
        };
    }
    Fault::Other(message.into())
}

/// The names inside backticks: serde's list of the keys or words allowed.
fn backticked(list: &str) -> Vec<String> {
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The word at a node that is not among the known ones: the node itself,
/// or the tag inside it (`kind: placment` of an internally tagged phase).
fn unknown_word(at: &Json, known: &[String]) -> Option<String> {
    let unknown = |v: &Json| {
        v.as_str()
            .filter(|s| !known.iter().any(|k| k == s))
            .map(String::from)
    };
    match at {
        Json::Object(m) => m.values().find_map(unknown),
        v => unknown(v),
    }
}

/// A value as a designer wrote it, short.
fn described(v: &Json) -> String {
    match v {
        Json::String(s) => format!("\"{}\"", echo(s)),
        Json::Array(items) => format!("a list of {}", items.len()),
        Json::Object(_) => "a mapping".into(),
        Json::Null => "nothing".into(),
        other => echo(&other.to_string()).into_owned(),
    }
}

fn node<'t>(tree: &'t Json, path: &[String]) -> Option<&'t Json> {
    path.iter().try_fold(tree, |v, key| match v {
        Json::Object(m) => m.get(key),
        Json::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

fn node_mut<'t>(tree: &'t mut Json, path: &[String]) -> Option<&'t mut Json> {
    path.iter().try_fold(tree, |v, key| match v {
        Json::Object(m) => m.get_mut(key),
        Json::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
        _ => None,
    })
}

impl Problem {
    /// The problem in the file's words, naming the key or list item.
    pub fn message(&self) -> String {
        let subject = subject(&self.path);
        match &self.fault {
            Fault::UnknownKey { key, known } => {
                format!("unknown key '{}': {}", echo(key), choices(key, known))
            }
            Fault::MissingKey { key } => format!("{subject} needs a '{key}' key"),
            Fault::WrongValue { found, expected } => {
                format!("{subject} must be {}, not {found}", in_words(expected))
            }
            Fault::UnknownWord { word, known } => {
                format!(
                    "{subject} cannot be '{}': {}",
                    echo(word),
                    choices(word, known)
                )
            }
            Fault::Other(message) => format!("{subject}: {}", echo(message)),
        }
    }
}

/// What a path names: `'columns'`, `item 3 of 'ranks'`, `the file`.
fn subject(path: &[String]) -> String {
    match path {
        [] => "the file".into(),
        [parent @ .., last] if last.parse::<usize>().is_ok() => {
            let n = last.parse::<usize>().map_or(0, |i| i + 1);
            match parent.last() {
                Some(parent) => format!("item {n} of '{}'", echo(parent)),
                None => format!("item {n} of the file"),
            }
        }
        [.., last] => format!("'{}'", echo(last)),
    }
}

/// The allowed names, with the closest to a wrong one first if any is.
fn choices(wrong: &str, known: &[String]) -> String {
    let all = known.join(", ");
    match suggest(wrong, known.iter().map(String::as_str)) {
        hint if hint.starts_with("did you mean") => format!("{hint} (allowed here: {all})"),
        _ if known.is_empty() => "nothing is allowed here".into(),
        _ => format!("allowed here: {all}"),
    }
}

/// serde's name of an expected type, as a designer would say it.
pub fn in_words(expected: &str) -> String {
    let words = match expected {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number, 0 or more",
        "i8" | "i16" | "i32" | "i64" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" | "bool" => "true or false",
        "a string" | "string" => "text",
        "a sequence" | "seq" => "a list",
        "a map" | "map" => "a mapping (key: value)",
        e if e.starts_with("struct ") || e.starts_with("internally tagged enum") => {
            "a mapping (key: value)"
        }
        e if e.starts_with("an array of length ") => {
            return format!("a list of {}", &e["an array of length ".len()..]);
        }
        e if e.starts_with("a tuple of size ") => {
            return format!("a list of {}", &e["a tuple of size ".len()..]);
        }
        e if e.starts_with("enum ") || e.contains("variant") => "one of the words allowed here",
        SPANNED => "a mapping (key: value)",
        // serde's other names are a library's words, not the file's.
        _ => "a value of another kind (see docs/game-yaml.md)",
    };
    words.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Grid {
        columns: u8,
        rows: u8,
        #[serde(default)]
        wrap: bool,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct File {
        title: String,
        grid: Grid,
        #[serde(default)]
        ranks: Vec<u8>,
        #[serde(default)]
        side: Option<Side>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Side {
        North,
        South,
    }

    fn messages(tree: serde_json::Value) -> Vec<String> {
        match read::<File>(tree) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(Problem::message).collect(),
        }
    }

    #[test]
    fn a_fitting_tree_has_no_problems() {
        let tree = json!({"title": "t", "grid": {"columns": 7, "rows": 5}});
        assert!(read::<File>(tree).is_ok());
    }

    #[test]
    fn every_problem_is_found_not_only_the_first() {
        let tree = json!({
            "title": "t",
            "grid": {"columns": "seven", "rows": -3, "wrap": "yes"},
            "ranks": [1, 300, 2],
            "side": "est",
            "colour": "blue",
            "sides": "both",
        });
        let mut got = messages(tree);
        got.sort();
        assert_eq!(
            got,
            [
                "'columns' must be a whole number from 0 to 255, not \"seven\"",
                "'rows' must be a whole number from 0 to 255, not -3",
                "'side' cannot be 'est': allowed here: north, south",
                "'wrap' must be true or false, not \"yes\"",
                "item 2 of 'ranks' must be a whole number from 0 to 255, not 300",
                "unknown key 'colour': allowed here: title, grid, ranks, side",
                "unknown key 'sides': did you mean 'side'? (allowed here: title, grid, ranks, side)",
            ]
        );
    }

    #[test]
    fn missing_keys_are_reported_and_reading_goes_on() {
        let got = messages(json!({"grid": {"rows": 5}, "side": "nort"}));
        assert!(
            got.contains(&"the file needs a 'title' key".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"'grid' needs a 'columns' key".to_string()),
            "{got:?}"
        );
        assert!(
            got.iter().any(|m| m.contains("did you mean 'north'")),
            "{got:?}"
        );
    }

    #[test]
    fn a_tree_of_the_wrong_shape_is_one_problem() {
        assert_eq!(
            messages(json!("a title")),
            ["the file must be a mapping (key: value), not \"a title\""]
        );
    }

    #[test]
    fn reading_stops_at_the_limit() {
        let ranks: Vec<i64> = vec![-1; 500];
        let tree = json!({"title": "t", "grid": {"columns": 1, "rows": 1}, "ranks": ranks});
        assert_eq!(read::<File>(tree).unwrap_err().len(), MAX_PROBLEMS);
    }
}
