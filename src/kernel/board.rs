//! The board graph: spaces joined by typed edges.
//!
//! A grid (Convoy's 7x5 sea) and an area map (Mediterranea's regions) are the
//! same structure: spaces with a kind, tags and attributes, joined by edges
//! that carry a kind ("adjacent", "strait", ...) and, on grids, a compass
//! direction. The board is immutable once built; what stands on it lives in
//! the game state.

use crate::kernel::value::Vars;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// Index of a space on its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SpaceId(pub u16);

/// A compass direction between neighbouring grid cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::East => Dir::West,
            Dir::West => Dir::East,
        }
    }
}

/// One space: a grid cell, a land or sea area, an off-map box.
#[derive(Clone, Debug)]
pub struct Space {
    pub name: String,
    /// Index into [`Board::space_kinds`]; movement rules compare these.
    pub kind: u8,
    pub tags: Vec<String>,
    pub region: Option<String>,
    /// Drawing coordinates, for renderers; the rules never read them.
    pub xy: Option<[f32; 2]>,
    pub attrs: Vars,
    /// Column and row (both from 0) when the space is a cell of the main grid.
    pub cell: Option<(u8, u8)>,
    /// The grid, column and row (both from 0) when the space is a cell of a
    /// named grid beside the main one ([`Board::add_named_grid`]).
    pub named_cell: Option<NamedCell>,
}

/// A cell of a named grid: a second board in the same graph (a tactical
/// battle board beside a strategic map), with its own cell names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedCell {
    /// Index into [`Board::named_grids`].
    pub grid: u8,
    pub col: u8,
    pub row: u8,
}

/// The edge kind joining diagonal neighbours of a named grid that has them.
pub const DIAGONAL: &str = "diagonal";

/// A connection from one space to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub to: SpaceId,
    /// Index into [`Board::edge_kinds`].
    pub kind: u8,
    pub dir: Option<Dir>,
}

/// The size of a grid board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    pub columns: u8,
    pub rows: u8,
}

/// The immutable board graph.
#[derive(Clone, Debug, Default)]
pub struct Board {
    spaces: Vec<Space>,
    edges: Vec<Vec<Edge>>,
    index: HashMap<String, SpaceId>,
    space_kinds: Vec<String>,
    edge_kinds: Vec<String>,
    grid: Option<GridSize>,
    named_grids: Vec<(String, GridSize)>,
    /// How screens name each named grid (`Battle board`), by index.
    named_grid_labels: Vec<String>,
}

/// The edge kind every grid edge and every undeclared connection has.
pub const ADJACENT: &str = "adjacent";

impl Board {
    /// A grid of `columns` x `rows` cells named like chess squares: columns
    /// are letters from `a` (left, seen from the south edge), rows are numbers
    /// from `1` (the south edge). Cells are numbered row by row from a1, and
    /// neighbours are orthogonal, listed north, east, south, west.
    pub fn grid(size: GridSize, kind: &str) -> Board {
        let mut board = Board {
            grid: Some(size),
            ..Board::default()
        };
        let kind = board.intern_space_kind(kind);
        board.edge_kinds.push(ADJACENT.to_string());
        for row in 0..size.rows {
            for col in 0..size.columns {
                board.push_space(Space {
                    name: cell_name(col, row),
                    kind,
                    tags: Vec::new(),
                    region: None,
                    xy: Some([f32::from(col), f32::from(row)]),
                    attrs: Vars::new(),
                    cell: Some((col, row)),
                    named_cell: None,
                });
            }
        }
        for row in 0..size.rows {
            for col in 0..size.columns {
                let id = board.cell(col, row).expect("cell exists");
                let steps = [
                    (Dir::North, 0, 1),
                    (Dir::East, 1, 0),
                    (Dir::South, 0, -1),
                    (Dir::West, -1, 0),
                ];
                for (dir, dc, dr) in steps {
                    let (c, r) = (i16::from(col) + dc, i16::from(row) + dr);
                    if let Some(to) = board.cell_i(c, r) {
                        board.edges[id.0 as usize].push(Edge {
                            to,
                            kind: 0,
                            dir: Some(dir),
                        });
                    }
                }
            }
        }
        board
    }

