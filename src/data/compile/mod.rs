//! Turns a raw [`GameFile`] into a validated [`Game`]: every reference
//! resolved, every table complete, every problem reported at once.
//!
//! Compiling stays near-linear in the file's size whatever the file holds
//! (packages come from other people): names are looked up in hash maps,
//! "did you mean" hints and positions are worked out only for the
//! problems reported, and every structure whose size is a product (zones
//! by spaces, attackers by defenders, movement lists by neighbours) is
//! bounded or built only from what the file writes out.

mod board;
mod names;
mod phases;

pub use board::rank_of;

use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::{GameFile, Ref};
use crate::data::locate::{Outline, Place, place_in_game};
use crate::data::schema::MAX_PROBLEMS;
use crate::kernel::game::*;
use crate::kernel::piece::{BUILTIN_POOLS, KindId, Location, MAX_PLAYERS, PlayerId, RESERVE};
use crate::untrusted::echo;
use names::Names;
use std::collections::{HashMap, HashSet};

/// The most pieces a game may hold (piece ids are 16-bit).
const MAX_PIECES: usize = u16::MAX as usize - 1;

/// The most piece kinds, and the most phases (their ids are 16-bit).
const MAX_KINDS: usize = u16::MAX as usize;
const MAX_PHASES: usize = u16::MAX as usize;

/// The most random decisions a package may ask a search's playout for.
const MAX_SEARCH_PLAYOUT: u32 = 1000;

/// Compiles a game file. `path` names the file in errors; `enabled` lists
/// the optional rules switched on.
/// `outline`, when given, places errors found by path (a table cell, a
/// quota) at their line and column in the file; an error at a path that
/// a scenario's `overrides` wrote is placed in that scenario file.
pub fn compile(
    file: &GameFile,
    path: &str,
    outline: Option<&Outline>,
    overrides: &[(String, Outline)],
    enabled: &[String],
) -> Result<Game, DataErrors> {
    let mut c = Compiler {
        path,
        outline,
        overrides,
        errors: Vec::new(),
        unreported: 0,
    };
    let players = c.players(file);
    let board = c.board(file);
    let kinds: Vec<KindDef> = c.kinds(file);
    let (pools, pool_labels) = c.pools(file);
    let mut game = Game {
        id: file.id.clone(),
        title: file.title.clone(),
        summary: file.summary.clone(),
        move_help: file.move_help.clone(),
        first_player: FirstPlayer::Coin,
        players,
        board,
        kinds,
        pools,
        pool_labels,
        start: Vec::new(),
        hidden: file.pieces.hidden,
        private_attrs: file.pieces.private_attrs.clone(),
        shown_attrs: file
            .pieces
            .shown_attrs
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        zones: Vec::new(),
        phases: Vec::new(),
        flow: Vec::new(),
        victory: Victory::default(),
        tables: file.tables.clone().into_iter().collect(),
        dice_tables: Vec::new(),
        options: Vec::new(),
        vars: file.vars.clone(),
        public_player_vars: file.public_player_vars.clone(),
        secrets: Secrets::default(),
        max_plies: c.max_plies(file.max_plies),
        search_playout: None,
    };
    game.dice_tables = c.dice_tables(&game.tables);
    game.search_playout = c.search_playout(&game.tables);
    game.first_player = c.first_player(file, &game);
    game.zones = c.zones(file, &game);
    let names = Declared {
        kinds: Names::any_case(game.kinds.iter().map(|k| k.name.as_str())),
        pools: Names::exact(game.pools.iter().map(String::as_str)),
        zones: Names::exact(game.zones.iter().map(|z| z.name.as_str())),
        phases: Names::exact(file.phases.keys().map(String::as_str)),
    };
    game.start = c.start_pieces(file, &game, &names);
    let phases = c.fit("phases", "phases", file.phases.len(), MAX_PHASES);
    game.phases = file
        .phases
        .iter()
        .take(phases)
        .map(|(name, p)| Phase {
            name: name.clone(),
            label: label_or_id(p.name(), name),
            kind: c.phase(file, name, p, &game, &names),
        })
        .collect();
    game.flow = file
        .flow
        .iter()
        .filter_map(|r| c.phase_ref(r, file, &names, phases))
        .collect();
    if game.flow.is_empty() && c.errors.is_empty() {
        c.err_at(
            "flow",
            "the flow lists no phase: add at least one phase name under 'flow'",
        );
    }
    game.secrets = c.secrets(file, &names, phases);
    game.victory = c.victory(file, &names);
    game.options = c.options(file, enabled);
    c.finish(game)
}

