//! Each measure of each variant against the first (the base): the
//! difference, and whether it is more than chance.
//!
//! Rates are compared with the two-sided two-proportion z-test, means
//! (game length, scores) with the two-sample z-test. With several
//! variants against one base, the p-values of one measure are adjusted
//! with Holm–Bonferroni over the variants compared, so "significant at
//! 5%" keeps its meaning however many variants a run compares.

use crate::sim::metrics::Metrics;
use crate::sim::significance::{Rate, Sample, holm, two_means_p, two_proportion_p};
use serde::Serialize;

/// The level below which an adjusted p-value marks a difference.
pub const ALPHA: f64 = 0.05;

/// What a row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A share of games, shown in percent; differences in points.
    Rate,
    /// A mean (plies, turns, a score).
    Mean,
}

/// One variant's value of a measure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub variant: String,
    /// The rate (0..1) or the mean.
    pub value: f64,
    /// The 95% interval of a rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    /// Against the base: the difference, the test's p-value, and that
    /// p-value adjusted over the variants (Holm–Bonferroni).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_holm: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub significant: Option<bool>,
}

/// One measure across the variants.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub metric: String,
    pub kind: Kind,
    pub cells: Vec<Cell>,
}

/// A measure's value in one variant's metrics.
enum Value {
    Rate(Rate),
    Mean(Sample),
}

/// A named measure and how to read it from a variant's metrics.
type Measure = (String, Box<dyn Fn(&Metrics) -> Option<Value>>);

/// Every measure of `variants` (name, metrics; the first is the base),
/// compared with the base. `players` are the game's player ids.
pub fn compare(players: &[String], variants: &[(String, Metrics)]) -> Vec<Row> {
    let mut measures: Vec<Measure> = Vec::new();
    let scored = variants.iter().any(|(_, m)| m.scored());
    if players.len() > 1 {
        for p in players {
            let id = p.clone();
            measures.push((
                format!("{p} wins"),
                Box::new(move |m| m.win_rate.get(&id).copied().map(Value::Rate)),
            ));
        }
        measures.push(("draws".into(), Box::new(|m| Some(Value::Rate(m.draw_rate)))));
        measures.push((
            "1st to move wins".into(),
            Box::new(|m| m.seat_order.first().copied().map(Value::Rate)),
        ));
    } else if !scored {
        measures.push((
            "won".into(),
            Box::new(|m| m.win_rate.values().next().copied().map(Value::Rate)),
        ));
    }
    measures.push((
        "ended by a limit".into(),
        Box::new(|m| Some(Value::Rate(m.ended_by_limit))),
    ));
    measures.push((
        "plies (mean)".into(),
        Box::new(|m| Some(Value::Mean(m.plies.sample))),
    ));
    if players.len() > 1 {
        measures.push((
            "turns (mean)".into(),
            Box::new(|m| Some(Value::Mean(m.turns.sample))),
        ));
    }
    for p in players {
        let id = p.clone();
        measures.push((
            format!("{p} score (mean)"),
            Box::new(move |m| m.scores.get(&id).map(|s| Value::Mean(s.sample()))),
        ));
    }
    measures
        .into_iter()
        .filter_map(|(metric, read)| row(metric, variants, &*read))
        .collect()
}

fn row(
    metric: String,
    variants: &[(String, Metrics)],
    read: &dyn Fn(&Metrics) -> Option<Value>,
) -> Option<Row> {
    let values: Vec<Value> = variants
        .iter()
        .map(|(_, m)| read(m))
        .collect::<Option<_>>()?;
    let base = values.first()?;
    let kind = match base {
        Value::Rate(_) => Kind::Rate,
        Value::Mean(_) => Kind::Mean,
    };
    let tests: Vec<(f64, f64)> = values[1..]
        .iter()
        .map(|v| match (base, v) {
            (Value::Rate(b), Value::Rate(r)) => (r.rate - b.rate, two_proportion_p(b, r)),
            (Value::Mean(b), Value::Mean(s)) => (s.mean - b.mean, two_means_p(b, s)),
            _ => (0.0, 1.0),
        })
        .collect();
    let adjusted = holm(&tests.iter().map(|t| t.1).collect::<Vec<_>>());
    let cells = variants
        .iter()
        .zip(&values)
        .enumerate()
        .map(|(i, ((name, _), v))| {
            let (value, interval) = match v {
                Value::Rate(r) => (r.rate, Some((r.low, r.high))),
                Value::Mean(s) => (s.mean, None),
            };
            let test = (i > 0).then(|| (tests[i - 1], adjusted[i - 1]));
            Cell {
                variant: name.clone(),
                value,
                interval,
                diff: test.map(|((d, _), _)| d),
                p: test.map(|((_, p), _)| p),
                p_holm: test.map(|(_, a)| a),
                significant: test.map(|(_, a)| a < ALPHA),
            }
        })
        .collect();
    Some(Row {
        metric,
        kind,
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::event::Outcome;
    use crate::kernel::piece::PlayerId;
    use crate::sim::GameResult;

    fn metrics(blue_wins: u64, games: u64) -> Metrics {
        let results: Vec<GameResult> = (0..games)
            .map(|i| GameResult {
                index: i,
                outcome: Outcome {
                    winner: Some(PlayerId(u8::from(i >= blue_wins))),
                    reason: "r".into(),
                    scores: vec![],
                    by_limit: false,
                },
                plies: 10,
                turns: 10,
                first: 0,
            })
            .collect();
        Metrics::of(&["blue".to_string(), "red".to_string()], &results)
    }

    #[test]
    fn differences_are_tested_and_corrected() {
        let players = ["blue".to_string(), "red".to_string()];
        let variants = vec![
            ("base".to_string(), metrics(500, 1000)),
            ("same".to_string(), metrics(505, 1000)),
            ("far".to_string(), metrics(600, 1000)),
        ];
        let rows = compare(&players, &variants);
        let blue = rows.iter().find(|r| r.metric == "blue wins").unwrap();
        assert_eq!(blue.kind, Kind::Rate);
        assert!(
            blue.cells[0].p.is_none(),
            "the base is not tested against itself"
        );
        let same = &blue.cells[1];
        assert!(same.significant == Some(false) && (same.diff.unwrap() - 0.005).abs() < 1e-12);
        let far = &blue.cells[2];
        assert_eq!(far.significant, Some(true));
        assert!(
            far.p_holm.unwrap() >= far.p.unwrap(),
            "Holm never lowers a p-value"
        );
        let plies = rows.iter().find(|r| r.metric == "plies (mean)").unwrap();
        assert_eq!(plies.cells[2].p, Some(1.0), "equal constant lengths");
        assert!(
            rows.iter().all(|r| !r.metric.contains("score")),
            "no scores, no score rows"
        );
    }
}
