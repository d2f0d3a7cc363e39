//! A validated game definition: what the kernel plays. Built only by
//! [`crate::data::compile`] from a checked `game.yaml` (and any scenario and
//! option overlays), then shared, immutable, by every game of a session.

use crate::kernel::board::{Board, Dir, SpaceId};
use crate::kernel::dice_table::DiceTable;
use crate::kernel::event::Resolved;
use crate::kernel::piece::{KindId, PlayerId};
use crate::kernel::value::Vars;
use serde::{Deserialize, Serialize};

pub use crate::data::colour::Colour;
pub use crate::data::game_file::Target;

/// The most a game's `max_plies` may be. A game a million decisions long
/// is far past any board game's (the stock games stop at 60,000), so a
/// bot game still going there is a rule that never ends: capping it keeps
/// such a game from running for hours and its record (a REPL's log, a
/// save) from growing without bound.
pub const MAX_PLIES: u32 = 1_000_000;

/// A player seat as the rules define it.
#[derive(Clone, Debug)]
pub struct PlayerDef {
    pub id: String,
    pub name: String,
    pub home: Option<Dir>,
    /// The colour drawings give the player's pieces, if the data gives one.
    pub colour: Option<Colour>,
}

/// A piece kind.
#[derive(Clone, Debug)]
pub struct KindDef {
    /// The id rules, moves and saves use.
    pub name: String,
    /// How screens, logs and drawings name it: its `name:` in game.yaml
    /// (see [`label_or_id`]).
    pub label: String,
    pub short: String,
    /// Pieces of this kind each player starts with in reserve.
    pub count: u16,
    pub attrs: Vars,
    /// The colour drawings give pieces of this kind, if the data gives one.
    pub colour: Option<Colour>,
}

/// A piece placed when a game starts.
#[derive(Clone, Debug)]
pub struct StartPiece {
    pub owner: Option<PlayerId>,
    pub kind: KindId,
    pub at: crate::kernel::piece::Location,
}

/// A set of spaces per player (the same set for all, for common zones),
/// kept both as a membership table and as a list in board order, because
/// move generation asks both "is this space in it?" and "which spaces?".
#[derive(Clone, Debug)]
pub struct Zone {
    pub name: String,
    /// How messages name it: its `name:` in game.yaml (see [`label_or_id`]).
    pub label: String,
    members: Vec<Vec<bool>>,
    lists: Vec<Vec<SpaceId>>,
}

impl Zone {
    /// A zone from its membership table, `[player][space]`.
    pub fn new(name: String, label: String, members: Vec<Vec<bool>>) -> Zone {
        let lists = members
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(_, in_zone)| **in_zone)
                    .map(|(i, _)| SpaceId(i as u16))
                    .collect()
            })
            .collect();
        Zone {
            name,
            label,
            members,
            lists,
        }
    }

    pub fn contains(&self, player: PlayerId, space: SpaceId) -> bool {
        self.members[player.0 as usize][space.0 as usize]
    }

    /// The zone's spaces as a player sees them, in board order.
    pub fn spaces(&self, player: PlayerId) -> &[SpaceId] {
        &self.lists[player.0 as usize]
    }
}

/// How the first player is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPlayer {
    Coin,
    Fixed(PlayerId),
}

/// An attack result as the table gives it, before any coin flip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CombatEntry {
    Fixed(Resolved),
    /// A coin decides: the first result if it shows the attacker's colour.
    Coin(Resolved, Resolved),
    /// A Lua rule function decides.
    Script(String),
}

/// Where each piece may step from each space, for each player: the
/// movement pattern compiled against the board, so move generation reads a
/// list instead of walking edges and checking kinds.
///
/// Every list is stored in a row as wide as the longest one, padded at the
/// end: move generation runs the same number of steps from every space,
/// so the end of a piece's list is no branch to mispredict (a Convoy ship
/// has two, three or four neighbours depending on where it stands).
#[derive(Clone, Debug)]
pub struct Reach {
    pub steps: u8,
    /// `rows[(player * spaces + space) * width..][..width]`: the spaces one
    /// step away, then padding; one flat buffer for every player's lists.
    rows: Vec<SpaceId>,
    /// How many entries of each row are real.
    lens: Vec<u16>,
    spaces: usize,
    width: usize,
}

