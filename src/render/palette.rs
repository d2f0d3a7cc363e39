//! The drawing's colours and line styles. Packages name their own space
//! and edge kinds, so a few common words get a fitting look (sea is blue,
//! a strait is a bold dashed line, a crossing an arrow) and any other kind
//! gets one from a fixed palette by its index: every kind is drawn, and
//! the legend says which is which.

use crate::kernel::game::{Colour, Game};
use crate::render::pieces::Group;

/// Distinct colours for players without a `colour` (seat order), and for
/// space kinds no word below names.
const PALETTE: [[u8; 3]; 8] = [
    [0x1f, 0x77, 0xb4],
    [0xd6, 0x27, 0x28],
    [0x2c, 0xa0, 0x2c],
    [0xff, 0x7f, 0x0e],
    [0x94, 0x67, 0xbd],
    [0x8c, 0x56, 0x4b],
    [0xe3, 0x77, 0xc2],
    [0x17, 0xbe, 0xcf],
];

/// Pale fills for space kinds that none of [`SPACE_WORDS`] names.
const PALE: [[u8; 3]; 6] = [
    [0xf2, 0xe6, 0xc9],
    [0xd8, 0xec, 0xd0],
    [0xe8, 0xd8, 0xec],
    [0xf8, 0xdc, 0xd0],
    [0xdc, 0xe4, 0xf0],
    [0xee, 0xee, 0xd0],
];

/// Space kinds whose name holds one of these words get its fill.
const SPACE_WORDS: [(&str, [u8; 3]); 10] = [
    ("sea", [0xcf, 0xe6, 0xf5]),
    ("ocean", [0xb5, 0xd6, 0xef]),
    ("water", [0xcf, 0xe6, 0xf5]),
    ("lake", [0xcf, 0xe6, 0xf5]),
    ("land", [0xec, 0xe2, 0xc0]),
    ("island", [0xd9, 0xe8, 0xb0]),
    ("port", [0xf5, 0xd0, 0x9a]),
    ("external", [0xdd, 0xdd, 0xdd]),
    ("box", [0xee, 0xee, 0xee]),
    ("battle", [0xf0, 0xd8, 0xd8]),
];

/// The fill of a space of the kind `name` (the board's kind number `index`).
pub fn space_fill(name: &str, index: usize) -> Colour {
    let lower = name.to_ascii_lowercase();
    SPACE_WORDS
        .iter()
        .find(|(word, _)| lower.contains(word))
        .map_or(Colour(PALE[index % PALE.len()]), |(_, c)| Colour(*c))
}

/// How a connection of one edge kind is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeStyle {
    pub stroke: &'static str,
    pub width: u8,
    /// An SVG dash pattern, for kinds told apart by their dashes.
    pub dash: Option<&'static str>,
    /// Drawn as an arrow, with a head at each end (the board's edges go
    /// both ways).
    pub arrow: bool,
}

/// Dash patterns for edge kinds none of the words below names.
const DASHES: [Option<&str>; 4] = [None, Some("2 3"), Some("8 3 2 3"), Some("1 5")];
const STROKES: [&str; 4] = ["#555555", "#7b4fa0", "#2a7f62", "#a0522d"];

/// The style of the edge kind `name` (the board's edge kind `index`).
pub fn edge_style(name: &str, index: usize) -> EdgeStyle {
    let lower = name.to_ascii_lowercase();
    let has = |word: &str| lower.contains(word);
    if has("arrow") || has("crossing") {
        EdgeStyle {
            stroke: "#b03030",
            width: 2,
            dash: None,
            arrow: true,
        }
    } else if has("strait") {
        EdgeStyle {
            stroke: "#1f4e9c",
            width: 4,
            dash: Some("6 3"),
            arrow: false,
        }
    } else if has("coast") {
        EdgeStyle {
            stroke: "#3d85c6",
            width: 1,
            dash: Some("3 2"),
            arrow: false,
        }
    } else if lower == crate::kernel::board::ADJACENT {
        EdgeStyle {
            stroke: "#888888",
            width: 1,
            dash: None,
            arrow: false,
        }
    } else {
        EdgeStyle {
            stroke: STROKES[index % STROKES.len()],
            width: 2,
            dash: DASHES[index % DASHES.len()],
            arrow: false,
        }
    }
}

/// A player's colour: the one the data gives, else the palette's.
pub fn player_colour(game: &Game, player: usize) -> Colour {
    game.players[player]
        .colour
        .unwrap_or(Colour(PALETTE[player % PALETTE.len()]))
}

/// Unowned pieces of no coloured kind.
const NEUTRAL: Colour = Colour([0x99, 0x99, 0x99]);

/// A group's fill: its kind's colour (when the viewer sees the kind and
/// the data colours it), else its owner's, else a neutral grey.
pub fn group_fill(game: &Game, group: &Group) -> Colour {
    let kind = group.kind.and_then(|k| game.kind(k).colour);
    let owner = group.owner.map(|o| player_colour(game, usize::from(o.0)));
    kind.or(owner).unwrap_or(NEUTRAL)
}

/// Black or white, whichever reads on `fill`.
pub fn ink_on(fill: Colour) -> &'static str {
    if fill.is_light() {
        "#000000"
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_words_get_their_look_and_others_still_get_one() {
        assert_eq!(space_fill("deep_sea", 3), space_fill("sea", 0));
        assert!(edge_style("crossing_arrow", 5).arrow);
        assert_eq!(edge_style("strait", 1).width, 4);
        let odd = edge_style("portage", 1);
        assert!(!odd.arrow);
        assert_ne!(odd, edge_style("portage", 2));
    }
}
