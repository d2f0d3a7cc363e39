//! What rule scripts keep in the game state, and how much they may keep.
//!
//! Scripts remember everything in the kernel (DESIGN principle 1): game,
//! player and frame variables, piece attributes, pieces they create and
//! frames they push. That memory lives outside the Lua state's own limit,
//! so it is counted here, in approximate bytes, and a write that would pass
//! the limit fails with a clear error instead of growing the host without
//! bound.

use crate::kernel::piece::{Piece, PieceId, PlayerId};
use crate::kernel::state::{Frame, GameState};
use crate::kernel::value::{Value, VarLayout, Vars};
use std::rc::Rc;

/// Bookkeeping that a map entry costs besides its name and text.
const ENTRY: usize = 32;

/// The most pieces a game may have: ids are 16 bits.
pub const MAX_PIECES: usize = u16::MAX as usize;

/// Where a script keeps a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Game,
    Player(PlayerId),
    /// The context of the frame at this depth of the phase stack.
    Frame(usize),
    Piece(PieceId),
}

/// The approximate bytes one variable takes.
pub fn entry_size(name: &str, value: &Value) -> usize {
    ENTRY
        + name.len()
        + match value {
            Value::Str(s) => s.len(),
            _ => 0,
        }
}

/// Sets (or with `None` clears) `name` in `vars`, keeping `bytes`, the
/// scripts' data, within `limit`; nothing changes if it would pass it.
fn set_within(
    vars: &mut Vars,
    bytes: &mut usize,
    name: &str,
    value: Option<Value>,
    limit: usize,
) -> Result<(), String> {
    match (vars.get_mut(name), value) {
        (Some(slot), Some(v)) => {
            charge(bytes, entry_size(name, &v), entry_size(name, slot), limit)?;
            *slot = v;
        }
        (Some(slot), None) => {
            charge(bytes, 0, entry_size(name, slot), limit)?;
            vars.remove(name);
        }
        (None, Some(v)) => {
            charge(bytes, entry_size(name, &v), 0, limit)?;
            vars.insert_new(name, v);
        }
        (None, None) => {}
    }
    Ok(())
}

/// Swaps `value` with `slot` of `vars`, laid out by `layout` (`None`:
/// unset), keeping `bytes`, the scripts' data, up to date; returns by how
/// many bytes the variable grew.
fn swap_slot(
    vars: &mut Vars,
    layout: &VarLayout,
    bytes: &mut usize,
    slot: usize,
    value: &mut Option<Value>,
) -> usize {
    let name = layout.name(slot);
    let size = |v: &Option<Value>| v.as_ref().map_or(0, |v| entry_size(name, v));
    let new_size = size(value);
    vars.swap_slot(slot, value);
    let old_size = size(value);
    *bytes = (*bytes + new_size).saturating_sub(old_size);
    new_size.saturating_sub(old_size)
}

fn vars_size(vars: &Vars) -> usize {
    vars.iter_unordered().map(|(k, v)| entry_size(k, v)).sum()
}

/// The bytes a piece takes, its attributes included.
pub fn piece_size(piece: &Piece) -> usize {
    std::mem::size_of::<Piece>() + vars_size(&piece.attrs)
}

/// The bytes a frame takes, its context and choices included.
pub fn frame_size(frame: &Frame) -> usize {
    std::mem::size_of::<Frame>()
        + vars_size(&frame.ctx)
        + frame.choices.iter().map(|c| ENTRY + c.len()).sum::<usize>()
}

impl GameState {
    /// Everything counted against the limit, measured from scratch.
    pub(crate) fn measure_script_data(&self) -> usize {
        vars_size(self.vars())
            + self
                .players
                .iter()
                .map(|p| vars_size(&p.vars))
                .sum::<usize>()
            + self.stack.iter().map(frame_size).sum::<usize>()
            + self.pieces().iter().map(piece_size).sum::<usize>()
    }

    /// A variable, or `None` when it is not set (or the scope is gone).
    pub fn script_var(&self, scope: Scope, name: &str) -> Option<&Value> {
        match scope {
            Scope::Game => self.vars().get(name),
            Scope::Player(p) => self.players.get(p.0 as usize)?.vars.get(name),
            Scope::Frame(depth) => self.stack.get(depth)?.ctx.get(name),
            Scope::Piece(id) => self.pieces().get(id.0 as usize)?.attrs.get(name),
        }
    }

