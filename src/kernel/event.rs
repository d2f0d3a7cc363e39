//! What happened: the game's event log, narrated by views for one seat.

use crate::kernel::board::SpaceId;
use crate::kernel::piece::{Location, PieceId, PlayerId};
use serde::{Deserialize, Serialize};

/// How an attack ended, after any coin flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolved {
    /// The defender is destroyed and the attacker takes the space.
    Win,
    /// Nothing is destroyed; the attacker returns to where it started.
    Bounce,
    /// The attacker is destroyed; the defender stays.
    Lose,
    /// Both are destroyed.
    Both,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` is a draw (or, in a solitaire game, no winner is named).
    pub winner: Option<PlayerId>,
    pub reason: String,
    /// Final scores by player, for games that score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
    /// Cut short by a limit of the kernel (`max_plies`, the flow of play
    /// running out) rather than ended by a rule: balance reports count
    /// decisive games by it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_limit: bool,
}

/// One entry of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    Placed {
        piece: PieceId,
        to: SpaceId,
    },
    Moved {
        piece: PieceId,
        from: SpaceId,
        to: SpaceId,
    },
    Attack {
        attacker: PieceId,
        defender: PieceId,
        from: SpaceId,
        at: SpaceId,
        coin: Option<bool>,
        result: Resolved,
    },
    Special {
        player: PlayerId,
        name: String,
        target: SpaceId,
    },
    Removed {
        piece: PieceId,
        from: Location,
    },
    Passed {
        player: PlayerId,
    },
    /// A roll of dice, shown as the dice and the total.
    Roll {
        expr: String,
        dice: Vec<u32>,
        total: i64,
        why: String,
    },
    /// A roll on one of the rules' dice tables (`dice.on`): the dice, each
    /// modifier with its source, the total read after clamping to the
    /// table's ends, and the row it read (`None` in a gap between rows).
    TableRoll {
        table: String,
        dice: Vec<u32>,
        natural: i64,
        modifiers: Vec<(String, i64)>,
        read: i64,
        row: Option<u16>,
    },
    /// A line of narration from a rule script, seen by the players in `to`.
    Text {
        text: String,
        to: u8,
    },
    /// A piece changed hands (a prize taken). The log names each piece by
    /// the owner it had when the event happened, and rewinds ownership by
    /// these, so a capture does not rewrite the history before it.
    OwnerChanged {
        piece: PieceId,
        from: Option<PlayerId>,
        to: Option<PlayerId>,
    },
    Finished(Outcome),
}
