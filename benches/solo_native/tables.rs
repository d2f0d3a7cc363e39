//! The solitaire convoy's tables, read from the compiled game
//! (`engine.game.tables`, that is game.yaml after any scenario) into plain
//! native lookups: dice as parsed [`DiceExpr`]s, ship types and options as
//! indices, rolled tables as one entry per readable total.
//!
//! Reading them, rather than copying the numbers into Rust, keeps the
//! baseline playing the rules the engine plays. What the native code does
//! assume (five ship types with a carrier among them, four options, the
//! fields each row may carry) is checked here and panics with the reason,
//! so a changed game.yaml stops the bench instead of skewing it.

use portolan::kernel::dice::DiceExpr;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Ship types in the composition table's order; arrays indexed by type
/// have this length.
pub const TYPES: usize = 5;
/// The once-a-journey options in the options table's order.
pub const OPTIONS: usize = 4;
/// The one ship type the procedure names (interception counts carriers,
/// and carriers go home halfway); the others come from the tables.
const CARRIER: &str = "carrier";

/// A ship type, as its index in the composition table.
pub type Ship = usize;

/// Everything the rules read from `tables:`.
pub struct Tables {
    /// The ship type ids (`cargo`, ...) in composition order.
    pub ship_ids: [String; TYPES],
    /// How many ships of each type sail.
    pub composition: [DiceExpr; TYPES],
    pub carrier: Ship,
    pub length: DiceExpr,
    pub friendly_waters: DiceExpr,
    pub covering_force: CoveringForce,
    pub contact: RollTable<ContactRow>,
    pub enemy: RollTable<EnemyRow>,
    pub force_size: ForceSize,
    pub interception: Interception,
    pub attack: RollTable<Option<Damage>>,
    pub target: RollTable<TargetRow>,
    pub second_damage: SecondDamage,
    pub options: [Opt; OPTIONS],
    pub scoring: Scoring,
}

/// A table read by a modified roll: the row for every total from the first
/// row's lowest face to the last row's highest, so a lookup is a clamp and
/// an index (the Lua's `lookup` clamps, then takes the first row covering
/// the total).
pub struct RollTable<R> {
    pub dice: DiceExpr,
    lowest: i64,
    by_total: Vec<R>,
}

impl<R: Copy> RollTable<R> {
    /// The row a total reads; a total past either end reads the end row.
    pub fn read(&self, total: i64) -> R {
        let highest = self.lowest + self.by_total.len() as i64 - 1;
        self.by_total[(total.clamp(self.lowest, highest) - self.lowest) as usize]
    }
}

#[derive(Clone, Copy)]
pub struct ContactRow {
    /// Whether an enemy is met (and an engagement follows).
    pub contact: bool,
    /// Added to the force size.
    pub force: i64,
    /// Added to the next turn's contact roll.
    pub next_turn: i64,
}

#[derive(Clone, Copy)]
pub struct EnemyRow {
    pub force: i64,
    /// Added to every attack roll of the turn.
    pub attack: i64,
}

/// An attack roll that hits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    Damaged,
    Destroyed,
}

#[derive(Clone, Copy)]
pub struct TargetRow {
    pub ship: Ship,
    /// The type hit instead when none of `ship` is left.
    pub if_none: Option<Ship>,
}

pub struct CoveringForce {
    pub dice: DiceExpr,
    /// A carrier goes home on this face or higher.
    pub returns_from: i64,
    /// How many warships go with it.
    pub escort: DiceExpr,
    /// Which types form the escort, first choice first.
    pub escort_from: Vec<Ship>,
}

pub struct ForceSize {
    pub dice: DiceExpr,
    pub minimum: i64,
}

pub struct Interception {
    pub dice: DiceExpr,
    pub rolls: i64,
    pub per_carrier: i64,
    /// Rolls added when no ship of a type is left (0 for most types).
    pub without: [i64; TYPES],
    /// The faces that turn an enemy back.
    pub hits: Faces,
}

pub struct SecondDamage {
    pub dice: DiceExpr,
    /// The faces on which the damaged ship sinks.
    pub sinks: Faces,
}

/// A once-a-journey option: what it adds to each roll while active.
pub struct Opt {
    pub id: String,
    pub duration: DiceExpr,
    pub contact: i64,
    pub force: i64,
    pub interception: i64,
    pub attack: i64,
    pub target: i64,
    /// Turns added to the journey when taken.
    pub journey: Option<DiceExpr>,
}