    /// Sets (or with `None` clears) a variable, unless the scripts' data
    /// would then pass `limit` bytes.
    pub fn set_script_var(
        &mut self,
        scope: Scope,
        name: &str,
        value: Option<Value>,
        limit: usize,
    ) -> Result<(), String> {
        if let Scope::Piece(id) = scope {
            // Attributes are part of the piece's hash: the state updates both.
            let old = self.pieces()[id.0 as usize].attrs.get(name);
            let old = old.map_or(0, |v| entry_size(name, v));
            let new = value.as_ref().map_or(0, |v| entry_size(name, v));
            charge(&mut self.script_bytes, new, old, limit)?;
            self.set_piece_attr(id, name, value);
            return Ok(());
        }
        let mut bytes = self.script_bytes;
        let vars = match scope {
            Scope::Game => self.vars_mut(),
            Scope::Player(p) => &mut self.players[p.0 as usize].vars,
            Scope::Frame(depth) => &mut self.stack[depth].ctx,
            Scope::Piece(_) => unreachable!("handled above"),
        };
        set_within(vars, &mut bytes, name, value, limit)?;
        self.script_bytes = bytes;
        Ok(())
    }

    /// Sets laid-out game variables all at once, by slot (`None` clears
    /// one), under one new stamp: the rules' sheet taken back after a call
    /// (`script::api::sheet`). The state's variables adopt `layout` first
    /// (a new game's already have: `Engine::new`), so each value is swapped
    /// with the slot's old one, with no name to find. The data limit
    /// applies to the result, as to the writes of a rule that made them
    /// one by one in the best order (one that shrinks pays for one that
    /// grows); past it, every old value is put back and the error names
    /// the variable that grew the most.
    pub fn set_game_slots(
        &mut self,
        layout: &Rc<VarLayout>,
        changes: &mut [(usize, Option<Value>)],
        limit: usize,
    ) -> Result<(), String> {
        let before = self.script_bytes;
        let mut bytes = before;
        let vars = self.vars_mut();
        vars.adopt(layout);
        let mut most = (0, 0);
        for (slot, value) in changes.iter_mut() {
            let grew = swap_slot(vars, layout, &mut bytes, *slot, value);
            if grew > most.0 {
                most = (grew, *slot);
            }
        }
        if bytes > before && bytes > limit {
            for (slot, value) in changes.iter_mut().rev() {
                swap_slot(vars, layout, &mut bytes, *slot, value);
            }
            return Err(format!(
                "the values taken back from vars.sheet ('{}' grew the most) would take more \
                 than {} KiB of the game state for the rules' variables, pieces and frames (a \
                 variable growing without bound?)",
                layout.name(most.1),
                limit / 1024
            ));
        }
        self.script_bytes = bytes;
        Ok(())
    }

    /// Adds a piece a script made, within the piece and data limits.
    pub fn add_script_piece(&mut self, piece: Piece, limit: usize) -> Result<PieceId, String> {
        if self.pieces().len() >= MAX_PIECES {
            return Err(format!(
                "a game holds at most {MAX_PIECES} pieces (piece ids are 16 bits): \
                 reuse eliminated pieces instead of creating new ones"
            ));
        }
        charge(&mut self.script_bytes, piece_size(&piece), 0, limit)?;
        Ok(self.add_piece(piece))
    }

    /// Pushes a frame a script asked for, within the data limit.
    pub fn push_script_frame(&mut self, frame: Frame, limit: usize) -> Result<(), String> {
        charge(&mut self.script_bytes, frame_size(&frame), 0, limit)?;
        self.stack.push(frame);
        Ok(())
    }
}

/// Counts `new` bytes in place of `old` in `total`, unless that passes
/// `limit` (shrinking is always allowed).
fn charge(total: &mut usize, new: usize, old: usize, limit: usize) -> Result<(), String> {
    let after = (*total + new).saturating_sub(old);
    if new > old && after > limit {
        return Err(format!(
            "the rules' variables, pieces and frames would take more than {} KiB of the \
             game state (a variable growing without bound, or too many of them?)",
            limit / 1024
        ));
    }
    *total = after;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::rng::GameRng;

    #[test]
    fn writes_are_counted_and_refused_past_the_limit() {
        let mut s = GameState::new(Vec::new(), 0, 1, GameRng::new(1));
        let text = |n: usize| Some(Value::Str("x".repeat(n)));
        s.set_script_var(Scope::Game, "a", text(600), 1000).unwrap();
        assert!(s.set_script_var(Scope::Game, "b", text(600), 1000).is_err());
        assert_eq!(
            s.script_var(Scope::Game, "b"),
            None,
            "a refused write changes nothing"
        );
        s.set_script_var(Scope::Game, "a", text(900), 1000).unwrap();
        s.set_script_var(Scope::Game, "a", None, 1000).unwrap();
        assert_eq!(s.script_bytes, 0);
        s.set_script_var(Scope::Player(PlayerId(0)), "b", text(600), 1000)
            .unwrap();
        assert_eq!(s.measure_script_data(), s.script_bytes);
    }
}
