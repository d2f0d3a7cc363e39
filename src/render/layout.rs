//! Where each space goes on the drawing. Grid cells are squares by column
//! and row (row 1 at the bottom, as players read a grid); a named grid (a
//! second board) is drawn the same way beside the main one. Spaces with `xy`
//! are boxes at those points, scaled to a readable size and set beside the
//! grid when the board has both. Spaces with neither are stacked in a side
//! column headed "not on the map", so no space is ever left out.

use crate::kernel::board::{Board, SpaceId};

/// A rectangle on the drawing, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn centre(self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    pub fn right(self) -> f32 {
        self.x + self.w
    }

    pub fn bottom(self) -> f32 {
        self.y + self.h
    }
}

/// Room around the drawing and between its parts.
pub const MARGIN: f32 = 20.0;
/// A grid cell's side.
pub const CELL: f32 = 72.0;
/// Room for a grid's column letters and row numbers.
pub const LABEL: f32 = 18.0;
/// An area box's width, and the height of its name and of each line under it.
pub const BOX_W: f32 = 120.0;
pub const LINE: f32 = 14.0;
/// The span of coordinates the `xy` points are scaled into when theirs is
/// smaller (a map drawn on a 1200x800 canvas keeps its size), and the
/// widest span spreading boxes apart may reach.
const MIN_SPAN: f32 = 400.0;
const MAX_SPAN: f32 = 2400.0;
/// Boxes are spread apart only on maps of at most this many points: it
/// compares every pair.
const MOST_SPREAD: usize = 2000;

/// Every space's box, and what the side column holds.
pub struct Layout {
    /// By space index.
    pub boxes: Vec<Rect>,
    /// The grid's cells' frame, for its coordinates.
    pub grid: Option<Rect>,
    /// Each named grid (a second board, such as a battle board) with its
    /// cells' frame, beside the main grid.
    pub named_grids: Vec<(String, Rect)>,
    /// Spaces with neither a cell nor a point, in board order, stacked at
    /// the top of the side column.
    pub off_map: Vec<SpaceId>,
    /// The side column's left edge and the first free height in it.
    pub column: (f32, f32),
    /// The rightmost and lowest points used so far.
    pub right: f32,
    pub bottom: f32,
}

/// The height of a box holding a name and `lines` lines of pieces.
pub fn box_height(lines: usize) -> f32 {
    LINE + 8.0 + LINE * lines as f32
}

/// Lays the board out below `top`; `lines(space)` says how many lines of
/// pieces a space's box must hold.
pub fn layout(board: &Board, top: f32, lines: impl Fn(SpaceId) -> usize) -> Layout {
    let mut boxes = vec![
        Rect {
            x: 0.0,
            y: 0.0,
            w: 0.0,
            h: 0.0
        };
        board.len()
    ];
    let mut right = MARGIN;
    let mut bottom = top;
    let grid = board.grid_size().map(|size| {
        let frame = Rect {
            x: MARGIN + LABEL,
            y: top + LABEL,
            w: CELL * f32::from(size.columns),
            h: CELL * f32::from(size.rows),
        };
        for id in board.ids() {
            if let Some((col, row)) = board.space(id).cell {
                boxes[usize::from(id.0)] = Rect {
                    x: frame.x + CELL * f32::from(col),
                    y: frame.y + CELL * f32::from(size.rows - 1 - row),
                    w: CELL,
                    h: CELL,
                };
            }
        }
        right = frame.right() + LABEL;
        bottom = frame.bottom() + LABEL;
        frame
    });
    let mut named_grids = Vec::new();
    for (index, (name, size)) in board.named_grids().iter().enumerate() {
        let frame = Rect {
            x: right + MARGIN,
            y: top + LINE + 8.0,
            w: CELL * f32::from(size.columns),
            h: CELL * f32::from(size.rows),
        };
        for id in board.ids() {
            if let Some(c) = board.space(id).named_cell
                && usize::from(c.grid) == index
            {
                boxes[usize::from(id.0)] = Rect {
                    x: frame.x + CELL * f32::from(c.col),
                    y: frame.y + CELL * f32::from(size.rows - 1 - c.row),
                    w: CELL,
                    h: CELL,
                };
            }
        }
        right = frame.right();
        bottom = bottom.max(frame.bottom() + LABEL);
        named_grids.push((name.clone(), frame));
    }
    let placed: Vec<(SpaceId, [f32; 2])> = board
        .ids()
        .filter(|&id| !in_a_grid(board, id))
        .filter_map(|id| point(board, id).map(|xy| (id, xy)))
        .collect();
    if !placed.is_empty() {
        let (left, area_top) = (right + MARGIN, top);
        let min = |axis: usize| placed.iter().map(|(_, p)| p[axis]).fold(f32::MAX, f32::min);
        let max = |axis: usize| placed.iter().map(|(_, p)| p[axis]).fold(f32::MIN, f32::max);
        let (min_x, min_y) = (min(0), min(1));
        let span = (max(0) - min_x).max(max(1) - min_y);
        let heights: Vec<f32> = placed
            .iter()
            .map(|(id, _)| box_height(lines(*id)))
            .collect();
        let scale = if span > 0.0 {
            let fit = span.max(MIN_SPAN) / span;
            fit.max(spread(&placed, &heights))
                .min(MAX_SPAN.max(span) / span)
        } else {
            1.0
        };
        for ((id, [x, y]), h) in placed.into_iter().zip(heights) {
            let r = Rect {
                x: left + (x - min_x) * scale,
                y: area_top + (y - min_y) * scale,
                w: BOX_W,
                h,
            };
            right = right.max(r.right());
            bottom = bottom.max(r.bottom());
            boxes[usize::from(id.0)] = r;
        }
    }
    let column_x = right + MARGIN;
    // Room for the column's heading, then the spaces off the map.
    let mut column_y = top + LINE + 8.0;
    let off_map: Vec<SpaceId> = board.ids().filter(|&id| off_map(board, id)).collect();
    for &id in &off_map {
        let r = Rect {
            x: column_x,
            y: column_y,
            w: BOX_W,
            h: box_height(lines(id)),
        };
        column_y = r.bottom() + 6.0;
        boxes[usize::from(id.0)] = r;
    }
    Layout {
        boxes,
        grid,
        named_grids,
        off_map,
        column: (column_x, column_y),
        right,
        bottom,
    }
}

