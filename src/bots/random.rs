//! The random bot: a uniformly random legal action. It is the balance
//! baseline and the fastest playout policy.

use super::{Bot, Sight};
use crate::kernel::action::Action;
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
}

impl Bot for RandomBot {
    fn choose(&mut self, _sight: &Sight, legal: &[Action]) -> Result<usize, RulesError> {
        Ok(self.rng.below(legal.len() as u32) as usize)
    }
}
