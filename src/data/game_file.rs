//! The raw schema of `rules/<game>/game.yaml`, exactly as a designer writes
//! it. Anyone can build one; only [`crate::data::compile`] turns it into a
//! validated [`crate::kernel::game::Game`], reporting every problem at once.
//!
//! References to other parts of the file (a kind, a zone, a space) are
//! `Spanned`, so a bad one is reported at its line and column.

use crate::kernel::value::Vars;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// A reference to something declared elsewhere, with where it was written.
pub type Ref = Spanned<String>;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub summary: String,
    pub players: Vec<PlayerFile>,
    /// `coin` (a fair flip), `random` (same) or a player id.
    #[serde(default = "coin")]
    pub first_player: String,
    #[serde(default)]
    pub board: BoardFile,
    #[serde(default)]
    pub pieces: PiecesFile,
    /// Off-board pools beyond the built-in `reserve` and `eliminated`:
    /// an id, or `{ id, name }` where screens should read a name.
    #[serde(default)]
    pub pools: Vec<PoolFile>,
    #[serde(default)]
    pub zones: BTreeMap<String, ZoneFile>,
    pub phases: BTreeMap<String, PhaseFile>,
    /// The phases in the order they start; the last one runs until the end.
    #[schemars(with = "Vec<String>")]
    pub flow: Vec<Ref>,
    #[serde(default)]
    pub victory: VictoryFile,
    /// Free-form tables the rules read (combat results, contact tables...).
    #[serde(default)]
    pub tables: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub options: Vec<OptionFile>,
    /// Lua files run in order when the package loads.
    #[serde(default)]
    pub scripts: Vec<String>,
    /// Global variables at the start of a game.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, crate::kernel::value::Value>")]
    pub vars: Vars,
    /// Player variables every player sees (scores, points); a player's
    /// other variables are seen by that player only.
    #[serde(default)]
    pub public_player_vars: Vec<String>,
    /// Where the package keeps secrets the kernel cannot deal again.
    #[serde(default)]
    pub secrets: SecretsFile,
    /// A game still running after this many actions is drawn (a safety net
    /// for bot games; see README).
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Each kind of move, how to type it and what it does, for the
    /// REPL's `help moves`.
    #[serde(default)]
    pub move_help: Vec<crate::kernel::game::MoveHelp>,
}

/// The secrets a package's scripts keep, declared ahead of play so that a
/// search bot is refused before a game starts, not on the turn a secret
/// happens to be written (where the refusal itself would tell the bot
/// which way the secret went).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretsFile {
    /// Player variables each player keeps to itself.
    #[serde(default)]
    pub player_vars: Vec<String>,
    /// Phases whose frames may be pushed with a context some players
    /// cannot see (`game.push_phase(..., { seen_by = ... })`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub frame_contexts: Vec<Ref>,
    /// Whether scripts change hidden pieces' kinds (or owners, or create
    /// hidden pieces) out of some player's sight.
    #[serde(default)]
    pub hidden_kinds: bool,
}

fn coin() -> String {
    "coin".to_string()
}

fn default_max_plies() -> u32 {
    5000
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerFile {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The grid edge the player sits at: `south` or `north` (or east, west).
    #[serde(default)]
    pub home: Option<crate::kernel::board::Dir>,
    /// How drawings colour the player's pieces: `#rrggbb` or a CSS name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    #[serde(default)]
    pub grid: Option<GridFile>,
    /// Space name to space kind, overriding a grid cell's kind.
    #[serde(default)]
    pub terrain: BTreeMap<String, String>,
    #[serde(default)]
    pub spaces: Vec<SpaceFile>,
    #[serde(default)]
    pub connections: Vec<ConnectionFile>,
    /// Named grids beside the main one (a battle board beside a map).
    #[serde(default)]
    pub grids: BTreeMap<String, NamedGridFile>,
}

/// A pool as game.yaml declares it: its id alone (`deck`), or its id and
/// the name screens and logs give it (`{ id: hand_a, name: Side A's hand }`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PoolFile {
    Id(String),
    Named { id: String, name: String },
}

impl PoolFile {
    /// The id scripts and moves use.
    pub fn id(&self) -> &str {
        match self {
            PoolFile::Id(id) | PoolFile::Named { id, .. } => id,
        }
    }

