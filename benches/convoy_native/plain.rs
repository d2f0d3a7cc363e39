//! Mediterranean Convoy (base rules) as one might first write it in Rust:
//! a board of `Option<Ship>`, a `Vec` of legal moves refilled each ply, a
//! branch wherever the rules have a condition, a Zobrist hash for the
//! repetition rule. A yardstick for the baseline ([`super::native`]),
//! which must play the engine's exact games (its list orders and its hash
//! are the kernel's) and should still be at least as fast as this.
//!
//! It plays the same rules with the same kind of random players (the
//! kernel's [`GameRng`], a uniform pick among the legal moves) but not the
//! same games: nothing here follows the kernel's piece ids, list orders or
//! hash, so only its time per ply compares.

use portolan::kernel::hash::mix;
use portolan::kernel::rng::GameRng;

const COLUMNS: usize = 7;
const ROWS: usize = 5;
const CELLS: usize = COLUMNS * ROWS;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Cruiser,
    Destroyer,
    Merchant,
    Submarine,
}

const KINDS: [Kind; 4] = [
    Kind::Cruiser,
    Kind::Destroyer,
    Kind::Merchant,
    Kind::Submarine,
];
const FLEET: [u8; 4] = [1, 3, 4, 2];
/// Ships set up on a player's first and second row.
const QUOTAS: [u8; 2] = [7, 3];
const MAX_PLIES: u32 = 5000;

#[derive(Clone, Copy)]
struct Ship {
    kind: Kind,
    owner: usize,
    revealed: bool,
}

#[derive(Clone, Copy)]
enum Move {
    Place { kind: Kind, to: usize },
    Sail { from: usize, to: usize },
    Strike { at: usize },
    Pass,
}

enum Fight {
    Win,
    Bounce,
    Both,
}

/// The attack table, from the attacker's side.
fn fight(attacker: Kind, defender: Kind) -> Fight {
    use Kind::*;
    match (attacker, defender) {
        (Merchant, _) => Fight::Bounce,
        (a, d) if a == d => Fight::Both,
        (Cruiser, Submarine) | (Destroyer, Cruiser) | (Submarine, Destroyer) => Fight::Bounce,
        _ => Fight::Win,
    }
}

/// Row of a cell counted from the player's own edge, from 1.
fn rank(player: usize, cell: usize) -> usize {
    let row = cell / COLUMNS;
    if player == 0 { row + 1 } else { ROWS - row }
}

fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (col, row) = (cell % COLUMNS, cell / COLUMNS);
    [
        (row + 1 < ROWS).then(|| cell + COLUMNS),
        (col + 1 < COLUMNS).then(|| cell + 1),
        (row > 0).then(|| cell - COLUMNS),
        (col > 0).then(|| cell - 1),
    ]
    .into_iter()
    .flatten()
}

/// Zobrist keys, one per ship state on each cell, plus the turn and the
/// used Air Strikes.
struct Keys {
    ship: [[[[u64; 2]; 4]; 2]; CELLS],
    second_to_move: u64,
    strike_used: [u64; 2],
}

impl Keys {
    fn new() -> Keys {
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            mix(n)
        };
        let mut keys = Keys {
            ship: [[[[0; 2]; 4]; 2]; CELLS],
            second_to_move: next(),
            strike_used: [next(), next()],
        };
        for cell in keys.ship.iter_mut() {
            for owner in cell.iter_mut() {
                for kind in owner.iter_mut() {
                    for revealed in kind.iter_mut() {
                        *revealed = next();
                    }
                }
            }
        }
        keys
    }

    fn of(&self, cell: usize, ship: Ship) -> u64 {
        self.ship[cell][ship.owner][ship.kind as usize][usize::from(ship.revealed)]
    }
}

struct Game<'k> {
    keys: &'k Keys,
    board: [Option<Ship>; CELLS],
    reserve: [[u8; 4]; 2],
    placed: [[u8; 2]; 2],
    strike_used: [bool; 2],
    merchants: [u8; 2],
    first: usize,
    to_move: usize,
    setting_up: bool,
    hash: u64,
    history: Vec<u64>,
    /// Positions before this index of `history` cannot recur (a ship was
    /// revealed since).
    since: usize,
    plies: u32,
    /// `Some(winner)` once over; `Some(None)` is a draw.
    result: Option<Option<usize>>,
}