pub struct Scoring {
    pub start: i64,
    /// Points per ship lost, by type.
    pub lost: [i64; TYPES],
    pub interception: i64,
    /// Points when every ship of a type that sailed is lost.
    pub all_lost: [Option<i64>; TYPES],
}

/// An inclusive `[low, high]` pair of faces.
#[derive(Clone, Copy, Deserialize)]
pub struct Faces(i64, i64);

impl Faces {
    pub fn contains(self, face: i64) -> bool {
        (self.0..=self.1).contains(&face)
    }
}

impl Tables {
    /// Reads the tables of a compiled solo-convoy; panics naming the table
    /// and field that the native version cannot play.
    pub fn read(tables: &Map<String, Value>) -> Tables {
        let table = |name: &str| {
            tables
                .get(name)
                .unwrap_or_else(|| panic!("no table '{name}'"))
        };
        let composition: [ShipFile; TYPES] = parse("composition", table("composition"));
        let ship_ids = composition.each_ref().map(|s| s.kind.clone());
        let ship = |id: &str| -> Ship {
            ship_ids
                .iter()
                .position(|s| s == id)
                .unwrap_or_else(|| panic!("no ship type '{id}' in the composition"))
        };
        let per_type = |map: &BTreeMap<String, i64>| {
            let mut out = [None; TYPES];
            for (id, &n) in map {
                out[ship(id)] = Some(n);
            }
            out
        };

        let journey: JourneyFile = parse("journey", table("journey"));
        let covering: CoveringFile = parse("covering_force", table("covering_force"));
        let contact: RowsFile<ContactFile> = parse("contact", table("contact"));
        let enemy: RowsFile<EnemyFile> = parse("enemy", table("enemy"));
        let force_size: ForceSizeFile = parse("force_size", table("force_size"));
        let interception: InterceptionFile = parse("interception", table("interception"));
        let attack: RowsFile<AttackFile> = parse("attack", table("attack"));
        let target: RowsFile<TargetFile> = parse("target", table("target"));
        let second: SecondDamageFile = parse("second_damage", table("second_damage"));
        let options: [OptionFile; OPTIONS] = parse("options", table("options"));
        let scoring: ScoringFile = parse("scoring", table("scoring"));

        Tables {
            composition: composition.each_ref().map(|s| dice(&s.dice)),
            carrier: ship(CARRIER),
            length: dice(&journey.length),
            friendly_waters: dice(&journey.friendly_waters),
            covering_force: CoveringForce {
                dice: dice(&covering.dice),
                returns_from: covering.returns_from,
                escort: dice(&covering.escort),
                escort_from: covering.escort_from.iter().map(|s| ship(s)).collect(),
            },
            contact: contact.compile(|r| ContactRow {
                contact: r.contact,
                force: r.force,
                next_turn: r.next_turn,
            }),
            enemy: enemy.compile(|r| EnemyRow {
                force: r.force,
                attack: r.attack,
            }),
            force_size: ForceSize {
                dice: dice(&force_size.dice),
                minimum: force_size.minimum,
            },
            interception: Interception {
                dice: dice(&interception.dice),
                rolls: interception.rolls,
                per_carrier: interception.per_carrier,
                without: per_type(&interception.without).map(|n| n.unwrap_or(0)),
                hits: interception.hits,
            },
            attack: attack.compile(|r| match r.damage.as_deref() {
                None => None,
                Some("damaged") => Some(Damage::Damaged),
                Some("destroyed") => Some(Damage::Destroyed),
                Some(other) => panic!("attack: unknown damage '{other}'"),
            }),
            target: target.compile(|r| TargetRow {
                ship: ship(&r.kind),
                if_none: r.if_none.as_deref().map(ship),
            }),
            second_damage: SecondDamage {
                dice: dice(&second.dice),
                sinks: second.sinks,
            },
            options: options.each_ref().map(|o| Opt {
                id: o.id.clone(),
                duration: dice(&o.duration),
                contact: o.contact,
                force: o.force,
                interception: o.interception,
                attack: o.attack,
                target: o.target,
                journey: o.journey.as_deref().map(dice),
            }),
            scoring: Scoring {
                start: scoring.start,
                lost: per_type(&scoring.lost).map(|n| n.unwrap_or(0)),
                interception: scoring.interception,
                all_lost: per_type(&scoring.all_lost),
            },
            ship_ids,
        }
    }
}

