//! Mediterranean Convoy (base rules, no options) written by hand as plain
//! fixed-size Rust: the baseline the generic kernel is measured against
//! (DESIGN.md, "Performance model").
//!
//! It must play *exactly* the games `portolan::sim::play_game` plays with
//! random bots for the same seed, or the comparison measures two different
//! workloads. So every list below is built in the kernel's canonical order,
//! every random draw is made from the same [`GameRng`] stream in the same
//! order, and the position hash is the kernel's hash, bit for bit. Only the
//! shared primitives are borrowed from the library (the RNG, the hash mixer,
//! the seed derivations); the rules themselves (set-up, movement, combat,
//! victory, repetition) are re-implemented here without the engine, its
//! state, or Lua.
//!
//! Representation: the board is `[u8; 35]` of piece indices (one ship per
//! cell at most: an attack that wins removes the defender before the
//! attacker enters) beside a bit board of each side's cells, pieces
//! are parallel `[u8; 20]` arrays indexed by piece id, each player's ships
//! afloat are a short list, an action is 16 bits, and neighbour lists,
//! ranks and zones are tables built once. Nothing is allocated per ply.

use portolan::bots::seat_seed;
use portolan::kernel::hash::{mix, piece_key};
use portolan::kernel::piece::PlayerId;
use portolan::kernel::rng::GameRng;

pub const COLUMNS: usize = 7;
pub const ROWS: usize = 5;
pub const CELLS: usize = COLUMNS * ROWS;
pub const PLAYERS: usize = 2;
pub const PIECES: usize = 20;
/// Ships per player.
const SHIPS: usize = PIECES / PLAYERS;

/// Kinds are numbered in the compiled game's order (game.yaml's
/// `pieces.kinds` is a sorted map, so the order is alphabetical): Cruiser,
/// Destroyer, Merchant, Submarine. Only the Merchant is named in the rules.
pub const MERCHANT: u8 = 2;
pub const KINDS: usize = 4;
pub const KIND_NAMES: [&str; KINDS] = ["Cruiser", "Destroyer", "Merchant", "Submarine"];
/// Ships of each kind per player.
pub const COUNTS: [u8; KINDS] = [1, 3, 4, 2];

/// Locations: `0..35` are cells; the two pools follow.
const RESERVE: u8 = CELLS as u8;
const ELIMINATED: u8 = CELLS as u8 + 1;
/// An empty cell in [`Game::board`], a missing piece elsewhere.
const NONE: u8 = u8::MAX;
/// The cell beyond the edge: it pads every neighbour list to four steps,
/// so move generation runs the same four steps for every ship. Its bit
/// is never set in a bit board of cells.
const OFF: u8 = 63;
/// Every cell of the board, as a bit board.
const ALL_CELLS: u64 = (1 << CELLS) - 1;
/// `seen_by` of a face every player may see.
const EVERYONE: u8 = u8::MAX;

/// Phase indices in the compiled game: phases are a sorted map, so
/// `sailing` (0) comes before `setup` (1). They enter the position hash.
pub const SAILING: u64 = 0;
pub const SETUP: u64 = 1;
/// `max_plies`: a longer game is drawn.
pub const MAX_PLIES: u32 = 5000;
/// The third occurrence of a position ends the game.
pub const REPETITIONS: usize = 3;
/// Set-up quotas by rank: 7 ships on the home row, 3 on the second.
const QUOTAS: [u8; 2] = [7, 3];
/// Cells on ranks 1 and 2, and on ranks 4 and 5 (the Air Strike rows).
const TWO_ROWS: usize = 2 * COLUMNS;
/// The most legal actions a decision can have: 4 kinds x 10 set-up cells,
/// or 10 ships x 4 steps + 14 strike targets (move generation writes up
/// to 14 candidates past the end of the list before it drops them).
const MAX_LEGAL: usize = 64;

/// An attack's result, from the attacker's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fight {
    /// The defender sinks and the attacker takes the cell.
    Win,
    /// Nothing sinks; the attacker stays where it was.
    Bounce,
    /// The attacker sinks. (The kernel's fourth result: the base table
    /// never gives it, optional rule 4 would.)
    #[allow(dead_code)]
    Lose,
    /// Both sink.
    Both,
}