impl Reach {
    /// From `next[player][space]`: the spaces one step away that the
    /// pattern allows.
    pub fn new(steps: u8, next: Vec<Vec<Vec<SpaceId>>>) -> Reach {
        let spaces = next.first().map_or(0, Vec::len);
        let width = next.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let mut rows = Vec::new();
        let mut lens = Vec::new();
        for list in next.iter().flatten() {
            rows.extend_from_slice(list);
            // Padding repeats the list's first space (space 0 for an empty
            // list): a real space, so looking at what stands there is in
            // bounds.
            let pad = list.first().copied().unwrap_or(SpaceId(0));
            rows.resize(rows.len() + width - list.len(), pad);
            lens.push(list.len() as u16);
        }
        Reach {
            steps,
            rows,
            lens,
            spaces,
            width,
        }
    }

    /// Where a player's piece may step from a space.
    pub fn next(&self, player: PlayerId, from: SpaceId) -> &[SpaceId] {
        let (row, len) = self.padded(player, from);
        &row[..len]
    }

    /// The same list in its padded row (all rows are [`Reach::width`]
    /// long), with how many of its entries are real.
    pub fn padded(&self, player: PlayerId, from: SpaceId) -> (&[SpaceId], usize) {
        let index = player.0 as usize * self.spaces + from.0 as usize;
        let start = index * self.width;
        (
            &self.rows[start..start + self.width],
            usize::from(self.lens[index]),
        )
    }

    /// The length of every padded row: the most spaces one step reaches.
    pub fn width(&self) -> usize {
        self.width
    }
}

/// A special action offered beside the moves (Convoy's Air Strike).
#[derive(Clone, Debug)]
pub struct Special {
    pub name: String,
    pub zone: usize,
    pub target: Target,
    pub once_per_game: bool,
    pub script: String,
}

/// The native movement phase.
#[derive(Clone, Debug)]
pub struct Movement {
    /// Movement patterns; `kind_reach[kind]` indexes into it.
    pub reaches: Vec<Reach>,
    pub kind_reach: Vec<usize>,
    /// `combat[attacker kind][defender kind]`, when attacks are allowed.
    pub combat: Option<Vec<Vec<CombatEntry>>>,
    pub reveal_on_attack: bool,
    pub specials: Vec<Special>,
}

impl Movement {
    /// The movement pattern of a kind.
    pub fn reach(&self, kind: KindId) -> &Reach {
        &self.reaches[self.kind_reach[kind.0 as usize]]
    }
}

/// The native set-up phase.
#[derive(Clone, Debug)]
pub struct Placement {
    /// (zone, how many pieces each player puts there).
    pub quotas: Vec<(usize, u16)>,
    /// Per player, every (space, quota) pair in board order: the set-up
    /// cells listed once when the game compiles, not sorted at each choice.
    cells: Vec<Vec<(SpaceId, usize)>>,
}

