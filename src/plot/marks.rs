//! The marks of a chart: a player's dot and interval, a variant's line
//! with its dash and marker shape. A colour that nearly vanishes on the
//! white page (Mediterranea's White) is outlined in a dark stroke, so
//! every player stays visible whatever colour its package gives it.

use crate::kernel::game::Colour;
use crate::render::xml::Svg;

/// The stroke around near-white marks, and under near-white lines.
pub const OUTLINE: &str = "#333333";

/// How one variant's line is told apart from the others' when it is drawn
/// in the same colour: its dash pattern and its marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineStyle {
    pub dash: Option<&'static str>,
    pub marker: Marker,
}

/// A marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
}

const DASHES: [Option<&str>; 5] = [None, Some("7 4"), Some("2 3"), Some("9 3 2 3"), Some("4 2")];
const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
];

/// The style of the `i`-th variant: dash and marker both change, so the
/// first 25 variants all look different, and any two neighbours do.
pub fn variant_style(i: usize) -> LineStyle {
    LineStyle {
        dash: DASHES[i % DASHES.len()],
        marker: MARKERS[(i + i / MARKERS.len()) % MARKERS.len()],
    }
}

/// A player's filled dot, outlined when its colour is near white.
pub fn dot(svg: &mut Svg, x: f32, y: f32, colour: Colour) {
    let fill = colour.hex();
    let mut attrs = vec![
        ("cx", x.into()),
        ("cy", y.into()),
        ("r", 4.5f32.into()),
        ("fill", (&fill).into()),
    ];
    attrs.extend(outline(colour));
    svg.empty("circle", &attrs);
}

/// A vertical interval from `y1` to `y2`, with a dark line under a
/// near-white one.
pub fn interval(svg: &mut Svg, x: f32, y1: f32, y2: f32, colour: Colour) {
    line(svg, &[(x, y1), (x, y2)], colour, None);
}

/// A line through `points` in `colour`, dashed or not; a near-white line
/// is drawn over a wider dark one, so it reads as an outlined band.
pub fn line(svg: &mut Svg, points: &[(f32, f32)], colour: Colour, dash: Option<&str>) {
    let text: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    let text = text.join(" ");
    if colour.is_near_white() {
        let mut under = vec![
            ("points", (&text).into()),
            ("fill", "none".into()),
            ("stroke", OUTLINE.into()),
            ("stroke-width", 4.5f32.into()),
        ];
        under.extend(dash.map(|d| ("stroke-dasharray", d.into())));
        svg.empty("polyline", &under);
    }
    let stroke = colour.hex();
    let mut attrs = vec![
        ("points", (&text).into()),
        ("fill", "none".into()),
        ("stroke", (&stroke).into()),
        ("stroke-width", 2.5f32.into()),
    ];
    attrs.extend(dash.map(|d| ("stroke-dasharray", d.into())));
    svg.empty("polyline", &attrs);
}

/// A marker of `shape` centred on `(x, y)`, outlined when near white.
pub fn marker(svg: &mut Svg, shape: Marker, x: f32, y: f32, colour: Colour) {
    let fill = colour.hex();
    let mut style = vec![("fill", (&fill).into())];
    style.extend(outline(colour));
    let r = 4.0f32;
    let polygon = |corners: &[(f32, f32)]| -> String {
        let points: Vec<String> = corners
            .iter()
            .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx, y + dy))
            .collect();
        points.join(" ")
    };
    let points = match shape {
        Marker::Circle => {
            let mut attrs = vec![("cx", x.into()), ("cy", y.into()), ("r", r.into())];
            attrs.extend(style);
            svg.empty("circle", &attrs);
            return;
        }
        Marker::Square => polygon(&[(-r, -r), (r, -r), (r, r), (-r, r)]),
        Marker::Triangle => polygon(&[(0.0, -r - 1.0), (r + 1.0, r), (-r - 1.0, r)]),
        Marker::Diamond => polygon(&[
            (0.0, -r - 1.0),
            (r + 1.0, 0.0),
            (0.0, r + 1.0),
            (-r - 1.0, 0.0),
        ]),
        Marker::Cross => {
            let t = r / 2.5;
            polygon(&[
                (-t, -r),
                (t, -r),
                (t, -t),
                (r, -t),
                (r, t),
                (t, t),
                (t, r),
                (-t, r),
                (-t, t),
                (-r, t),
                (-r, -t),
                (-t, -t),
            ])
        }
    };
    let mut attrs = vec![("points", (&points).into())];
    attrs.extend(style);
    svg.empty("polygon", &attrs);
}

/// The dark stroke of a near-white mark; nothing for another colour.
fn outline(colour: Colour) -> Option<(&'static str, crate::render::xml::Attr<'static>)> {
    colour.is_near_white().then_some(("stroke", OUTLINE.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_variants_never_share_a_style() {
        for i in 0..30 {
            assert_ne!(variant_style(i), variant_style(i + 1), "{i}");
        }
        let first: Vec<LineStyle> = (0..25).map(variant_style).collect();
        assert!(
            first
                .iter()
                .enumerate()
                .all(|(i, s)| !first[..i].contains(s))
        );
    }

    #[test]
    fn near_white_marks_are_outlined_and_others_are_not() {
        let white = Colour([0xf2, 0xf2, 0xf2]);
        let yellow = Colour([0xe6, 0xc2, 0x29]);
        let mut svg = Svg::default();
        dot(&mut svg, 1.0, 1.0, white);
        dot(&mut svg, 1.0, 1.0, yellow);
        let out = svg.finish();
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].contains("fill=\"#f2f2f2\" stroke=\"#333333\""),
            "{out}"
        );
        assert!(!lines[1].contains("stroke"), "{out}");
    }
}