/// game.yaml's `attack_results`, `[attacker][defender]`.
const COMBAT: [[Fight; KINDS]; KINDS] = {
    use Fight::*;
    [
        [Both, Win, Win, Bounce],         // Cruiser
        [Bounce, Both, Win, Win],         // Destroyer
        [Bounce, Bounce, Bounce, Bounce], // Merchant
        [Win, Bounce, Win, Both],         // Submarine
    ]
};

/// The combat table as `(attacker, defender, result name)`, for checking
/// it against the compiled game.
pub fn combat_result(attacker: u8, defender: u8) -> &'static str {
    match COMBAT[attacker as usize][defender as usize] {
        Fight::Win => "win",
        Fight::Bounce => "bounce",
        Fight::Lose => "lose",
        Fight::Both => "both",
    }
}

/// One legal action, packed into 16 bits so that move generation writes
/// each candidate with a single store: the cell in bits 0-5, the piece in
/// bits 6-10, what the action is ([`Decoded`]'s variant) in bits 12-13.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Act(u16);

/// An action unpacked. Piece ids and cells are the kernel's, so it
/// converts one to one into `portolan::kernel::action::Action`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decoded {
    Place {
        piece: u8,
        to: u8,
    },
    Move {
        piece: u8,
        to: u8,
    },
    /// The Air Strike (the movement phase's special number 0).
    Strike {
        target: u8,
    },
    Pass,
}

/// [`Act`]'s field positions and its variant tags.
const PIECE_SHIFT: u16 = 6;
const TAG_SHIFT: u16 = 12;
const PLACE: u16 = 0;
const MOVE: u16 = 1;
const STRIKE: u16 = 2;
const PASS: u16 = 3;

impl Act {
    const PASS: Act = Act(PASS << TAG_SHIFT);

    #[inline]
    fn new(tag: u16, piece: u8, cell: u8) -> Act {
        Act(tag << TAG_SHIFT | u16::from(piece) << PIECE_SHIFT | u16::from(cell))
    }

    pub fn decode(self) -> Decoded {
        let cell = (self.0 & ((1 << PIECE_SHIFT) - 1)) as u8;
        let piece = ((self.0 >> PIECE_SHIFT) & 0x1F) as u8;
        match self.0 >> TAG_SHIFT {
            PLACE => Decoded::Place { piece, to: cell },
            MOVE => Decoded::Move { piece, to: cell },
            STRIKE => Decoded::Strike { target: cell },
            _ => Decoded::Pass,
        }
    }
}

/// A fixed-capacity action list: no allocation on the hot path.
pub struct Legal {
    acts: [Act; MAX_LEGAL],
    len: usize,
}

