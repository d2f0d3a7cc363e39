//! Turns a raw [`GameFile`] into a validated [`Game`]: every reference
//! resolved, every table complete, every problem reported at once.

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::{GameFile, MovementFile, PhaseFile, Ref, RelDir};
use crate::data::locate::Outline;
use crate::kernel::board::{Board, Dir, GridSize, SpaceId};
use crate::kernel::dice_table::DiceTable;
use crate::kernel::event::Resolved;
use crate::kernel::game::*;
use crate::kernel::piece::{BUILTIN_POOLS, KindId, Location, MAX_PLAYERS, PlayerId, RESERVE};
use serde_json::Value as Json;

/// Compiles a game file. `path` names the file in errors; `enabled` lists
/// the optional rules switched on.
/// `outline`, when given, places errors found by path (a table cell, a
/// quota) at their line and column in the file.
pub fn compile(
    file: &GameFile,
    path: &str,
    outline: Option<&Outline>,
    enabled: &[String],
) -> Result<Game, DataErrors> {
    let mut c = Compiler {
        path,
        outline,
        errors: Vec::new(),
    };
    let players = c.players(file);
    let board = c.board(file);
    let kinds: Vec<KindDef> = file
        .pieces
        .kinds
        .iter()
        .map(|(name, k)| KindDef {
            name: name.clone(),
            short: k
                .short
                .clone()
                .unwrap_or_else(|| name.chars().take(1).collect()),
            count: k.count,
            attrs: k.attrs.clone(),
        })
        .collect();
    let mut game = Game {
        id: file.id.clone(),
        title: file.title.clone(),
        summary: file.summary.clone(),
        first_player: FirstPlayer::Coin,
        players,
        board,
        kinds,
        pools: BUILTIN_POOLS
            .iter()
            .map(|s| s.to_string())
            .chain(file.pools.iter().cloned())
            .collect(),
        start: Vec::new(),
        hidden: file.pieces.hidden,
        zones: Vec::new(),
        phases: Vec::new(),
        flow: Vec::new(),
        victory: Victory::default(),
        tables: file.tables.clone().into_iter().collect(),
        dice_tables: Vec::new(),
        options: Vec::new(),
        vars: file.vars.clone(),
        max_plies: file.max_plies,
    };
    game.dice_tables = c.dice_tables(&game.tables);
    game.first_player = c.first_player(file, &game);
    game.zones = c.zones(file, &game);
    game.start = c.start_pieces(file, &game);
    game.phases = file
        .phases
        .iter()
        .map(|(name, p)| Phase {
            name: name.clone(),
            kind: c.phase(file, name, p, &game),
        })
        .collect();
    game.flow = file
        .flow
        .iter()
        .filter_map(|r| {
            c.lookup(
                r,
                "phase",
                game.phase_index(&r.value),
                game.phases.iter().map(|p| p.name.as_str()),
            )
        })
        .collect();
    if game.flow.is_empty() && c.errors.is_empty() {
        c.err_at(
            "flow",
            "the flow lists no phase: add at least one phase name under 'flow'",
        );
    }
    game.victory = c.victory(file, &game);
    game.options = c.options(file, enabled);
    if c.errors.is_empty() {
        Ok(game)
    } else {
        Err(DataErrors(c.errors))
    }
}

struct Compiler<'a> {
    path: &'a str,
    outline: Option<&'a Outline>,
    errors: Vec<DataError>,
}

