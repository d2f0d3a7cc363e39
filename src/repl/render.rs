//! Drawing the game for one viewer: a grid with coordinates for grid
//! boards, a list of spaces for area maps, and the pools.

use crate::kernel::engine::Engine;
use crate::kernel::piece::{Location, PieceId};
use crate::kernel::view::View;
use std::fmt::Write;

/// ANSI colours per player seat, used when the terminal wants colour.
const COLOURS: [&str; 8] = ["34", "31", "32", "33", "35", "36", "37", "90"];

/// A piece in three characters: owner initial, kind letter (`?` when
/// hidden), `*` when its face is shown to everyone.
fn token(engine: &Engine, view: &View, id: PieceId, colour: bool) -> String {
    let g = &engine.game;
    let p = view.piece(id);
    let owner = p.owner.map_or('-', |o| {
        g.players[o.0 as usize].id.chars().next().unwrap_or('?')
    });
    let kind = p.kind.map_or("?".to_string(), |k| g.kind(k).short.clone());
    let text = format!("{owner}{kind}{}", if p.public { "*" } else { " " });
    match (colour, p.owner) {
        (true, Some(o)) => format!(
            "\x1b[{}m{text}\x1b[0m",
            COLOURS[o.0 as usize % COLOURS.len()]
        ),
        _ => text,
    }
}

/// The board as text.
pub fn board(engine: &Engine, view: &View, colour: bool) -> String {
    let g = &engine.game;
    let mut out = String::new();
    match g.board.grid_size() {
        Some(size) => {
            let header: String = (0..size.columns)
                .map(|c| format!("  {}  ", (b'a' + c) as char))
                .collect();
            let _ = writeln!(out, "    {header}");
            for row in (0..size.rows).rev() {
                let _ = write!(out, "{:>3} ", row + 1);
                for col in 0..size.columns {
                    let id = g.board.cell(col, row).expect("cell");
                    let here: Vec<PieceId> = view
                        .pieces
                        .iter()
                        .filter(|p| p.loc == Location::Space(id))
                        .map(|p| p.id)
                        .collect();
                    let cell = match here.first() {
                        Some(&p) => format!(" {} ", token(engine, view, p, colour)),
                        None if g.board.space_kind_name(id) != g.board.space_kinds()[0] => {
                            " ### ".to_string()
                        }
                        None => "  .  ".to_string(),
                    };
                    out.push_str(&cell);
                }
                let _ = writeln!(out, " {}", row + 1);
            }
            let _ = writeln!(out, "    {header}");
        }
        None => {
            for id in g.board.ids() {
                let here: Vec<String> = view
                    .pieces
                    .iter()
                    .filter(|p| p.loc == Location::Space(id))
                    .map(|p| token(engine, view, p.id, colour))
                    .collect();
                if !here.is_empty() {
                    let _ = writeln!(out, "  {:<16} {}", g.board.name(id), here.join(" "));
                }
            }
        }
    }
    for (i, pool) in g.pools.iter().enumerate() {
        let here: Vec<String> = view
            .pieces
            .iter()
            .filter(|p| p.loc == Location::Pool(crate::kernel::piece::PoolId(i as u8)))
            .map(|p| token(engine, view, p.id, colour))
            .collect();
        if !here.is_empty() {
            let _ = writeln!(out, "  {pool}: {}", here.join(" "));
        }
    }
    out
}