impl Compiler<'_> {
    /// game.yaml's `secrets`: its phases found, and no variable both
    /// public and private.
    fn secrets(&mut self, file: &GameFile, names: &Declared, phases: usize) -> Secrets {
        let declared = &file.secrets;
        for name in &declared.player_vars {
            if file.public_player_vars.contains(name) {
                self.err_at(
                    "secrets",
                    format!(
                        "player variable '{name}' is listed both in public_player_vars and in \
                         secrets.player_vars: keep it in one (public: every player sees it)"
                    ),
                );
            }
        }
        let frame_contexts = declared
            .frame_contexts
            .iter()
            .filter_map(|r| self.phase_ref(r, file, names, phases))
            .collect();
        Secrets {
            player_vars: declared.player_vars.clone(),
            frame_contexts,
            hidden_kinds: declared.hidden_kinds,
        }
    }

    /// A phase named by reference, among the first `phases` compiled.
    fn phase_ref(
        &mut self,
        r: &Ref,
        file: &GameFile,
        names: &Declared,
        phases: usize,
    ) -> Option<u16> {
        let found = names.phases.get(&r.value).filter(|&i| i < phases);
        let found = found.map(|i| i as u16);
        self.lookup(r, "phase", found, file.phases.keys().map(String::as_str))
    }
}

/// Everything the file declares by name, for references to it.
struct Declared {
    kinds: Names,
    pools: Names,
    zones: Names,
    phases: Names,
}

struct Compiler<'a> {
    path: &'a str,
    outline: Option<&'a Outline>,
    overrides: &'a [(String, Outline)],
    errors: Vec<DataError>,
    /// Problems found past [`MAX_PROBLEMS`]: counted, not worded.
    unreported: usize,
}

