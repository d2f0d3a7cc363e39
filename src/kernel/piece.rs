//! Pieces: who owns them, where they are, who may see their face.

use crate::kernel::board::SpaceId;
use crate::kernel::value::Vars;
use serde::{Deserialize, Serialize};

/// Index of a piece in the game state; stable for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceId(pub u16);

/// Index of a player in the game's player list (at most [`MAX_PLAYERS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u8);

/// Index of a piece kind in the game's kind list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct KindId(pub u16);

/// Index of an off-board pool in the game's pool list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PoolId(pub u8);

/// Pieces not yet set up wait here.
pub const RESERVE: PoolId = PoolId(0);
/// Destroyed pieces go here.
pub const ELIMINATED: PoolId = PoolId(1);
/// The pools every game has, before the ones its YAML declares.
pub const BUILTIN_POOLS: [&str; 2] = ["reserve", "eliminated"];

/// Visibility is a bit per player, so the kernel supports this many.
pub const MAX_PLAYERS: usize = 8;
/// A face every player may see.
pub const EVERYONE: u8 = u8::MAX;

/// Where a piece is: on a space, or in an off-board pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Location {
    Space(SpaceId),
    Pool(PoolId),
}

impl Location {
    pub fn space(self) -> Option<SpaceId> {
        match self {
            Location::Space(s) => Some(s),
            Location::Pool(_) => None,
        }
    }
}

/// One piece. Its face (the kind) is hidden from players outside `seen_by`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub kind: KindId,
    pub owner: Option<PlayerId>,
    pub loc: Location,
    /// Bit `p` set: player `p` may see this piece's kind and attributes.
    pub seen_by: u8,
    #[serde(default, skip_serializing_if = "Vars::is_empty")]
    pub attrs: Vars,
}

impl Piece {
    pub fn visible_to(&self, player: PlayerId) -> bool {
        self.seen_by & (1 << player.0) != 0
    }

    /// Revealed to every player (after an attack, for example).
    pub fn is_public(&self) -> bool {
        self.seen_by == EVERYONE
    }

    pub fn is_owned_by(&self, player: PlayerId) -> bool {
        self.owner == Some(player)
    }
}

/// The bit mask of one player.
pub fn player_bit(player: PlayerId) -> u8 {
    1 << player.0
}