impl Legal {
    pub fn new() -> Legal {
        Legal {
            acts: [Act::PASS; MAX_LEGAL],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, a: Act) {
        self.acts[self.len] = a;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[Act] {
        &self.acts[..self.len]
    }
}

/// How a game ended: the winner (`None` for a draw) and the plies played
/// (placements and passes count, as in the kernel).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub winner: Option<u8>,
    pub plies: u32,
}

/// The fixed tables of the rules, built once and shared by every game.
pub struct Tables {
    /// Orthogonal neighbours in the kernel's edge order: North, East,
    /// South, West (North is the next row up, towards Red's home), padded
    /// with [`OFF`], as the four 16-bit lanes of a word, North lowest: OR
    /// a ship's [`Act`] bits into it and it holds the ship's four moves.
    steps: [u64; CELLS],
    /// `rank[player][cell]`: the row counted from the player's own edge.
    rank: [[u8; CELLS]; PLAYERS],
    /// `setup_rows[player][r]`: the cells of rank `r + 1`, a bit board.
    setup_rows: [[u64; 2]; PLAYERS],
    /// The cells of ranks 4 and 5 (Air Strike targets), in cell order.
    strike_cells: [[u8; TWO_ROWS]; PLAYERS],
    /// The players' part of the position hash, `[player][used specials]`.
    player_part: [[u64; 2]; PLAYERS],
    /// The phase stack's part of the hash while sailing, by player to move.
    sailing_frame: [u64; PLAYERS],
}

impl Tables {
    pub fn new() -> Tables {
        let mut t = Tables {
            steps: [0; CELLS],
            rank: [[0; CELLS]; PLAYERS],
            setup_rows: [[0; 2]; PLAYERS],
            strike_cells: [[NONE; TWO_ROWS]; PLAYERS],
            player_part: [[0; 2]; PLAYERS],
            sailing_frame: [0; PLAYERS],
        };
        for cell in 0..CELLS {
            let (col, row) = ((cell % COLUMNS) as i32, (cell / COLUMNS) as i32);
            let mut steps = [OFF; 4];
            let mut d = 0;
            for (dc, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let (c, r) = (col + dc, row + dr);
                if (0..COLUMNS as i32).contains(&c) && (0..ROWS as i32).contains(&r) {
                    steps[d] = (r * COLUMNS as i32 + c) as u8;
                    d += 1;
                }
            }
            t.steps[cell] = steps
                .iter()
                .rev()
                .fold(0, |lanes, &to| lanes << 16 | u64::from(to));
            // Blue's home is south (row 1), Red's north (row 5).
            t.rank[0][cell] = (row + 1) as u8;
            t.rank[1][cell] = (ROWS as i32 - row) as u8;
        }
        for p in 0..PLAYERS {
            let mut k = 0;
            for cell in 0..CELLS {
                match t.rank[p][cell] {
                    rank @ (1 | 2) => t.setup_rows[p][rank as usize - 1] |= 1 << cell,
                    4 | 5 => {
                        t.strike_cells[p][k] = cell as u8;
                        k += 1;
                    }
                    _ => {}
                }
            }
            // No player variables; no special used yet hashes to 0.
            t.player_part[p][1] = mix(owner(PLAYER_SPECIALS, p as u64) ^ 1);
            t.sailing_frame[p] = frame_hash(SAILING, p as u8, 0);
        }
        t
    }

    /// A cell's neighbours, in North, East, South, West order.
    pub fn neighbours(&self, cell: usize) -> Vec<u8> {
        (0..4)
            .map(|d| (self.steps[cell] >> (16 * d)) as u8)
            .filter(|&c| c != OFF)
            .collect()
    }

    /// The Air Strike targets' cells (ranks 4 and 5), in cell order.
    pub fn strike_cells(&self, player: usize) -> &[u8] {
        &self.strike_cells[player]
    }
}

/// The kernel's owners of hashed data (`kernel::state::position_hash`):
/// a domain in the top byte, an index below.
const PLAYER_SPECIALS: u64 = 4;
const FRAME: u64 = 5;
const TURN: u64 = 8;

fn owner(domain: u64, index: u64) -> u64 {
    (domain << 56) | index
}

/// The hash of the one frame on the phase stack (depth 0, no context,
/// seen by everyone).
fn frame_hash(phase: u64, player: u8, step: u64) -> u64 {
    let numbers = (phase << 40) ^ (u64::from(player) << 32) ^ step;
    mix(mix(owner(FRAME, 0) ^ numbers) ^ u64::from(EVERYONE))
}

/// The flow's place and the first player: the flow is 1 while the set-up
/// frame is on the stack, 2 once sailing has begun.
fn turn_hash(sailing: bool, first: u8) -> u64 {
    let flow: u64 = if sailing { 2 } else { 1 };
    mix(owner(TURN, 0) ^ (flow << 8) ^ u64::from(first))
}

/// A player's ships not sunk, by increasing id (ids never change), so
/// move generation visits only the ships that can move, in the kernel's
/// order.
#[derive(Clone, Copy)]
struct Fleet {
    ships: [u8; SHIPS],
    len: usize,
}

impl Fleet {
    fn as_slice(&self) -> &[u8] {
        &self.ships[..self.len]
    }

    fn push(&mut self, piece: u8) {
        self.ships[self.len] = piece;
        self.len += 1;
    }