    /// The name screens give it, if the file gives one.
    pub fn name(&self) -> Option<&str> {
        match self {
            PoolFile::Id(_) => None,
            PoolFile::Named { name, .. } => Some(name),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedGridFile {
    /// How screens name the grid (`Battle board`); its id when absent.
    #[serde(default)]
    pub name: Option<String>,
    pub columns: u8,
    pub rows: u8,
    #[serde(default = "sea")]
    pub kind: String,
    /// Diagonal neighbours too: eight directions instead of four.
    #[serde(default)]
    pub diagonals: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    pub columns: u8,
    pub rows: u8,
    /// The kind of every cell unless `terrain` says otherwise.
    #[serde(default = "sea")]
    pub kind: String,
}

fn sea() -> String {
    "sea".to_string()
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpaceFile {
    pub name: String,
    pub kind: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub xy: Option<[f32; 2]>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, crate::kernel::value::Value>")]
    pub attrs: Vars,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectionFile {
    #[schemars(with = "String")]
    pub from: Ref,
    #[schemars(with = "String")]
    pub to: Ref,
    #[serde(default = "adjacent")]
    pub kind: String,
}

fn adjacent() -> String {
    crate::kernel::board::ADJACENT.to_string()
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PiecesFile {
    /// Faces start hidden from the other players.
    #[serde(default)]
    pub hidden: bool,
    /// Attributes only a piece's owner sees, even when its face is shown.
    #[serde(default)]
    pub private_attrs: Vec<String>,
    /// The attributes a player reads about a piece (`show #ID`), each with
    /// the name it reads under (`cp: Combat points`). Any other attribute
    /// is the rules' bookkeeping and stays off the screen.
    #[serde(default)]
    pub shown_attrs: BTreeMap<String, String>,
    /// Kinds by name; `count` pieces of each go to every player's reserve.
    #[serde(default)]
    pub kinds: BTreeMap<String, KindFile>,
    /// Pieces that start on the board or in a pool.
    #[serde(default)]
    pub setup: Vec<SetupFile>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KindFile {
    /// How screens and logs name the kind (`North wind`); its id with
    /// spaces for underscores when absent.
    #[serde(default)]
    pub name: Option<String>,
    /// One or two letters for compact boards.
    #[serde(default)]
    pub short: Option<String>,
    #[serde(default)]
    pub count: u16,
    /// Overrides the movement phase's pattern for this kind.
    #[serde(default)]
    pub movement: Option<MovementFile>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, crate::kernel::value::Value>")]
    pub attrs: Vars,
    /// How drawings colour pieces of this kind (over their owner's colour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub owner: Option<Ref>,
    #[schemars(with = "String")]
    pub kind: Ref,
    /// A space or a pool name.
    #[schemars(with = "String")]
    pub at: Ref,
    #[serde(default = "one")]
    pub count: u16,
}

fn one() -> u16 {
    1
}

/// A set of spaces, the same for every player or seen from each player's
/// side: `ranks: [1]` is the row nearest a player's home edge.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneFile {
    /// How messages name the zone (`the far row`); its id when absent.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub ranks: Vec<u8>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub spaces: Vec<Ref>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum PhaseFile {
    /// Each player in turn order sets up every piece of their reserve, one
    /// by one, into the zones, `quotas` giving how many go in each zone.
    Placement {
        quotas: BTreeMap<String, u16>,
        #[serde(default)]
        name: Option<String>,
    },
    /// Players alternate moving one piece; moving onto an enemy attacks.
    Movement {
        #[serde(default)]
        name: Option<String>,
        movement: MovementFile,
        /// The table (under `tables`) of attack results.
        #[serde(default)]
        #[schemars(with = "Option<String>")]
        combat: Option<Ref>,
        #[serde(default)]
        reveal_on_attack: bool,
        #[serde(default)]
        specials: Vec<SpecialFile>,
    },
    /// A procedure written in Lua: the table `phases.<name>` in the scripts.
    Script {
        #[serde(default)]
        name: Option<String>,
    },
}

impl PhaseFile {
    /// How messages name the phase (`Sailing`), if the file says: every
    /// kind of phase takes an optional `name`.
    pub fn name(&self) -> Option<&str> {
        match self {
            PhaseFile::Placement { name, .. }
            | PhaseFile::Movement { name, .. }
            | PhaseFile::Script { name } => name.as_deref(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementFile {
    #[serde(default = "one_step")]
    pub steps: u8,
    /// On grids: `forward`, `backward`, `sideways` (relative to the owner).
    #[serde(default)]
    pub directions: Option<Vec<RelDir>>,
    /// Edge kinds a piece may cross; all when absent.
    #[serde(default)]
    pub edges: Option<Vec<String>>,
    /// Space kinds a piece may enter; all when absent.
    #[serde(default)]
    pub enters: Option<Vec<String>>,
}

fn one_step() -> u8 {
    1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RelDir {
    Forward,
    Backward,
    Sideways,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialFile {
    /// The word a player types (`strike d5`).
    pub name: String,
    #[schemars(with = "String")]
    pub zone: Ref,
    #[serde(default)]
    pub target: Target,
    #[serde(default)]
    pub once_per_game: bool,
    /// The Lua rule function (`rules.<name>`) that carries it out.
    pub script: String,
}

/// Which spaces of a special's zone may be chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    #[default]
    Any,
    Occupied,
    Enemy,
    Empty,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictoryFile {
    /// A player wins when a piece of this kind enters this zone (their own
    /// view of it).
    #[serde(default)]
    pub reach: Option<ReachFile>,
    /// A player left without pieces of this kind loses; if nobody has any,
    /// the game is drawn.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub last_with: Option<Ref>,
    #[serde(default)]
    pub repetition: Option<RepetitionFile>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReachFile {
    #[schemars(with = "String")]
    pub kind: Ref,
    #[schemars(with = "String")]
    pub zone: Ref,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepetitionFile {
    /// The occurrence of a position that ends the game (3: threefold).
    pub count: u8,
    /// The Lua rule function that decides the result.
    pub script: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionFile {
    pub id: String,
    pub number: u32,
    pub title: String,
    pub description: String,
    /// The Lua overlay that implements it, relative to the package.
    pub script: String,
}
