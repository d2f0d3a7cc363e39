//! Drawing a game position as SVG, for any board: grids, area maps, both
//! at once, and spaces with no place on either (see [`layout`]). The
//! drawing is made from a [`View`], so it shows exactly what its viewer
//! may see: one seat's view, or what every player sees.
//!
//! Every space, connection and group of pieces carries a stable `id`, a
//! `class` and `data-*` attributes naming what it is, so tests (and
//! designers' own tools) can read the drawing's structure, not its pixels.
//! `portolan render` and the REPL's `map` both write through [`draw`].

mod board;
mod header;
pub mod layout;
pub(crate) mod palette;
pub mod pieces;
mod side;
pub(crate) mod xml;

use crate::kernel::state::GameState;
use crate::kernel::view::{View, Viewer};
use crate::load::Loaded;
use layout::{LINE, MARGIN};
use pieces::Groups;
use xml::Svg;

/// A drawing, and any problem met making it (the rules' notes hook
/// failed): the drawing is whole either way, without the notes.
pub struct Drawing {
    pub svg: String,
    pub problems: Vec<String>,
}

/// The narrowest drawing, so the header always fits.
const MIN_WIDTH: f32 = 520.0;

/// The arrow heads of crossing connections, and the shared text styles.
const DEFS: &str = concat!(
    "  <defs>\n",
    "    <marker id=\"arrow-head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" ",
    "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">",
    "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#b03030\"/></marker>\n",
    "  </defs>\n",
);

/// Draws the position `state` of a loaded game as `viewer` sees it.
pub fn draw(loaded: &Loaded, state: &GameState, viewer: Viewer) -> Drawing {
    let game = &loaded.engine.game;
    let view = View::new(game, state, viewer);
    let groups = Groups::of(&view);
    let head = header::header(loaded, state, &view, viewer);
    let header_lines = 1 + head.lines.len() + head.notes.len();
    let top = MARGIN + 6.0 + LINE * 1.3 * header_lines as f32 + MARGIN;
    let lines = |id| board::lines_in_box(game, &groups, id);
    let layout = layout::layout(&game.board, top, lines);

    let mut body = Svg::default();
    board::draw_board(&mut body, game, &groups, &layout);
    let column_bottom = side::draw_side(&mut body, game, &groups, &layout);
    let width = (layout.column.0 + side::COLUMN_W + MARGIN).max(MIN_WIDTH);
    let height = layout.bottom.max(column_bottom) + MARGIN;

    let mut svg = Svg::default();
    let viewer_word = match viewer {
        Viewer::Player(p) => game.player_id(p).to_string(),
        Viewer::Public => "public".to_string(),
        Viewer::All => "all".to_string(),
    };
    let box_text = format!("0 0 {} {}", width.ceil(), height.ceil());
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", width.ceil().into()),
            ("height", height.ceil().into()),
            ("viewBox", (&box_text).into()),
            ("font-family", "sans-serif".into()),
            ("font-size", "11".into()),
            ("data-game", (&game.id).into()),
            ("data-ply", (&view.ply.to_string()).into()),
            ("data-viewer", (&viewer_word).into()),
        ],
    );
    svg.raw(DEFS);
    svg.empty(
        "rect",
        &[
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
    draw_header(&mut svg, &head);
    svg.append(body);
    Drawing {
        svg: svg.finish(),
        problems: head.problem.into_iter().collect(),
    }
}

fn draw_header(svg: &mut Svg, head: &header::Header) {
    svg.open("g", &[("id", "header".into()), ("class", "header".into())]);
    let mut y = MARGIN + LINE;
    svg.text(
        "text",
        &[
            ("class", "title".into()),
            ("x", MARGIN.into()),
            ("y", y.into()),
            ("font-size", "16".into()),
            ("font-weight", "bold".into()),
        ],
        &head.title,
    );
    let rows = head.lines.iter().map(|l| ("line", l));
    let rows = rows.chain(head.notes.iter().map(|n| ("note", n)));
    for (class, text) in rows {
        y += LINE * 1.3;
        svg.text(
            "text",
            &[
                ("class", class.into()),
                ("x", MARGIN.into()),
                ("y", y.into()),
            ],
            text,
        );
    }
    svg.close();
}
