//! The answers a seat gives to a decision.

use crate::kernel::board::SpaceId;
use crate::kernel::piece::PieceId;
use serde::{Deserialize, Serialize};

/// One legal action. Small and `Copy`, because bots generate and compare
/// millions of them; notation for people is produced by the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move a piece to a space (an attack when an enemy stands there).
    Move { piece: PieceId, to: SpaceId },
    /// Set a piece up on a space.
    Place { piece: PieceId, to: SpaceId },
    /// Use the phase's special action number `index` on a target space.
    Special { index: u8, target: SpaceId },
    /// A choice offered by a scripted phase; the number is the engine's
    /// symbol for the choice's notation.
    Choice(u32),
    /// Offered only when nothing else is legal.
    Pass,
}

impl Action {
    /// What fills room made in a list before the real actions are written
    /// over it. Its bytes are all zero (the first variant, zero ids), so
    /// making room for many is one `memset` rather than a loop.
    pub const ROOM: Action = Action::Move {
        piece: PieceId(0),
        to: SpaceId(0),
    };
}
