//! A panel's legend, in a column of its own to the right of the data, so
//! it never covers a point: which colour is which player, which dash and
//! marker which variant.

use super::marks::{self, LineStyle};
use crate::kernel::game::Colour;
use crate::render::xml::Svg;

/// The legend column's width on the page.
pub const WIDTH: f32 = 190.0;
const ROW: f32 = 18.0;
/// The characters of a name that fit beside its key.
const NAME_CHARS: usize = 24;

/// What an entry's key looks like.
pub enum Key {
    /// A player's dot.
    Dot(Colour),
    /// A variant's line, dash and marker in a colour.
    Line(Colour, LineStyle),
}

/// Draws the entries in a box whose top left corner is `(x, y)`, and a
/// note under them, if any.
pub fn draw(svg: &mut Svg, x: f32, y: f32, entries: &[(Key, &str)], note: &[&str]) {
    let height = ROW * (entries.len() + note.len()) as f32 + 10.0;
    svg.open("g", &[("class", "legend".into())]);
    svg.empty(
        "rect",
        &[
            ("class", "legend-box".into()),
            ("x", x.into()),
            ("y", y.into()),
            ("width", WIDTH.into()),
            ("height", height.into()),
            ("fill", "#ffffff".into()),
            ("stroke", "#999999".into()),
        ],
    );
    for (i, (key, name)) in entries.iter().enumerate() {
        let middle = y + 5.0 + ROW * (i as f32 + 0.5);
        match key {
            Key::Dot(colour) => marks::dot(svg, x + 20.0, middle, *colour),
            Key::Line(colour, style) => {
                marks::line(
                    svg,
                    &[(x + 6.0, middle), (x + 34.0, middle)],
                    *colour,
                    style.dash,
                );
                marks::marker(svg, style.marker, x + 20.0, middle, *colour);
            }
        }
        svg.text(
            "text",
            &[("x", (x + 42.0).into()), ("y", (middle + 4.0).into())],
            &cut(name, NAME_CHARS),
        );
    }
    for (i, line) in note.iter().enumerate() {
        let at = y + 5.0 + ROW * (entries.len() + i) as f32 + 13.0;
        svg.text(
            "text",
            &[
                ("x", (x + 6.0).into()),
                ("y", at.into()),
                ("font-size", "10".into()),
                ("fill", "#555555".into()),
            ],
            line,
        );
    }
    svg.close();
}

/// A name cut to `chars` characters (what fits beside a key or under a
/// variant's slot), with an ellipsis.
pub fn cut(name: &str, chars: usize) -> String {
    if name.chars().count() <= chars {
        return name.to_string();
    }
    let kept: String = name.chars().take(chars.saturating_sub(1)).collect();
    format!("{kept}…")
}
