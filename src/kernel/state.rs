//! The whole game state, as plain data (DESIGN principle 1).
//!
//! Every mutation that the board's occupancy index or the position hash
//! depends on goes through a method here, so both stay consistent whether a
//! native phase or a Lua rule moved the piece.

use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::event::{Event, Outcome};
use crate::kernel::piece::{EVERYONE, KindId, Location, Piece, PieceId, PlayerId};
use crate::kernel::rng::GameRng;
use crate::kernel::value::{Value, Vars};
use serde::{Deserialize, Serialize};

mod copy;
mod position_hash;
mod repetition;
mod top_masks;

use position_hash::piece_key;
pub use position_hash::{PartKeys, VERSION as POSITION_HASH_VERSION};
pub use top_masks::{MAX_SPACES as MAX_MASKED_SPACES, TopMasks};

const NONE: u16 = u16::MAX;

/// One entry of the phase stack: a procedure in progress, with its context
/// as data, so a decision in the middle of it needs no suspended script.
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Frame {
    /// Index into the game's phase list.
    pub phase: u16,
    /// The player who decides in this frame.
    pub player: PlayerId,
    /// How far the procedure has come (its meaning belongs to the phase).
    pub step: u32,
    #[serde(default, skip_serializing_if = "Vars::is_empty")]
    pub ctx: Vars,
    /// Bit `p` set: player `p` may see `ctx` (every player unless the
    /// script that pushed the frame said otherwise; see `kernel::secrets`).
    #[serde(default = "everyone", skip_serializing_if = "is_everyone")]
    pub seen_by: u8,
    /// A scripted phase's pending decision: the choices it offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
}

impl Frame {
    pub fn new(phase: u16, player: PlayerId) -> Frame {
        Frame {
            phase,
            player,
            step: 0,
            ctx: Vars::new(),
            seen_by: EVERYONE,
            choices: Vec::new(),
        }
    }
}

fn everyone() -> u8 {
    EVERYONE
}

fn is_everyone(seen_by: &u8) -> bool {
    *seen_by == EVERYONE
}

/// What the kernel keeps for each player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerState {
    #[serde(default, skip_serializing_if = "Vars::is_empty")]
    pub vars: Vars,
    /// Bit `i`: the once-a-game special action `i` has been used.
    pub used_specials: u32,
}

/// A fresh random stream put in place before an action: the record that
/// lets a game whose dice were replaced (the REPL does so when an action is
/// played again after undo, so undo shows no die to come) replay exactly
/// from its seed, its actions and these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reseed {
    /// The action it came before, counted from 0 (the log's length then).
    pub at: usize,
    /// The fresh stream's seed.
    pub seed: u64,
}

/// Which pieces stand on each space: an intrusive list per space, two flat
/// vectors, so cloning a state copies two small buffers.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
struct Occupancy {
    head: Vec<u16>,
    next: Vec<u16>,
    /// Each player's pieces, by increasing id: move generation walks only
    /// the mover's pieces instead of testing every piece's owner.
    owned: Vec<Vec<PieceId>>,
    /// The owner of each space's first piece ([`EMPTY`] when none, [`NOBODY`]
    /// for an unowned piece): one byte per space that move generation reads
    /// without following a piece index.
    top: Vec<u8>,
    /// Whether `masks` and `at` are kept: only for a game whose moves the
    /// engine counts by masks ([`GameState::keep_top_masks`]); nothing
    /// else reads them, and keeping them costs every move.
    masked: bool,
    /// The same owners as bit masks, on a board of up to 64 spaces.
    masks: TopMasks,
    /// Each piece's space, or the number of spaces for a piece off the
    /// board: counting moves reads it with no branch on where a piece is.
    at: Vec<u16>,
}

/// [`GameState::top_owner`] of an empty space.
pub const EMPTY: u8 = u8::MAX;
/// [`GameState::top_owner`] of a space whose first piece has no owner.
pub const NOBODY: u8 = u8::MAX - 1;

