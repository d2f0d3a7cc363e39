//! Axes of a chart: a linear map from data to the page, round tick values,
//! and the grid lines and labels drawn along them.

use super::Frame;
use crate::render::xml::Svg;

/// A linear map from the data range `lo..hi` onto the page range
/// `from..to` (page y grows downwards, so a y scale runs bottom to top).
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub lo: f64,
    pub hi: f64,
    from: f32,
    to: f32,
}

impl Scale {
    pub fn new(lo: f64, hi: f64, from: f32, to: f32) -> Scale {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Scale { lo, hi, from, to }
    }

    /// Where the data value `v` falls on the page.
    pub fn at(&self, v: f64) -> f32 {
        let t = ((v - self.lo) / (self.hi - self.lo)) as f32;
        self.from + t * (self.to - self.from)
    }
}

/// Round values from `lo` to `hi`, about `count` of them, a step of 1, 2
/// or 5 times a power of ten apart.
pub fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let step = nice_step((hi - lo) / count.max(1) as f64);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// The next round value at or above `v`: 1, 2 or 5 times a power of ten.
pub fn nice_step(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= v * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// A tick's label: whole numbers without decimals, others with one or two.
fn label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else if (v * 10.0 - (v * 10.0).round()).abs() < 1e-9 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Horizontal grid lines at the y ticks, their labels on the left and the
/// axis's name turned upright along it.
pub fn y_axis(svg: &mut Svg, frame: &Frame, y: &Scale, name: &str) {
    for v in ticks(y.lo, y.hi, 5) {
        let at = y.at(v);
        grid_line(svg, frame.x, at, frame.right(), at);
        svg.text(
            "text",
            &[
                ("x", (frame.x - 6.0).into()),
                ("y", (at + 4.0).into()),
                ("text-anchor", "end".into()),
            ],
            &label(v),
        );
    }
    let middle = frame.y + frame.h / 2.0;
    let turn = format!("rotate(-90 {} {middle})", frame.x - 46.0);
    svg.text(
        "text",
        &[
            ("x", (frame.x - 46.0).into()),
            ("y", middle.into()),
            ("text-anchor", "middle".into()),
            ("transform", (&turn).into()),
        ],
        name,
    );
}

/// Vertical grid lines at the x ticks, their labels below and the axis's
/// name under them.
pub fn x_axis(svg: &mut Svg, frame: &Frame, x: &Scale, name: &str) {
    for v in ticks(x.lo, x.hi, 8) {
        let at = x.at(v);
        grid_line(svg, at, frame.y, at, frame.bottom());
        below(svg, at, frame.bottom() + 16.0, &label(v));
    }
    below(svg, frame.x + frame.w / 2.0, frame.bottom() + 38.0, name);
}

/// A label centred under the data at `x`.
pub fn below(svg: &mut Svg, x: f32, y: f32, text: &str) {
    svg.text(
        "text",
        &[
            ("x", x.into()),
            ("y", y.into()),
            ("text-anchor", "middle".into()),
        ],
        text,
    );
}

fn grid_line(svg: &mut Svg, x1: f32, y1: f32, x2: f32, y2: f32) {
    svg.empty(
        "line",
        &[
            ("x1", x1.into()),
            ("y1", y1.into()),
            ("x2", x2.into()),
            ("y2", y2.into()),
            ("stroke", "#e0e0e0".into()),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside_the_range() {
        assert_eq!(
            ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            ticks(-3.0, 12.0, 8),
            vec![-2.0, 0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0]
        );
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(nice_step(0.3), 0.5);
    }

    #[test]
    fn a_scale_maps_its_ends_and_survives_an_empty_range() {
        let y = Scale::new(0.0, 50.0, 300.0, 100.0);
        assert_eq!((y.at(0.0), y.at(50.0), y.at(25.0)), (300.0, 100.0, 200.0));
        assert!(Scale::new(3.0, 3.0, 0.0, 10.0).at(3.0).is_finite());
        assert_eq!(label(2.5), "2.5");
        assert_eq!(label(40.0), "40");
    }
}