impl Compiler<'_> {
    fn finish(mut self, game: Game) -> Result<Game, DataErrors> {
        if self.unreported > 0 {
            let message = format!("... and {} more problems: fix these first", self.unreported);
            self.errors.push(DataError::new(self.path, message));
        }
        if self.errors.is_empty() {
            Ok(game)
        } else {
            Err(DataErrors(self.errors))
        }
    }

    /// Records a problem, building its error (hint, position) only if it
    /// is among the first [`MAX_PROBLEMS`] reported.
    fn report(&mut self, error: impl FnOnce(&Self) -> DataError) {
        if self.errors.len() < MAX_PROBLEMS {
            let e = error(self);
            self.errors.push(e);
        } else {
            self.unreported += 1;
        }
    }

    /// How many of the `count` things a file declares get an id, when ids
    /// are numbers below `max` (a byte or 16 bits): reports it when the
    /// file declares more, so that none gets an id that wraps onto
    /// another's (space 65,536 would be space 0 again).
    fn fit(&mut self, path: &str, what: &str, count: usize, max: usize) -> usize {
        if count > max {
            self.err_at(path, format!("{count} {what}: at most {max}"));
        }
        count.min(max)
    }

    fn err(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.report(|c| DataError::new(c.path, message));
    }

    /// An error about the value at a dotted path of the data.
    fn err_at(&mut self, path: &str, message: impl Into<String>) {
        let message = message.into();
        self.report(|c| {
            let path: Vec<&str> = path.split('.').collect();
            let (file, at) = c.place(&path);
            DataError { file, at, message }
        });
    }

    /// Where a scenario's overrides write a name, for a reference that
    /// lost its position when the overrides were merged into the data: a
    /// name no declaration matches is most likely the one the scenario
    /// misspelt.
    fn overridden_name(&self, name: &str) -> Option<(String, (u64, u64))> {
        self.overrides
            .iter()
            .rev()
            .find_map(|(file, o)| o.find_text(name).map(|at| (file.clone(), at)))
    }

    /// Where a path of the data (key by key) was written.
    fn place(&self, path: &[&str]) -> Place {
        place_in_game(self.path, self.outline, self.overrides, path)
    }

    /// Resolves a reference, or records an error placed where it was
    /// written, with the closest known name.
    fn lookup<'k, T>(
        &mut self,
        r: &Ref,
        what: &str,
        found: Option<T>,
        known: impl IntoIterator<Item = &'k str>,
    ) -> Option<T> {
        if found.is_none() {
            self.report(|c| {
                let hint = suggest(&r.value, known);
                let message = format!("unknown {what} '{}': {hint}", echo(&r.value));
                match c.overridden_name(&r.value) {
                    Some((file, at)) if r.referenced.line() == 0 => DataError {
                        file,
                        at: Some(at),
                        message,
                    },
                    _ => DataError::at(c.path, r, message),
                }
            });
        }
        found
    }

    /// The tables written as dice tables, compiled to native lookups.
    fn dice_tables(
        &mut self,
        tables: &serde_json::Map<String, serde_json::Value>,
    ) -> Vec<crate::kernel::dice_table::DiceTable> {
        let mut compiled = Vec::new();
        for (name, table) in tables {
            match crate::kernel::dice_table::DiceTable::compile(name, table) {
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

    /// `tables.search.playout`, the search bot's playout length: a whole
    /// number up to [`MAX_SEARCH_PLAYOUT`], checked here so that `check`
    /// reports a bad one at its line rather than the first search failing.
    fn search_playout(
        &mut self,
        tables: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<u32> {
        let value = tables.get("search")?.get("playout")?;
        match value.as_u64() {
            Some(n) if n <= u64::from(MAX_SEARCH_PLAYOUT) => Some(n as u32),
            _ => {
                let value = value.to_string();
                self.err_at(
                    "tables.search.playout",
                    format!(
                        "tables.search.playout is {}: write how many random decisions a \
                         search bot's playout makes before rules.evaluate scores it, a whole \
                         number from 0 to {MAX_SEARCH_PLAYOUT}",
                        echo(&value)
                    ),
                );
                None
            }
        }
    }

    /// `max_plies`, refused above [`MAX_PLIES`].
    fn max_plies(&mut self, max_plies: u32) -> u32 {
        if max_plies > MAX_PLIES {
            self.err_at(
                "max_plies",
                format!(
                    "max_plies is {max_plies}; at most {MAX_PLIES} actions a game \
                     (a game still running after that many is a rule that never ends)"
                ),
            );
        }
        max_plies.min(MAX_PLIES)
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
        let mut seen = HashSet::new();
        let mut out: Vec<PlayerDef> = Vec::new();
        for (i, p) in file.players.iter().take(MAX_PLAYERS).enumerate() {
            let id = p.id.to_ascii_lowercase();
            if !seen.insert(id.clone()) {
                self.err_at(
                    &format!("players.{i}.id"),
                    format!("player '{id}' is listed twice: player ids must differ"),
                );
            }
            let name = p.name.clone().unwrap_or_else(|| capitalised(&id));
            let colour = self.colour(&format!("players.{i}.colour"), p.colour.as_deref());
            out.push(PlayerDef {
                id,
                name,
                home: p.home,
                colour,
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

    fn kinds(&mut self, file: &GameFile) -> Vec<KindDef> {
        let kinds = &file.pieces.kinds;
        let fit = self.fit("pieces.kinds", "piece kinds", kinds.len(), MAX_KINDS);
        kinds
            .iter()
            .take(fit)
            .map(|(name, k)| KindDef {
                name: name.clone(),
                label: label_or_id(k.name.as_deref(), name),
                short: k
                    .short
                    .clone()
                    .unwrap_or_else(|| name.chars().take(1).collect()),
                count: k.count,
                attrs: k.attrs.clone(),
                colour: self.colour(&format!("pieces.kinds.{name}.colour"), k.colour.as_deref()),
            })
            .collect()
    }

    /// A `colour:` key's value, or an error at its line.
    fn colour(&mut self, path: &str, written: Option<&str>) -> Option<Colour> {
        Colour::parse(written?)
            .map_err(|e| self.err_at(path, format!("{path}: {e}")))
            .ok()
    }

    /// The pools' ids and the names screens give them.
    fn pools(&mut self, file: &GameFile) -> (Vec<String>, Vec<String>) {
        let max = usize::from(u8::MAX) + 1 - BUILTIN_POOLS.len();
        let fit = self.fit("pools", "pools", file.pools.len(), max);
        BUILTIN_POOLS
            .iter()
            .map(|&s| (s.to_string(), label_or_id(None, s)))
            .chain(
                file.pools
                    .iter()
                    .take(fit)
                    .map(|p| (p.id().to_string(), label_or_id(p.name(), p.id()))),
            )
            .unzip()
    }

    fn start_pieces(&mut self, file: &GameFile, game: &Game, names: &Declared) -> Vec<StartPiece> {
        // Count first: a few lines of YAML can ask for billions of pieces.
        let in_reserve: usize = game.kinds.iter().map(|k| usize::from(k.count)).sum();
        let set_up: usize = file.pieces.setup.iter().map(|s| usize::from(s.count)).sum();
        let total = in_reserve.saturating_mul(game.players.len()) + set_up;
        if total > MAX_PIECES {
            self.err(format!("too many pieces: {total}; at most {MAX_PIECES}"));
            return Vec::new();
        }
        let mut start = Vec::with_capacity(total);
        for p in 0..game.players.len() {
            for (k, kind) in game.kinds.iter().enumerate() {
                start.extend((0..kind.count).map(|_| StartPiece {
                    owner: Some(PlayerId(p as u8)),
                    kind: KindId(k as u16),
                    at: Location::Pool(RESERVE),
                }));
            }
        }
        for s in &file.pieces.setup {
            let kind = self.lookup(
                &s.kind,
                "piece kind",
                names.kinds.get(&s.kind.value).map(|k| KindId(k as u16)),
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
                .or_else(|| {
                    let pool = names.pools.get(&s.at.value);
                    pool.map(|i| Location::Pool(crate::kernel::piece::PoolId(i as u8)))
                });
            let places = game
                .board
                .ids()
                .map(|i| game.board.name(i))
                .chain(game.pools.iter().map(String::as_str));
            let at = self.lookup(&s.at, "space or pool", at, places);
            if let (Some(kind), Some(owner), Some(at)) = (kind, owner, at) {
                start.extend((0..s.count).map(|_| StartPiece { owner, kind, at }));
            }
        }
        start
    }

    fn victory(&mut self, file: &GameFile, names: &Declared) -> Victory {
        let v = &file.victory;
        let kinds = || file.pieces.kinds.keys().map(String::as_str);
        let kind = |r: &Ref| names.kinds.get(&r.value).map(|k| KindId(k as u16));
        let reach = v.reach.as_ref().and_then(|r| {
            let kind = self.lookup(&r.kind, "piece kind", kind(&r.kind), kinds());
            let zone = self.lookup(
                &r.zone,
                "zone",
                names.zones.get(&r.zone.value),
                file.zones.keys().map(String::as_str),
            );
            Some((kind?, zone?))
        });
        let last_with = v
            .last_with
            .as_ref()
            .and_then(|k| self.lookup(k, "piece kind", kind(k), kinds()));
        Victory {
            reach,
            last_with,
            repetition: v
                .repetition
                .as_ref()
                .map(|r| (r.count.max(2), r.script.clone())),
        }
    }

    /// The optional rules, by number. Ids and numbers must be unique: a
    /// scenario or `--option` names a rule by id, and overlays run in
    /// number order.
    fn options(&mut self, file: &GameFile, enabled: &[String]) -> Vec<OptionDef> {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut numbers: HashMap<u32, usize> = HashMap::new();
        for (i, o) in file.options.iter().enumerate() {
            if let Some(first) = ids.insert(&o.id, i) {
                self.err_at(
                    &format!("options.{i}.id"),
                    format!(
                        "optional rule id '{}' is also the id of option {}: ids must differ",
                        o.id,
                        first + 1
                    ),
                );
            }
            if let Some(first) = numbers.insert(o.number, i) {
                self.err_at(
                    &format!("options.{i}.number"),
                    format!(
                        "optional rule number {} is also the number of '{}': numbers must differ",
                        o.number, file.options[first].id
                    ),
                );
            }
        }
        for id in enabled {
            if !ids.contains_key(id.as_str()) {
                let hint = suggest(id, file.options.iter().map(|o| o.id.as_str()));
                self.err(format!("unknown optional rule '{}': {hint}", echo(id)));
            }
        }
        let enabled: HashSet<&str> = enabled.iter().map(String::as_str).collect();
        let mut options: Vec<OptionDef> = file
            .options
            .iter()
            .map(|o| OptionDef {
                id: o.id.clone(),
                number: o.number,
                title: o.title.clone(),
                description: o.description.clone(),
                script: o.script.clone(),
                enabled: enabled.contains(o.id.as_str()),
            })
            .collect();
        options.sort_by_key(|o| o.number);
        options
    }
}

fn capitalised(id: &str) -> String {
    let mut c = id.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