    /// An empty board for area maps; add spaces, then connect them.
    pub fn areas() -> Board {
        let mut board = Board::default();
        board.edge_kinds.push(ADJACENT.to_string());
        board
    }

    /// Adds a space and returns its id. Names must be unique (the loader
    /// checks, with file positions, before calling this).
    pub fn add_space(&mut self, name: &str, kind: &str) -> SpaceId {
        let kind = self.intern_space_kind(kind);
        self.push_space(Space {
            name: name.to_string(),
            kind,
            tags: Vec::new(),
            region: None,
            xy: None,
            attrs: Vars::new(),
            cell: None,
            named_cell: None,
        })
    }

    /// Adds a named grid of `columns` x `rows` cells beside the spaces
    /// already there: cells are named `NAME.a1` and so on (columns are letters
    /// from the west edge, rows numbers from the south edge), all of `kind`,
    /// joined to their orthogonal neighbours by `adjacent` edges and, with
    /// `diagonals`, to their diagonal ones by `diagonal` edges. The cells
    /// are not joined to any other space: a piece reaches them only by being
    /// moved there. Returns the grid's index.
    pub fn add_named_grid(
        &mut self,
        name: &str,
        size: GridSize,
        kind: &str,
        diagonals: bool,
    ) -> u8 {
        let grid = self.named_grids.len() as u8;
        self.named_grids.push((name.to_string(), size));
        self.named_grid_labels.push(name.replace('_', " "));
        let first = self.spaces.len();
        for row in 0..size.rows {
            for col in 0..size.columns {
                let id = self.add_space(&format!("{name}.{}", cell_name(col, row)), kind);
                let space = self.space_mut(id);
                space.xy = Some([f32::from(col), f32::from(row)]);
                space.named_cell = Some(NamedCell { grid, col, row });
            }
        }
        let at = |col: i16, row: i16| {
            let inside = (0..i16::from(size.columns)).contains(&col)
                && (0..i16::from(size.rows)).contains(&row);
            inside.then(|| SpaceId((first + (row * i16::from(size.columns) + col) as usize) as u16))
        };
        let mut steps = vec![(0, 1), (1, 0), (0, -1), (-1, 0)];
        if diagonals {
            steps.extend([(1, 1), (1, -1), (-1, -1), (-1, 1)]);
        }
        let diagonal = intern(&mut self.edge_kinds, DIAGONAL);
        let adjacent = intern(&mut self.edge_kinds, ADJACENT);
        for row in 0..i16::from(size.rows) {
            for col in 0..i16::from(size.columns) {
                let from = at(col, row).expect("cell exists");
                for &(dc, dr) in &steps {
                    if let Some(to) = at(col + dc, row + dr) {
                        let kind = if dc != 0 && dr != 0 {
                            diagonal
                        } else {
                            adjacent
                        };
                        self.edges[from.0 as usize].push(Edge {
                            to,
                            kind,
                            dir: None,
                        });
                    }
                }
            }
        }
        grid
    }

    /// The named grids, by index: each one's name and size.
    pub fn named_grids(&self) -> &[(String, GridSize)] {
        &self.named_grids
    }

    /// Gives a named grid the name screens call it by (its id, with spaces
    /// for underscores, until then).
    pub fn set_named_grid_label(&mut self, grid: u8, label: &str) {
        self.named_grid_labels[usize::from(grid)] = label.to_string();
    }

    /// How screens name a named grid.
    pub fn named_grid_label(&self, grid: u8) -> &str {
        &self.named_grid_labels[usize::from(grid)]
    }

    /// Joins two spaces both ways with an edge of the given kind.
    pub fn connect(&mut self, a: SpaceId, b: SpaceId, kind: &str) {
        let kind = intern(&mut self.edge_kinds, kind);
        self.edges[a.0 as usize].push(Edge {
            to: b,
            kind,
            dir: None,
        });
        self.edges[b.0 as usize].push(Edge {
            to: a,
            kind,
            dir: None,
        });
    }