impl Compiler<'_> {
    fn err(&mut self, message: impl Into<String>) {
        self.errors.push(DataError::new(self.path, message));
    }

    /// The tables written as dice tables, compiled to native lookups.
    fn dice_tables(&mut self, tables: &serde_json::Map<String, Json>) -> Vec<DiceTable> {
        let mut compiled = Vec::new();
        for (name, table) in tables {
            match DiceTable::compile(name, table) {
                Ok(Some(t)) => compiled.push(t),
                Ok(None) => {}
                Err(problems) => {
                    for p in problems {
                        self.err_at(&p.path, p.message);
                    }
                }
            }
        }
        compiled
    }

    /// An error about the value at a dotted path of the file.
    fn err_at(&mut self, path: &str, message: impl Into<String>) {
        let mut e = DataError::new(self.path, message);
        e.at = self.outline.and_then(|o| o.find(path));
        self.errors.push(e);
    }

    /// Resolves a reference, or records an error placed where it was written.
    fn lookup<'k, T>(
        &mut self,
        r: &Ref,
        what: &str,
        found: Option<T>,
        known: impl IntoIterator<Item = &'k str>,
    ) -> Option<T> {
        if found.is_none() {
            let hint = suggest(&r.value, known);
            self.errors.push(DataError::at(
                self.path,
                r,
                format!("unknown {what} '{}': {hint}", r.value),
            ));
        }
        found
    }

    fn players(&mut self, file: &GameFile) -> Vec<PlayerDef> {
        if file.players.is_empty() || file.players.len() > MAX_PLAYERS {
            self.err_at(
                "players",
                format!(
                    "a game needs 1 to {MAX_PLAYERS} players; this one lists {}",
                    file.players.len()
                ),
            );
        }
        let mut out: Vec<PlayerDef> = Vec::new();
        for p in &file.players {
            let id = p.id.to_ascii_lowercase();
            if out.iter().any(|o| o.id == id) {
                self.err_at(
                    "players",
                    format!("player '{id}' is listed twice: player ids must differ"),
                );
            }
            let name = p.name.clone().unwrap_or_else(|| capitalised(&id));
            out.push(PlayerDef {
                id,
                name,
                home: p.home,
            });
        }
        out
    }

    fn first_player(&mut self, file: &GameFile, game: &Game) -> FirstPlayer {
        match file.first_player.as_str() {
            "coin" | "random" => FirstPlayer::Coin,
            id => game
                .player_index(id)
                .map(FirstPlayer::Fixed)
                .unwrap_or_else(|| {
                    self.err_at(
                        "first_player",
                        format!("first_player '{id}' is neither 'coin' nor a player id"),
                    );
                    FirstPlayer::Coin
                }),
        }
    }

    fn board(&mut self, file: &GameFile) -> Board {
        let b = &file.board;
        let mut board = match &b.grid {
            Some(g) if g.columns == 0 || g.rows == 0 || g.columns > 26 => {
                self.err_at(
                    "board.grid",
                    "board.grid needs 1 to 26 columns and at least 1 row",
                );
                Board::areas()
            }
            Some(g) => Board::grid(
                GridSize {
                    columns: g.columns,
                    rows: g.rows,
                },
                &g.kind,
            ),
            None => Board::areas(),
        };
        for s in &b.spaces {
            if board.find(&s.name).is_some() {
                self.err_at(
                    "board.spaces",
                    format!("board space '{}' is declared twice", s.name),
                );
                continue;
            }
            let id = board.add_space(&s.name, &s.kind);
            let space = board.space_mut(id);
            space.tags = s.tags.clone();
            space.region = s.region.clone();
            space.xy = s.xy;
            space.attrs = s.attrs.clone();
        }
        for (name, kind) in &b.terrain {
            match board.find(name) {
                Some(id) => board.set_space_kind(id, kind),
                None => {
                    let hint =
                        suggest(name, board.ids().map(|i| board.name(i)).collect::<Vec<_>>());
                    self.err_at(
                        &format!("board.terrain.{name}"),
                        format!("board.terrain names unknown space '{name}': {hint}"),
                    );
                }
            }
        }
        for c in &b.connections {
            let names: Vec<String> = board.ids().map(|i| board.name(i).to_string()).collect();
            let from = self.lookup(
                &c.from,
                "space",
                board.find(&c.from.value),
                names.iter().map(String::as_str),
            );
            let to = self.lookup(
                &c.to,
                "space",
                board.find(&c.to.value),
                names.iter().map(String::as_str),
            );
            if let (Some(a), Some(z)) = (from, to) {
                board.connect(a, z, &c.kind);
            }
        }
        board
    }

    fn zones(&mut self, file: &GameFile, game: &Game) -> Vec<Zone> {
        let n = game.board.len();
        let mut zones = Vec::new();
        for (name, z) in &file.zones {
            let mut members = vec![vec![false; n]; game.players.len()];
            for (p, def) in game.players.iter().enumerate() {
                for &rank in &z.ranks {
                    match (game.board.grid_size(), def.home) {
                        (Some(size), Some(home)) => {
                            for id in game.board.ids() {
                                if rank_of(&game.board, size, home, id) == Some(rank) {
                                    members[p][id.0 as usize] = true;
                                }
                            }
                        }
                        _ => self.err_at(&format!("zones.{name}.ranks"), format!("zone '{name}' uses ranks, which need a grid board and a 'home' edge for player '{}'", def.id)),
                    }
                }
                for r in &z.spaces {
                    let found = game.board.find(&r.value);
                    if p == 0 {
                        let names: Vec<&str> =
                            game.board.ids().map(|i| game.board.name(i)).collect();
                        self.lookup(r, "space", found, names);
                    }
                    if let Some(id) = found {
                        members[p][id.0 as usize] = true;
                    }
                }
            }
            zones.push(Zone::new(name.clone(), members));
        }
        zones
    }

    fn start_pieces(&mut self, file: &GameFile, game: &Game) -> Vec<StartPiece> {
        let mut start = Vec::new();
        for p in 0..game.players.len() {
            for (k, kind) in game.kinds.iter().enumerate() {
                for _ in 0..kind.count {
                    start.push(StartPiece {
                        owner: Some(PlayerId(p as u8)),
                        kind: KindId(k as u16),
                        at: Location::Pool(RESERVE),
                    });
                }
            }
        }
        for s in &file.pieces.setup {
            let kind = self.lookup(
                &s.kind,
                "piece kind",
                game.kind_index(&s.kind.value),
                game.kinds.iter().map(|k| k.name.as_str()),
            );
            let owner = match &s.owner {
                Some(o) => self
                    .lookup(
                        o,
                        "player",
                        game.player_index(&o.value),
                        game.players.iter().map(|p| p.id.as_str()),
                    )
                    .map(Some),
                None => Some(None),
            };
            let at = game
                .board
                .find(&s.at.value)
                .map(Location::Space)
                .or_else(|| game.pool_index(&s.at.value).map(Location::Pool));
            let places: Vec<&str> = game
                .board
                .ids()
                .map(|i| game.board.name(i))
                .chain(game.pools.iter().map(String::as_str))
                .collect();
            let at = self.lookup(&s.at, "space or pool", at, places);
            if let (Some(kind), Some(owner), Some(at)) = (kind, owner, at) {
                start.extend((0..s.count).map(|_| StartPiece { owner, kind, at }));
            }
        }
        if start.len() > usize::from(u16::MAX - 1) {
            self.err("too many pieces: at most 65534");
        }
        start
    }

    fn phase(&mut self, file: &GameFile, name: &str, p: &PhaseFile, game: &Game) -> PhaseKind {
        match p {
            PhaseFile::Placement { quotas } => {
                let mut out = Vec::new();
                for (zone, count) in quotas {
                    match game.zone_index(zone) {
                        Some(z) => out.push((z, *count)),
                        None => {
                            let hint = suggest(zone, game.zones.iter().map(|z| z.name.as_str()));
                            self.err_at(
                                &format!("phases.{name}.quotas.{zone}"),
                                format!("phase '{name}' places into unknown zone '{zone}': {hint}"),
                            );
                        }
                    }
                }
                if out.len() > 64 {
                    self.err_at(
                        &format!("phases.{name}.quotas"),
                        format!("phase '{name}' has {} quotas; at most 64", out.len()),
                    );
                }
                let total: u32 = out.iter().map(|(_, c)| u32::from(*c)).sum();
                let reserve: u32 = game.kinds.iter().map(|k| u32::from(k.count)).sum();
                if total != reserve {
                    self.err_at(&format!("phases.{name}.quotas"), format!(
                        "phase '{name}': the quotas place {total} pieces but each player has {reserve} in reserve; make them equal"
                    ));
                }
                PhaseKind::Placement(Placement::new(out, &game.zones, game.players.len()))
            }
            PhaseFile::Movement {
                movement,
                combat,
                reveal_on_attack,
                specials,
            } => {
                let mut reaches = vec![self.reach(name, movement, game)];
                let mut kind_reach = vec![0; game.kinds.len()];
                for (k, kind) in file.pieces.kinds.values().enumerate() {
                    if let Some(m) = &kind.movement {
                        kind_reach[k] = reaches.len();
                        reaches.push(self.reach(name, m, game));
                    }
                }
                let combat = combat.as_ref().and_then(|t| self.combat_table(t, game));
                let specials = specials
                    .iter()
                    .filter_map(|s| {
                        let zone = self.lookup(
                            &s.zone,
                            "zone",
                            game.zone_index(&s.zone.value),
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

    fn combat_table(&mut self, name: &Ref, game: &Game) -> Option<Vec<Vec<CombatEntry>>> {
        let Some(table) = game.tables.get(&name.value) else {
            let hint = suggest(&name.value, game.tables.keys().map(String::as_str));
            self.errors.push(DataError::at(
                self.path,
                name,
                format!("unknown table '{}': {hint}", name.value),
            ));
            return None;
        };
        let mut out = Vec::new();
        for attacker in &game.kinds {
            let mut row = Vec::new();
            for defender in &game.kinds {
                let cell = table
                    .get(&attacker.name)
                    .and_then(|r| r.get(&defender.name));
                let where_ = format!("tables.{}.{}.{}", name.value, attacker.name, defender.name);
                match cell.map(combat_entry) {
                    Some(Ok(e)) => row.push(e),
                    Some(Err(e)) => {
                        self.err_at(&where_, format!("{where_}: {e}"));
                        row.push(CombatEntry::Fixed(Resolved::Bounce));
                    }
                    None => {
                        self.err_at(&format!("tables.{}.{}", name.value, attacker.name), format!("{where_} is missing: every attacker needs a result against every defender"));
                        row.push(CombatEntry::Fixed(Resolved::Bounce));
                    }
                }
            }
            out.push(row);
        }
        Some(out)
    }

    fn victory(&mut self, file: &GameFile, game: &Game) -> Victory {
        let v = &file.victory;
        let kinds = || game.kinds.iter().map(|k| k.name.as_str());
        let reach = v.reach.as_ref().and_then(|r| {
            let kind = self.lookup(
                &r.kind,
                "piece kind",
                game.kind_index(&r.kind.value),
                kinds(),
            );
            let zone = self.lookup(
                &r.zone,
                "zone",
                game.zone_index(&r.zone.value),
                game.zones.iter().map(|z| z.name.as_str()),
            );
            Some((kind?, zone?))
        });
        let last_with = v
            .last_with
            .as_ref()
            .and_then(|k| self.lookup(k, "piece kind", game.kind_index(&k.value), kinds()));
        Victory {
            reach,
            last_with,
            repetition: v
                .repetition
                .as_ref()
                .map(|r| (r.count.max(2), r.script.clone())),
        }
    }

    fn options(&mut self, file: &GameFile, enabled: &[String]) -> Vec<OptionDef> {
        for id in enabled {
            if !file.options.iter().any(|o| &o.id == id) {
                let hint = suggest(id, file.options.iter().map(|o| o.id.as_str()));
                self.err(format!("unknown optional rule '{id}': {hint}"));
            }
        }
        let mut options: Vec<OptionDef> = file
            .options
            .iter()
            .map(|o| OptionDef {
                id: o.id.clone(),
                number: o.number,
                title: o.title.clone(),
                description: o.description.clone(),
                script: o.script.clone(),
                enabled: enabled.contains(&o.id),
            })
            .collect();
        options.sort_by_key(|o| o.number);
        options
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

/// A cell's rank seen from a player's home edge: 1 is the nearest row.
pub fn rank_of(board: &Board, size: GridSize, home: Dir, id: SpaceId) -> Option<u8> {
    let (col, row) = board.space(id).cell?;
    Some(match home {
        Dir::South => row + 1,
        Dir::North => size.rows - row,
        Dir::West => col + 1,
        Dir::East => size.columns - col,
    })
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

fn capitalised(id: &str) -> String {
    let mut c = id.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
