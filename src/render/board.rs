//! The board itself: connections as lines styled by their kind, then every
//! space as a box (a square on a grid) filled by its kind, with its name
//! and its groups of pieces.

use crate::kernel::board::{ADJACENT, DIAGONAL, SpaceId};
use crate::kernel::game::Game;
use crate::kernel::piece::Location;
use crate::render::layout::{LABEL, LINE, Layout, Rect, in_a_grid, off_map};
use crate::render::palette::{edge_style, group_fill, ink_on, space_fill};
use crate::render::pieces::{Group, Groups};
use crate::render::xml::{Attr, Svg, class_word};
use std::collections::HashSet;

/// The most characters of a name a box shows (the full name is in its
/// `data-*` attribute).
const NAME_CHARS: usize = 24;

/// How many lines a space's box holds under its name's first line: the
/// rest of its name, its pieces and (for a space off the map) its
/// neighbours.
pub fn lines_in_box(game: &Game, groups: &Groups, id: SpaceId) -> usize {
    let off_map_neighbours = off_map(&game.board, id) && !game.board.edges(id).is_empty();
    let name_lines = name_lines(&box_name(&game.board, id)).len();
    name_lines - 1 + groups.at(Location::Space(id)).len() + usize::from(off_map_neighbours)
}

/// The name a space's box shows: a named grid's cell by its cell alone
/// (`a8`: the grid's heading names the board), any other by its label.
fn box_name(board: &crate::kernel::board::Board, id: SpaceId) -> String {
    match board.space(id).named_cell {
        Some(c) => crate::kernel::board::cell_name(c.col, c.row),
        None => board.label(id),
    }
}

/// A space's name as its box shows it: one line, or, when it is longer
/// than a line holds ("Central Mediterranean Sea"), two, broken at the
/// last space that lets the first fit; a word too long for a line is cut.
fn name_lines(name: &str) -> Vec<String> {
    if name.chars().count() <= NAME_CHARS {
        return vec![name.to_string()];
    }
    let fits = |part: &str| part.chars().count() <= NAME_CHARS;
    match name
        .match_indices(' ')
        .map(|(at, _)| at)
        .rfind(|&at| fits(&name[..at]))
    {
        Some(at) => vec![name[..at].to_string(), shown(&name[at + 1..], NAME_CHARS)],
        None => vec![shown(name, NAME_CHARS)],
    }
}

pub fn draw_board(svg: &mut Svg, game: &Game, groups: &Groups, layout: &Layout) {
    if let Some(frame) = layout.grid {
        grid_coordinates(svg, game, frame);
    }
    for (index, (name, frame)) in layout.named_grids.iter().enumerate() {
        svg.text(
            "text",
            &[
                ("class", "heading".into()),
                ("data-grid", name.into()),
                ("x", frame.x.into()),
                ("y", (frame.y - 6.0).into()),
            ],
            game.board.named_grid_label(index as u8),
        );
    }
    svg.open("g", &[("id", "connections".into())]);
    connections(svg, game, layout);
    svg.close();
    svg.open("g", &[("id", "spaces".into())]);
    for id in game.board.ids() {
        space(svg, game, groups, layout, id);
    }
    svg.close();
}

/// Column letters above and below a grid, row numbers on both sides.
fn grid_coordinates(svg: &mut Svg, game: &Game, frame: Rect) {
    let Some(size) = game.board.grid_size() else {
        return;
    };
    svg.open(
        "g",
        &[
            ("id", "grid-coordinates".into()),
            ("fill", "#666666".into()),
            ("text-anchor", "middle".into()),
        ],
    );
    let cell = frame.w / f32::from(size.columns);
    for col in 0..size.columns {
        let x = frame.x + cell * (f32::from(col) + 0.5);
        let letter = char::from(b'a' + col).to_string();
        for y in [frame.y - 5.0, frame.bottom() + LABEL - 5.0] {
            svg.text("text", &[("x", x.into()), ("y", y.into())], &letter);
        }
    }
    for row in 0..size.rows {
        let y = frame.y + cell * (f32::from(size.rows - 1 - row) + 0.5) + 4.0;
        let number = (u16::from(row) + 1).to_string();
        for x in [frame.x - LABEL / 2.0, frame.right() + LABEL / 2.0] {
            svg.text("text", &[("x", x.into()), ("y", y.into())], &number);
        }
    }
    svg.close();
}