fn dice(text: &str) -> DiceExpr {
    text.parse()
        .unwrap_or_else(|e| panic!("dice '{text}' do not read: {e}"))
}

/// Reads one table, refusing fields the native version does not know: a
/// new modifier in game.yaml would otherwise be silently ignored here while
/// the Lua applies it.
fn parse<T: DeserializeOwned>(name: &str, value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("table '{name}' is not what the native version plays: {e}"))
}

// The tables as game.yaml spells them. Text only the Lua prints (names,
// titles, results) is accepted and not kept.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipFile {
    #[serde(rename = "type")]
    kind: String,
    dice: String,
    #[serde(rename = "name", default)]
    _name: String,
    #[serde(rename = "plural", default)]
    _plural: String,
    /// The escort's types are listed in `covering_force.escort_from`.
    #[serde(rename = "warship", default)]
    _warship: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JourneyFile {
    length: String,
    friendly_waters: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoveringFile {
    dice: String,
    returns_from: i64,
    escort: String,
    escort_from: Vec<String>,
}

/// A rolled table: its dice and rows, each row a `roll` (one face or a
/// `[low, high]` range) with the row's fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowsFile<R> {
    dice: String,
    rows: Vec<R>,
}

/// A row of a rolled table. (Each row type spells out `roll` and `result`
/// itself: serde cannot refuse unknown fields through `flatten`.)
trait Rolled {
    fn roll(&self) -> &Roll;
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Roll {
    Face(i64),
    Range(Faces),
}

impl Roll {
    fn faces(&self) -> Faces {
        match *self {
            Roll::Face(f) => Faces(f, f),
            Roll::Range(r) => r,
        }
    }
}

impl<R: Rolled> RowsFile<R> {
    /// One native row per total from the first row's low face to the last
    /// row's high face, each the first row covering that total; a gap
    /// (which the Lua reports as an error when rolled) panics here.
    fn compile<N: Copy>(&self, native: impl Fn(&R) -> N) -> RollTable<N> {
        let (first, last) = match (self.rows.first(), self.rows.last()) {
            (Some(f), Some(l)) => (f.roll().faces(), l.roll().faces()),
            _ => panic!("a rolled table without rows"),
        };
        let by_total = (first.0..=last.1)
            .map(|total| {
                let row = self.rows.iter().find(|r| r.roll().faces().contains(total));
                native(row.unwrap_or_else(|| panic!("no row covers the roll {total}")))
            })
            .collect();
        RollTable {
            dice: dice(&self.dice),
            lowest: first.0,
            by_total,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContactFile {
    roll: Roll,
    #[serde(rename = "result")]
    _result: String,
    #[serde(default)]
    contact: bool,
    #[serde(default)]
    force: i64,
    #[serde(default)]
    next_turn: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnemyFile {
    roll: Roll,
    #[serde(rename = "result")]
    _result: String,
    #[serde(default)]
    force: i64,
    #[serde(default)]
    attack: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackFile {
    roll: Roll,
    #[serde(rename = "result")]
    _result: String,
    damage: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetFile {
    roll: Roll,
    #[serde(rename = "result")]
    _result: String,
    #[serde(rename = "type")]
    kind: String,
    if_none: Option<String>,
}

impl Rolled for ContactFile {
    fn roll(&self) -> &Roll {
        &self.roll
    }
}

impl Rolled for EnemyFile {
    fn roll(&self) -> &Roll {
        &self.roll
    }
}

impl Rolled for AttackFile {
    fn roll(&self) -> &Roll {
        &self.roll
    }
}

impl Rolled for TargetFile {
    fn roll(&self) -> &Roll {
        &self.roll
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForceSizeFile {
    dice: String,
    minimum: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InterceptionFile {
    dice: String,
    rolls: i64,
    per_carrier: i64,
    #[serde(default)]
    without: BTreeMap<String, i64>,
    hits: Faces,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecondDamageFile {
    dice: String,
    sinks: Faces,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionFile {
    id: String,
    #[serde(rename = "title")]
    _title: String,
    duration: String,
    #[serde(default)]
    contact: i64,
    #[serde(default)]
    force: i64,
    #[serde(default)]
    interception: i64,
    #[serde(default)]
    attack: i64,
    #[serde(default)]
    target: i64,
    journey: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoringFile {
    start: i64,
    lost: BTreeMap<String, i64>,
    interception: i64,
    all_lost: BTreeMap<String, i64>,
}