    fn remove(&mut self, piece: u8) {
        let at = self
            .as_slice()
            .iter()
            .position(|&s| s == piece)
            .expect("a sunk ship was afloat");
        self.ships.copy_within(at + 1..self.len, at);
        self.len -= 1;
    }
}

/// One game in progress.
pub struct Game<'t> {
    t: &'t Tables,
    kind: [u8; PIECES],
    owner: [u8; PIECES],
    /// A cell, [`RESERVE`] or [`ELIMINATED`].
    loc: [u8; PIECES],
    fleet: [Fleet; PLAYERS],
    /// Bit per player who may see the face; [`EVERYONE`] once revealed.
    seen: [u8; PIECES],
    /// The piece on each cell, or [`NONE`].
    board: [u8; CELLS],
    /// Bit `c` of `cells[p]`: player `p` has a ship on cell `c`. Move
    /// generation tests a step with a shift, reading no memory.
    cells: [u64; PLAYERS],
    /// Merchants not sunk, per player (for "last with Merchant").
    merchants: [u8; PLAYERS],
    /// Ships still to set up, per player.
    reserve: [u8; PLAYERS],
    /// Ships set up on rank 1 and rank 2, per player (quota use).
    placed: [[u8; 2]; PLAYERS],
    /// Bit 0: the player's Air Strike is used.
    used: [u8; PLAYERS],
    /// Each piece's key where it stands now, so a change computes only
    /// the new key.
    keys: [u64; PIECES],
    /// XOR of every piece's key, kept up to date on each change.
    piece_hash: u64,
    /// Position hashes after each action.
    history: Vec<u64>,
    /// Positions before this index cannot recur (a face was revealed).
    floor: usize,
    /// Bit `h >> 56` of this 256-bit set is on for every hash `h` in
    /// `history[floor..]`: a new position whose bit is off has not been
    /// seen, and most positions are new, so most plies skip the scan.
    seen_since_floor: [u64; 4],
    ply: u32,
    first: u8,
    to_move: u8,
    /// 0 and 1: the first and the second player setting up; 2: sailing.
    setup_step: u8,
    /// `Some(winner)` once the game is over (`Some(None)`: a draw).
    result: Option<Option<u8>>,
}

