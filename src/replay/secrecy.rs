//! Who may read an action in notation: what a replay's stop may name on
//! one seat's screen (DESIGN principle 6: every view that leaves the
//! kernel is filtered for one player).
//!
//! A move, a special action and a pass name places, which every player
//! sees. A placement names the piece's kind, which only those who see its
//! face may read. A scripted choice's words are its mover's alone: the
//! kernel cannot tell whether a rule makes them public, so they count as
//! secret, and another seat reads "a hidden action".

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::piece::{EVERYONE, player_bit};
use crate::kernel::state::GameState;
use crate::kernel::view::Viewer;

/// The players who may read `action`, legal in `state`: bit `i` for
/// player `i`.
pub fn readers(engine: &Engine, state: &GameState, action: Action) -> u8 {
    match action {
        Action::Move { .. } | Action::Special { .. } | Action::Pass => EVERYONE,
        Action::Place { piece, .. } => state.piece(piece).seen_by | mover(engine, state),
        Action::Choice(_) => mover(engine, state),
    }
}

/// The player who decides in `state`, as a set of one (none once the game
/// is over).
pub fn mover(engine: &Engine, state: &GameState) -> u8 {
    engine.to_move(state).map_or(0, player_bit)
}

/// Whether `viewer` may read what `readers` may: the god view reads
/// everything, the table (a spectator) only what every player may.
pub fn sees(viewer: Viewer, readers: u8) -> bool {
    match viewer {
        Viewer::All => true,
        Viewer::Player(p) => readers & player_bit(p) != 0,
        Viewer::Public => readers == EVERYONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::piece::PlayerId;

    #[test]
    fn a_secret_is_read_by_its_readers_and_the_god_view_only() {
        let blue = Viewer::Player(PlayerId(0));
        let red = Viewer::Player(PlayerId(1));
        let blues = player_bit(PlayerId(0));
        assert!(sees(blue, blues) && !sees(red, blues));
        assert!(sees(Viewer::All, blues) && !sees(Viewer::Public, blues));
        assert!(sees(Viewer::Public, EVERYONE) && sees(red, EVERYONE));
        assert!(!sees(blue, 0), "an action nobody may read is hidden");
    }
}
