//! One player's score panel: the share of games per point of score, a
//! line per variant in the player's colour, told apart by dash and marker.
//!
//! Variants that play alike draw the same line, and the last one drawn
//! would hide the others. So each variant's line is set a little aside
//! (at most a quarter of a histogram bucket either way), and the legend
//! says so: equal lines show as parallel strokes, not as one.

use super::axis::{self, Scale};
use super::legend::{self, Key};
use super::{Frame, Player, legend_corner, marks};
use crate::render::xml::Svg;
use crate::sim::metrics::Metrics;
use crate::sim::stats::ScoreStats;

/// One variant's distribution, ready to draw.
struct Line<'a> {
    /// The variant's place in the run: its dash and marker.
    variant: usize,
    name: &'a str,
    /// (score, percent of games per point).
    points: Vec<(f64, f64)>,
    bucket: f64,
}

pub fn draw(svg: &mut Svg, frame: &Frame, player: &Player, variants: &[(String, Metrics)]) {
    let lines: Vec<Line> = variants
        .iter()
        .enumerate()
        .filter_map(|(variant, (name, m))| {
            let s = m.scores.get(&player.id)?;
            Some(Line {
                variant,
                name,
                points: density(s),
                bucket: s.bucket_width(),
            })
        })
        .collect();
    let all = lines.iter().flat_map(|l| l.points.iter());
    let (lo, hi) = all
        .clone()
        .fold((f64::MAX, f64::MIN), |(a, b), &(x, _)| (a.min(x), b.max(x)));
    let peak = all.fold(0.0f64, |m, &(_, y)| m.max(y));
    let widest = lines.iter().map(|l| l.bucket).fold(1.0, f64::max);
    let x = Scale::new(lo - widest, hi + widest, frame.x, frame.right());
    let y = Scale::new(
        0.0,
        axis::nice_step(peak * 1.1).max(peak * 1.1),
        frame.bottom(),
        frame.y,
    );
    axis::y_axis(svg, frame, &y, "games per point (%)");
    axis::x_axis(svg, frame, &x, "score");
    let count = lines.len().max(1) as f64;
    for (j, line) in lines.iter().enumerate() {
        let style = marks::variant_style(line.variant);
        let aside = (j as f64 - (count - 1.0) / 2.0) * line.bucket * 0.5 / count;
        let page: Vec<(f32, f32)> = line
            .points
            .iter()
            .map(|&(sx, sy)| (x.at(sx + aside), y.at(sy)))
            .collect();
        svg.open(
            "g",
            &[
                ("class", "series".into()),
                ("data-player", (&player.id).into()),
                ("data-variant", line.name.into()),
            ],
        );
        marks::line(svg, &page, player.colour, style.dash);
        for &(px, py) in &page {
            marks::marker(svg, style.marker, px, py, player.colour);
        }
        svg.close();
    }
    let entries: Vec<(Key, &str)> = lines
        .iter()
        .map(|l| {
            (
                Key::Line(player.colour, marks::variant_style(l.variant)),
                l.name,
            )
        })
        .collect();
    let note: &[&str] = if lines.len() > 1 {
        &["lines set a little apart so", "equal variants stay visible"]
    } else {
        &[]
    };
    let (lx, ly) = legend_corner(frame);
    legend::draw(svg, lx, ly, &entries, note);
}

/// A histogram as (bucket middle, percent of games per point of score),
/// empty buckets included at zero, so a line never bridges a gap.
fn density(s: &ScoreStats) -> Vec<(f64, f64)> {
    let width = s.bucket_width();
    let games = s.count.max(1) as f64;
    let Some(&(first, _)) = s.histogram.first() else {
        return Vec::new();
    };
    let mut points = Vec::new();
    let mut low = first as f64;
    for &(bucket, c) in &s.histogram {
        while low + width / 2.0 < bucket as f64 {
            points.push((low + width / 2.0, 0.0));
            low += width;
        }
        points.push((
            bucket as f64 + width / 2.0,
            100.0 * c as f64 / games / width,
        ));
        low = bucket as f64 + width;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_between_buckets_is_drawn_at_zero() {
        // Buckets of width 1 from 0 to 19: the scores 0, 0, 3 leave 1 and 2 empty.
        let s = ScoreStats::new(vec![0, 0, 3, 19]).unwrap();
        let points = density(&s);
        let at = |x: f64| points.iter().find(|p| (p.0 - x).abs() < 1e-9).map(|p| p.1);
        assert_eq!(at(0.5), Some(50.0));
        assert_eq!((at(1.5), at(2.5)), (Some(0.0), Some(0.0)));
        assert_eq!(at(3.5), Some(25.0));
    }
}
