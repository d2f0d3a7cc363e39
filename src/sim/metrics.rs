//! The measures of a set of games, named as designers know them: win rate
//! per player and per seat order, draw rate, first-player advantage, game
//! length, how games ended (by the rules or by a limit), and score
//! distributions. Every rate carries its 95% Wilson interval.

use crate::sim::GameResult;
use crate::sim::significance::{Rate, Sample};
use crate::sim::stats::ScoreStats;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game length in plies (decisions) or turns, summed up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub mean: f64,
    pub median: u32,
    pub p90: u32,
    pub max: u32,
    /// Mean, variance and size, for comparing variants.
    pub sample: Sample,
}

impl Length {
    fn of(mut values: Vec<u32>) -> Length {
        values.sort_unstable();
        let at = |percent: usize| {
            values
                .get((values.len().saturating_sub(1) * percent) / 100)
                .copied()
                .unwrap_or(0)
        };
        let sample = Sample::of(values.iter().map(|&v| f64::from(v)));
        Length {
            mean: sample.mean,
            median: at(50),
            p90: at(90),
            max: values.last().copied().unwrap_or(0),
            sample,
        }
    }
}

/// Everything a report says about a set of games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub games: u64,
    /// Each player's share of wins, by player id.
    pub win_rate: BTreeMap<String, Rate>,
    /// Games without a winner (in a solitaire game: not won).
    pub draw_rate: Rate,
    /// The win rate of the player who moved first, second, and so on
    /// (the first player may be chosen by a coin, as in Convoy).
    pub seat_order: Vec<Rate>,
    /// The first mover's win rate less a fair share (1/players), in
    /// percentage points; `None` for a solitaire game.
    pub first_player_advantage: Option<Advantage>,
    pub plies: Length,
    /// A turn is a run of consecutive decisions by one player.
    pub turns: Length,
    /// Games that a rule ended (a victory condition, a script's ending).
    pub ended_by_rules: Rate,
    /// Games cut short by a limit (max_plies, the flow of play running out).
    pub ended_by_limit: Rate,
    /// Each ending, by the reason the rules gave.
    pub endings: BTreeMap<String, Rate>,
    /// Score distributions by player, for games that score.
    pub scores: BTreeMap<String, ScoreStats>,
}

/// The first mover's edge over a fair share, in percentage points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Advantage {
    pub points: f64,
    pub low: f64,
    pub high: f64,
}

impl Metrics {
    /// The measures of `results`, for a game whose players are `players`
    /// (ids, in seating order).
    pub fn of(players: &[String], results: &[GameResult]) -> Metrics {
        let n = results.len() as u64;
        let seats = players.len().max(1);
        let mut wins = vec![0u64; seats];
        let mut by_position = vec![0u64; seats];
        let mut draws = 0;
        let mut limits = 0;
        let mut endings: BTreeMap<String, u64> = BTreeMap::new();
        let mut scores: Vec<Vec<i64>> = vec![Vec::new(); seats];
        for r in results {
            match r.outcome.winner {
                Some(w) => {
                    let w = usize::from(w.0);
                    wins[w] += 1;
                    by_position[(w + seats - usize::from(r.first) % seats) % seats] += 1;
                }
                None => draws += 1,
            }
            limits += u64::from(r.outcome.by_limit);
            *endings.entry(r.outcome.reason.clone()).or_default() += 1;
            for (p, s) in r.outcome.scores.iter().enumerate() {
                if let Some(list) = scores.get_mut(p) {
                    list.push(*s);
                }
            }
        }
        let seat_order: Vec<Rate> = by_position.iter().map(|&w| Rate::new(w, n)).collect();
        let fair = 100.0 / seats as f64;
        let first_player_advantage = (players.len() > 1).then(|| Advantage {
            points: 100.0 * seat_order[0].rate - fair,
            low: 100.0 * seat_order[0].low - fair,
            high: 100.0 * seat_order[0].high - fair,
        });
        Metrics {
            games: n,
            win_rate: players
                .iter()
                .zip(&wins)
                .map(|(p, &w)| (p.clone(), Rate::new(w, n)))
                .collect(),
            draw_rate: Rate::new(draws, n),
            seat_order,
            first_player_advantage,
            plies: Length::of(results.iter().map(|r| r.plies).collect()),
            turns: Length::of(results.iter().map(|r| r.turns).collect()),
            ended_by_rules: Rate::new(n - limits, n),
            ended_by_limit: Rate::new(limits, n),
            endings: endings
                .into_iter()
                .map(|(reason, c)| (reason, Rate::new(c, n)))
                .collect(),
            scores: players
                .iter()
                .zip(scores)
                .filter_map(|(p, s)| Some((p.clone(), ScoreStats::new(s)?)))
                .collect(),
        }
    }

    /// Whether the games score: then a solitaire game is read by its
    /// score distribution, not by "won 0 / not won 20000".
    pub fn scored(&self) -> bool {
        !self.scores.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::event::Outcome;
    use crate::kernel::piece::PlayerId;

    fn game(winner: Option<u8>, first: u8, plies: u32, limit: bool) -> GameResult {
        GameResult {
            index: 0,
            outcome: Outcome {
                winner: winner.map(PlayerId),
                reason: if limit { "limit" } else { "won" }.into(),
                scores: vec![],
                by_limit: limit,
            },
            plies,
            turns: plies,
            first,
        }
    }

    #[test]
    fn seat_order_counts_from_the_first_mover() {
        let players = ["blue".to_string(), "red".to_string()];
        let results = [
            game(Some(0), 0, 10, false),
            game(Some(1), 1, 20, false),
            game(Some(1), 0, 30, false),
            game(None, 0, 40, true),
        ];
        let m = Metrics::of(&players, &results);
        assert_eq!(m.win_rate["blue"].count, 1);
        assert_eq!(m.win_rate["red"].count, 2);
        assert_eq!(m.seat_order[0].count, 2, "blue first won, red first won");
        assert_eq!(m.seat_order[1].count, 1);
        let adv = m.first_player_advantage.unwrap();
        assert!((adv.points - 0.0).abs() < 1e-9, "2 of 4 is a fair share");
        assert_eq!(m.draw_rate.count, 1);
        assert_eq!(m.ended_by_limit.count, 1);
        assert_eq!(m.ended_by_rules.count, 3);
        assert_eq!((m.plies.median, m.plies.p90, m.plies.max), (20, 30, 40));
        assert_eq!(m.plies.mean, 25.0);
        assert_eq!(m.endings["won"].count, 3);
    }

    #[test]
    fn a_solitaire_game_has_no_first_player_advantage() {
        let m = Metrics::of(&["convoy".to_string()], &[game(None, 0, 5, false)]);
        assert!(m.first_player_advantage.is_none());
        assert!(!m.scored());
    }
}
