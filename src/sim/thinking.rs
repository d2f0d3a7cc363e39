//! How long each seat's bot thought in a run: decisions, seconds a
//! decision and a search's iterations a second. Designers weigh a search
//! bot's strength against its cost, and a ladder rung (`ismcts:1s`) is
//! read against what a decision really bought on this machine. Clock
//! figures, like the run's seconds: never part of a reproducible report.

use serde::Serialize;
use std::time::Duration;

/// One seat's thinking over the games of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SeatThinking {
    /// Decisions with more than one legal action (a forced move costs
    /// nothing and is not counted).
    pub decisions: u64,
    pub seconds: f64,
    /// A search bot's iterations (0 for bots that do not search).
    pub iterations: u64,
}

impl SeatThinking {
    pub fn add(&mut self, other: &SeatThinking) {
        self.decisions += other.decisions;
        self.seconds += other.seconds;
        self.iterations += other.iterations;
    }
}

/// Every seat's thinking, by player index.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Thinking(pub Vec<SeatThinking>);

impl Thinking {
    fn seat(&mut self, seat: usize) -> &mut SeatThinking {
        if self.0.len() <= seat {
            self.0.resize(seat + 1, SeatThinking::default());
        }
        &mut self.0[seat]
    }

    /// One decision of `seat` that took `took`.
    pub fn decided(&mut self, seat: usize, took: Duration) {
        let s = self.seat(seat);
        s.decisions += 1;
        s.seconds += took.as_secs_f64();
    }

    pub fn searched(&mut self, seat: usize, iterations: u64) {
        self.seat(seat).iterations += iterations;
    }

    pub fn add(&mut self, other: &Thinking) {
        for (seat, s) in other.0.iter().enumerate() {
            self.seat(seat).add(s);
        }
    }

    /// One line per seat whose bot thought (only bots that weigh their
    /// moves are timed, so random seats say nothing), for standard error:
    /// `  blue (ismcts:5000): 221 decisions, 0.81 s a decision, 6150 iterations/s`.
    pub fn lines<'a>(&self, seats: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
        seats
            .zip(&self.0)
            .filter(|(_, s)| s.decisions > 0)
            .map(|((player, bot), s)| {
                let mut line = format!(
                    "  {player} ({bot}): {} decision{}, {} s a decision",
                    s.decisions,
                    if s.decisions == 1 { "" } else { "s" },
                    super::report::rate_text(s.seconds / s.decisions as f64)
                );
                if s.iterations > 0 {
                    line += &format!(
                        ", {} iterations/s",
                        super::report::rate_text(s.iterations as f64 / s.seconds.max(1e-9))
                    );
                }
                line
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bots_that_thought_get_a_line() {
        let mut t = Thinking::default();
        t.decided(1, Duration::from_millis(500));
        t.decided(1, Duration::from_millis(1500));
        t.searched(1, 12_000);
        t.decided(2, Duration::from_millis(20));
        let seats = [
            ("white", "random"),
            ("green", "ismcts:6000"),
            ("yellow", "greedy"),
        ];
        assert_eq!(
            t.lines(seats.into_iter()),
            vec![
                "  green (ismcts:6000): 2 decisions, 1.00 s a decision, 6000 iterations/s",
                "  yellow (greedy): 1 decision, 0.02 s a decision",
            ]
        );
    }

    #[test]
    fn threads_add_up_by_seat() {
        let mut a = Thinking::default();
        a.decided(0, Duration::from_secs(1));
        let mut b = Thinking::default();
        b.decided(1, Duration::from_secs(2));
        b.searched(1, 10);
        a.add(&b);
        assert_eq!(a.0.len(), 2);
        assert_eq!(a.0[1].iterations, 10);
        assert_eq!(a.0[0].decisions, 1);
    }
}