impl Placement {
    pub fn new(quotas: Vec<(usize, u16)>, zones: &[Zone], players: usize) -> Placement {
        let cells = (0..players)
            .map(|p| {
                let mut cells: Vec<(SpaceId, usize)> = quotas
                    .iter()
                    .enumerate()
                    .flat_map(|(q, &(zone, _))| {
                        zones[zone]
                            .spaces(PlayerId(p as u8))
                            .iter()
                            .map(move |&s| (s, q))
                    })
                    .collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        Placement { quotas, cells }
    }

    /// A player's set-up cells with the quota each belongs to, in board order.
    pub fn cells(&self, player: PlayerId) -> &[(SpaceId, usize)] {
        &self.cells[player.0 as usize]
    }
}

#[derive(Clone, Debug)]
pub enum PhaseKind {
    Placement(Placement),
    Movement(Movement),
    /// Carried out by the Lua table `phases.<name>`.
    Script,
}

#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    /// How messages name it: its `name:` in game.yaml (see [`label_or_id`]).
    pub label: String,
    pub kind: PhaseKind,
}

/// What messages call a zone or phase: the `name:` game.yaml gives it, else
/// its id with spaces for underscores (`far_row` is "far row"), so players
/// read words, not identifiers.
pub fn label_or_id(name: Option<&str>, id: &str) -> String {
    name.map_or_else(|| id.replace('_', " "), str::to_string)
}

/// The end conditions the kernel checks natively.
#[derive(Clone, Debug, Default)]
pub struct Victory {
    pub reach: Option<(KindId, usize)>,
    pub last_with: Option<KindId>,
    pub repetition: Option<(u8, String)>,
}

/// An optional rule and whether this game plays with it.
#[derive(Clone, Debug)]
pub struct OptionDef {
    pub id: String,
    pub number: u32,
    pub title: String,
    pub description: String,
    pub script: String,
    pub enabled: bool,
}

/// A Lua function named by the game's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptRef {
    /// `rules.NAME`, named at `path` in `game.yaml`.
    Rule { name: String, path: String },
    /// The scripted phase `phases.NAME`, the game's phase `index` (its
    /// `run`, and `choose` if it ever offers a choice).
    Phase {
        name: String,
        index: usize,
        path: String,
    },
}

/// A compiled game.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub players: Vec<PlayerDef>,
    pub first_player: FirstPlayer,
    pub board: Board,
    pub kinds: Vec<KindDef>,
    /// The pools' ids, as rules and moves name them.
    pub pools: Vec<String>,
    /// How screens name each pool, by index (see [`label_or_id`]).
    pub pool_labels: Vec<String>,
    pub start: Vec<StartPiece>,
    pub hidden: bool,
    /// Attributes only a piece's owner sees, whoever sees its face.
    pub private_attrs: Vec<String>,
    /// The attributes a player reads about a piece, each with the name it
    /// reads under (game.yaml's `pieces.shown_attrs`), by id.
    pub shown_attrs: Vec<(String, String)>,
    pub zones: Vec<Zone>,
    pub phases: Vec<Phase>,
    pub flow: Vec<u16>,
    pub victory: Victory,
    pub tables: serde_json::Map<String, serde_json::Value>,
    /// The tables written as dice tables (`dice` + `rows`), compiled.
    pub dice_tables: Vec<DiceTable>,
    pub options: Vec<OptionDef>,
    pub vars: Vars,
    /// Player variables every player sees; the others are seen by their
    /// player only (see `kernel::secrets`).
    pub public_player_vars: Vec<String>,
    /// Where scripts keep secrets (game.yaml's `secrets`).
    pub secrets: Secrets,
    /// A game still running after this many actions is drawn; at most
    /// [`MAX_PLIES`].
    pub max_plies: u32,
    /// The random decisions a search bot's playout makes before
    /// `rules.evaluate` scores the line (`tables.search.playout`); `None`
    /// leaves it to the bot. A hint for bots, not a rule.
    pub search_playout: Option<u32>,
    /// The moves explained for players, in the package's words.
    pub move_help: Vec<MoveHelp>,
}

/// One kind of move explained for players (game.yaml's `move_help`,
/// printed by the REPL's `help moves`): written by the package, so other
/// people's games explain their own notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveHelp {
    /// What the move is called (`Sail a ship`).
    pub kind: String,
    /// How it is typed, as `moves` lists it (`d2 d3`).
    pub typed: String,
    /// What it does, in a sentence or two.
    pub means: String,
}

/// The secrets game.yaml declares its scripts keep (see `kernel::secrets`).
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Player variables each player keeps to itself.
    pub player_vars: Vec<String>,
    /// Phases (by index) whose frames may hide their context.
    pub frame_contexts: Vec<u16>,
    /// Whether hidden kinds change out of some player's sight.
    pub hidden_kinds: bool,
}