    pub fn space_mut(&mut self, id: SpaceId) -> &mut Space {
        &mut self.spaces[id.0 as usize]
    }

    /// Changes a space's kind (an optional rule turning a sea cell to land).
    pub fn set_space_kind(&mut self, id: SpaceId, kind: &str) {
        let kind = self.intern_space_kind(kind);
        self.spaces[id.0 as usize].kind = kind;
    }

    pub fn len(&self) -> usize {
        self.spaces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }

    pub fn ids(&self) -> impl Iterator<Item = SpaceId> + '_ {
        (0..self.spaces.len() as u16).map(SpaceId)
    }

    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id.0 as usize]
    }

    pub fn name(&self, id: SpaceId) -> &str {
        &self.spaces[id.0 as usize].name
    }

    /// How screens, logs and drawings name a space: its name, except a
    /// named grid's cell, which is its cell on that grid (`battle b2` for
    /// `battle.b2`, read "square b2 of the battle board") so that it is
    /// told from the main grid's `b2` without showing an id.
    pub fn label(&self, id: SpaceId) -> String {
        let space = self.space(id);
        match space.named_cell {
            Some(c) => format!(
                "{} {}",
                self.named_grid_label(c.grid),
                cell_name(c.col, c.row)
            ),
            None => space.name.clone(),
        }
    }

    /// How screens name a space kind: its id with spaces for underscores
    /// (`battle sea`); the kinds are only ever named by the data's words.
    pub fn space_kind_label(&self, id: SpaceId) -> String {
        self.space_kind_name(id).replace('_', " ")
    }

    /// Looks a space up by name, ignoring case (users type `B2` and `b2`).
    /// A miss is tried again in lower case only when that is another name:
    /// scripts ask for pools by name (`reserve`) thousands of times a game,
    /// and each retry made a lower-case copy to look up the same name.
    pub fn find(&self, name: &str) -> Option<SpaceId> {
        if let Some(&id) = self.index.get(name) {
            return Some(id);
        }
        if !name.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
        self.index.get(&name.to_ascii_lowercase()).copied()
    }

    pub fn edges(&self, id: SpaceId) -> &[Edge] {
        &self.edges[id.0 as usize]
    }

    pub fn neighbours(&self, id: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        self.edges(id).iter().map(|e| e.to)
    }

    pub fn grid_size(&self) -> Option<GridSize> {
        self.grid
    }

    /// The grid cell at a column and row (both from 0).
    pub fn cell(&self, col: u8, row: u8) -> Option<SpaceId> {
        self.cell_i(i16::from(col), i16::from(row))
    }

    pub fn space_kinds(&self) -> &[String] {
        &self.space_kinds
    }

    pub fn space_kind_name(&self, id: SpaceId) -> &str {
        &self.space_kinds[self.space(id).kind as usize]
    }

    pub fn space_kind_index(&self, kind: &str) -> Option<u8> {
        self.space_kinds
            .iter()
            .position(|k| k == kind)
            .map(|i| i as u8)
    }

    pub fn edge_kinds(&self) -> &[String] {
        &self.edge_kinds
    }

    pub fn edge_kind_index(&self, kind: &str) -> Option<u8> {
        self.edge_kinds
            .iter()
            .position(|k| k == kind)
            .map(|i| i as u8)
    }

    fn cell_i(&self, col: i16, row: i16) -> Option<SpaceId> {
        let size = self.grid?;
        let inside =
            (0..i16::from(size.columns)).contains(&col) && (0..i16::from(size.rows)).contains(&row);
        inside.then(|| SpaceId((row * i16::from(size.columns) + col) as u16))
    }

    fn intern_space_kind(&mut self, kind: &str) -> u8 {
        intern(&mut self.space_kinds, kind)
    }

    fn push_space(&mut self, space: Space) -> SpaceId {
        let id = SpaceId(self.spaces.len() as u16);
        self.index.insert(space.name.clone(), id);
        self.spaces.push(space);
        self.edges.push(Vec::new());
        id
    }
}

