//! The report of a simulation run (or of its merged shards): the same
//! measures as a table for people, JSON for programs, CSV for
//! spreadsheets. A report holds nothing that depends on the machine or the
//! clock except its `timing`, which the table and CSV leave out, so one
//! run and its merged shards print byte for byte the same report.

use crate::sim::coverage::Coverage;
use crate::sim::metrics::Metrics;
use crate::sim::shard::RunInfo;
use crate::sim::significance::Rate;
use crate::sim::thinking::{SeatThinking, Thinking};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How long the games took: the one thing two runs of the same seed differ in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
    /// Each seat's bot thinking (empty where it was not measured: merged
    /// shards, coverage runs).
    pub thinking: Thinking,
}

impl Timing {
    pub fn per_second(&self, games: u64) -> f64 {
        games as f64 / self.seconds.max(1e-9)
    }

    /// One line for standard error: `10000 games in 0.41 s (24390 games/s, 2 threads)`.
    pub fn line(&self, games: u64) -> String {
        format!(
            "{games} games in {:.2} s ({} games/s, {} thread{})",
            self.seconds,
            rate_text(self.per_second(games)),
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

/// A rate with the digits that matter: `24390`, `41.7`, `0.43`, never a
/// slow run's `0`.
pub fn rate_text(rate: f64) -> String {
    match rate {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r => format!("{r:.2}"),
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub run: RunInfo,
    pub metrics: Metrics,
    pub timing: Timing,
    pub coverage: Option<Coverage>,
}

/// The JSON form: the run, every measure, and (for compatibility with
/// earlier reports) the plain counts.
#[derive(Serialize)]
struct Json<'a> {
    game: &'a str,
    scenario: &'a Option<String>,
    options: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    overlays: &'a [String],
    bots: BTreeMap<&'a str, &'a str>,
    games: u64,
    seed: u64,
    wins: BTreeMap<&'a str, u64>,
    draws: u64,
    mean_plies: f64,
    max_plies: u32,
    end_reasons: BTreeMap<&'a str, u64>,
    #[serde(flatten)]
    metrics: &'a Metrics,
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: &'a Option<Coverage>,
    seconds: f64,
    playouts_per_sec: f64,
    threads: usize,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    thinking: BTreeMap<&'a str, &'a SeatThinking>,
}

impl Report {
    pub fn json(&self) -> String {
        let m = &self.metrics;
        let json = Json {
            game: &self.run.game,
            scenario: &self.run.scenario,
            options: &self.run.options,
            overlays: &self.run.overlays,
            bots: self.run.bots_by_player().collect(),
            games: m.games,
            seed: self.run.seed,
            wins: m
                .win_rate
                .iter()
                .map(|(p, r)| (p.as_str(), r.count))
                .collect(),
            draws: m.draw_rate.count,
            mean_plies: m.plies.mean,
            max_plies: m.plies.max,
            end_reasons: m
                .endings
                .iter()
                .map(|(e, r)| (e.as_str(), r.count))
                .collect(),
            metrics: m,
            coverage: &self.coverage,
            seconds: self.timing.seconds,
            playouts_per_sec: self.timing.per_second(m.games),
            threads: self.timing.threads,
            thinking: self
                .run
                .players
                .iter()
                .map(String::as_str)
                .zip(&self.timing.thinking.0)
                .collect(),
        };
        serde_json::to_string_pretty(&json).expect("a report serializes") + "\n"
    }

    pub fn table(&self) -> String {
        let (r, m) = (&self.run, &self.metrics);
        let mut out = String::new();
        let scenario = r
            .scenario
            .as_ref()
            .map(|s| format!(" (scenario {s})"))
            .unwrap_or_default();
        let _ = writeln!(out, "game      {}{scenario}", r.game);
        let _ = writeln!(out, "options   {}", list_or_none(&r.options));
        if !r.overlays.is_empty() {
            let _ = writeln!(out, "overlays  {}", r.overlays.join(", "));
        }
        let bots: Vec<String> = r
            .bots_by_player()
            .map(|(p, b)| format!("{p} {b}"))
            .collect();
        let _ = writeln!(out, "bots      {}", bots.join(", "));
        let _ = writeln!(out, "games     {} (seed {})", m.games, r.seed);
        out.push('\n');
        let _ = writeln!(
            out,
            "{:<28} {:>6}   {:<17} {:>8}",
            "", "rate", "95% interval", "games"
        );
        for (label, rate) in rate_lines(r, m) {
            let _ = writeln!(out, "{}", rate_line(&label, &rate));
        }
        if let Some(a) = m.first_player_advantage {
            let _ = writeln!(
                out,
                "{:<28} {:>+5.1} points ({:+.1} to {:+.1})",
                "first-player advantage", a.points, a.low, a.high
            );
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "length       {:>8} {:>7} {:>7} {:>7}",
            "mean", "median", "p90", "max"
        );
        let mut lengths = vec![("plies", &m.plies)];
        if r.players.len() > 1 {
            lengths.push(("turns", &m.turns));
        }
        for (name, l) in lengths {
            let _ = writeln!(
                out,
                "  {name:<10} {:>8.1} {:>7} {:>7} {:>7}",
                l.mean, l.median, l.p90, l.max
            );
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "{:<10}{:>5}  {:>6}   95% interval",
            "endings", "games", "rate"
        );
        for (reason, r) in &m.endings {
            let _ = writeln!(
                out,
                "{:>15}  {:>6}   {:>6} – {:>6}   {reason}",
                r.count,
                percent(r.rate),
                percent(r.low),
                percent(r.high)
            );
        }
        for (p, s) in &m.scores {
            out.push('\n');
            let _ = writeln!(
                out,
                "score     {p}: mean {:.2}, std dev {:.2}, min {}, max {}",
                s.mean, s.std_dev, s.min, s.max
            );
            let ps: Vec<String> = s
                .percentiles
                .iter()
                .map(|(q, v)| format!("p{q} {v}"))
                .collect();
            let _ = writeln!(out, "          percentiles: {}", ps.join(", "));
            out.push_str(&s.histogram_text(40));
        }
        if let Some(c) = &self.coverage {
            out.push('\n');
            out.push_str(&c.text());
        }
        out
    }

    /// One measure a line: `metric,key,value,low,high,count,of`.
    pub fn csv(&self) -> String {
        let m = &self.metrics;
        let mut rows = vec![
            ["metric", "key", "value", "low", "high", "count", "of"]
                .map(String::from)
                .to_vec(),
        ];
        let mut rate = |metric: &str, key: &str, r: &Rate| {
            rows.push(vec![
                metric.into(),
                key.into(),
                r.rate.to_string(),
                r.low.to_string(),
                r.high.to_string(),
                r.count.to_string(),
                r.of.to_string(),
            ]);
        };
        for (p, r) in &m.win_rate {
            rate("win_rate", p, r);
        }
        rate("draw_rate", "", &m.draw_rate);
        for (k, r) in m.seat_order.iter().enumerate() {
            rate("seat_order_win_rate", &(k + 1).to_string(), r);
        }
        rate("ended_by_rules", "", &m.ended_by_rules);
        rate("ended_by_limit", "", &m.ended_by_limit);
        for (reason, r) in &m.endings {
            rate("ending", reason, r);
        }
        let mut value = |metric: &str, key: &str, v: String| {
            rows.push(vec![
                metric.into(),
                key.into(),
                v,
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ]);
        };
        if let Some(a) = m.first_player_advantage {
            value("first_player_advantage_points", "", a.points.to_string());
        }
        for (name, l) in [("plies", &m.plies), ("turns", &m.turns)] {
            value(&format!("{name}_mean"), "", l.mean.to_string());
            value(&format!("{name}_median"), "", l.median.to_string());
            value(&format!("{name}_p90"), "", l.p90.to_string());
            value(&format!("{name}_max"), "", l.max.to_string());
        }
        for (p, s) in &m.scores {
            value("score_mean", p, s.mean.to_string());
            value("score_std_dev", p, s.std_dev.to_string());
            value("score_min", p, s.min.to_string());
            value("score_max", p, s.max.to_string());
            for (q, v) in &s.percentiles {
                value(&format!("score_p{q}"), p, v.to_string());
            }
            for (low, c) in &s.histogram {
                value("score_histogram", &format!("{p}:{low}"), c.to_string());
            }
        }
        for [metric, key, v] in self.coverage.iter().flat_map(Coverage::csv_rows) {
            value(&metric, &key, v);
        }
        rows.iter()
            .map(|row| {
                row.iter()
                    .map(|f| csv_field(f))
                    .collect::<Vec<_>>()
                    .join(",")
                    + "\n"
            })
            .collect()
    }
}

/// The rates a table shows, labelled for people. A solitaire game that
/// scores is read by its scores, so it shows no "won / not won".
fn rate_lines(run: &RunInfo, m: &Metrics) -> Vec<(String, Rate)> {
    let mut lines = Vec::new();
    if run.players.len() == 1 {
        if !m.scored() {
            let won = m
                .win_rate
                .values()
                .next()
                .copied()
                .unwrap_or(Rate::new(0, m.games));
            lines.push(("won".to_string(), won));
            lines.push(("not won".to_string(), m.draw_rate));
        }
    } else {
        for p in &run.players {
            lines.push((format!("{p} wins"), m.win_rate[p]));
        }
        lines.push(("draws".to_string(), m.draw_rate));
        for (k, r) in m.seat_order.iter().enumerate() {
            lines.push((format!("{} to move wins", ordinal(k + 1)), *r));
        }
    }
    lines.push(("ended by the rules".to_string(), m.ended_by_rules));
    lines.push(("ended by a limit".to_string(), m.ended_by_limit));
    lines
}

/// `label   49.8%   48.8% – 50.8%      4980`.
pub fn rate_line(label: &str, r: &Rate) -> String {
    format!(
        "{label:<28} {:>6}   {:>6} – {:>6}  {:>8}",
        percent(r.rate),
        percent(r.low),
        percent(r.high),
        r.count
    )
}

/// A share (0..1) in percent to one decimal; a share above 0 that would
/// show as `0.0%` shows as `<0.1%`, so an interval never looks empty.
pub fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", 100.0 * share)
    }
}

pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_csv_fields() {
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
            ]
        );
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(
            [percent(0.0), percent(0.0003), percent(0.4981)],
            ["0.0%", "<0.1%", "49.8%"]
        );
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
