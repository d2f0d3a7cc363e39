//! The column beside the board: the heading of the spaces that have no
//! place on it (stacked there by [`layout`](super::layout)), the pools
//! with the groups in each, and a legend of every space kind, connection
//! kind and player colour the board uses.

use crate::kernel::game::{Game, label_or_id};
use crate::kernel::piece::{Location, PoolId};
use crate::render::board::{draw_group, group_key, group_label};
use crate::render::layout::{LINE, Layout, Rect};
use crate::render::palette::{edge_style, player_colour, space_fill};
use crate::render::pieces::Groups;
use crate::render::xml::Svg;

/// The column's width.
pub const COLUMN_W: f32 = 200.0;

/// Draws the column; returns the lowest point it reached.
pub fn draw_side(svg: &mut Svg, game: &Game, groups: &Groups, layout: &Layout) -> f32 {
    let (x, mut y) = layout.column;
    svg.open("g", &[("id", "side".into())]);
    if !layout.off_map.is_empty() {
        let top = layout.boxes[usize::from(layout.off_map[0].0)].y;
        heading(svg, x, top - 6.0, "Not on the map");
    }
    y += LINE;
    for (i, pool) in game.pool_labels.iter().enumerate() {
        let here = groups.at(Location::Pool(PoolId(i as u8)));
        if here.is_empty() {
            continue;
        }
        heading(svg, x, y, pool);
        y += 4.0;
        for (n, g) in here.iter().enumerate() {
            let id = format!("pool-{i}-{}", group_key(g, n));
            let r = Rect {
                x,
                y,
                w: COLUMN_W,
                h: LINE - 1.0,
            };
            draw_group(svg, game, g, &id, r, &group_label(game, g, true));
            y += LINE;
        }
        y += LINE;
    }
    y = legend(svg, game, x, y);
    svg.close();
    y
}

fn heading(svg: &mut Svg, x: f32, y: f32, text: &str) {
    svg.text(
        "text",
        &[
            ("class", "heading".into()),
            ("x", x.into()),
            ("y", y.into()),
            ("font-weight", "bold".into()),
        ],
        text,
    );
}

/// Swatches for the space kinds, line samples for the connection kinds
/// (grid neighbours' `adjacent` only if an area map uses it), and the
/// players' colours.
fn legend(svg: &mut Svg, game: &Game, x: f32, mut y: f32) -> f32 {
    let b = &game.board;
    svg.open("g", &[("id", "legend".into())]);
    heading(svg, x, y, "Legend");
    y += 6.0;
    let swatch = |svg: &mut Svg, y: f32, class: &str, fill: &str, label: &str| {
        svg.open("g", &[("class", class.into()), ("data-name", label.into())]);
        svg.empty(
            "rect",
            &[
                ("x", x.into()),
                ("y", y.into()),
                ("width", 18.0.into()),
                ("height", (LINE - 2.0).into()),
                ("fill", fill.into()),
                ("stroke", "#666666".into()),
            ],
        );
        svg.text(
            "text",
            &[("x", (x + 24.0).into()), ("y", (y + LINE - 4.0).into())],
            label,
        );
        svg.close();
    };
    for (i, kind) in b.space_kinds().iter().enumerate() {
        swatch(
            svg,
            y,
            "legend-space-kind",
            &space_fill(kind, i).hex(),
            &label_or_id(None, kind),
        );
        y += LINE;
    }
    for (i, kind) in b.edge_kinds().iter().enumerate() {
        let used = b
            .ids()
            .any(|id| b.edges(id).iter().any(|e| usize::from(e.kind) == i));
        if !used || (b.grid_size().is_some() && kind == crate::kernel::board::ADJACENT) {
            continue;
        }
        let style = edge_style(kind, i);
        svg.open(
            "g",
            &[
                ("class", "legend-edge-kind".into()),
                ("data-name", kind.into()),
            ],
        );
        let mut attrs = vec![
            ("x1", x.into()),
            ("y1", (y + LINE / 2.0).into()),
            ("x2", (x + 18.0).into()),
            ("y2", (y + LINE / 2.0).into()),
            ("stroke", style.stroke.into()),
            ("stroke-width", f32::from(style.width).into()),
        ];
        if let Some(dash) = style.dash {
            attrs.push(("stroke-dasharray", dash.into()));
        }
        if style.arrow {
            attrs.push(("marker-end", "url(#arrow-head)".into()));
        }
        svg.empty("line", &attrs);
        svg.text(
            "text",
            &[("x", (x + 24.0).into()), ("y", (y + LINE - 4.0).into())],
            &label_or_id(None, kind),
        );
        svg.close();
        y += LINE;
    }
    for (i, p) in game.players.iter().enumerate() {
        swatch(
            svg,
            y,
            "legend-player",
            &player_colour(game, i).hex(),
            &p.name,
        );
        y += LINE;
    }
    svg.close();
    y
}
