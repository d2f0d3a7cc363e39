//! Charts of a balance run as SVG: the win rates of every variant with
//! their 95% intervals, and every scoring player's score distribution.
//!
//! Written by hand as SVG elements (through the render module's escaping
//! writer), so each mark is in the player's colour from game.yaml, a
//! legend sits in a column beside its data rather than over it, and the
//! file needs no font installed to make: text is SVG `<text>` that the
//! viewer renders. Each panel's data area is a `rect.data-area` and its
//! legend a `rect.legend-box`, so tests and tools can find both.

mod axis;
mod legend;
mod marks;
mod scores;
mod wins;

use crate::kernel::game::{Colour, Game};
use crate::render::xml::Svg;
use crate::sim::metrics::Metrics;

/// The page's width, and the room around a panel's data area.
const WIDTH: f32 = 960.0;
const LEFT: f32 = 70.0;
const TOP: f32 = 44.0;
const BOTTOM: f32 = 64.0;
const GAP: f32 = 20.0;
/// The height of a panel's data area.
const DATA_HEIGHT: f32 = 250.0;

/// A player as the chart shows it.
#[derive(Clone, Debug)]
pub struct Player {
    /// The id metrics are keyed by.
    pub id: String,
    /// The name the legend and titles show.
    pub name: String,
    pub colour: Colour,
}

impl Player {
    /// The game's players, each in the colour its game.yaml gives (or the
    /// drawing palette's, as a map of the board shows it).
    pub fn of_game(game: &Game) -> Vec<Player> {
        game.players
            .iter()
            .enumerate()
            .map(|(i, p)| Player {
                id: p.id.clone(),
                name: p.name.clone(),
                colour: crate::render::palette::player_colour(game, i),
            })
            .collect()
    }
}

/// A rectangle of the page: a panel's data area.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Frame {
    fn right(&self) -> f32 {
        self.x + self.w
    }

    fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

/// The balance chart: a win-rate panel for a game of several players,
/// then one score panel per player who scores.
pub fn balance_chart(title: &str, players: &[Player], variants: &[(String, Metrics)]) -> String {
    let mut panels = Svg::default();
    let mut top = 0.0;
    if players.len() > 1 {
        let caption = format!("{title}: win rate by variant (95% intervals)");
        let frame = open_panel(&mut panels, "wins", &caption, top);
        wins::draw(&mut panels, &frame, players, variants);
        panels.close();
        top += panel_height();
    }
    for player in players {
        if !variants
            .iter()
            .any(|(_, m)| m.scores.contains_key(&player.id))
        {
            continue;
        }
        let caption = format!("{title}: {}'s score distribution by variant", player.name);
        let frame = open_panel(&mut panels, "scores", &caption, top);
        scores::draw(&mut panels, &frame, player, variants);
        panels.close();
        top += panel_height();
    }
    let height = top.max(panel_height());
    let mut svg = Svg::default();
    let view_box = format!("0 0 {WIDTH} {height}");
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", WIDTH.into()),
            ("height", height.into()),
            ("viewBox", (&view_box).into()),
            ("font-family", "sans-serif".into()),
            ("font-size", "12".into()),
        ],
    );
    svg.empty(
        "rect",
        &[
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
    svg.append(panels);
    svg.finish()
}

fn panel_height() -> f32 {
    TOP + DATA_HEIGHT + BOTTOM
}

/// Opens a panel's group at page height `top`, writes its caption and
/// data area, and returns the data area (the legend goes right of it).
fn open_panel(svg: &mut Svg, kind: &'static str, caption: &str, top: f32) -> Frame {
    let frame = Frame {
        x: LEFT,
        y: top + TOP,
        w: WIDTH - LEFT - GAP - legend::WIDTH - GAP,
        h: DATA_HEIGHT,
    };
    svg.open(
        "g",
        &[("class", "panel".into()), ("data-panel", kind.into())],
    );
    svg.text(
        "text",
        &[
            ("x", (WIDTH / 2.0).into()),
            ("y", (top + 26.0).into()),
            ("text-anchor", "middle".into()),
            ("font-size", "16".into()),
        ],
        caption,
    );
    svg.empty(
        "rect",
        &[
            ("class", "data-area".into()),
            ("x", frame.x.into()),
            ("y", frame.y.into()),
            ("width", frame.w.into()),
            ("height", frame.h.into()),
            ("fill", "none".into()),
            ("stroke", "#999999".into()),
        ],
    );
    frame
}

/// Where a panel's legend starts: right of its data area, at its top.
fn legend_corner(frame: &Frame) -> (f32, f32) {
    (frame.right() + GAP, frame.y)
}