impl<'k> Game<'k> {
    fn new(keys: &'k Keys, rng: &mut GameRng) -> Game<'k> {
        let first = rng.below(2) as usize;
        Game {
            keys,
            board: [None; CELLS],
            reserve: [FLEET; 2],
            placed: [[0; 2]; 2],
            strike_used: [false; 2],
            merchants: [FLEET[Kind::Merchant as usize]; 2],
            first,
            to_move: first,
            setting_up: true,
            hash: 0,
            history: Vec::with_capacity(256),
            since: 0,
            plies: 0,
            result: None,
        }
    }

    fn legal(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let p = self.to_move;
        if self.setting_up {
            for kind in KINDS {
                if self.reserve[p][kind as usize] == 0 {
                    continue;
                }
                for to in 0..CELLS {
                    let rank = rank(p, to);
                    if rank <= 2
                        && self.placed[p][rank - 1] < QUOTAS[rank - 1]
                        && self.board[to].is_none()
                    {
                        moves.push(Move::Place { kind, to });
                    }
                }
            }
        } else {
            for from in 0..CELLS {
                match self.board[from] {
                    Some(ship) if ship.owner == p => {}
                    _ => continue,
                }
                for to in neighbours(from) {
                    match self.board[to] {
                        Some(other) if other.owner == p => {}
                        _ => moves.push(Move::Sail { from, to }),
                    }
                }
            }
            if !self.strike_used[p] {
                for at in 0..CELLS {
                    if rank(p, at) >= 4 && self.board[at].is_some() {
                        moves.push(Move::Strike { at });
                    }
                }
            }
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    fn put(&mut self, cell: usize, ship: Option<Ship>) {
        if let Some(old) = self.board[cell] {
            self.hash ^= self.keys.of(cell, old);
        }
        if let Some(new) = ship {
            self.hash ^= self.keys.of(cell, new);
        }
        self.board[cell] = ship;
    }

    fn reveal(&mut self, cell: usize) {
        if let Some(ship) = self.board[cell].filter(|s| !s.revealed) {
            self.put(
                cell,
                Some(Ship {
                    revealed: true,
                    ..ship
                }),
            );
            self.since = self.history.len();
        }
    }

    fn sink(&mut self, cell: usize) {
        if let Some(ship) = self.board[cell] {
            if ship.kind == Kind::Merchant {
                self.merchants[ship.owner] -= 1;
            }
            self.put(cell, None);
        }
    }

    fn finish(&mut self, winner: Option<usize>) {
        if self.result.is_none() {
            self.result = Some(winner);
        }
    }

    fn check_merchants(&mut self) {
        match self.merchants {
            [0, 0] => self.finish(None),
            [_, 0] => self.finish(Some(0)),
            [0, _] => self.finish(Some(1)),
            _ => {}
        }
    }

    fn apply(&mut self, m: Move) {
        let p = self.to_move;
        self.plies += 1;
        match m {
            Move::Place { kind, to } => {
                self.put(
                    to,
                    Some(Ship {
                        kind,
                        owner: p,
                        revealed: false,
                    }),
                );
                self.reserve[p][kind as usize] -= 1;
                self.placed[p][rank(p, to) - 1] += 1;
                if self.reserve[p] == [0; 4] {
                    if self.reserve[1 - p] == [0; 4] {
                        self.setting_up = false;
                        self.to_move = self.first;
                    } else {
                        self.to_move = 1 - p;
                    }
                }
            }
            Move::Sail { from, to } => {
                self.sail(from, to);
                self.to_move = 1 - p;
            }
            Move::Strike { at } => {
                self.strike_used[p] = true;
                self.hash ^= self.keys.strike_used[p];
                self.reveal(at);
                self.sink(at);
                self.check_merchants();
                self.to_move = 1 - p;
            }
            Move::Pass => self.to_move = 1 - p,
        }
        self.after_move();
    }

    /// A step onto an empty cell, or an attack on the enemy there.
    /// A step onto an empty cell, or an attack on the enemy there.
    fn sail(&mut self, from: usize, to: usize) {
        if let Some(enemy) = self.board[to] {
            let attacker = self.board[from].expect("a ship sails");
            self.reveal(from);
            self.reveal(to);
            match fight(attacker.kind, enemy.kind) {
                Fight::Bounce => return,
                Fight::Both => {
                    self.sink(to);
                    self.sink(from);
                    self.check_merchants();
                    return;
                }
                Fight::Win => {
                    self.sink(to);
                    self.check_merchants();
                }
            }
        }
        let ship = self.board[from].expect("a ship sails");
        self.put(from, None);
        self.put(to, Some(ship));
        if ship.kind == Kind::Merchant && rank(ship.owner, to) == ROWS {
            self.finish(Some(ship.owner));
        }
    }

    /// The third occurrence of a position ends the game; so does the ply
    /// limit.
    fn after_move(&mut self) {
        if self.result.is_some() {
            return;
        }
        let hash = self.hash
            ^ if self.to_move == 1 {
                self.keys.second_to_move
            } else {
                0
            };
        let seen = 1 + self.history[self.since..]
            .iter()
            .filter(|&&h| h == hash)
            .count();
        self.history.push(hash);
        if seen >= 3 {
            self.end_by_repetition();
        } else if self.plies >= MAX_PLIES {
            self.finish(None);
        }
    }

    fn end_by_repetition(&mut self) {
        let mut nearest = [usize::MAX; 2];
        let mut count = [0; 2];
        for (cell, ship) in self.board.iter().enumerate() {
            if let Some(s) = ship.filter(|s| s.kind == Kind::Merchant) {
                count[s.owner] += 1;
                nearest[s.owner] = nearest[s.owner].min(ROWS - rank(s.owner, cell));
            }
        }
        let winner = if nearest[0] != nearest[1] {
            Some(usize::from(nearest[1] < nearest[0]))
        } else if count[0] != count[1] {
            Some(usize::from(count[1] > count[0]))
        } else {
            None
        };
        self.finish(winner);
    }
}

/// The fixed tables shared by every game.
pub struct Plain {
    keys: Keys,
}

impl Plain {
    pub fn new() -> Plain {
        Plain { keys: Keys::new() }
    }

    /// Plays one game between random players; returns its plies.
    pub fn play(&self, seed: u64) -> u32 {
        let mut dice = GameRng::new(seed);
        let mut players = [GameRng::new(mix(seed ^ 1)), GameRng::new(mix(seed ^ 2))];
        let mut game = Game::new(&self.keys, &mut dice);
        let mut moves = Vec::with_capacity(64);
        while game.result.is_none() {
            game.legal(&mut moves);
            let pick = players[game.to_move].below(moves.len() as u32) as usize;
            game.apply(moves[pick]);
        }
        game.plies
    }
}