/// Each connection once (the board keeps both directions), from box edge
/// to box edge, so arrow heads show. Grid neighbours go without lines:
/// the squares show them. A space off the map lists its neighbours in its
/// box instead.
fn connections(svg: &mut Svg, game: &Game, layout: &Layout) {
    let b = &game.board;
    let off_map: HashSet<SpaceId> = layout.off_map.iter().copied().collect();
    let mut drawn = HashSet::new();
    for from in b.ids() {
        for e in b.edges(from) {
            let kind = &b.edge_kinds()[usize::from(e.kind)];
            let both_cells = in_a_grid(b, from) && in_a_grid(b, e.to);
            let pair = (from.min(e.to), from.max(e.to), e.kind);
            if (both_cells && (kind == ADJACENT || kind == DIAGONAL))
                || off_map.contains(&from)
                || off_map.contains(&e.to)
                || !drawn.insert(pair)
            {
                continue;
            }
            let (a, z) = (pair.0, pair.1);
            let style = edge_style(kind, usize::from(e.kind));
            let ((x1, y1), (x2, y2)) = edge_ends(
                layout.boxes[usize::from(a.0)],
                layout.boxes[usize::from(z.0)],
            );
            let id = format!("edge-{}-{}-{}", a.0, z.0, e.kind);
            let class = format!("edge edge-{}", class_word(kind));
            let width = f32::from(style.width);
            let mut attrs = vec![
                ("id", (&id).into()),
                ("class", (&class).into()),
                ("data-from", b.name(a).into()),
                ("data-to", b.name(z).into()),
                ("data-kind", kind.into()),
                ("x1", x1.into()),
                ("y1", y1.into()),
                ("x2", x2.into()),
                ("y2", y2.into()),
                ("stroke", style.stroke.into()),
                ("stroke-width", width.into()),
            ];
            if let Some(dash) = style.dash {
                attrs.push(("stroke-dasharray", dash.into()));
            }
            if style.arrow {
                attrs.push(("marker-start", "url(#arrow-head)".into()));
                attrs.push(("marker-end", "url(#arrow-head)".into()));
            }
            svg.empty("line", &attrs);
        }
    }
}

/// Where a line between two boxes leaves the first and meets the second:
/// centre to centre, cut at each box's border (whole, if the boxes overlap).
fn edge_ends(a: Rect, z: Rect) -> ((f32, f32), (f32, f32)) {
    let ((ax, ay), (zx, zy)) = (a.centre(), z.centre());
    let (dx, dy) = (zx - ax, zy - ay);
    // The fraction of the way at which a line from a box's centre leaves it.
    let leave = |r: Rect| {
        let tx = if dx == 0.0 {
            f32::MAX
        } else {
            r.w / 2.0 / dx.abs()
        };
        let ty = if dy == 0.0 {
            f32::MAX
        } else {
            r.h / 2.0 / dy.abs()
        };
        tx.min(ty)
    };
    let (ta, tz) = (leave(a), leave(z));
    if ta + tz >= 1.0 {
        return ((ax, ay), (zx, zy));
    }
    ((ax + dx * ta, ay + dy * ta), (zx - dx * tz, zy - dy * tz))
}

fn space(svg: &mut Svg, game: &Game, groups: &Groups, layout: &Layout, id: SpaceId) {
    let b = &game.board;
    let sp = b.space(id);
    let r = layout.boxes[usize::from(id.0)];
    let kind = b.space_kind_name(id);
    let shape = match (in_a_grid(b, id), layout.off_map.contains(&id)) {
        (true, _) => "cell",
        (false, false) => "area",
        (false, true) => "off-map",
    };
    let class = format!("space {shape} kind-{}", class_word(kind));
    let gid = format!("space-{}", id.0);
    let mut attrs = vec![
        ("id", (&gid).into()),
        ("class", (&class).into()),
        ("data-space", sp.name.as_str().into()),
        ("data-kind", kind.into()),
    ];
    if let Some(region) = &sp.region {
        attrs.push(("data-region", region.into()));
    }
    svg.open("g", &attrs);
    let fill = space_fill(kind, usize::from(sp.kind)).hex();
    let corner: f32 = if shape == "cell" { 0.0 } else { 8.0 };
    filled_rect(svg, r, corner, &fill, &[("stroke", "#666666".into())]);
    let (name_fill, weight) = if shape == "cell" {
        ("#888888", "normal")
    } else {
        ("#000000", "bold")
    };
    let mut y = r.y;
    for line in name_lines(&box_name(b, id)) {
        y += LINE;
        svg.text(
            "text",
            &[
                ("class", "space-name".into()),
                ("x", (r.x + 4.0).into()),
                ("y", y.into()),
                ("fill", name_fill.into()),
                ("font-weight", weight.into()),
            ],
            &line,
        );
    }
    y += 4.0;
    for (i, g) in groups.at(Location::Space(id)).iter().enumerate() {
        let token = Rect {
            x: r.x + 4.0,
            y,
            w: r.w - 8.0,
            h: LINE - 1.0,
        };
        let gid = format!("pieces-{}-{}", id.0, group_key(g, i));
        draw_group(svg, game, g, &gid, token, &group_label(game, g, false));
        y += LINE;
    }
    if shape == "off-map" {
        let near: Vec<String> = b.neighbours(id).map(|n| b.label(n)).collect();
        if !near.is_empty() {
            svg.text(
                "text",
                &[
                    ("class", "neighbours".into()),
                    ("x", (r.x + 4.0).into()),
                    ("y", (y + LINE - 4.0).into()),
                ],
                &shown(&format!("next to: {}", near.join(", ")), NAME_CHARS),
            );
        }
    }
    svg.close();
}

