//! Charts of a balance run as SVG: the win rates of every variant with
//! their 95% intervals, and the score distributions of a game that scores.
//!
//! Drawn with plotters' SVG backend alone (no default features): text is
//! written as SVG `<text>` for the viewer to render, so nothing needs a
//! system font or library when the chart is made.

use crate::sim::metrics::Metrics;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

const WIDTH: u32 = 900;
const PANEL_HEIGHT: u32 = 420;

/// The balance chart: a win-rate panel for games of several players, a
/// score panel for games that score.
pub fn balance_chart(title: &str, players: &[String], variants: &[(String, Metrics)]) -> String {
    let scored = variants.iter().any(|(_, m)| m.scored());
    let win_panel = players.len() > 1;
    let panels = usize::from(win_panel) + usize::from(scored);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, PANEL_HEIGHT * panels.max(1) as u32))
            .into_drawing_area();
        root.fill(&WHITE)
            .expect("drawing into a string cannot fail");
        let areas = root.split_evenly((panels.max(1), 1));
        let mut areas = areas.iter();
        if win_panel {
            let area = areas.next().expect("a panel for win rates");
            win_rates(area, title, players, variants).expect("drawing into a string cannot fail");
        }
        if scored {
            let area = areas.next().expect("a panel for scores");
            scores(area, title, players, variants).expect("drawing into a string cannot fail");
        }
        root.present().expect("drawing into a string cannot fail");
    }
    svg
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Each player's win rate per variant: a dot and its 95% interval.
fn win_rates(
    area: &Area,
    title: &str,
    players: &[String],
    variants: &[(String, Metrics)],
) -> Drawn {
    let n = variants.len();
    let top = variants
        .iter()
        .flat_map(|(_, m)| m.win_rate.values().map(|r| r.high))
        .fold(0.0f64, f64::max);
    let y_max = (100.0 * top / 10.0).ceil() * 10.0;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{title}: win rate by variant (95% intervals)"),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(60)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max.max(10.0))?;
    let names: Vec<String> = variants.iter().map(|(v, _)| v.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&|x| label_at(&names, *x))
        .y_desc("win rate (%)")
        .draw()?;
    let spread = 0.5 / players.len() as f64;
    for (p, player) in players.iter().enumerate() {
        let colour = Palette99::pick(p).to_rgba();
        let offset = (p as f64 - (players.len() - 1) as f64 / 2.0) * spread;
        let points: Vec<(f64, f64, f64, f64)> = variants
            .iter()
            .enumerate()
            .filter_map(|(v, (_, m))| {
                let r = m.win_rate.get(player)?;
                Some((
                    v as f64 + offset,
                    100.0 * r.rate,
                    100.0 * r.low,
                    100.0 * r.high,
                ))
            })
            .collect();
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&(x, y, _, _)| Circle::new((x, y), 4, colour.filled())),
            )?
            .label(player.as_str())
            .legend(move |(x, y)| Circle::new((x, y), 4, colour.filled()));
        chart.draw_series(points.iter().map(|&(x, _, low, high)| {
            PathElement::new(vec![(x, low), (x, high)], colour.stroke_width(2))
        }))?;
    }
    legend(&mut chart)
}

/// The legend box in the chart's corner: which colour is which.
fn legend<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
) -> Drawn {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// The name of the variant at an x position of the axis, if it is one.
fn label_at(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        names.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// Each variant's score distribution (the first scoring player's): the
/// share of games per point of score, as a line per variant.
fn scores(area: &Area, title: &str, players: &[String], variants: &[(String, Metrics)]) -> Drawn {
    let Some(player) = players
        .iter()
        .find(|p| variants.iter().any(|(_, m)| m.scores.contains_key(*p)))
    else {
        return Ok(());
    };
    let lines: Vec<(&str, Vec<(f64, f64)>)> = variants
        .iter()
        .filter_map(|(name, m)| {
            let s = m.scores.get(player)?;
            let width = s
                .histogram
                .get(1)
                .map_or(1, |(l, _)| l - s.histogram[0].0)
                .max(1) as f64;
            let points = s
                .histogram
                .iter()
                .map(|&(low, c)| {
                    (
                        low as f64 + width / 2.0,
                        100.0 * c as f64 / s.count as f64 / width,
                    )
                })
                .collect();
            Some((name.as_str(), points))
        })
        .collect();
    let all = lines.iter().flat_map(|(_, p)| p.iter());
    let (x_min, x_max) = all
        .clone()
        .fold((f64::MAX, f64::MIN), |(a, b), &(x, _)| (a.min(x), b.max(x)));
    let y_max = all.fold(0.0f64, |m, &(_, y)| m.max(y));
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{title}: {player}'s score distribution by variant"),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((x_min - 1.0)..(x_max + 1.0), 0f64..(y_max * 1.1).max(0.1))?;
    chart
        .configure_mesh()
        .x_desc("score")
        .y_desc("games per point of score (%)")
        .draw()?;
    for (i, (name, points)) in lines.into_iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
    }
    legend(&mut chart)
}
