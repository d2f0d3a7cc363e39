//! Runs spread over machines: `simulate --shard I/N` plays every N-th game
//! of the run, starting at game I, and writes a result file;
//! `portolan merge` reads the N files and prints the report the whole run
//! would have printed on one machine.
//!
//! A result file is versioned JSON: the run's settings (so shards of
//! different runs are never mixed), which shard it is, and one small
//! record per game. Keeping every game, not a summary, is what makes the
//! merge exact: medians and percentiles cannot be merged from summaries.

use crate::files::{Limit, read_text, write_atomic};
use crate::sim::coverage::Coverage;
use crate::sim::{GameResult, Shard, shard_check};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a result file says it is.
const FORMAT: &str = "portolan-shard";
/// The version of the result file this build writes and reads (2: a game
/// cut short by a limit is marked in its outcome, `by_limit`).
const VERSION: u32 = 2;
/// The largest result file `merge` reads: room for [`MAX_SHARD_GAMES`]
/// games at over 250 bytes each (a game takes about 150).
const FILE_LIMIT: Limit = Limit {
    bytes: 256 << 20,
    what: "a shard result file",
};

/// The most games one shard plays, so that its result file stays within
/// [`FILE_LIMIT`]: `simulate --shard` refuses a larger shard before it
/// plays, rather than write a file `merge` would refuse.
pub const MAX_SHARD_GAMES: u64 = 1_000_000;

/// A run's settings: what makes two result files shards of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    pub game: String,
    pub scenario: Option<String>,
    pub options: Vec<String>,
    /// The overlays laid on the data, as asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlays: Vec<String>,
    /// Player ids, in seating order.
    pub players: Vec<String>,
    /// The bot spec of each seat, by player index.
    pub bots: Vec<String>,
    pub seed: u64,
    /// Games in the whole run.
    pub games: u64,
    /// Whether the run counts coverage.
    pub coverage: bool,
}

impl RunInfo {
    pub fn bots_by_player(&self) -> impl Iterator<Item = (&str, &str)> {
        self.players
            .iter()
            .map(String::as_str)
            .zip(self.bots.iter().map(String::as_str))
    }
}

/// One shard's result file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    pub format: String,
    pub version: u32,
    pub run: RunInfo,
    pub shard: Shard,
    pub seconds: f64,
    pub threads: usize,
    pub results: Vec<GameResult>,
    /// The shard's coverage, when the run counts it.
    pub coverage: Option<Coverage>,
}

impl ShardFile {
    pub fn new(
        run: RunInfo,
        shard: Shard,
        seconds: f64,
        threads: usize,
        results: Vec<GameResult>,
        coverage: Option<Coverage>,
    ) -> ShardFile {
        ShardFile {
            format: FORMAT.into(),
            version: VERSION,
            run,
            shard,
            seconds,
            threads,
            results,
            coverage,
        }
    }

    /// Writes the file whole or not at all.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let json = serde_json::to_string(self).expect("a shard serializes");
        write_atomic(path, json.as_bytes()).map_err(|e| e.to_string())
    }

    /// Reads a result file written by `simulate --shard`, within
    /// [`FILE_LIMIT`]; every problem names the file. The numbers in it are
    /// not checked yet: [`merge`] does that, before it uses any.
    pub fn read(path: &Path) -> Result<ShardFile, String> {
        let text = read_text(path, FILE_LIMIT).map_err(|e| e.to_string())?;
        let at = path.display();
        let head: Head = serde_json::from_str(&text)
            .map_err(|e| format!("{at}: not a shard result file ({e})"))?;
        if head.format.as_deref() != Some(FORMAT) {
            return Err(format!(
                "{at}: not a shard result file (write one with simulate --shard I/N)"
            ));
        }
        if head.version != Some(u64::from(VERSION)) {
            return Err(format!(
                "{at}: a shard result file of version {}; this portolan reads version {VERSION}: \
                 merge it with the portolan that wrote it, or run the shard again",
                head.version.map_or("?".into(), |v| v.to_string())
            ));
        }
        serde_json::from_str(&text).map_err(|e| format!("{at}: a damaged shard result file ({e})"))
    }
}

/// What a result file says it is, read before the rest: a file of another
/// kind or version is named as such, not as damaged. Other fields are
/// skipped unread.
#[derive(Deserialize)]
struct Head {
    format: Option<String>,
    version: Option<u64>,
}

/// The default name of a shard's result file.
pub fn default_path(shard: Shard) -> PathBuf {
    PathBuf::from(format!(
        "portolan-shard-{}-of-{}.json",
        shard.index, shard.count
    ))
}

/// A whole run put back together from its shards.
pub struct Merged {
    pub run: RunInfo,
    pub results: Vec<GameResult>,
    /// The longest shard's seconds, and the threads of all shards.
    pub seconds: f64,
    pub threads: usize,
    pub coverage: Option<Coverage>,
}

