//! What a search backs up from the end of one line of play: a reward for
//! every player, from a finished game or from a position the search cut
//! off and scored with the rules' heuristic (`rules.evaluate`).
//!
//! With two or more players a reward is a chance of winning, in 0..1: a
//! winner gets 1 and the others 0; a game that ends with scores and no
//! winner, or a position cut off, gives each player the logistic of its
//! lead over the best other player. Heuristics speak in their own units
//! (Convoy's ship worth, Mediterranea's victory points), so the lead is
//! divided by the mean size of the leads this search has seen: a usual
//! lead is then worth about 0.73, whatever the game.
//!
//! Alone (the solitaire game) a reward is the score itself, or the
//! heuristic's value, which a package writes on the score's scale: the
//! search then plays for the best expected score.

use crate::kernel::event::Outcome;

pub struct Rewards {
    players: usize,
    /// The sum and number of the leads seen, for their mean size.
    leads: f64,
    seen: u32,
}

impl Rewards {
    pub fn new(players: usize) -> Rewards {
        Rewards {
            players,
            leads: 0.0,
            seen: 0,
        }
    }

    /// The rewards of a finished game (`None`: it stopped with no outcome,
    /// an equal share each).
    pub fn of_outcome(&mut self, outcome: Option<&Outcome>) -> Vec<f64> {
        match outcome {
            Some(Outcome {
                winner: Some(w), ..
            }) if self.players > 1 => (0..self.players)
                .map(|p| if p == w.0 as usize { 1.0 } else { 0.0 })
                .collect(),
            Some(o) if o.scores.len() == self.players => {
                let scores: Vec<f64> = o.scores.iter().map(|&s| s as f64).collect();
                self.of_values(&scores)
            }
            _ => vec![1.0 / self.players as f64; self.players],
        }
    }

    /// The rewards of a position each player values at `values` (by
    /// player): the values themselves alone, else chances from the leads.
    pub fn of_values(&mut self, values: &[f64]) -> Vec<f64> {
        if self.players == 1 {
            return values.to_vec();
        }
        let leads: Vec<f64> = (0..values.len())
            .map(|p| {
                let best_other = (0..values.len())
                    .filter(|&q| q != p)
                    .map(|q| values[q])
                    .fold(f64::NEG_INFINITY, f64::max);
                values[p] - best_other
            })
            .collect();
        for lead in &leads {
            self.leads += lead.abs();
            self.seen += 1;
        }
        let usual = self.leads / f64::from(self.seen);
        let scale = if usual > 0.0 { usual } else { 1.0 };
        leads
            .iter()
            .map(|lead| 1.0 / (1.0 + (-lead / scale).exp()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::piece::PlayerId;

    fn outcome(winner: Option<u8>, scores: Vec<i64>) -> Outcome {
        Outcome {
            winner: winner.map(PlayerId),
            reason: String::new(),
            scores,
            by_limit: false,
        }
    }

    #[test]
    fn a_winner_takes_one_and_the_others_nothing() {
        let mut r = Rewards::new(4);
        assert_eq!(
            r.of_outcome(Some(&outcome(Some(2), vec![]))),
            vec![0.0, 0.0, 1.0, 0.0]
        );
    }

    #[test]
    fn leads_become_chances_whatever_the_heuristic_s_units() {
        for unit in [0.01, 1.0, 1000.0] {
            let mut r = Rewards::new(3);
            let chances = r.of_values(&[5.0 * unit, 1.0 * unit, 2.0 * unit]);
            assert!(chances[0] > 0.5 && chances[1] < chances[2] && chances[2] < 0.5);
            let again = r.of_values(&[5.0 * unit, 1.0 * unit, 2.0 * unit]);
            assert!((again[0] - chances[0]).abs() < 1e-9, "{unit}");
        }
    }

    #[test]
    fn alone_the_reward_is_the_score() {
        let mut r = Rewards::new(1);
        assert_eq!(r.of_outcome(Some(&outcome(None, vec![37]))), vec![37.0]);
        assert_eq!(r.of_values(&[12.5]), vec![12.5]);
    }

    #[test]
    fn a_game_with_no_winner_and_no_scores_is_shared() {
        let mut r = Rewards::new(2);
        assert_eq!(r.of_outcome(None), vec![0.5, 0.5]);
    }
}
