//! Bots: seats played by the machine.
//!
//! A bot is handed a [`Sight`], not the game state: the only way to look at
//! the game through it is the view for the bot's own seat, so a bot cannot
//! read a face its seat may not see (DESIGN principle 6). A bot has its own
//! random stream, separate from the game's dice, so a game's log replays
//! the same whichever seats were bots.

mod random;

pub use random::RandomBot;

use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::piece::PlayerId;
use crate::kernel::state::GameState;
use crate::kernel::view::{View, Viewer};

/// What a bot may look at: the game as its seat sees it.
pub struct Sight<'a> {
    engine: &'a Engine,
    state: &'a GameState,
    pub seat: PlayerId,
}

impl<'a> Sight<'a> {
    pub fn new(engine: &'a Engine, state: &'a GameState, seat: PlayerId) -> Sight<'a> {
        Sight {
            engine,
            state,
            seat,
        }
    }

    /// The game as this seat sees it (built on demand: a bot that needs no
    /// look at the board pays nothing).
    pub fn view(&self) -> View {
        View::new(&self.engine.game, self.state, Viewer::Player(self.seat))
    }
}

pub trait Bot {
    /// Picks one of the legal actions (by index); `legal` is never empty.
    fn choose(&mut self, sight: &Sight, legal: &[Action]) -> usize;
}

/// The bots a seat can be given, by name.
pub const BOT_NAMES: &[&str] = &["random"];

/// Makes a bot by name, with its own seed.
pub fn make(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        _ => None,
    }
}

/// The seed of a seat's bot in a game: derived from the game's seed, so a
/// simulation is reproducible, but a different stream from the dice.
pub fn seat_seed(game_seed: u64, seat: PlayerId) -> u64 {
    crate::kernel::hash::mix(game_seed ^ 0xB07_5EA7 ^ (u64::from(seat.0) << 56))
}