fn intern(names: &mut Vec<String>, name: &str) -> u8 {
    match names.iter().position(|n| n == name) {
        Some(i) => i as u8,
        None => {
            names.push(name.to_string());
            (names.len() - 1) as u8
        }
    }
}

/// The name of a grid cell: column letter, then row number from 1.
pub fn cell_name(col: u8, row: u8) -> String {
    format!("{}{}", (b'a' + col) as char, row + 1)
}

impl fmt::Display for SpaceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_names_cells_like_chess_squares() {
        let b = Board::grid(
            GridSize {
                columns: 7,
                rows: 5,
            },
            "sea",
        );
        assert_eq!(b.len(), 35);
        assert_eq!(b.name(SpaceId(0)), "a1");
        assert_eq!(b.name(SpaceId(34)), "g5");
        assert_eq!(b.find("D3"), b.cell(3, 2));
        // A miss stays a miss, in any case.
        assert_eq!(b.find("reserve"), None);
        assert_eq!(b.find("H9"), None);
    }

    #[test]
    fn grid_cells_have_orthogonal_neighbours_only() {
        let b = Board::grid(
            GridSize {
                columns: 7,
                rows: 5,
            },
            "sea",
        );
        let corner: Vec<_> = b
            .neighbours(b.find("a1").unwrap())
            .map(|s| b.name(s).to_string())
            .collect();
        assert_eq!(corner, ["a2", "b1"]);
        let centre = b.find("d3").unwrap();
        let names: Vec<_> = b
            .neighbours(centre)
            .map(|s| b.name(s).to_string())
            .collect();
        assert_eq!(names, ["d4", "e3", "d2", "c3"]);
        assert_eq!(b.edges(centre)[0].dir, Some(Dir::North));
    }

    #[test]
    fn a_named_grid_has_its_own_cell_names_and_eight_directions() {
        let mut b = Board::grid(
            GridSize {
                columns: 3,
                rows: 3,
            },
            "sea",
        );
        let grid = b.add_named_grid(
            "battle",
            GridSize {
                columns: 4,
                rows: 4,
            },
            "open sea",
            true,
        );
        assert_eq!(b.len(), 9 + 16);
        let b2 = b.find("battle.b2").unwrap();
        assert_eq!(
            b.space(b2).named_cell,
            Some(NamedCell {
                grid,
                col: 1,
                row: 1
            })
        );
        assert_eq!(b.space(b2).cell, None);
        let names: Vec<_> = b.neighbours(b2).map(|s| b.name(s).to_string()).collect();
        assert_eq!(
            names,
            [
                "battle.b3",
                "battle.c2",
                "battle.b1",
                "battle.a2",
                "battle.c3",
                "battle.c1",
                "battle.a1",
                "battle.a3"
            ]
        );
        let corner = b.find("battle.a1").unwrap();
        assert_eq!(b.neighbours(corner).count(), 3);
        assert_eq!(b.edge_kinds()[b.edges(corner)[2].kind as usize], DIAGONAL);
        assert_eq!(
            b.neighbours(b.find("a1").unwrap()).count(),
            2,
            "the main grid is untouched"
        );
        assert_eq!(b.named_grids()[0].0, "battle");
        assert_eq!(
            b.label(b2),
            "battle b2",
            "screens name the cell, not the id"
        );
        b.set_named_grid_label(grid, "Battle board");
        assert_eq!(b.label(b2), "Battle board b2");
        assert_eq!(b.label(b.find("a1").unwrap()), "a1");
    }

    #[test]
    fn area_maps_join_spaces_with_typed_edges() {
        let mut b = Board::areas();
        let gaul = b.add_space("gaul", "land");
        let sea = b.add_space("tyrrhenian", "sea");
        b.connect(gaul, sea, "coast");
        assert_eq!(b.edges(sea)[0].to, gaul);
        assert_eq!(b.edge_kinds()[b.edges(gaul)[0].kind as usize], "coast");
        assert_eq!(b.space_kind_name(sea), "sea");
    }
}
