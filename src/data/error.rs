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

/// How much longer or shorter than a misspelt name a known one may be
/// and still be compared letter by letter.
const NEAR_LENGTH: usize = 4;

/// The most names a hint lists in full; of more, it names the nearest.
const MAX_LISTED: usize = 12;

/// "did you mean" help: the known name closest to a misspelt one; else
/// the known names, or the nearest of them when there are many (never a
/// count that points nowhere), or that there are none.
pub fn suggest<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    if known.is_empty() {
        return "there are none".into();
    }
    let comparable = wrong.len() <= MAX_SUGGESTED_LEN;
    let wrong_l = if comparable {
        wrong.to_ascii_lowercase()
    } else {
        String::new()
    };
    let limit = 2.max(wrong.len() / 3);
    // A name whose length is far off is ranked by that difference, a
    // lower bound of its distance: only names of about the right length
    // cost a comparison, however many the data holds.
    let mut by_distance: Vec<(usize, &str)> = known
        .iter()
        .map(|k| {
            let apart = k.len().abs_diff(wrong.len());
            let d = match comparable && apart <= limit + NEAR_LENGTH {
                true => edit_distance(&wrong_l, &k.to_ascii_lowercase()),
                false if comparable => apart,
                false => usize::MAX,
            };
            (d, *k)
        })
        .collect();
    by_distance.sort();
    match by_distance[0] {
        (d, best) if d <= limit => format!("did you mean '{}'?", echo(best)),
        _ if known.len() <= MAX_LISTED => format!("known: {}", echo(&known.join(", "))),
        _ => {
            let nearest: Vec<&str> = by_distance[..MAX_LISTED / 2]
                .iter()
                .map(|(_, k)| *k)
                .collect();
            format!(
                "the nearest of the {} known: {}",
                known.len(),
                echo(&nearest.join(", "))
            )
        }
    }
}

/// Edit distance with transpositions (optimal string alignment): a
/// swapped pair of letters (`Gual` for `Gaul`) is one edit, as a typist
/// makes it.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let mut d = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                d = d.min(before[j - 1] + 1);
            }
            cur.push(d);
        }
        before = std::mem::replace(&mut prev, cur);
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
        assert_eq!(suggest("Gual", ["lua", "Gaul"]), "did you mean 'Gaul'?");
        assert_eq!(suggest("x", []), "there are none");
        let many: Vec<String> = (0..30).map(|i| format!("word{i:02}")).collect();
        let hint = suggest("zzzzzzzzzzzz", many.iter().map(String::as_str));
        assert!(hint.starts_with("the nearest of the 30 known: "), "{hint}");
    }

    #[test]
    fn a_swapped_pair_of_letters_is_one_edit() {
        assert_eq!(edit_distance("gual", "gaul"), 1);
        assert_eq!(edit_distance("gual", "lua"), 2);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
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