/// A game in progress. Copied by [`Clone`] (see `state/copy.rs`:
/// `clone_from` reuses a scratch state's buffers).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pieces: Vec<Piece>,
    #[serde(skip)]
    occupancy: Occupancy,
    /// The game's variables; read with [`GameState::vars`], changed with
    /// [`GameState::vars_mut`] (which the script host's cache relies on).
    vars: Vars,
    /// Names the variables' contents: the Lua host's mirror of them is good
    /// for any state with the stamp it was made from (see [`VarsStamp`]).
    #[serde(skip)]
    vars_stamp: VarsStamp,
    pub players: Vec<PlayerState>,
    pub stack: Vec<Frame>,
    /// The next entry of the game's flow to start when the stack empties.
    pub flow: u16,
    pub first_player: PlayerId,
    pub rng: GameRng,
    /// Every fresh stream put in place since the start, in order (see
    /// [`GameState::reseed`]); empty in almost every game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reseeds: Vec<Reseed>,
    pub ply: u32,
    /// Every action applied so far, in order; empty when the game keeps
    /// no log (see [`GameState::logged`]).
    pub log: Vec<Action>,
    /// What happened, for narration; empty when the game is not narrated
    /// (see [`GameState::record`]).
    pub events: Vec<Event>,
    /// Whether events are recorded: off in simulations, where nobody reads
    /// them (`Engine::set_narration`).
    #[serde(skip, default = "recorded")]
    pub narrated: bool,
    /// Whether actions are kept in `log`: off in simulations, which count
    /// plies and never replay (`Engine::set_action_log`).
    #[serde(skip, default = "recorded")]
    pub logged: bool,
    /// Position hashes after each action, for repetition rules; the
    /// engine adds to it with [`GameState::record_position`].
    pub history: Vec<u64>,
    /// Positions before this index of `history` cannot recur (a face was
    /// revealed since), so repetition counts start here.
    #[serde(default)]
    pub history_floor: usize,
    #[serde(skip)]
    piece_hash: u64,
    /// Each piece's key in `piece_hash` as it stands (by piece id), so a
    /// change mixes only the new key: half of what hashing a move cost.
    #[serde(skip)]
    piece_keys: Vec<u64>,
    /// Which hashes `history` holds since the floor, roughly: what spares
    /// most records a scan (`state/repetition.rs`).
    #[serde(skip)]
    seen_bits: repetition::SeenBits,
    /// Bytes of the variables scripts keep here (see `script_data.rs`).
    #[serde(skip)]
    pub(crate) script_bytes: usize,
    pub result: Option<Outcome>,
}

impl GameState {
    /// A state with the given pieces (all in their pools or spaces already).
    pub fn new(pieces: Vec<Piece>, spaces: usize, players: usize, rng: GameRng) -> GameState {
        let mut state = GameState {
            pieces,
            occupancy: Occupancy::default(),
            vars: Vars::new(),
            vars_stamp: VarsStamp::default(),
            players: vec![PlayerState::default(); players],
            stack: Vec::new(),
            flow: 0,
            first_player: PlayerId(0),
            rng,
            reseeds: Vec::new(),
            ply: 0,
            log: Vec::new(),
            events: Vec::new(),
            narrated: true,
            logged: true,
            history: Vec::new(),
            history_floor: 0,
            piece_hash: 0,
            piece_keys: Vec::new(),
            seen_bits: repetition::SeenBits::default(),
            script_bytes: 0,
            result: None,
        };
        state.rebuild_index(spaces);
        state
    }

    /// Replaces the random stream from here on with a fresh one started
    /// from `seed`, and records it before the next action, so a replay
    /// from the seed and the log draws what this game draws.
    pub fn reseed(&mut self, seed: u64) {
        self.reseeds.push(Reseed {
            at: self.log.len(),
            seed,
        });
        self.rng = GameRng::new(seed);
    }

    /// Before the next action of a replay: puts in place the fresh stream
    /// that `reseeds` (a game's record) names for this point, if any.
    pub fn reseed_as_recorded(&mut self, reseeds: &[Reseed]) {
        let at = self.log.len();
        let done = self.reseeds.last().is_some_and(|r| r.at == at);
        if let Some(r) = reseeds.iter().find(|r| r.at == at)
            && !done
        {
            self.reseed(r.seed);
        }
    }

    /// Records an event when the game is narrated; `make` builds it only then.
    pub fn record(&mut self, make: impl FnOnce() -> Event) {
        if self.narrated {
            self.events.push(make());
        }
    }

    /// The game's variables.
    pub fn vars(&self) -> &Vars {
        &self.vars
    }

    /// The game's variables, to change: they take a new stamp, so the Lua
    /// host's mirror of them is loaded again before its next call.
    pub fn vars_mut(&mut self) -> &mut Vars {
        self.vars_stamp = VarsStamp::default();
        &mut self.vars
    }