/// A group's part of an element id: its owner's and its kind's numbers,
/// and for a named group its place in its list (`index`), since names
/// are any text.
pub fn group_key(g: &Group, index: usize) -> String {
    let owner = g.owner.map_or("none".to_string(), |o| o.0.to_string());
    let kind = g.kind.map_or("hidden".to_string(), |k| k.0.to_string());
    match g.name {
        Some(_) => format!("{owner}-{kind}-n{index}"),
        None => format!("{owner}-{kind}"),
    }
}

/// A group in words: its name, else its kind (`?` when hidden), and its
/// count, with its owner's name first where `with_owner` (in a pool, away
/// from the map).
pub fn group_label(game: &Game, g: &Group, with_owner: bool) -> String {
    let kind = g.kind.map_or("?", |k| game.kind(k).label.as_str());
    let kind = g.name.as_deref().unwrap_or(kind);
    let count = if g.count > 1 {
        format!(" x{}", g.count)
    } else {
        String::new()
    };
    match (with_owner, g.owner) {
        (true, Some(o)) => format!("{} {kind}{count}", game.players[usize::from(o.0)].name),
        _ => format!("{kind}{count}"),
    }
}

/// One group of pieces: a token in its colour with its label.
pub fn draw_group(svg: &mut Svg, game: &Game, g: &Group, id: &str, r: Rect, label: &str) {
    let owner = g.owner.map_or("", |o| game.player_id(o));
    let kind = g.kind.map_or("?", |k| game.kind(k).name.as_str());
    let class = if g.kind.is_some() {
        "pieces"
    } else {
        "pieces hidden"
    };
    let count = g.count.to_string();
    let mut attrs = vec![
        ("id", id.into()),
        ("class", class.into()),
        ("data-owner", owner.into()),
        ("data-kind", kind.into()),
        ("data-count", (&count).into()),
    ];
    if let Some(name) = &g.name {
        attrs.push(("data-name", name.into()));
    }
    svg.open("g", &attrs);
    let fill = group_fill(game, g);
    let hex = fill.hex();
    filled_rect(
        svg,
        r,
        3.0,
        &hex,
        &[("stroke", "#444444".into()), ("stroke-width", 0.5.into())],
    );
    svg.text(
        "text",
        &[
            ("x", (r.x + 3.0).into()),
            ("y", (r.bottom() - 3.0).into()),
            ("fill", ink_on(fill).into()),
        ],
        &shown(label, (r.w / 6.0) as usize),
    );
    svg.close();
}

/// A name cut to what a box shows: at most `chars` characters, the last
/// one an ellipsis when it is cut.
pub fn shown(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some(_) => {
            let keep = text.char_indices().nth(chars.saturating_sub(1));
            format!("{}\u{2026}", &text[..keep.map_or(0, |(at, _)| at)])
        }
        None => text.to_string(),
    }
}

/// A rectangle at `r` with rounded corners `rx`, filled with `fill`, with
/// the outline attributes `outline`.
fn filled_rect(svg: &mut Svg, r: Rect, rx: f32, fill: &str, outline: &[(&str, Attr)]) {
    let mut attrs = vec![
        ("x", r.x.into()),
        ("y", r.y.into()),
        ("width", r.w.into()),
        ("height", r.h.into()),
        ("rx", rx.into()),
        ("fill", fill.into()),
    ];
    attrs.extend_from_slice(outline);
    svg.empty("rect", &attrs);
}
