//! `portolan balance`: the rule-diff report. Every variant (a set of
//! optional rules, a scenario) plays the same seeded games between the
//! same bots; one table shows every measure per variant, its difference
//! from the first variant, and whether that difference is more than
//! chance ([`compare`]).

pub mod compare;
pub mod variant;

use crate::data::catalog::Catalog;
use crate::load::{Request, load};
use crate::plot;
use crate::sim::metrics::Metrics;
use crate::sim::report::{list_or_none, percent, rate_text};
use crate::sim::{self, Run, progress, seats};
use compare::{ALPHA, Kind, Row};
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;
pub use variant::Variant;

/// How a balance report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
}

/// `portolan balance`'s settings.
#[derive(Clone, Debug)]
pub struct Balance {
    /// The target and the `--option`s every variant starts from.
    pub request: Request,
    pub variants: Vec<Variant>,
    /// Base plus each optional rule alone (after any `variants`).
    pub each_option: bool,
    /// Base plus each overlay the game ships, alone (after those).
    pub each_overlay: bool,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub bots: Option<String>,
    pub format: Format,
    pub plot: Option<PathBuf>,
}

/// One variant's run.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    pub name: String,
    /// The variant in words (target and options).
    pub rules: String,
    pub options: Vec<String>,
    pub metrics: Metrics,
    pub seconds: f64,
}

/// The balance report as JSON.
#[derive(Serialize)]
struct Json<'a> {
    game: &'a str,
    games: u64,
    seed: u64,
    bots: Vec<(String, String)>,
    test: &'static str,
    correction: &'static str,
    alpha: f64,
    variants: &'a [Played],
    comparisons: &'a [Row],
}

const TEST: &str = "two-sided two-proportion z-test for rates, two-sample z-test for means, each against the first variant";
const CORRECTION: &str = "Holm-Bonferroni over the variants compared, for each measure";

/// Plays every variant and returns the report (and writes the plot).
pub fn balance(catalog: &Catalog, b: &Balance) -> Result<String, String> {
    // Refused now rather than after every variant has played.
    if let Some(path) = &b.plot {
        crate::files::check_writable(path).map_err(|e| format!("--plot {e}"))?;
    }
    let mut variants = b.variants.clone();
    let each: [(bool, variant::Each); 2] = [
        (b.each_option, variant::each_option),
        (b.each_overlay, variant::each_overlay),
    ];
    for (_, each) in each.iter().filter(|(wanted, _)| *wanted) {
        let mut more = each(catalog, &b.request)?;
        if !variants.is_empty() {
            more.remove(0);
        }
        variants.extend(more);
    }
    if variants.is_empty() {
        return Err(
            "balance needs variants: --variant NAME=SPEC (twice or more), \
             --each-option or --each-overlay"
                .into(),
        );
    }
    if let Some(twice) = variants
        .iter()
        .enumerate()
        .find(|(i, v)| variants[..*i].iter().any(|w| w.name == v.name))
    {
        return Err(format!(
            "two variants are named '{}': give each its own name",
            twice.1.name
        ));
    }
    let base = load(catalog, &variants[0].request(&b.request)).map_err(|e| e.to_string())?;
    let game = base.engine.game.clone();
    let players: Vec<String> = game.players.iter().map(|p| p.id.clone()).collect();
    let bots = seats::resolve(b.bots.as_deref(), &players)?;
    let mut played = Vec::new();
    for v in &variants {
        let request = v.request(&b.request);
        let loaded = load(catalog, &request).map_err(|e| format!("variant {}: {e}", v.name))?;
        // Once a variant; the threads' own loads say nothing.
        eprint!("{}", loaded.warning_lines());
        let g = &loaded.engine.game;
        if g.id != game.id {
            return Err(format!(
                "variant {} plays {}, the others {}: a balance report compares variants of one game",
                v.name, g.id, game.id
            ));
        }
        let options = g.enabled_options().into_iter().map(String::from).collect();
        let run = Run {
            progress: progress::wanted(),
            ..Run::new(b.games, b.seed, b.threads, bots.clone())
        };
        let make = || {
            load(catalog, &request)
                .map(|l| l.engine)
                .map_err(|e| e.to_string())
        };
        let (results, seconds, _) =
            sim::run(make, &run).map_err(|e| format!("variant {}: {e}", v.name))?;
        played.push(Played {
            name: v.name.clone(),
            rules: v.describe(&b.request),
            options,
            metrics: Metrics::of(&players, &results),
            seconds,
        });
    }
    let named: Vec<(String, Metrics)> = played
        .iter()
        .map(|p| (p.name.clone(), p.metrics.clone()))
        .collect();
    let rows = compare::compare(&players, &named);
    if let Some(path) = &b.plot {
        let svg = plot::balance_chart(&game.title, &plot::Player::of_game(&game), &named);
        crate::files::write_atomic(path, svg.as_bytes()).map_err(|e| format!("--plot {e}"))?;
    }
    let seconds: f64 = played.iter().map(|p| p.seconds).sum();
    eprintln!(
        "{} variants x {} games in {seconds:.2} s ({} games/s)",
        played.len(),
        b.games,
        rate_text((played.len() as u64 * b.games) as f64 / seconds.max(1e-9))
    );
    let bots_by_player: Vec<(String, String)> = players.iter().cloned().zip(bots).collect();
    Ok(match b.format {
        Format::Json => {
            let json = Json {
                game: &game.id,
                games: b.games,
                seed: b.seed,
                bots: bots_by_player,
                test: TEST,
                correction: CORRECTION,
                alpha: ALPHA,
                variants: &played,
                comparisons: &rows,
            };
            serde_json::to_string_pretty(&json).expect("a balance report serializes") + "\n"
        }
        Format::Table => table(&game.id, b, &bots_by_player, &played, &rows),
    })
}

