//! Errors in game data, for people: what is wrong, where, and what to do.

use crate::untrusted::{echo, excerpt};
use serde_saphyr::Spanned;
use std::fmt;

/// One problem in a data file. The loader collects every problem it finds,
/// so a designer fixes a file in one pass.
///
/// File names and messages may hold text from the package or the command
/// line; they are shown through [`crate::untrusted`], escaped and cut.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataError {
    /// The file, as the user knows it (`rules/med-convoy/game.yaml`).
    pub file: String,
    /// Line and column, from 1, when the problem has a place in the file.
    pub at: Option<(u64, u64)>,
    pub message: String,
}

impl DataError {
    pub fn new(file: &str, message: impl Into<String>) -> DataError {
        DataError {
            file: file.to_string(),
            at: None,
            message: message.into(),
        }
    }

    /// An error about a value read from YAML, placed where it was written.
    /// Values that a script or scenario produced have no place; the file
    /// still names who produced them.
    pub fn at<T>(file: &str, spanned: &Spanned<T>, message: impl Into<String>) -> DataError {
        let loc = spanned.referenced;
        let at = (loc.line() > 0).then(|| (loc.line(), loc.column()));
        DataError {
            file: file.to_string(),
            at,
            message: message.into(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, col)) => write!(f, "{}:{line}:{col}: ", echo(&self.file))?,
            None => write!(f, "{}: ", echo(&self.file))?,
        }
        f.write_str(&excerpt(&self.message))
    }
}

/// Every problem found in a package or scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataErrors(pub Vec<DataError>);

/// The most errors shown at once: past that, a designer fixes the first
/// ones (often the cause of the rest) and checks again.
pub const MAX_SHOWN: usize = 100;

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().take(MAX_SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        match self.0.len().saturating_sub(MAX_SHOWN) {
            0 => Ok(()),
            more => write!(f, "\n... and {more} more errors: fix these first"),
        }
    }
}

impl std::error::Error for DataErrors {}

impl From<DataError> for DataErrors {
    fn from(e: DataError) -> Self {
        DataErrors(vec![e])
    }
}

/// Names longer than this get no "did you mean": nobody misspells a
/// 65-letter name by two letters, and comparing a megabyte of input with
/// every known name would take minutes.
const MAX_SUGGESTED_LEN: usize = 64;

/// "did you mean" help: the known names closest to a misspelt one.
pub fn suggest<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    let wrong_l = wrong.to_ascii_lowercase();
    let limit = 2.max(wrong.len() / 3);
    let near = known
        .iter()
        .filter(|k| wrong.len() <= MAX_SUGGESTED_LEN && k.len().abs_diff(wrong.len()) <= limit)
        .map(|k| (edit_distance(&wrong_l, &k.to_ascii_lowercase()), *k))
        .filter(|(d, _)| *d <= limit)
        .min();
    match near {
        Some((_, best)) => format!("did you mean '{}'?", echo(best)),
        None if known.len() <= 12 => format!("known: {}", echo(&known.join(", "))),
        None => format!("{} are known; see the file for the list", known.len()),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_name_the_closest_known_word() {
        assert_eq!(
            suggest("Cruser", ["Cruiser", "Destroyer"]),
            "did you mean 'Cruiser'?"
        );
        assert_eq!(suggest("zzz", ["a", "b"]), "known: a, b");
    }

    #[test]
    fn a_huge_wrong_name_is_not_compared() {
        let huge = "x".repeat(10_000_000);
        assert_eq!(suggest(&huge, ["a", "b"]), "known: a, b");
    }

    #[test]
    fn shown_errors_are_escaped_cut_and_counted() {
        let e = DataError::new("evil\u{1b}[2J.yaml", "bad '\u{7}'");
        assert_eq!(e.to_string(), "evil\\u001b[2J.yaml: bad '\\u0007'");
        let many = DataErrors(vec![e; MAX_SHOWN + 5]);
        let shown = many.to_string();
        assert_eq!(shown.lines().count(), MAX_SHOWN + 1);
        assert!(
            shown.ends_with("and 5 more errors: fix these first"),
            "{shown}"
        );
    }
}