impl<'t> Game<'t> {
    /// A new game as `Engine::new_game` makes it: ships created
    /// player-major in kind order, all in reserve and seen by their owner;
    /// then shuffled (ids must not give hidden faces away); then the coin
    /// for the first player. `history` is a buffer to reuse (its contents
    /// are dropped).
    pub fn new(t: &'t Tables, seed: u64, mut history: Vec<u64>) -> Game<'t> {
        let mut rng = GameRng::new(seed);
        let mut start = [(0u8, 0u8); PIECES];
        let mut n = 0;
        for owner in 0..PLAYERS as u8 {
            for kind in 0..KINDS as u8 {
                for _ in 0..COUNTS[kind as usize] {
                    start[n] = (owner, kind);
                    n += 1;
                }
            }
        }
        rng.shuffle(&mut start);
        history.clear();
        let mut g = Game {
            t,
            kind: start.map(|(_, k)| k),
            owner: start.map(|(o, _)| o),
            loc: [RESERVE; PIECES],
            fleet: [Fleet {
                ships: [NONE; SHIPS],
                len: 0,
            }; PLAYERS],
            seen: start.map(|(o, _)| 1 << o),
            board: [NONE; CELLS],
            cells: [0; PLAYERS],
            merchants: [COUNTS[MERCHANT as usize]; PLAYERS],
            reserve: [SHIPS as u8; PLAYERS],
            placed: [[0; 2]; PLAYERS],
            used: [0; PLAYERS],
            keys: [0; PIECES],
            piece_hash: 0,
            history,
            floor: 0,
            seen_since_floor: [0; 4],
            ply: 0,
            first: 0,
            to_move: 0,
            setup_step: 0,
            result: None,
        };
        for i in 0..PIECES {
            g.rekey(i);
            g.fleet[g.owner[i] as usize].push(i as u8);
        }
        g.first = rng.below(PLAYERS as u32) as u8;
        g.to_move = g.first;
        g
    }

    /// Gives the history buffer back for the next game.
    pub fn into_history(self) -> Vec<u64> {
        self.history
    }

    /// Who decides now; `None` once the game is over.
    pub fn to_move(&self) -> Option<u8> {
        self.result.is_none().then_some(self.to_move)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.result.map(|winner| Outcome {
            winner,
            plies: self.ply,
        })
    }

    /// The position hash recorded after the last action (for debugging
    /// against the kernel's history).
    pub fn last_hash(&self) -> Option<u64> {
        self.history.last().copied()
    }

    /// The kernel's key of piece `i` where it stands now.
    #[inline]
    fn key(&self, i: usize) -> u64 {
        let loc = match self.loc[i] {
            RESERVE => 0x1_0000,
            ELIMINATED => 0x1_0001,
            cell => u32::from(cell),
        };
        piece_key(
            i as u16,
            u16::from(self.kind[i]),
            loc | (u32::from(self.owner[i]) << 17),
            self.seen[i],
        )
    }

    /// Brings piece `i`'s key, and with it the hash, up to date after a
    /// change.
    #[inline]
    fn rekey(&mut self, i: usize) {
        let key = self.key(i);
        self.piece_hash ^= self.keys[i] ^ key;
        self.keys[i] = key;
    }

    /// Moves piece `i` to `to` (a cell or a pool), keeping board and hash.
    #[inline]
    fn relocate(&mut self, i: usize, to: u8) {
        let from = self.loc[i];
        if (from as usize) < CELLS {
            self.board[from as usize] = NONE;
            self.cells[self.owner[i] as usize] &= !(1 << from);
        }
        self.loc[i] = to;
        self.rekey(i);
        if (to as usize) < CELLS {
            self.board[to as usize] = i as u8;
            self.cells[self.owner[i] as usize] |= 1 << to;
        }
    }

    /// Shows a face to everyone. A reveal is irreversible, so no earlier
    /// position can recur: the repetition count restarts here.
    #[inline]
    fn reveal(&mut self, i: usize) {
        if self.seen[i] != EVERYONE {
            self.seen[i] = EVERYONE;
            self.rekey(i);
            self.floor = self.history.len();
            self.seen_since_floor = [0; 4];
        }
    }

    fn eliminate(&mut self, i: usize) {
        self.relocate(i, ELIMINATED);
        self.fleet[self.owner[i] as usize].remove(i as u8);
        if self.kind[i] == MERCHANT {
            self.merchants[self.owner[i] as usize] -= 1;
        }
    }

    /// The first result stands (as `Engine::finish`).
    fn finish(&mut self, winner: Option<u8>) {
        if self.result.is_none() {
            self.result = Some(winner);
        }
    }

    /// Victory by reach: a Merchant on its owner's far row (rank 5).
    fn after_move(&mut self, i: usize) {
        let cell = self.loc[i] as usize;
        if self.kind[i] == MERCHANT
            && cell < CELLS
            && self.t.rank[self.owner[i] as usize][cell] == 5
        {
            self.finish(Some(self.owner[i]));
        }
    }

    /// Victory by "last with Merchant", checked after any ship sank.
    fn after_removal(&mut self) {
        match (self.merchants[0] > 0, self.merchants[1] > 0) {
            (false, false) => self.finish(None),
            (true, false) => self.finish(Some(0)),
            (false, true) => self.finish(Some(1)),
            (true, true) => {}
        }
    }

    /// Fills `out` with the legal actions in the kernel's canonical order.
    pub fn legal(&self, out: &mut Legal) {
        out.len = 0;
        if self.result.is_some() {
            return;
        }
        if self.setup_step < 2 {
            self.placements(out);
        } else {
            self.moves(out);
        }
        if out.len == 0 {
            out.push(Act::PASS);
        }
    }

    /// Set-up: the lowest-id reserve ship of each kind (in kind order),
    /// each crossed with the empty cells, in cell order, of the rows whose
    /// quota is not yet filled.
    fn placements(&self, out: &mut Legal) {
        let p = self.to_move as usize;
        let mut by_kind = [NONE; KINDS];
        // From the highest id down, so the lowest of each kind stays.
        for &i in self.fleet[p].as_slice().iter().rev() {
            if self.loc[i as usize] == RESERVE {
                by_kind[self.kind[i as usize] as usize] = i;
            }
        }
        let mut open = 0;
        for (row, &quota) in QUOTAS.iter().enumerate() {
            if self.placed[p][row] < quota {
                open |= self.t.setup_rows[p][row];
            }
        }
        open &= !(self.cells[0] | self.cells[1]);
        let mut n = out.len;
        for piece in by_kind.into_iter().filter(|&i| i != NONE) {
            // The open cells from the lowest bit up: in cell order.
            let mut cells = open;
            while cells != 0 {
                out.acts[n] = Act::new(PLACE, piece, cells.trailing_zeros() as u8);
                n += 1;
                cells &= cells - 1;
            }
        }
        out.len = n;
    }

    /// Sailing: for each of the mover's ships afloat, by id, its steps
    /// North, East, South, West onto an empty or enemy cell; then, while
    /// the Air Strike is unused, every occupied cell of ranks 4-5.
    ///
    /// In random play whether a step is legal is a coin toss for the
    /// branch predictor, so each candidate is written unconditionally and
    /// the list grows only when it is legal: no branch depends on the
    /// position.
    fn moves(&self, out: &mut Legal) {
        let p = self.to_move as usize;
        // A ship may end a step on any cell but its own side's.
        let open = ALL_CELLS & !self.cells[p];
        let mut n = out.len;
        for &piece in self.fleet[p].as_slice() {
            // The ship's four moves, one per 16-bit lane, North lowest.
            let mut moves = self.t.steps[self.loc[piece as usize] as usize]
                | (u64::from(Act::new(MOVE, piece, 0).0) * 0x0001_0001_0001_0001);
            // At most four more actions: one check for the four writes.
            let slots: &mut [Act; 4] = (&mut out.acts[n..n + 4]).try_into().expect("room");
            let mut k = 0;
            for _ in 0..4 {
                slots[k] = Act(moves as u16);
                // The lane's low six bits are its cell.
                k += (open >> (moves & 63)) as usize & 1;
                moves >>= 16;
            }
            n += k;
        }
        if self.used[p] == 0 {
            let occupied = self.cells[0] | self.cells[1];
            for target in self.t.strike_cells[p] {
                out.acts[n] = Act::new(STRIKE, 0, target);
                n += (occupied >> target) as usize & 1;
            }
        }
        out.len = n;
    }

    /// Plays a legal action, then checks repetition and the ply limit.
    pub fn apply(&mut self, act: Act) {
        self.ply += 1;
        let p = self.to_move;
        let other = 1 - p;
        match act.decode() {
            Decoded::Place { piece, to } => {
                let row = self.t.rank[p as usize][to as usize] as usize - 1;
                self.relocate(piece as usize, to);
                self.placed[p as usize][row] += 1;
                self.reserve[p as usize] -= 1;
                if self.reserve[p as usize] == 0 {
                    self.setup_step += 1;
                    self.to_move = if self.setup_step == 2 {
                        self.first
                    } else {
                        other
                    };
                }
                // The kernel hashes once the set-up frame is handed on (or
                // sailing has begun).
                let frame = if self.setup_step == 2 {
                    self.t.sailing_frame[self.to_move as usize]
                } else {
                    frame_hash(SETUP, self.to_move, u64::from(self.setup_step))
                };
                self.after_action(frame);
                return;
            }
            Decoded::Move { piece, to } => self.sail(piece as usize, to as usize),
            Decoded::Strike { target } => self.strike(target as usize),
            // Only offered when nothing else is legal, which never happens
            // during set-up.
            Decoded::Pass => assert!(self.setup_step == 2, "no pass during set-up"),
        }
        self.to_move = other;
        self.after_action(self.t.sailing_frame[other as usize]);
    }

    /// A step: onto an empty cell, or an attack on the enemy there.
    fn sail(&mut self, i: usize, to: usize) {
        let d = self.board[to];
        if d == NONE {
            self.relocate(i, to as u8);
            self.after_move(i);
            return;
        }
        let d = d as usize;
        self.reveal(i);
        self.reveal(d);
        let result = COMBAT[self.kind[i] as usize][self.kind[d] as usize];
        match result {
            Fight::Win => {
                self.eliminate(d);
                self.relocate(i, to as u8);
            }
            Fight::Bounce => {}
            Fight::Lose => self.eliminate(i),
            Fight::Both => {
                self.eliminate(d);
                self.eliminate(i);
            }
        }
        if result != Fight::Bounce {
            self.after_removal();
        }
        if result == Fight::Win {
            self.after_move(i);
        }
    }

    /// The Air Strike (rules.air_strike): used up, then the ship on the
    /// target is revealed and sunk; then every victory condition.
    fn strike(&mut self, target: usize) {
        self.used[self.to_move as usize] |= 1;
        let q = self.board[target];
        if q != NONE {
            self.reveal(q as usize);
            self.eliminate(q as usize);
        }
        for i in 0..PIECES {
            self.after_move(i);
        }
        self.after_removal();
    }

    /// After every action: the third occurrence of a position (counted
    /// since the last reveal) ends the game; so does the ply limit.
    fn after_action(&mut self, frame: u64) {
        if self.result.is_some() {
            return;
        }
        let t = self.t;
        let hash = self.piece_hash
            ^ t.player_part[0][self.used[0] as usize]
            ^ t.player_part[1][self.used[1] as usize]
            ^ frame
            ^ turn_hash(self.setup_step == 2, self.first);
        let (word, bit) = ((hash >> 62) as usize, 1 << (hash >> 56 & 63));
        let seen = if self.seen_since_floor[word] & bit == 0 {
            1
        } else {
            1 + self.history[self.floor..]
                .iter()
                .filter(|&&h| h == hash)
                .count()
        };
        self.seen_since_floor[word] |= bit;
        self.history.push(hash);
        if seen >= REPETITIONS {
            self.end_by_repetition();
        } else if self.ply >= MAX_PLIES {
            self.finish(None);
        }
    }

    /// rules.end_by_repetition: the player whose nearest Merchant has fewer
    /// rows left to its far row wins; then the one with more Merchants;
    /// else a draw. (Revealing every ship changes nothing that matters.)
    fn end_by_repetition(&mut self) {
        let mut nearest = [u8::MAX; PLAYERS];
        let mut count = [0u8; PLAYERS];
        for i in 0..PIECES {
            let cell = self.loc[i] as usize;
            if self.kind[i] == MERCHANT && cell < CELLS {
                let p = self.owner[i] as usize;
                count[p] += 1;
                nearest[p] = nearest[p].min(ROWS as u8 - self.t.rank[p][cell]);
            }
        }
        let winner = if nearest[0] != nearest[1] {
            Some(if nearest[0] < nearest[1] { 0 } else { 1 })
        } else if count[0] != count[1] {
            Some(if count[0] > count[1] { 0 } else { 1 })
        } else {
            None
        };
        self.finish(winner);
    }
}

/// One seat's random bot: its own stream, seeded from the game's seed.
pub fn bots(seed: u64) -> [GameRng; PLAYERS] {
    [0, 1].map(|p| GameRng::new(seat_seed(seed, PlayerId(p))))
}

/// Plays one game between random bots, as `sim::play_game` does.
/// `history` is a scratch buffer reused from game to game.
pub fn play(t: &Tables, seed: u64, history: &mut Vec<u64>) -> Outcome {
    let mut seats = bots(seed);
    let mut game = Game::new(t, seed, std::mem::take(history));
    let mut legal = Legal::new();
    while let Some(p) = game.to_move() {
        game.legal(&mut legal);
        let pick = seats[p as usize].below(legal.len as u32) as usize;
        game.apply(legal.acts[pick]);
    }
    let outcome = game.outcome().expect("a finished game has a result");
    *history = game.into_history();
    outcome
}
