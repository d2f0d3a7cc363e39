//! The random bot: a uniformly random legal action. It is the balance
//! baseline and the fastest playout policy.

use super::{Bot, Sight};
use crate::kernel::action::Action;
use crate::kernel::legal::Legal;
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;

pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: GameRng::new(seed),
        }
    }

    /// One of `count` actions, by index: the count is all it reads.
    fn pick(&mut self, count: usize) -> usize {
        self.rng.below(count as u32) as usize
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _sight: &Sight, legal: &[Action]) -> Result<usize, RulesError> {
        Ok(self.pick(legal.len()))
    }

    fn choose_among(&mut self, _sight: &Sight, legal: &mut Legal) -> Result<usize, RulesError> {
        Ok(self.pick(legal.len()))
    }
}