/// The scale at which no two boxes overlap: for each pair, the smaller of
/// the scales that part them sideways or upright, and the largest of
/// those over all pairs (1 on maps too large to compare every pair).
fn spread(placed: &[(SpaceId, [f32; 2])], heights: &[f32]) -> f32 {
    if placed.len() > MOST_SPREAD {
        return 1.0;
    }
    let mut scale: f32 = 0.0;
    for (i, (_, [ax, ay])) in placed.iter().enumerate() {
        for (j, (_, [bx, by])) in placed.iter().enumerate().skip(i + 1) {
            // Room between boxes for a connection and its arrow heads.
            let gap = 24.0;
            let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
            if dx == 0.0 && dy == 0.0 {
                continue; // no scale parts two boxes at one point
            }
            let sideways = (BOX_W + gap) / dx;
            let upright = ((heights[i] + heights[j]) / 2.0 + gap) / dy;
            scale = scale.max(sideways.min(upright));
        }
    }
    if scale.is_finite() { scale } else { 1.0 }
}

/// Whether a space has neither a grid cell nor a usable point: it goes to
/// the side column.
pub fn off_map(board: &Board, id: SpaceId) -> bool {
    !in_a_grid(board, id) && point(board, id).is_none()
}

/// Whether a space is a cell of the main grid or of a named one.
pub fn in_a_grid(board: &Board, id: SpaceId) -> bool {
    let space = board.space(id);
    space.cell.is_some() || space.named_cell.is_some()
}

/// A space's drawing point, if it has a usable one.
fn point(board: &Board, id: SpaceId) -> Option<[f32; 2]> {
    board
        .space(id)
        .xy
        .filter(|p| p.iter().all(|v| v.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::board::GridSize;

    #[test]
    fn grid_rows_count_up_from_the_bottom() {
        let b = Board::grid(
            GridSize {
                columns: 7,
                rows: 5,
            },
            "sea",
        );
        let l = layout(&b, 0.0, |_| 0);
        let a1 = l.boxes[usize::from(b.find("a1").unwrap().0)];
        let a5 = l.boxes[usize::from(b.find("a5").unwrap().0)];
        let g1 = l.boxes[usize::from(b.find("g1").unwrap().0)];
        assert!(a5.y < a1.y && a1.x < g1.x);
        assert!(l.off_map.is_empty());
    }

    #[test]
    fn points_keep_their_shape_and_spaces_without_one_go_to_the_column() {
        let mut b = Board::areas();
        let west = b.add_space("west", "land");
        let east = b.add_space("east", "land");
        let lost = b.add_space("lost", "box");
        b.space_mut(west).xy = Some([0.0, 100.0]);
        b.space_mut(east).xy = Some([800.0, 100.0]);
        b.space_mut(lost).xy = Some([f32::NAN, 1.0]);
        let l = layout(&b, 50.0, |_| 1);
        let (w, e) = (l.boxes[0], l.boxes[1]);
        assert_eq!(e.x - w.x, 800.0);
        assert_eq!(w.y, 50.0);
        assert_eq!(l.off_map, vec![lost]);
        assert!(l.boxes[2].x > e.right());
    }
}