/// Merges the result files of every shard of one run, refusing a file
/// with a number out of bounds (see [`shard_check`]), files of different
/// runs, a shard given twice and missing shards.
pub fn merge(files: Vec<(PathBuf, ShardFile)>) -> Result<Merged, String> {
    for (path, f) in &files {
        shard_check::check(f).map_err(|problem| {
            format!(
                "{}: a damaged shard result file: {problem}; run the shard again",
                path.display()
            )
        })?;
    }
    let Some((first_path, first)) = files.first() else {
        return Err("merge needs the result files of a run's shards".into());
    };
    let count = first.shard.count;
    // By shard index: a map, since the count is a number from a file.
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for (path, f) in &files {
        if f.run != first.run {
            return Err(format!(
                "{} and {} are shards of different runs ({}): merge the shards of one run",
                first_path.display(),
                path.display(),
                difference(&first.run, &f.run)
            ));
        }
        if f.shard.count != count {
            return Err(format!(
                "{} is shard {}/{}, but {} is one of {count} shards: merge the shards of one run",
                path.display(),
                f.shard.index,
                f.shard.count,
                first_path.display()
            ));
        }
        if let Some(other) = seen.insert(f.shard.index, path) {
            return Err(format!(
                "{} and {} are both shard {}/{count}: give each shard once",
                other.display(),
                path.display(),
                f.shard.index
            ));
        }
        if f.results
            .iter()
            .map(|r| r.index)
            .ne(f.shard.games(first.run.games))
        {
            return Err(format!(
                "{}: its games are not those of shard {}/{count}: the file was changed or damaged",
                path.display(),
                f.shard.index
            ));
        }
    }
    missing_shards(&seen, count)?;
    let seconds = files.iter().map(|(_, f)| f.seconds).fold(0.0, f64::max);
    let threads = files.iter().map(|(_, f)| f.threads).sum();
    let run = first.run.clone();
    let mut coverage: Option<Coverage> = None;
    for (path, f) in &files {
        match (&mut coverage, &f.coverage) {
            (Some(total), Some(part)) => total
                .add(part)
                .map_err(|e| format!("{}: {e}", path.display()))?,
            (None, Some(part)) => coverage = Some(part.clone()),
            (_, None) if run.coverage => {
                return Err(format!(
                    "{}: the run counts coverage, but this file has none",
                    path.display()
                ));
            }
            (_, None) => {}
        }
    }
    let mut results: Vec<GameResult> = files.into_iter().flat_map(|(_, f)| f.results).collect();
    results.sort_by_key(|r| r.index);
    Ok(Merged {
        run,
        results,
        seconds,
        threads,
        coverage,
    })
}

/// The most missing shards an error lists by name.
const MISSING_NAMED: usize = 5;

/// Refuses a merge that lacks shards, naming the first few missing. Only
/// the shards given are walked, never all `count` of them: the count is a
/// number from a file.
fn missing_shards(seen: &BTreeMap<u64, &Path>, count: u64) -> Result<(), String> {
    let missing = count - seen.len() as u64;
    if missing == 0 {
        return Ok(());
    }
    // The first missing indexes lie among the first `seen + named` ones.
    let named: Vec<String> = (0..count)
        .filter(|i| !seen.contains_key(i))
        .take(MISSING_NAMED)
        .map(|i| format!("{i}/{count}"))
        .collect();
    let more = missing - named.len() as u64;
    let list = match more {
        0 => named.join(", "),
        _ => format!("{} and {more} more", named.join(", ")),
    };
    let one = missing == 1;
    Err(format!(
        "shard{} {list} {} missing: run {} with simulate --shard, or give {} result file{}",
        if one { "" } else { "s" },
        if one { "is" } else { "are" },
        if one { "it" } else { "them" },
        if one { "its" } else { "their" },
        if one { "" } else { "s" },
    ))
}

/// The first setting in which two runs differ, in words.
fn difference(a: &RunInfo, b: &RunInfo) -> String {
    let fields = [
        ("game", a.game.clone(), b.game.clone()),
        (
            "scenario",
            format!("{:?}", a.scenario),
            format!("{:?}", b.scenario),
        ),
        ("options", a.options.join(","), b.options.join(",")),
        ("overlays", a.overlays.join(","), b.overlays.join(",")),
        ("players", a.players.join(","), b.players.join(",")),
        ("bots", a.bots.join(","), b.bots.join(",")),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("games", a.games.to_string(), b.games.to_string()),
        ("coverage", a.coverage.to_string(), b.coverage.to_string()),
    ];
    fields
        .into_iter()
        .find(|(_, x, y)| x != y)
        .map_or("they differ".into(), |(name, x, y)| {
            format!("{name} {x} against {y}")
        })
}

#[cfg(test)]
mod tests;
