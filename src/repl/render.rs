//! Drawing the game for one viewer: a grid with coordinates on every edge
//! for grid boards, a list of occupied spaces grouped by region for area
//! maps, the pools, and a legend. A game without a board (a solitaire dice
//! game) draws nothing here: the rules' status block stands in for it.

use crate::kernel::board::SpaceId;
use crate::kernel::engine::Engine;
use crate::kernel::piece::{Location, PieceId, PoolId};
use crate::kernel::view::{PieceView, View};
use std::collections::BTreeMap;
use std::fmt::Write;

/// ANSI colours per player seat, used when the terminal wants colour.
const COLOURS: [&str; 8] = ["34", "31", "32", "33", "35", "36", "37", "90"];
/// The colour of land cells, and the code that ends any colour.
const LAND: &str = "33";
const RESET: &str = "0";

/// Whether `params` (of `ESC [ params m`) is a colour this module writes:
/// what the REPL lets through to the terminal, and nothing else.
pub fn is_own_colour(params: &str) -> bool {
    params == LAND
        || params == RESET
        || params
            .strip_suffix(";1")
            .is_some_and(|c| COLOURS.contains(&c))
}

/// A piece in three characters: owner initial, kind letter (`?` when
/// hidden), and, in a game whose faces start hidden, `*` when its face is
/// shown to everyone (where every face is open, a mark on every piece
/// would say nothing).
fn token(engine: &Engine, view: &View, id: PieceId, colour: bool) -> String {
    let g = &engine.game;
    let p = view.piece(id);
    let owner = p.owner.map_or('-', |o| {
        g.players[o.0 as usize].id.chars().next().unwrap_or('?')
    });
    let kind = p.kind.map_or("?".to_string(), |k| g.kind(k).short.clone());
    let mark = match (g.hidden, p.public) {
        (true, true) => "*",
        (true, false) => " ",
        (false, _) => "",
    };
    let text = format!("{owner}{kind}{mark}");
    match (colour, p.owner) {
        (true, Some(o)) => format!(
            "\x1b[{};1m{text}\x1b[{RESET}m",
            COLOURS[o.0 as usize % COLOURS.len()]
        ),
        _ => text,
    }
}

/// The board as text.
pub fn board(engine: &Engine, view: &View, colour: bool) -> String {
    let g = &engine.game;
    let mut out = String::new();
    if g.board.is_empty() {
        return out;
    }
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
                    let here = view.pieces.iter().find(|p| p.loc == Location::Space(id));
                    let cell = match here {
                        Some(p) => format!(" {} ", token(engine, view, p.id, colour)),
                        None if g.board.space_kind_name(id) != g.board.space_kinds()[0] => {
                            if colour {
                                format!(" \x1b[{LAND}m###\x1b[{RESET}m ")
                            } else {
                                " ### ".to_string()
                            }
                        }
                        None => "  .  ".to_string(),
                    };
                    out.push_str(&cell);
                }
                let _ = writeln!(out, " {}", row + 1);
            }
            let _ = writeln!(out, "    {header}");
        }
        None => areas(engine, view, colour, &mut out),
    }
    for (i, pool) in g.pool_labels.iter().enumerate() {
        let mut here: Vec<&PieceView> = view
            .pieces
            .iter()
            .filter(|p| p.loc == Location::Pool(PoolId(i as u8)))
            .collect();
        // By owner in seating order, then by the kind the viewer sees:
        // piece ids are shuffled, so their order would read as noise.
        here.sort_by_key(|p| {
            (
                p.owner.map_or(u8::MAX, |o| o.0),
                p.kind.map_or(u16::MAX, |k| k.0),
            )
        });
        let groups: Vec<String> = here
            .chunk_by(|a, b| a.owner == b.owner)
            .map(|group| {
                let tokens: Vec<String> = group
                    .iter()
                    .map(|p| token(engine, view, p.id, colour))
                    .collect();
                runs(&tokens)
            })
            .collect();
        if !groups.is_empty() {
            let _ = writeln!(out, "  {pool}: {}", groups.join(" | "));
        }
    }
    legend(engine, view, &mut out);
    out
}

/// Tokens side by side, a run of more than [`MAX_RUN`] alike written once
/// with its count (a face-down deck of 48 cards is `-? x48`).
fn runs(tokens: &[String]) -> String {
    tokens
        .chunk_by(|a, b| a == b)
        .map(|run| match run.len() {
            n if n > MAX_RUN => format!("{} x{n}", run[0].trim_end()),
            _ => run.join(" "),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The longest run of alike tokens in a pool written out one by one:
/// a reserve or a hand reads token by token, a deck as a count.
const MAX_RUN: usize = 10;

/// Occupied spaces, grouped by region (spaces without one come first).
fn areas(engine: &Engine, view: &View, colour: bool, out: &mut String) {
    let g = &engine.game;
    let mut regions: BTreeMap<Option<&str>, Vec<String>> = BTreeMap::new();
    for id in g.board.ids() {
        if let Some(line) = space_line(engine, view, id, colour) {
            regions
                .entry(g.board.space(id).region.as_deref())
                .or_default()
                .push(line);
        }
    }
    if regions.is_empty() {
        let _ = writeln!(out, "  (no pieces on the map)");
    }
    for (region, lines) in regions {
        if let Some(r) = region {
            let _ = writeln!(out, "  {r}:");
        }
        for l in lines {
            let _ = writeln!(out, "    {l}");
        }
    }
}

/// An occupied space of an area map as one line, its name then its
/// pieces (`Rome               wRo wRo`); `None` when it is empty.
pub fn space_line(engine: &Engine, view: &View, id: SpaceId, colour: bool) -> Option<String> {
    let here: Vec<String> = view
        .pieces
        .iter()
        .filter(|p| p.loc == Location::Space(id))
        .map(|p| token(engine, view, p.id, colour))
        .collect();
    (!here.is_empty()).then(|| format!("{:<18} {}", engine.game.board.label(id), here.join(" ")))
}

/// What the letters mean, for the kinds this board shows.
fn legend(engine: &Engine, view: &View, out: &mut String) {
    let g = &engine.game;
    let mut kinds: Vec<String> = g
        .kinds
        .iter()
        .map(|k| format!("{}={}", k.short, k.label))
        .collect();
    kinds.dedup();
    let hidden = view.pieces.iter().any(|p| p.kind.is_none());
    let _ = writeln!(
        out,
        "  {}{}{}",
        kinds.join(" "),
        if hidden { ", ?=unknown to you" } else { "" },
        if g.hidden { ", *=revealed" } else { "" }
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_run_of_alike_tokens_is_written_with_its_count() {
        let mut tokens = vec!["bS ".to_string()];
        tokens.extend(std::iter::repeat_n("-? ".to_string(), 11));
        tokens.push("bC ".to_string());
        assert_eq!(super::runs(&tokens), "bS  -? x11 bC ");
        assert_eq!(super::runs(&tokens[..4]), "bS  -?  -?  -? ");
    }
}
