//! The position hash: what repetition rules count, and what `replay`,
//! `load` and `reload` compare to tell a game that now goes elsewhere.
//!
//! It covers every part of the state that the rules can read, each under
//! its owner's key: a piece's kind, owner, place, who sees its face and
//! its attributes under that piece; the game's variables; each player's
//! variables and used special actions under that player; each frame of the
//! phase stack (phase, player, step, context, the choices it offers) under
//! its depth; the flow, the first player, and the result once there is
//! one. Keying by owner is what tells two pieces that swap an attribute's
//! values apart: a sum of (name, value) pairs without their owner would
//! call that the same position.
//!
//! Left out, because they are not the position but how it was reached or
//! what comes next: the ply count (a position repeats at another ply), the
//! action log, the events, the repetition history and the RNG's place in
//! its stream (two positions whose future dice differ are still the same
//! position on the board).
//!
//! Every structure is taken apart field by field (no `..`), so a field
//! added to a piece, a frame, a player or the state does not compile until
//! it is hashed here or named as left out, with the reason.
//!
//! Pieces are hashed incrementally (the state keeps the sum of their keys
//! up to date as they change, see [`piece_key`]); the rest is summed when
//! asked, and an empty variable set costs a branch. The engine, which
//! hashes after every action, keeps the mixed keys of the parts that
//! seldom change by their inputs ([`PartKeys`]: a frame without context
//! or choices, a player's used specials, the turn), so an unchanged part
//! is compared, not mixed anew; the hash is the same value either way.

use crate::kernel::event::Outcome;
use crate::kernel::hash::{mix, piece_key as packed_piece_key, str_key};
use crate::kernel::piece::{Location, MAX_PLAYERS, Piece, PlayerId};
use crate::kernel::state::{Frame, GameState, PlayerState};
use crate::kernel::value::{Value, Vars};

/// The version of the position hash, kept in saves beside the hashes they
/// record: hashes of another version are not compared. Bump it whenever
/// the hash of any position changes (the pinned test below fails then).
/// Version 1 summed attributes and variables without their owner.
pub const VERSION: u32 = 2;

/// The owners of data, each with its own key space: an owner's key is its
/// domain in the top byte and its index (a piece id, a player, a depth)
/// below.
#[derive(Clone, Copy)]
enum Owner {
    PieceAttrs = 1,
    GameVars,
    PlayerVars,
    PlayerSpecials,
    Frame,
    FrameCtx,
    FrameChoices,
    Turn,
    Result,
}

fn owner(domain: Owner, index: usize) -> u64 {
    ((domain as u64) << 56) | index as u64
}

/// A value under its type, so `true`, `1` and `"1"` differ.
fn value_key(value: &Value) -> u64 {
    match value {
        Value::Bool(b) => mix(0xB001_0000 ^ u64::from(*b)),
        Value::Int(i) => mix(mix(*i as u64) ^ 0x1A7E_6E40),
        Value::Str(s) => mix(str_key(s) ^ 0x5781_0000),
    }
}

/// A set of variables under its owner: the entries' keys combined
/// order-free (a map has no order), then mixed with the owner's key. An
/// empty set is 0, so a piece or frame without variables pays nothing
/// (inlined for that common case: several sets a ply, most empty).
#[inline]
fn vars_key(owner: u64, vars: &Vars) -> u64 {
    if vars.is_empty() {
        0
    } else {
        filled_vars_key(owner, vars)
    }
}

fn filled_vars_key(owner: u64, vars: &Vars) -> u64 {
    let entries = vars.iter_unordered().fold(0, |h, (name, value)| {
        h ^ mix(str_key(name) ^ value_key(value).rotate_left(17))
    });
    mix(owner ^ entries)
}

/// A list of words in order under its owner (0 for an empty list, which
/// is inlined: most frames offer no choices).
#[inline]
fn words_key(owner: u64, words: &[String]) -> u64 {
    if words.is_empty() {
        0
    } else {
        filled_words_key(owner, words)
    }
}

fn filled_words_key(owner: u64, words: &[String]) -> u64 {
    words.iter().fold(mix(owner), |h, w| mix(h ^ str_key(w)))
}

/// One piece's key, attributes included, under its id. The state keeps
/// the XOR of every piece's key up to date as pieces change (twice a
/// move: inlined).
#[inline]
pub(super) fn piece_key(index: usize, piece: &Piece) -> u64 {
    let Piece {
        kind,
        owner: held_by,
        loc,
        seen_by,
        attrs,
    } = piece;
    let place = match loc {
        Location::Space(s) => u32::from(s.0),
        Location::Pool(pool) => 0x1_0000 | u32::from(pool.0),
    };
    // Players are fewer than 8 (their visibility is a bit each): 4 bits
    // hold any player and "nobody", clear of the 17 bits of the place.
    let holder = held_by.map_or(8, |o| u32::from(o.0));
    packed_piece_key(index as u16, kind.0, place | (holder << 17), *seen_by)
        ^ vars_key(owner(Owner::PieceAttrs, index), attrs)
}

/// A frame under its depth.
#[inline]
fn frame_key(depth: usize, frame: &Frame) -> u64 {
    let Frame {
        phase: _,
        player: _,
        step: _,
        ctx,
        choices,
        seen_by,
    } = frame;
    // Who may see the context is part of it: a secret is another position.
    mix(mix(owner(Owner::Frame, 0) ^ frame_numbers(depth, frame)) ^ u64::from(*seen_by))
        ^ vars_key(owner(Owner::FrameCtx, depth), ctx)
        ^ words_key(owner(Owner::FrameChoices, depth), choices)
}

