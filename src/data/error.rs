//! Errors in game data, for people: what is wrong, where, and what to do.

use serde_saphyr::Spanned;
use std::fmt;

/// One problem in a data file. The loader collects every problem it finds,
/// so a designer fixes a file in one pass.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    /// Converts a serde-saphyr parse error, keeping its position and snippet.
    pub fn from_yaml(file: &str, err: &serde_saphyr::Error) -> DataError {
        let at = err
            .location()
            .filter(|l| l.line() > 0)
            .map(|l| (l.line(), l.column()));
        DataError {
            file: file.to_string(),
            at,
            message: err.to_string(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem found in a package or scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataErrors {}

impl From<DataError> for DataErrors {
    fn from(e: DataError) -> Self {
        DataErrors(vec![e])
    }
}

/// "did you mean" help: the known names closest to a misspelt one.
pub fn suggest<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    let wrong_l = wrong.to_ascii_lowercase();
    let mut near: Vec<(usize, &str)> = known
        .iter()
        .map(|k| (edit_distance(&wrong_l, &k.to_ascii_lowercase()), *k))
        .filter(|(d, _)| *d <= 2.max(wrong.len() / 3))
        .collect();
    near.sort();
    match near.first() {
        Some((_, best)) => format!("did you mean '{best}'?"),
        None if known.len() <= 12 => format!("known: {}", known.join(", ")),
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
}
