//! The `simulate` and `merge` commands: load, play, report (or write a
//! shard's result file), for `main.rs` to call.

use crate::data::catalog::Catalog;
use crate::files::check_writable;
use crate::load::{Request, load, load_counted};
use crate::sim::counter::Build;
use crate::sim::metrics::Metrics;
use crate::sim::report::{Report, Timing};
use crate::sim::shard::{self, MAX_SHARD_GAMES, RunInfo, ShardFile};
use crate::sim::thinking::Thinking;
use crate::sim::{self, Run, Shard, progress, seats};
use std::path::PathBuf;

/// How a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Csv,
}

/// `portolan simulate`'s settings.
#[derive(Clone, Debug)]
pub struct Simulate {
    pub request: Request,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// `--bots`, as written.
    pub bots: Option<String>,
    pub format: Format,
    /// Play only this shard and write its result file (to `out`, or
    /// [`shard::default_path`]).
    pub shard: Option<Shard>,
    pub out: Option<PathBuf>,
    /// Count what the rules did ([`crate::sim::coverage`]).
    pub coverage: bool,
}

/// Loads the target, plays the run, and returns what to print: the
/// report, or where a shard's results went. The speed goes to standard
/// error, so the report itself is the same on every machine.
pub fn simulate(catalog: &Catalog, s: &Simulate) -> Result<String, String> {
    let out = s.shard.map(|shard| shard_output(s, shard)).transpose()?;
    let loaded = load(catalog, &s.request).map_err(|e| e.to_string())?;
    // Once, from this first load; the threads' own loads say nothing.
    eprint!("{}", loaded.warning_lines());
    let game = &loaded.engine.game;
    let players: Vec<String> = game.players.iter().map(|p| p.id.clone()).collect();
    let info = RunInfo {
        game: game.id.clone(),
        scenario: loaded.scenario.as_ref().map(|sc| sc.id.clone()),
        options: game
            .enabled_options()
            .into_iter()
            .map(String::from)
            .collect(),
        overlays: loaded.overlays.iter().map(|o| o.label.clone()).collect(),
        bots: seats::resolve(s.bots.as_deref(), &players)?,
        players,
        seed: s.seed,
        games: s.games,
        coverage: s.coverage,
    };
    let run = Run {
        shard: s.shard.unwrap_or(Shard::WHOLE),
        progress: progress::wanted(),
        ..Run::new(s.games, s.seed, s.threads, info.bots.clone())
    };
    let (results, coverage, seconds, thinking) = if s.coverage {
        let make = |build: Build| {
            let loaded = match build {
                Build::Counted => load_counted(catalog, &s.request, true),
                Build::Without(option) => {
                    let mut without = s.request.clone();
                    without.options.push(format!("-{option}"));
                    load(catalog, &without)
                }
            };
            loaded.map(|l| l.engine).map_err(|e| e.to_string())
        };
        let (results, coverage, seconds) = sim::run_covered(make, &run)?;
        (results, Some(coverage), seconds, Thinking::default())
    } else {
        let make = || {
            load(catalog, &s.request)
                .map(|l| l.engine)
                .map_err(|e| e.to_string())
        };
        let (results, seconds, thinking) = sim::run(make, &run)?;
        (results, None, seconds, thinking)
    };
    let threads = run.threads_used();
    if let (Some(shard), Some(path)) = (s.shard, out) {
        let played = results.len();
        ShardFile::new(info, shard, seconds, threads, results, coverage).write(&path)?;
        return Ok(format!(
            "shard {}/{}: {played} games in {seconds:.2} s, written to {}\n",
            shard.index,
            shard.count,
            path.display()
        ));
    }
    let report = Report {
        metrics: Metrics::of(&info.players, &results),
        run: info,
        timing: Timing {
            seconds,
            threads,
            thinking,
        },
        coverage,
    };
    Ok(render(&report, s.format))
}

/// Where a shard's result file goes, checked before the shard plays: a
/// path `write_atomic` would refuse, or more games than a result file
/// holds, are refused now rather than after the run.
fn shard_output(s: &Simulate, shard: Shard) -> Result<PathBuf, String> {
    let games = shard.game_count(s.games);
    if games > MAX_SHARD_GAMES {
        return Err(format!(
            "--shard {}/{}: this shard would play {games} games; a shard plays at most \
             {MAX_SHARD_GAMES} (its result file must stay small enough to merge): \
             split the run into at least {} shards",
            shard.index,
            shard.count,
            s.games.div_ceil(MAX_SHARD_GAMES)
        ));
    }
    let path = s.out.clone().unwrap_or_else(|| shard::default_path(shard));
    check_writable(&path).map_err(|e| match &s.out {
        Some(_) => format!("--out {e}"),
        None => format!("the shard's result file {e} (choose another with --out FILE)"),
    })?;
    Ok(path)
}

/// `portolan merge FILES...`: the report of the whole run.
pub fn merge(files: &[PathBuf], format: Format) -> Result<String, String> {
    let read = files
        .iter()
        .map(|p| ShardFile::read(p).map(|f| (p.clone(), f)))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = shard::merge(read)?;
    let report = Report {
        metrics: Metrics::of(&merged.run.players, &merged.results),
        run: merged.run,
        timing: Timing {
            seconds: merged.seconds,
            threads: merged.threads,
            thinking: Thinking::default(),
        },
        coverage: merged.coverage,
    };
    Ok(render(&report, format))
}

fn render(report: &Report, format: Format) -> String {
    if format != Format::Json {
        eprintln!("{}", report.timing.line(report.metrics.games));
        for line in report.timing.thinking.lines(report.run.bots_by_player()) {
            eprintln!("{line}");
        }
    }
    match format {
        Format::Table => report.table(),
        Format::Json => report.json(),
        Format::Csv => report.csv(),
    }
}