/// A frame's numbers in one word beside the depth's low byte (phase 16
/// bits, player 8, step 32), so they take one mix.
#[inline]
fn frame_numbers(depth: usize, frame: &Frame) -> u64 {
    ((depth as u64) << 56)
        ^ (u64::from(frame.phase) << 40)
        ^ (u64::from(frame.player.0) << 32)
        ^ u64::from(frame.step)
}

fn result_key(outcome: &Outcome) -> u64 {
    let Outcome {
        winner,
        reason,
        scores,
        by_limit,
    } = outcome;
    let head = winner.map_or(0x100, |w| u64::from(w.0)) | (u64::from(*by_limit) << 9);
    let h = mix(owner(Owner::Result, 0) ^ mix(head) ^ str_key(reason));
    scores.iter().fold(h, |h, &s| mix(h ^ s as u64))
}

/// Mixed keys of the parts of a position that seldom change, each kept
/// with the inputs it was mixed from: a part whose inputs are the same
/// takes its key back instead of mixing it anew (two mixes a frame, one
/// for the turn and for each player's used specials: most of the hash of
/// a Convoy ply, where only a piece changed). A key is kept only where its
/// inputs say it all (a frame without context or choices), so the hash
/// is the one computed from nothing. Held by the engine, for all the
/// states it plays: keys depend on inputs, not on the state.
#[derive(Clone, Debug, Default)]
pub struct PartKeys {
    /// Frames, a slot each by depth and player (a two-player movement
    /// phase's frame alternates between two).
    frames: [Option<FrameSlot>; FRAME_SLOTS],
    /// Each player's used specials (none used is 0, never kept).
    specials: [(u32, u64); MAX_PLAYERS],
    /// The flow's place and the first player.
    turn: Option<(u16, PlayerId, u64)>,
}

const FRAME_SLOTS: usize = 4;

/// A frame's numbers and who sees its context, with their key.
#[derive(Clone, Copy, Debug)]
struct FrameSlot {
    numbers: u64,
    seen_by: u8,
    key: u64,
}

impl PartKeys {
    /// [`frame_key`], kept for a frame without context or choices.
    #[inline]
    fn frame(&mut self, depth: usize, frame: &Frame) -> u64 {
        if !frame.ctx.is_empty() || !frame.choices.is_empty() {
            return frame_key(depth, frame);
        }
        let numbers = frame_numbers(depth, frame);
        let slot = &mut self.frames[(depth ^ usize::from(frame.player.0)) % FRAME_SLOTS];
        match slot {
            Some(kept) if kept.numbers == numbers && kept.seen_by == frame.seen_by => kept.key,
            _ => {
                let key = frame_key(depth, frame);
                *slot = Some(FrameSlot {
                    numbers,
                    seen_by: frame.seen_by,
                    key,
                });
                key
            }
        }
    }

    /// [`specials_key`], kept per player.
    #[inline]
    fn specials(&mut self, index: usize, used: u32) -> u64 {
        match self.specials.get_mut(index) {
            _ if used == 0 => 0,
            Some((kept, key)) if *kept == used => *key,
            Some(slot) => {
                *slot = (used, specials_key(index, used));
                slot.1
            }
            None => specials_key(index, used),
        }
    }

    /// [`turn_key`], kept.
    #[inline]
    fn turn(&mut self, flow: u16, first: PlayerId) -> u64 {
        match self.turn {
            Some((f, p, key)) if (f, p) == (flow, first) => key,
            _ => {
                let key = turn_key(flow, first);
                self.turn = Some((flow, first, key));
                key
            }
        }
    }
}

/// A player's used special actions under that player (0 for none).
fn specials_key(index: usize, used: u32) -> u64 {
    match used {
        0 => 0,
        used => mix(owner(Owner::PlayerSpecials, index) ^ u64::from(used)),
    }
}

/// The flow's place and the first player.
fn turn_key(flow: u16, first: PlayerId) -> u64 {
    mix(owner(Owner::Turn, 0) ^ (u64::from(flow) << 8) ^ u64::from(first.0))
}

impl GameState {
    /// The hash of the position (see the module doc for what it covers).
    pub fn position_hash(&self) -> u64 {
        self.position_hash_with(&mut PartKeys::default())
    }

    /// [`GameState::position_hash`], taking back the keys of parts whose
    /// inputs `parts` has kept (and keeping the others'): the same value.
    /// Always inlined (three callers): as a call it cost a Convoy ply 5
    /// instructions.
    #[inline(always)]
    pub fn position_hash_with(&self, parts: &mut PartKeys) -> u64 {
        let GameState {
            // Summed into `piece_hash` as they change (each one's key
            // kept in `piece_keys`).
            pieces: _,
            piece_keys: _,
            piece_hash,
            vars,
            players,
            stack,
            flow,
            first_player,
            result,
            // How the position was reached, or what comes after it.
            ply: _,
            log: _,
            events: _,
            history: _,
            history_floor: _,
            rng: _,
            reseeds: _,
            // Indexes and caches of the fields above.
            occupancy: _,
            seen_bits: _,
            vars_stamp: _,
            script_bytes: _,
            narrated: _,
            logged: _,
        } = self;
        let mut h = *piece_hash ^ vars_key(owner(Owner::GameVars, 0), vars);
        for (i, p) in players.iter().enumerate() {
            let PlayerState {
                vars,
                used_specials,
            } = p;
            h ^= vars_key(owner(Owner::PlayerVars, i), vars) ^ parts.specials(i, *used_specials);
        }
        for (depth, f) in stack.iter().enumerate() {
            h ^= parts.frame(depth, f);
        }
        h ^= parts.turn(*flow, *first_player);
        if let Some(outcome) = result {
            h ^= result_key(outcome);
        }
        h
    }
}

#[cfg(test)]
mod tests;
