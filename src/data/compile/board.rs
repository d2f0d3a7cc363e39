//! Compiling the board and the zones on it.

use super::Compiler;
use crate::data::game_file::GameFile;
use crate::kernel::board::{ADJACENT, Board, Dir, GridSize, SpaceId};
use crate::kernel::game::{Game, Zone, label_or_id};
use std::collections::HashSet;

/// The most spaces a board may have (space ids are 16-bit).
const MAX_SPACES: usize = u16::MAX as usize;

/// The most space kinds, and the most edge kinds (each is a byte).
const MAX_KINDS: usize = u8::MAX as usize + 1;

/// The most zones: each holds a flag per player and space, so their
/// number is bounded, not only the file's size.
pub const MAX_ZONES: usize = 256;

impl Compiler<'_> {
    pub(super) fn board(&mut self, file: &GameFile) -> Board {
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
        let space_kinds = b.grid.iter().map(|g| g.kind.as_str());
        let space_kinds = space_kinds
            .chain(b.grids.values().map(|g| g.kind.as_str()))
            .chain(b.spaces.iter().map(|s| s.kind.as_str()))
            .chain(b.terrain.values().map(String::as_str));
        let one_kind = self.too_many_kinds("board.spaces", "space", space_kinds);
        self.named_grids(file, &mut board, one_kind);
        let declared = board.len() + b.spaces.len();
        let fit = self.fit("board.spaces", "spaces on the board", declared, MAX_SPACES);
        for (i, s) in b.spaces.iter().take(fit - board.len()).enumerate() {
            if board.find(&s.name).is_some() {
                self.err_at(
                    &format!("board.spaces.{i}.name"),
                    format!("board space '{}' is declared twice", s.name),
                );
                continue;
            }
            let id = board.add_space(&s.name, one_kind.unwrap_or(&s.kind));
            let space = board.space_mut(id);
            space.tags = s.tags.clone();
            space.region = s.region.clone();
            space.xy = s.xy;
            space.attrs = s.attrs.clone();
        }
        for (name, kind) in &b.terrain {
            match board.find(name) {
                Some(id) => board.set_space_kind(id, one_kind.unwrap_or(kind)),
                None => {
                    let names = board.ids().map(|i| board.name(i));
                    let hint = crate::data::error::suggest(name, names);
                    self.err_at(
                        &format!("board.terrain.{name}"),
                        format!("board.terrain names unknown space '{name}': {hint}"),
                    );
                }
            }
        }
        let edge_kinds = b.connections.iter().map(|c| c.kind.as_str());
        let edge_kinds = edge_kinds.chain(std::iter::once(ADJACENT));
        let one_edge_kind = self.too_many_kinds("board.connections", "edge", edge_kinds);
        for c in &b.connections {
            let names = || board.ids().map(|i| board.name(i));
            let from = self.lookup(&c.from, "space", board.find(&c.from.value), names());
            let to = self.lookup(&c.to, "space", board.find(&c.to.value), names());
            if let (Some(a), Some(z)) = (from, to) {
                board.connect(a, z, one_edge_kind.unwrap_or(&c.kind));
            }
        }
        board
    }

    /// The named grids beside the main one, each checked for its size and
    /// name, and for room on the board.
    fn named_grids(&mut self, file: &GameFile, board: &mut Board, one_kind: Option<&str>) {
        for (name, g) in &file.board.grids {
            let at = format!("board.grids.{name}");
            let cells = usize::from(g.columns) * usize::from(g.rows);
            if g.columns == 0 || g.rows == 0 || g.columns > 26 {
                self.err_at(
                    &at,
                    format!("grid '{name}' needs 1 to 26 columns and at least 1 row"),
                );
            } else if name.is_empty()
                || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                self.err_at(
                    &at,
                    format!("grid name '{name}' must be letters, digits or '_' (its cells are named '{name}.a1'...)"),
                );
            } else if board.named_grids().len() > usize::from(u8::MAX) {
                self.err_at(&at, "a board has at most 256 named grids");
            } else if board.len() + cells > MAX_SPACES {
                self.err_at(
                    &at,
                    format!("grid '{name}' would take the board past {MAX_SPACES} spaces"),
                );
            } else {
                let size = GridSize {
                    columns: g.columns,
                    rows: g.rows,
                };
                let grid =
                    board.add_named_grid(name, size, one_kind.unwrap_or(&g.kind), g.diagonals);
                if let Some(label) = &g.name {
                    board.set_named_grid_label(grid, label);
                }
            }
        }
    }

    /// Kinds of spaces or edges are numbered by a byte: with more than
    /// [`MAX_KINDS`] of them, reports it and gives the one kind to build
    /// the rest of the board with, for its other checks (the board is
    /// refused anyway).
    fn too_many_kinds<'k>(
        &mut self,
        at: &str,
        what: &str,
        kinds: impl Iterator<Item = &'k str>,
    ) -> Option<&'static str> {
        let distinct: HashSet<&str> = kinds.collect();
        if distinct.len() <= MAX_KINDS {
            return None;
        }
        self.err_at(
            at,
            format!("{} {what} kinds: at most {MAX_KINDS}", distinct.len()),
        );
        Some("too many kinds")
    }

    pub(super) fn zones(&mut self, file: &GameFile, game: &Game) -> Vec<Zone> {
        let fit = self.fit("zones", "zones", file.zones.len(), MAX_ZONES);
        let ranks = ranks_by_player(game);
        let mut zones = Vec::new();
        for (name, z) in file.zones.iter().take(fit) {
            let mut wanted = [false; 256];
            for &r in &z.ranks {
                wanted[usize::from(r)] = r > 0;
            }
            let mut members = vec![vec![false; game.board.len()]; game.players.len()];
            for (p, def) in game.players.iter().enumerate() {
                match (&ranks, z.ranks.is_empty()) {
                    (_, true) => {}
                    (Some(ranks), false) if def.home.is_some() => {
                        for (space, rank) in ranks[p].iter().enumerate() {
                            members[p][space] = wanted[usize::from(*rank)];
                        }
                    }
                    _ => self.err_at(
                        &format!("zones.{name}.ranks"),
                        format!(
                            "zone '{name}' uses ranks, which need a grid board and a 'home' edge for player '{}'",
                            def.id
                        ),
                    ),
                }
            }
            for r in &z.spaces {
                let names = game.board.ids().map(|i| game.board.name(i));
                if let Some(id) = self.lookup(r, "space", game.board.find(&r.value), names) {
                    for row in &mut members {
                        row[id.0 as usize] = true;
                    }
                }
            }
            zones.push(Zone::new(
                name.clone(),
                label_or_id(z.name.as_deref(), name),
                members,
            ));
        }
        zones
    }
}

/// Every space's rank for every player, `[player][space]`, worked out
/// once rather than once per zone and rank; 0 (which no zone takes:
/// ranks count from 1) for a player without a home edge or a space off
/// the grid. `None` without a grid.
fn ranks_by_player(game: &Game) -> Option<Vec<Vec<u8>>> {
    let size = game.board.grid_size()?;
    let of_player = |home: Option<Dir>| -> Vec<u8> {
        game.board
            .ids()
            .map(|id| {
                home.and_then(|h| rank_of(&game.board, size, h, id))
                    .unwrap_or(0)
            })
            .collect()
    };
    Some(game.players.iter().map(|p| of_player(p.home)).collect())
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