    /// The stamp of the variables' contents: two states with the same stamp
    /// hold the same variables.
    pub fn vars_stamp(&self) -> u64 {
        self.vars_stamp.0
    }

    /// Reserves room for a game of `plies` actions in the log and the
    /// history, so a playout grows them without reallocating. (Events are
    /// few where nobody narrates them, and large: they grow as needed.)
    pub fn reserve_plies(&mut self, plies: usize) {
        if self.logged {
            self.log.reserve(plies);
        }
        self.history.reserve(plies);
    }

    /// Rebuilds what serialization skips: the occupancy index, each piece's
    /// key and the piece hash. Call after deserializing (a state read back
    /// and changed without it panics on its first piece change). The masks
    /// stay kept if they were.
    pub fn rebuild_index(&mut self, spaces: usize) {
        let masked = self.occupancy.masked;
        self.occupancy = Occupancy {
            head: vec![NONE; spaces],
            next: vec![NONE; self.pieces.len()],
            top: vec![EMPTY; spaces],
            owned: owned_lists(&self.pieces),
            masked: false,
            masks: TopMasks::empty(spaces),
            at: Vec::new(),
        };
        self.piece_keys.clear();
        self.piece_keys
            .extend(self.pieces.iter().enumerate().map(|(i, p)| piece_key(i, p)));
        self.piece_hash = self.piece_keys.iter().fold(0, |h, &key| h ^ key);
        for i in (0..self.pieces.len()).rev() {
            let piece = &self.pieces[i];
            if let Location::Space(s) = piece.loc {
                self.link(PieceId(i as u16), s);
            }
        }
        if masked {
            self.keep_top_masks();
        }
        self.script_bytes = self.measure_script_data();
    }

    /// Keeps the occupancy as bit masks too, from now on
    /// ([`GameState::top_masks`], [`GameState::piece_spaces`]): the engine
    /// asks for them when it counts some phase's moves by masks.
    pub fn keep_top_masks(&mut self) {
        let occ = &mut self.occupancy;
        if occ.masked {
            return;
        }
        occ.masked = true;
        let spaces = occ.head.len();
        occ.masks = TopMasks::empty(spaces);
        for (space, &top) in occ.top.iter().enumerate() {
            occ.masks.moved(SpaceId(space as u16), EMPTY, top);
        }
        occ.at = self
            .pieces
            .iter()
            .map(|p| match p.loc {
                Location::Space(s) => s.0,
                Location::Pool(_) => spaces as u16,
            })
            .collect();
    }

    /// Whether the occupancy is kept as masks ([`GameState::keep_top_masks`]).
    pub fn keeps_top_masks(&self) -> bool {
        self.occupancy.masked
    }

    /// Adds a piece (a reinforcement, a convoy's ship) and returns its id.
    pub fn add_piece(&mut self, piece: Piece) -> PieceId {
        let id = PieceId(self.pieces.len() as u16);
        let loc = piece.loc;
        let key = piece_key(id.0 as usize, &piece);
        self.piece_hash ^= key;
        self.piece_keys.push(key);
        self.pieces.push(piece);
        self.occupancy.next.push(NONE);
        if self.occupancy.masked {
            self.occupancy.at.push(self.occupancy.head.len() as u16);
        }
        self.index_owner(id);
        if let Location::Space(s) = loc {
            self.link(id, s);
        }
        id
    }

    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    pub fn piece(&self, id: PieceId) -> &Piece {
        &self.pieces[id.0 as usize]
    }

    pub fn piece_ids(&self) -> impl Iterator<Item = PieceId> {
        (0..self.pieces.len() as u16).map(PieceId)
    }

    /// The first piece on a space (lowest id), if any.
    pub fn first_at(&self, space: SpaceId) -> Option<PieceId> {
        let head = self.occupancy.head[space.0 as usize];
        (head != NONE).then_some(PieceId(head))
    }

