//! The balance report of a simulation run, as a table or JSON.

use crate::kernel::game::Game;
use crate::sim::GameResult;
use crate::sim::stats::ScoreStats;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub scenario: Option<String>,
    pub options: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Games won, by player id.
    pub wins: BTreeMap<String, u64>,
    pub draws: u64,
    pub mean_plies: f64,
    pub max_plies: u32,
    /// How the games ended, by the reason the rules gave (counts).
    pub end_reasons: BTreeMap<String, u64>,
    /// Score statistics by player, for games that score.
    pub scores: BTreeMap<String, ScoreStats>,
    pub seconds: f64,
    pub playouts_per_sec: f64,
    pub threads: usize,
}

impl Report {
    pub fn new(
        game: &Game,
        scenario: Option<String>,
        seed: u64,
        threads: usize,
        results: &[GameResult],
        seconds: f64,
    ) -> Report {
        let mut wins: BTreeMap<String, u64> =
            game.players.iter().map(|p| (p.id.clone(), 0)).collect();
        let mut draws = 0;
        let mut end_reasons = BTreeMap::new();
        let mut scores: Vec<Vec<i64>> = vec![Vec::new(); game.players.len()];
        for r in results {
            match r.outcome.winner {
                Some(w) => *wins.entry(game.player_id(w).to_string()).or_default() += 1,
                None => draws += 1,
            }
            *end_reasons.entry(r.outcome.reason.clone()).or_default() += 1;
            for (p, s) in r.outcome.scores.iter().enumerate() {
                if let Some(list) = scores.get_mut(p) {
                    list.push(*s);
                }
            }
        }
        let n = results.len().max(1) as f64;
        let total_plies: f64 = results.iter().map(|r| f64::from(r.plies)).sum();
        Report {
            game: game.id.clone(),
            scenario,
            options: game
                .enabled_options()
                .into_iter()
                .map(String::from)
                .collect(),
            games: results.len() as u64,
            seed,
            wins,
            draws,
            mean_plies: if results.is_empty() {
                0.0
            } else {
                total_plies / n
            },
            max_plies: results.iter().map(|r| r.plies).max().unwrap_or(0),
            end_reasons,
            scores: scores
                .into_iter()
                .enumerate()
                .filter_map(|(p, s)| Some((game.players[p].id.clone(), ScoreStats::new(s)?)))
                .collect(),
            seconds,
            playouts_per_sec: results.len() as f64 / seconds.max(1e-9),
            threads,
        }
    }

    pub fn table(&self) -> String {
        let mut out = String::new();
        let pct = |c: u64| 100.0 * c as f64 / self.games.max(1) as f64;
        let _ = writeln!(
            out,
            "game      {}{}",
            self.game,
            self.scenario
                .as_ref()
                .map(|s| format!(" (scenario {s})"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            out,
            "options   {}",
            if self.options.is_empty() {
                "none".to_string()
            } else {
                self.options.join(", ")
            }
        );
        let _ = writeln!(out, "games     {} (seed {})", self.games, self.seed);
        if self.wins.len() == 1 {
            // A solitaire game is won or not; "draws" would mislead.
            let won: u64 = self.wins.values().sum();
            let _ = writeln!(out, "won       {won:>8}  {:5.1}%", pct(won));
            let _ = writeln!(out, "not won   {:>8}  {:5.1}%", self.draws, pct(self.draws));
        } else {
            for (p, w) in &self.wins {
                let _ = writeln!(out, "wins      {p:<10} {w:>8}  {:5.1}%", pct(*w));
            }
            let _ = writeln!(
                out,
                "draws     {:<10} {:>8}  {:5.1}%",
                "",
                self.draws,
                pct(self.draws)
            );
        }
        let _ = writeln!(
            out,
            "plies     mean {:.1}, max {}",
            self.mean_plies, self.max_plies
        );
        let _ = writeln!(out, "endings");
        for (r, c) in &self.end_reasons {
            let _ = writeln!(out, "  {c:>8}  {r}");
        }
        for (p, s) in &self.scores {
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
        let _ = writeln!(
            out,
            "speed     {:.0} playouts/s ({:.2} s on {} thread{})",
            self.playouts_per_sec,
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        );
        out
    }
}
