//! Compiling the phases: set-up quotas, movement patterns against the
//! board, combat tables and special actions.

use super::{Compiler, Declared};
use crate::data::error::{DataError, suggest};
use crate::data::game_file::{GameFile, MovementFile, PhaseFile, Ref, RelDir};
use crate::kernel::board::Dir;
use crate::kernel::event::Resolved;
use crate::kernel::game::*;
use serde_json::Value as Json;

/// The most entries the movement lists of a phase may hold: every list is
/// as long as the longest (see [`Reach`]), so one space with thousands of
/// neighbours on a board of thousands of spaces would need gigabytes.
const MAX_REACH_ENTRIES: usize = 1 << 25;

/// The most distinct movement patterns in a phase (the phase's own and
/// the kinds' own): each is a list per player and space.
const MAX_PATTERNS: usize = 64;

impl Compiler<'_> {
    pub(super) fn phase(
        &mut self,
        file: &GameFile,
        name: &str,
        p: &PhaseFile,
        game: &Game,
        names: &Declared,
    ) -> PhaseKind {
        match p {
            PhaseFile::Placement { quotas } => {
                PhaseKind::Placement(self.placement(name, quotas, game, names))
            }
            PhaseFile::Movement {
                movement,
                combat,
                reveal_on_attack,
                specials,
            } => {
                let (patterns, kind_reach) = self.patterns(name, movement, file, game);
                let reaches = match self.reach_fits(patterns.len(), game) {
                    true => patterns.iter().map(|m| self.reach(name, m, game)).collect(),
                    false => Vec::new(),
                };
                let combat = combat.as_ref().and_then(|t| self.combat_table(t, game));
                let specials = specials
                    .iter()
                    .filter_map(|s| {
                        let zone = self.lookup(
                            &s.zone,
                            "zone",
                            names.zones.get(&s.zone.value),
                            game.zones.iter().map(|z| z.name.as_str()),
                        )?;
                        Some(Special {
                            name: s.name.clone(),
                            zone,
                            target: s.target,
                            once_per_game: s.once_per_game,
                            script: s.script.clone(),
                        })
                    })
                    .collect();
                PhaseKind::Movement(Movement {
                    reaches,
                    kind_reach,
                    combat,
                    reveal_on_attack: *reveal_on_attack,
                    specials,
                })
            }
            PhaseFile::Script => PhaseKind::Script,
        }
    }

    fn placement(
        &mut self,
        name: &str,
        quotas: &std::collections::BTreeMap<String, u16>,
        game: &Game,
        names: &Declared,
    ) -> Placement {
        let mut out = Vec::new();
        for (zone, count) in quotas {
            match names.zones.get(zone).filter(|&z| z < game.zones.len()) {
                Some(z) => out.push((z, *count)),
                None => self.report(|c| {
                    let hint = suggest(zone, game.zones.iter().map(|z| z.name.as_str()));
                    DataError {
                        file: c.path.to_string(),
                        at: c
                            .outline
                            .and_then(|o| o.find_at(["phases", name, "quotas", zone.as_str()])),
                        message: format!(
                            "phase '{name}' places into unknown zone '{zone}': {hint}"
                        ),
                    }
                }),
            }
        }
        if out.len() > 64 {
            self.err_at(
                &format!("phases.{name}.quotas"),
                format!("phase '{name}' has {} quotas; at most 64", out.len()),
            );
            out.truncate(64);
        }
        let total: u32 = out.iter().map(|(_, c)| u32::from(*c)).sum();
        let reserve: u32 = game.kinds.iter().map(|k| u32::from(k.count)).sum();
        if total != reserve {
            self.err_at(&format!("phases.{name}.quotas"), format!(
                "phase '{name}': the quotas place {total} pieces but each player has {reserve} in reserve; make them equal"
            ));
        }
        Placement::new(out, &game.zones, game.players.len())
    }

    /// The distinct movement patterns of a phase (its own first) and the
    /// pattern of each kind: kinds that move alike share one.
    fn patterns<'f>(
        &mut self,
        phase: &str,
        movement: &'f MovementFile,
        file: &'f GameFile,
        game: &Game,
    ) -> (Vec<&'f MovementFile>, Vec<usize>) {
        let mut patterns = vec![movement];
        let mut kind_reach = vec![0; game.kinds.len()];
        let kinds = file.pieces.kinds.iter().take(game.kinds.len());
        for (k, (kind_name, kind)) in kinds.enumerate() {
            let Some(m) = &kind.movement else { continue };
            kind_reach[k] = match patterns.iter().position(|p| *p == m) {
                Some(known) => known,
                None if patterns.len() < MAX_PATTERNS => {
                    patterns.push(m);
                    patterns.len() - 1
                }
                None => {
                    self.err_at(
                        &format!("pieces.kinds.{kind_name}.movement"),
                        format!(
                            "phase '{phase}': more than {MAX_PATTERNS} different movement patterns"
                        ),
                    );
                    0
                }
            };
        }
        (patterns, kind_reach)
    }

    /// Whether the movement lists of `patterns` patterns fit in memory;
    /// reports the space that makes them too wide if not.
    fn reach_fits(&mut self, patterns: usize, game: &Game) -> bool {
        let board = &game.board;
        let Some((widest, space)) = board.ids().map(|s| (board.edges(s).len(), s)).max() else {
            return true;
        };
        if widest > usize::from(u16::MAX) {
            // A space's movement list counts its entries in 16 bits.
            self.err_at(
                "board.connections",
                format!(
                    "space '{}' has {widest} connections: at most {}",
                    board.name(space),
                    u16::MAX
                ),
            );
            return false;
        }
        let entries = widest * board.len() * game.players.len() * patterns;
        if entries <= MAX_REACH_ENTRIES {
            return true;
        }
        self.err_at(
            "board.connections",
            format!(
                "space '{}' has {widest} connections on a board of {} spaces: the movement lists would hold {entries} entries, at most {MAX_REACH_ENTRIES}",
                board.name(space),
                board.len()
            ),
        );
        false
    }

    fn reach(&mut self, phase: &str, m: &MovementFile, game: &Game) -> Reach {
        let board = &game.board;
        let enters: Option<Vec<u8>> = m.enters.as_ref().map(|ks| {
            ks.iter()
                .filter_map(|k| board.space_kind_index(k))
                .collect()
        });
        let edges: Option<Vec<u8>> = m.edges.as_ref().map(|ks| {
            ks.iter()
                .filter_map(|k| {
                    let found = board.edge_kind_index(k);
                    if found.is_none() {
                        self.err_at(
                            &format!("phases.{phase}.movement.edges"),
                            format!("phase '{phase}': movement crosses unknown edge kind '{k}'"),
                        );
                    }
                    found
                })
                .collect()
        });
        if m.steps == 0 {
            self.err_at(
                &format!("phases.{phase}.movement.steps"),
                format!("phase '{phase}': movement needs at least 1 step"),
            );
        }
        let next = game
            .players
            .iter()
            .map(|player| {
                board
                    .ids()
                    .map(|from| {
                        board
                            .edges(from)
                            .iter()
                            .filter(|e| {
                                enters
                                    .as_ref()
                                    .is_none_or(|ks| ks.contains(&board.space(e.to).kind))
                            })
                            .filter(|e| edges.as_ref().is_none_or(|ks| ks.contains(&e.kind)))
                            .filter(|e| {
                                direction_allowed(m.directions.as_deref(), player.home, e.dir)
                            })
                            .map(|e| e.to)
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Reach::new(m.steps.max(1), next)
    }

    /// The attack results, attacker by defender. A complete table is
    /// written out cell by cell, so building it is linear in the file; an
    /// incomplete one is reported, not built.
    fn combat_table(&mut self, name: &Ref, game: &Game) -> Option<Vec<Vec<CombatEntry>>> {
        let Some(table) = game.tables.get(&name.value) else {
            self.report(|c| {
                let hint = suggest(&name.value, game.tables.keys().map(String::as_str));
                let message = format!("unknown table '{}': {hint}", name.value);
                DataError::at(c.path, name, message)
            });
            return None;
        };
        let mut out = Vec::new();
        for attacker in &game.kinds {
            let row_path = format!("tables.{}.{}", name.value, attacker.name);
            let Some(row) = table.get(&attacker.name).and_then(Json::as_object) else {
                self.err_at(&row_path, format!("{row_path} is missing: every attacker needs a row with a result against every defender"));
                continue;
            };
            let mut entries = Vec::with_capacity(game.kinds.len());
            for defender in &game.kinds {
                let cell = format!("{row_path}.{}", defender.name);
                match row.get(&defender.name).map(combat_entry) {
                    Some(Ok(e)) => entries.push(e),
                    Some(Err(e)) => self.err_at(&cell, format!("{cell}: {e}")),
                    None => self.err_at(&row_path, format!("{cell} is missing: every attacker needs a result against every defender")),
                }
                if self.unreported > 0 {
                    return None;
                }
            }
            out.push(entries);
        }
        (out.len() == game.kinds.len() && out.iter().all(|r| r.len() == game.kinds.len()))
            .then_some(out)
    }
}

fn combat_entry(v: &Json) -> Result<CombatEntry, String> {
    let resolved = |v: &Json| -> Result<Resolved, String> {
        serde_json::from_value(v.clone())
            .map_err(|_| format!("'{v}' is not a result: use win, bounce, lose or both"))
    };
    match v {
        Json::String(_) => resolved(v).map(CombatEntry::Fixed),
        Json::Object(m) if m.len() == 1 && m.contains_key("coin") => {
            match m["coin"].as_array().map(Vec::as_slice) {
                Some([a, b]) => Ok(CombatEntry::Coin(resolved(a)?, resolved(b)?)),
                _ => Err(
                    "'coin' takes two results: [if the attacker's colour shows, otherwise]"
                        .to_string(),
                ),
            }
        }
        Json::Object(m) if m.len() == 1 && m.contains_key("script") => match &m["script"] {
            Json::String(f) => Ok(CombatEntry::Script(f.clone())),
            _ => Err("'script' takes the name of a rule function".to_string()),
        },
        _ => Err(format!(
            "'{v}' is not a result: use win, bounce, lose, both, {{coin: [a, b]}} or {{script: name}}"
        )),
    }
}

fn direction_allowed(allowed: Option<&[RelDir]>, home: Option<Dir>, dir: Option<Dir>) -> bool {
    let (Some(allowed), Some(home), Some(dir)) = (allowed, home, dir) else {
        return true;
    };
    let rel = if dir == home {
        RelDir::Backward
    } else if dir == home.opposite() {
        RelDir::Forward
    } else {
        RelDir::Sideways
    };
    allowed.contains(&rel)
}