impl Game {
    /// A player by id, in any case (`Blue` finds `blue`).
    pub fn player_index(&self, id: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
            .map(|i| PlayerId(i as u8))
    }

    pub fn player_id(&self, p: PlayerId) -> &str {
        &self.players[p.0 as usize].id
    }

    pub fn kind_index(&self, name: &str) -> Option<KindId> {
        let found = self.kinds.iter().position(|k| k.name == name);
        let found = found.or_else(|| {
            self.kinds
                .iter()
                .position(|k| k.name.eq_ignore_ascii_case(name))
        });
        found.map(|i| KindId(i as u16))
    }

    pub fn kind(&self, k: KindId) -> &KindDef {
        &self.kinds[k.0 as usize]
    }

    pub fn zone_index(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|z| z.name == name)
    }

    pub fn pool_index(&self, name: &str) -> Option<crate::kernel::piece::PoolId> {
        self.pools
            .iter()
            .position(|p| p == name)
            .map(|i| crate::kernel::piece::PoolId(i as u8))
    }

    /// How screens, logs and drawings name a place: a space's label
    /// ([`Board::label`]) or a pool's.
    pub fn location_label(&self, loc: crate::kernel::piece::Location) -> String {
        match loc {
            crate::kernel::piece::Location::Space(s) => self.board.label(s),
            crate::kernel::piece::Location::Pool(p) => self.pool_labels[usize::from(p.0)].clone(),
        }
    }

    pub fn dice_table(&self, name: &str) -> Option<&DiceTable> {
        self.dice_tables.iter().find(|t| t.name == name)
    }

    pub fn phase_index(&self, name: &str) -> Option<u16> {
        self.phases
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u16)
    }

    /// The ids of the optional rules this game plays with, by rule number.
    pub fn enabled_options(&self) -> Vec<&str> {
        self.options
            .iter()
            .filter(|o| o.enabled)
            .map(|o| o.id.as_str())
            .collect()
    }

    pub fn option_enabled(&self, id: &str) -> bool {
        self.options.iter().any(|o| o.id == id && o.enabled)
    }

    /// Every Lua function the data names, with the dotted path in
    /// `game.yaml` where it is named, so a package that names a function no
    /// script defines is refused when it loads, not when the rule is needed.
    /// Each function is listed once, where it is first named.
    pub fn script_references(&self) -> Vec<ScriptRef> {
        let mut refs = Vec::new();
        let mut combat_rules = std::collections::HashSet::new();
        for (index, p) in self.phases.iter().enumerate() {
            match &p.kind {
                PhaseKind::Script => refs.push(ScriptRef::Phase {
                    name: p.name.clone(),
                    index,
                    path: format!("phases.{}", p.name),
                }),
                PhaseKind::Movement(m) => {
                    for (i, s) in m.specials.iter().enumerate() {
                        refs.push(ScriptRef::Rule {
                            name: s.script.clone(),
                            path: format!("phases.{}.specials.{i}.script", p.name),
                        });
                    }
                    let scripted = m.combat.iter().flatten().flatten().filter_map(|e| match e {
                        CombatEntry::Script(name) => Some(name),
                        _ => None,
                    });
                    for name in scripted {
                        if combat_rules.insert(name) {
                            refs.push(ScriptRef::Rule {
                                name: name.clone(),
                                path: format!("phases.{}.combat", p.name),
                            });
                        }
                    }
                }
                PhaseKind::Placement(_) => {}
            }
        }
        if let Some((_, name)) = &self.victory.repetition {
            refs.push(ScriptRef::Rule {
                name: name.clone(),
                path: "victory.repetition.script".into(),
            });
        }
        refs
    }

    /// The player after `p` in seating order. (A comparison, not a
    /// remainder: the turn loop asks once a ply, and a division is slow.)
    pub fn next_player(&self, p: PlayerId) -> PlayerId {
        let next = p.0 as usize + 1;
        PlayerId(if next < self.players.len() {
            next as u8
        } else {
            0
        })
    }
}