    /// All pieces on a space, by increasing id.
    pub fn pieces_at(&self, space: SpaceId) -> impl Iterator<Item = PieceId> + '_ {
        let mut cur = self.occupancy.head[space.0 as usize];
        std::iter::from_fn(move || {
            (cur != NONE).then(|| {
                let id = PieceId(cur);
                cur = self.occupancy.next[cur as usize];
                id
            })
        })
    }

    /// Moves a piece to a new location, keeping the index and hash right.
    pub fn set_location(&mut self, id: PieceId, loc: Location) {
        let old = self.pieces[id.0 as usize].loc;
        if old == loc {
            return;
        }
        if let Location::Space(s) = old {
            self.unlink(id, s);
        }
        self.update(id, |p| p.loc = loc);
        if let Location::Space(s) = loc {
            self.link(id, s);
        }
    }

    /// Shows a piece's face to more players (`players` is a bit mask).
    /// Faces are never hidden again, so a reveal is irreversible: no
    /// earlier position can recur, and the repetition count restarts.
    pub fn reveal(&mut self, id: PieceId, players: u8) {
        let seen = self.pieces[id.0 as usize].seen_by | players;
        if seen != self.pieces[id.0 as usize].seen_by {
            self.update(id, |p| p.seen_by = seen);
            self.history_floor = self.history.len();
        }
    }

    /// Sets exactly who sees a piece's face, hiding it again from some (a
    /// card shuffled back into its deck). Earlier positions may then recur
    /// with other knowledge, so the repetition count restarts.
    pub fn set_seen_by(&mut self, id: PieceId, players: u8) {
        if players != self.pieces[id.0 as usize].seen_by {
            self.update(id, |p| p.seen_by = players);
            self.history_floor = self.history.len();
        }
    }

    pub fn set_kind(&mut self, id: PieceId, kind: KindId) {
        self.update(id, |p| p.kind = kind);
    }

    pub fn set_owner(&mut self, id: PieceId, owner: Option<PlayerId>) {
        let from = self.pieces[id.0 as usize].owner;
        if from != owner {
            self.record(|| Event::OwnerChanged {
                piece: id,
                from,
                to: owner,
            });
        }
        for list in &mut self.occupancy.owned {
            list.retain(|&p| p != id);
        }
        self.update(id, |p| p.owner = owner);
        self.index_owner(id);
        if let Location::Space(s) = self.pieces[id.0 as usize].loc {
            self.refresh_top(s);
        }
    }

    /// The owner of the first piece on a space, as a byte: the player's
    /// index, [`EMPTY`] or [`NOBODY`].
    pub fn top_owner(&self, space: SpaceId) -> u8 {
        self.occupancy.top[space.0 as usize]
    }

    /// [`GameState::top_owner`] of every space, indexed by space.
    pub fn top_owners(&self) -> &[u8] {
        &self.occupancy.top
    }

    /// [`GameState::top_owner`] of every space as bit masks, when they are
    /// kept ([`GameState::keeps_top_masks`]) and the board has at most
    /// [`MAX_MASKED_SPACES`] spaces (meaningless otherwise).
    pub fn top_masks(&self) -> &TopMasks {
        &self.occupancy.masks
    }

    /// Each piece's space index (by piece id), or the number of spaces
    /// for a piece off the board, when the masks are kept
    /// ([`GameState::keeps_top_masks`]; meaningless otherwise).
    pub fn piece_spaces(&self) -> &[u16] {
        &self.occupancy.at
    }

    /// A player's pieces, by increasing id.
    pub fn pieces_of(&self, player: PlayerId) -> &[PieceId] {
        self.occupancy
            .owned
            .get(player.0 as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// Files a piece under its owner, keeping the list sorted by id.
    fn index_owner(&mut self, id: PieceId) {
        let Some(owner) = self.pieces[id.0 as usize].owner else {
            return;
        };
        let lists = &mut self.occupancy.owned;
        if lists.len() <= owner.0 as usize {
            lists.resize(owner.0 as usize + 1, Vec::new());
        }
        let list = &mut lists[owner.0 as usize];
        let at = list.partition_point(|&p| p < id);
        list.insert(at, id);
    }

    fn refresh_top(&mut self, space: SpaceId) {
        self.set_top(space, self.occupancy.head[space.0 as usize]);
    }

    /// Records `head` (a piece id, or [`NONE`]) as the first piece on a
    /// space: its owner's byte, and the masks when they are kept. Only a
    /// change of a space's first piece calls it, with the piece in hand.
    #[inline]
    fn set_top(&mut self, space: SpaceId, head: u16) {
        let top = match head {
            NONE => EMPTY,
            h => self.pieces[h as usize].owner.map_or(NOBODY, |o| o.0),
        };
        let old = std::mem::replace(&mut self.occupancy.top[space.0 as usize], top);
        if self.occupancy.masked {
            self.occupancy.masks.moved(space, old, top);
        }
    }

    /// Sets (or with `None`, clears) a piece attribute.
    pub fn set_piece_attr(&mut self, id: PieceId, name: &str, value: Option<Value>) {
        self.update(id, |p| set_var(&mut p.attrs, name, value));
    }

    /// Replaces all of a piece's attributes (a determinized sample gives a
    /// hidden piece its sampled kind's).
    pub fn set_piece_attrs(&mut self, id: PieceId, attrs: Vars) {
        self.update(id, |p| p.attrs = attrs);
    }

    /// Changes a piece, replacing its key in the piece hash.
    fn update(&mut self, id: PieceId, change: impl FnOnce(&mut Piece)) {
        let i = id.0 as usize;
        change(&mut self.pieces[i]);
        let key = piece_key(i, &self.pieces[i]);
        self.piece_hash ^= std::mem::replace(&mut self.piece_keys[i], key) ^ key;
    }

    /// Inserts a piece into a space's list, keeping the list sorted by id so
    /// the order of `pieces_at` is canonical whatever the move history.
    /// The space's top byte changes only when the piece goes first (a
    /// ship sailing into an empty cell, most moves): a piece further down
    /// the list leaves it as it was, and is not read again. Always
    /// inlined: the compiler kept it a call, which cost a Convoy ply 11
    /// instructions.
    #[inline(always)]
    fn link(&mut self, id: PieceId, space: SpaceId) {
        let occ = &mut self.occupancy;
        if occ.masked {
            occ.at[id.0 as usize] = space.0;
        }
        let head = occ.head[space.0 as usize];
        if head == NONE || head > id.0 {
            occ.next[id.0 as usize] = head;
            occ.head[space.0 as usize] = id.0;
            self.set_top(space, id.0);
            return;
        }
        let mut prev = head;
        let mut cur = occ.next[head as usize];
        while cur != NONE && cur < id.0 {
            prev = cur;
            cur = occ.next[cur as usize];
        }
        occ.next[id.0 as usize] = cur;
        occ.next[prev as usize] = id.0;
    }

    /// Takes a piece out of a space's list; the top byte changes only when
    /// it was the first piece (see [`GameState::link`]).
    fn unlink(&mut self, id: PieceId, space: SpaceId) {
        let occ = &mut self.occupancy;
        let after = std::mem::replace(&mut occ.next[id.0 as usize], NONE);
        if occ.masked {
            occ.at[id.0 as usize] = occ.head.len() as u16;
        }
        if occ.head[space.0 as usize] == id.0 {
            occ.head[space.0 as usize] = after;
            self.set_top(space, after);
            return;
        }
        let mut cur = occ.head[space.0 as usize];
        while occ.next[cur as usize] != id.0 {
            cur = occ.next[cur as usize];
        }
        occ.next[cur as usize] = after;
    }
}

/// Each owner's pieces, by increasing id ([`GameState::pieces_of`]), for
/// a state's index built anew: counted first, so each list is made at
/// its size and filled in id order. Filing them one by one, each list
/// growing and searched for its place, cost some 3,500 instructions a
/// new Convoy game (about 40 a ply of a random one).
fn owned_lists(pieces: &[Piece]) -> Vec<Vec<PieceId>> {
    let mut counts: Vec<usize> = Vec::new();
    for owner in pieces.iter().filter_map(|p| p.owner) {
        let o = usize::from(owner.0);
        if counts.len() <= o {
            counts.resize(o + 1, 0);
        }
        counts[o] += 1;
    }
    let mut lists: Vec<Vec<PieceId>> = counts.into_iter().map(Vec::with_capacity).collect();
    for (i, piece) in pieces.iter().enumerate() {
        if let Some(owner) = piece.owner {
            lists[usize::from(owner.0)].push(PieceId(i as u16));
        }
    }
    lists
}

fn recorded() -> bool {
    true
}

/// A stamp of a state's variables, for caches of them: a new state, a copy
/// read from a file and every change take a stamp never given before, and a
/// clone keeps its original's. So two states with the same stamp hold the
/// same variables: one is a clone of the other, and neither has changed
/// them since. (A bot weighing moves clones one state for each move it
/// tries, so the host's mirror of the variables can follow it from clone
/// to clone instead of loading each anew.) Equality of states ignores it.
#[derive(Debug, Clone)]
struct VarsStamp(u64);

impl Default for VarsStamp {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        VarsStamp(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl PartialEq for VarsStamp {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for VarsStamp {}

/// Sets or clears one variable.
pub fn set_var(vars: &mut Vars, name: &str, value: Option<Value>) {
    match value {
        Some(v) => vars.set(name, v),
        None => {
            vars.remove(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::piece::{ELIMINATED, RESERVE};

    fn piece(kind: u16) -> Piece {
        Piece {
            kind: KindId(kind),
            owner: Some(PlayerId(0)),
            loc: Location::Pool(RESERVE),
            seen_by: 1,
            attrs: Vars::new(),
        }
    }

    fn state() -> GameState {
        GameState::new(vec![piece(0), piece(1), piece(2)], 4, 2, GameRng::new(1))
    }

    #[test]
    fn occupancy_lists_stay_sorted_by_id() {
        let mut s = state();
        for id in [2, 0, 1] {
            s.set_location(PieceId(id), Location::Space(SpaceId(3)));
        }
        assert_eq!(
            s.pieces_at(SpaceId(3)).collect::<Vec<_>>(),
            [PieceId(0), PieceId(1), PieceId(2)]
        );
        s.set_location(PieceId(1), Location::Pool(ELIMINATED));
        assert_eq!(
            s.pieces_at(SpaceId(3)).collect::<Vec<_>>(),
            [PieceId(0), PieceId(2)]
        );
        assert_eq!(s.first_at(SpaceId(3)), Some(PieceId(0)));
        assert_eq!(s.first_at(SpaceId(2)), None);
    }

    #[test]
    fn position_hash_returns_when_the_position_does() {
        let mut s = state();
        let start = s.position_hash();
        s.set_location(PieceId(0), Location::Space(SpaceId(1)));
        let moved = s.position_hash();
        assert_ne!(start, moved);
        s.set_location(PieceId(0), Location::Pool(RESERVE));
        assert_eq!(s.position_hash(), start);
        s.reveal(PieceId(0), 3);
        assert_ne!(
            s.position_hash(),
            start,
            "a revealed face is a different position"
        );
    }

    #[test]
    fn incremental_hash_matches_a_rebuild() {
        let mut s = state();
        s.set_location(PieceId(2), Location::Space(SpaceId(0)));
        s.set_piece_attr(PieceId(1), "damaged", Some(Value::Bool(true)));
        let incremental = s.position_hash();
        s.rebuild_index(4);
        assert_eq!(s.position_hash(), incremental);
    }

    #[test]
    fn each_piece_keeps_its_key_through_every_change() {
        // The key kept for each piece is the one a rebuild computes, after
        // every kind of change a piece goes through.
        let mut s = state();
        let check = |s: &GameState, what: &str| {
            let mut rebuilt = s.clone();
            rebuilt.rebuild_index(4);
            assert_eq!(rebuilt.piece_keys, s.piece_keys, "{what}");
            assert_eq!(rebuilt.position_hash(), s.position_hash(), "{what}");
        };
        s.set_location(PieceId(0), Location::Space(SpaceId(2)));
        check(&s, "a move");
        s.set_location(PieceId(1), Location::Space(SpaceId(2)));
        s.set_location(PieceId(0), Location::Pool(ELIMINATED));
        check(&s, "a capture");
        s.reveal(PieceId(1), 3);
        s.set_seen_by(PieceId(2), 2);
        check(&s, "who sees a face");
        s.set_kind(PieceId(2), KindId(0));
        s.set_owner(PieceId(2), Some(PlayerId(1)));
        check(&s, "a face and an owner");
        s.set_piece_attr(PieceId(1), "hits", Some(Value::Int(2)));
        check(&s, "an attribute");
        s.add_piece(piece(3));
        check(&s, "a piece added");
        let mut copy = state();
        copy.clone_from(&s);
        check(&copy, "a copy written over another state");
    }

    #[test]
    fn a_serialized_state_comes_back_equal() {
        let mut s = state();
        s.set_location(PieceId(1), Location::Space(SpaceId(2)));
        let json = serde_json::to_string(&s).unwrap();
        let mut back: GameState = serde_json::from_str(&json).unwrap();
        back.rebuild_index(4);
        assert_eq!(back, s);
        assert_eq!(back.position_hash(), s.position_hash());
    }
}
