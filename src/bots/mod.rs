//! Bots: seats played by the machine.
//!
//! A bot is handed a [`Sight`], not the game state: the game as its seat
//! sees it, and samples of the full states its seat could be in
//! ([`Sight::sample`]), so a bot cannot read a face its seat may not see
//! (DESIGN principle 6). A bot has its own random stream, separate from the
//! game's dice, so a game's log replays the same whichever seats were bots.
//!
//! Bots are made from specs (see [`spec`]): `random`, `greedy`,
//! `ismcts:2000`, `ismcts:100ms`, `ismcts:1s`.

mod greedy;
mod ismcts;
mod random;
mod reward;
pub mod spec;
mod watch;

pub use greedy::GreedyBot;
pub use ismcts::IsmctsBot;
pub use random::RandomBot;
pub use spec::{Budget, Spec};
pub use watch::Watch;

use crate::kernel::action::Action;
use crate::kernel::determinize;
use crate::kernel::engine::Engine;
use crate::kernel::legal::Legal;
use crate::kernel::piece::PlayerId;
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::GameState;
use crate::kernel::view::{View, Viewer};

/// What a bot may look at: the game as its seat sees it.
pub struct Sight<'a> {
    engine: &'a Engine,
    state: &'a GameState,
    pub seat: PlayerId,
    /// Who watches a searching bot think, if anyone does.
    watch: Option<&'a Watch>,
}

impl<'a> Sight<'a> {
    pub fn new(engine: &'a Engine, state: &'a GameState, seat: PlayerId) -> Sight<'a> {
        Sight {
            engine,
            state,
            seat,
            watch: None,
        }
    }

    /// The same sight, with `watch` told of a search's progress and able
    /// to stop it.
    pub fn watched(self, watch: &'a Watch) -> Sight<'a> {
        Sight {
            watch: Some(watch),
            ..self
        }
    }

    /// The rules being played (they hold no game state).
    pub fn engine(&self) -> &'a Engine {
        self.engine
    }

    /// The game as this seat sees it (built on demand: a bot that needs no
    /// look at the board pays nothing).
    pub fn view(&self) -> View {
        View::new(&self.engine.game, self.state, Viewer::Player(self.seat))
    }

    /// A full state this seat could be in, drawn with the bot's `rng`:
    /// hidden faces and future dice sampled (see `kernel::determinize`).
    /// Searching bots play on these, never on the real game. An error,
    /// naming them, when the game keeps secrets from this seat that
    /// neither the kernel nor the package's sampler can draw: a bot that
    /// searches cannot play the seat fairly then.
    pub fn sample(&self, rng: &mut GameRng) -> Result<GameState, RulesError> {
        determinize::sample(self.engine, self.state, self.seat, rng)
    }

    /// The next sample after `sample` (one this sight drew), drawn with
    /// the bot's `rng` exactly as [`Sight::sample`] would: written over
    /// it, its buffers kept, and where samples differ only in their dice
    /// ([`Sight::samples_differ`]), only its dice redealt.
    pub fn resample(
        &self,
        sample: &mut GameState,
        differ: bool,
        rng: &mut GameRng,
    ) -> Result<(), RulesError> {
        if differ {
            determinize::sample_over(self.engine, self.state, self.seat, rng, sample)
        } else {
            determinize::redeal_dice(sample, rng);
            Ok(())
        }
    }

    /// Whether two samples can differ in more than their dice: false when
    /// this seat sees every face and the package draws nothing for it, so
    /// a bot weighs a dice-free line once instead of once a sample.
    pub fn samples_differ(&self) -> bool {
        determinize::samples_differ(self.engine, self.state, self.seat)
    }
}

pub trait Bot {
    /// Picks one of the legal actions (by index); `legal` is never empty.
    /// Only a rule script can fail (a bot that asks the rules).
    fn choose(&mut self, sight: &Sight, legal: &[Action]) -> Result<usize, RulesError>;

    /// The same pick, among actions counted by the kernel and listed only
    /// if this bot reads them (`kernel::legal`): the random bot needs
    /// their count alone. Picks what [`Bot::choose`] would on the list.
    fn choose_among(&mut self, sight: &Sight, legal: &mut Legal) -> Result<usize, RulesError> {
        self.choose(sight, legal.list())
    }

    /// The search iterations this bot has run over all its decisions
    /// (what a report's iterations a second count); 0 for bots that do
    /// not search.
    fn iterations(&self) -> u64 {
        0
    }
}

/// Makes a bot from its spec (`random`, `greedy`, `ismcts:500`,
/// `ismcts:100ms`, `ismcts:1s`), with its own seed; a bad spec is an error listing the
/// valid forms.
pub fn make(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    Ok(match Spec::parse(spec)? {
        Spec::Random => Box::new(RandomBot::new(seed)),
        Spec::Greedy => Box::new(GreedyBot::new(seed)),
        Spec::Ismcts(budget) => Box::new(IsmctsBot::new(budget, seed)),
    })
}

/// Makes the bot `spec` names for `seat` of the game `engine` plays. A
/// search bot is refused here, before any move, where the game declares
/// secrets this seat may not see and the package has no sampler for:
/// refused only once a secret was written, it would play on in the games
/// where the dice went the other way, and so know which way they went.
pub fn seat(
    engine: &Engine,
    spec: &str,
    seat: PlayerId,
    seed: u64,
) -> Result<Box<dyn Bot>, String> {
    if Spec::parse(spec)?.samples() {
        let game = &engine.game;
        if let Some(why) = crate::kernel::secrets::seat_refusal(game, seat, engine.has_sampler()) {
            return Err(why);
        }
    }
    make(spec, seed)
}

/// The seed of a seat's bot in a game: derived from the game's seed, so a
/// simulation is reproducible, but a different stream from the dice.
pub fn seat_seed(game_seed: u64, seat: PlayerId) -> u64 {
    crate::kernel::hash::mix(game_seed ^ 0xB07_5EA7 ^ (u64::from(seat.0) << 56))
}

/// Runs `f` with the rules' narration off: a bot's lookahead is read by
/// nobody, and the REPL's narrated engine would pay for it. Narration is
/// put back as it was.
fn quietly<R>(engine: &Engine, f: impl FnOnce() -> R) -> R {
    struct Restore<'a>(&'a Engine);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            self.0.set_narration(true);
        }
    }
    if !engine.narrating() {
        return f();
    }
    engine.set_narration(false);
    let _restore = Restore(engine);
    f()
}