fn table(
    game: &str,
    b: &Balance,
    bots: &[(String, String)],
    played: &[Played],
    rows: &[Row],
) -> String {
    let mut out = String::new();
    let bots: Vec<String> = bots.iter().map(|(p, bot)| format!("{p} {bot}")).collect();
    let _ = writeln!(
        out,
        "balance   {game}: {} games a variant (seed {}), same seeds for every variant",
        b.games, b.seed
    );
    let _ = writeln!(out, "bots      {}", bots.join(", "));
    let width = played
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(4)
        .max(7);
    for p in played {
        let _ = writeln!(
            out,
            "variant   {:<width$}  {} (options: {})",
            p.name,
            p.rules,
            list_or_none(&p.options)
        );
    }
    out.push('\n');
    let metric_width = rows
        .iter()
        .map(|r| r.metric.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "{:<metric_width$}  {:<width$}  {:>7}  {:<17}  {:>9}  {:>8}",
        "metric", "variant", "value", "95% interval", "vs first", "p (Holm)"
    );
    for row in rows {
        for (i, c) in row.cells.iter().enumerate() {
            let label = if i == 0 { row.metric.as_str() } else { "" };
            let (value, interval, diff) = match row.kind {
                Kind::Rate => (
                    percent(c.value),
                    c.interval
                        .map(|(l, h)| format!("{:>6} – {:>6}", percent(l), percent(h)))
                        .unwrap_or_default(),
                    c.diff.map(|d| format!("{} pts", signed(100.0 * d))),
                ),
                Kind::Mean => (
                    format!("{:.1}", c.value),
                    String::new(),
                    c.diff.map(|d| format!("{d:+.1}")),
                ),
            };
            let p = c
                .p_holm
                .map(|p| format!("{}{}", p_text(p), if p < ALPHA { " *" } else { "  " }))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{label:<metric_width$}  {:<width$}  {value:>7}  {interval:<17}  {:>9}  {p:>8}",
                c.variant,
                diff.unwrap_or_default()
            );
        }
    }
    let _ = writeln!(
        out,
        "\np: {TEST}; {CORRECTION} ({} compared); * marks p < {ALPHA}.",
        played.len().saturating_sub(1)
    );
    out
}

/// A difference to one decimal with its sign, never `-0.0`.
fn signed(d: f64) -> String {
    let text = format!("{d:+.1}");
    if text == "-0.0" { "+0.0".into() } else { text }
}

/// A p-value in four characters or so: `0.031`, `<0.001`.
fn p_text(p: f64) -> String {
    if p < 0.001 {
        "<0.001".into()
    } else {
        format!("{p:.3}")
    }
}
