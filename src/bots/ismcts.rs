//! Information-set Monte Carlo tree search (single observer, SO-ISMCTS,
//! with UCB1), after Cowling, Powley and Whitehouse (2012).
//!
//! One tree is grown over the bot's information set. Each iteration draws
//! a determinization (a full state its seat could be in: hidden faces
//! shuffled among the identities still unseen, future dice reseeded; see
//! `kernel::determinize`), walks down the tree choosing among the children
//! legal in that sample, adds one node, finishes the game with random
//! moves, and backs up what each player got. The real state is never
//! searched, so the bot's choice depends only on what its seat has seen.
//!
//! Any number of players: a node holds the total reward of the player who
//! chose its action. A win is worth 1, a loss 0, a game with no winner an
//! equal share (1/players), or, when the game is scored, each player's
//! score; UCB1 compares rewards rescaled to the lowest and highest backed
//! up so far, so scores of any size explore like wins and losses.
//!
//! Budgets: a number of iterations (the same decisions on every machine)
//! or a time per decision (decisions then depend on the machine's speed
//! and load, so results are not reproducible).

use super::{Bot, Budget, Sight, quietly};
use crate::kernel::action::Action;
use crate::kernel::event::Outcome;
use crate::kernel::piece::PlayerId;
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;
use std::time::Instant;

/// UCB1's exploration constant for rewards in 0..1.
const EXPLORATION: f64 = 0.7;

pub struct IsmctsBot {
    budget: Budget,
    rng: GameRng,
}

impl IsmctsBot {
    pub fn new(budget: Budget, seed: u64) -> IsmctsBot {
        IsmctsBot {
            budget,
            rng: GameRng::new(seed),
        }
    }
}

/// A node: the action that leads to it from its parent, chosen by `mover`.
struct Node {
    action: Action,
    mover: PlayerId,
    children: Vec<usize>,
    visits: u32,
    /// How often this node's action was legal when its parent was visited.
    available: u32,
    /// `mover`'s total reward over the visits.
    reward: f64,
}

/// The tree and what one search has seen of the rewards.
struct Search {
    nodes: Vec<Node>,
    low: f64,
    high: f64,
}

impl Bot for IsmctsBot {
    fn choose(&mut self, sight: &Sight, legal: &[Action]) -> Result<usize, RulesError> {
        if legal.len() == 1 {
            return Ok(0);
        }
        let start = Instant::now();
        let mut search = Search {
            nodes: vec![Node {
                action: Action::Pass,
                mover: sight.seat,
                children: Vec::new(),
                visits: 0,
                available: 0,
                reward: 0.0,
            }],
            low: f64::INFINITY,
            high: f64::NEG_INFINITY,
        };
        quietly(sight.engine(), || -> Result<(), RulesError> {
            let mut done = 0u32;
            while match self.budget {
                Budget::Iterations(n) => done < n,
                Budget::Time(t) => done == 0 || start.elapsed() < t,
            } {
                search.iterate(sight, legal, &mut self.rng)?;
                done += 1;
            }
            Ok(())
        })?;
        let root = &search.nodes[0];
        let best = root
            .children
            .iter()
            .map(|&c| &search.nodes[c])
            .max_by(|a, b| {
                (a.visits, a.reward)
                    .partial_cmp(&(b.visits, b.reward))
                    .expect("rewards are numbers")
            })
            .expect("the root has children after one iteration");
        Ok(legal
            .iter()
            .position(|&a| a == best.action)
            .expect("root children are legal actions"))
    }
}

impl Search {
    /// One iteration: sample, select and expand, play out, back up.
    fn iterate(
        &mut self,
        sight: &Sight,
        root_legal: &[Action],
        rng: &mut GameRng,
    ) -> Result<(), RulesError> {
        let engine = sight.engine();
        let mut state = sight.sample(rng)?;
        let mut path = vec![0];
        let mut legal = Vec::new();
        let mut node = 0;
        // Selection and expansion.
        while let Some(mover) = engine.to_move(&state) {
            if node == 0 {
                legal.clear();
                legal.extend_from_slice(root_legal);
            } else {
                engine.legal_actions(&state, &mut legal);
            }
            let mut untried = Vec::new();
            for &action in &legal {
                match self.child(node, action) {
                    Some(c) => self.nodes[c].available += 1,
                    None => untried.push(action),
                }
            }
            if let Some(&action) = rng.pick(&untried) {
                engine.apply(&mut state, action)?;
                node = self.add(node, action, mover);
                path.push(node);
                break;
            }
            let chosen = self.select(node, &legal);
            engine.apply(&mut state, self.nodes[chosen].action)?;
            node = chosen;
            path.push(node);
        }
        // Playout.
        while engine.to_move(&state).is_some() {
            engine.legal_actions(&state, &mut legal);
            let pick = rng.below(legal.len() as u32) as usize;
            engine.apply(&mut state, legal[pick])?;
        }
        let rewards = rewards(state.result.as_ref(), engine.game.players.len());
        for &r in &rewards {
            self.low = self.low.min(r);
            self.high = self.high.max(r);
        }
        for &n in &path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += rewards[node.mover.0 as usize];
        }
        Ok(())
    }

    fn child(&self, node: usize, action: Action) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].action == action)
    }

    fn add(&mut self, parent: usize, action: Action, mover: PlayerId) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            action,
            mover,
            children: Vec::new(),
            visits: 0,
            available: 1,
            reward: 0.0,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// The child legal in this sample with the best UCB1 score, counted
    /// over the times it was available rather than its parent's visits.
    fn select(&self, node: usize, legal: &[Action]) -> usize {
        let span = if self.high > self.low {
            self.high - self.low
        } else {
            1.0
        };
        let score = |c: usize| {
            let n = &self.nodes[c];
            let mean = (n.reward / f64::from(n.visits) - self.low.min(self.high)) / span;
            mean + EXPLORATION * (f64::from(n.available).ln() / f64::from(n.visits)).sqrt()
        };
        self.nodes[node]
            .children
            .iter()
            .copied()
            .filter(|&c| legal.contains(&self.nodes[c].action))
            .max_by(|&a, &b| score(a).total_cmp(&score(b)))
            .expect("a fully expanded node has a legal child")
    }
}

/// What each player got from a finished game: 1 to the winner and 0 to
/// the others; with no winner, the scores if the game keeps them, else an
/// equal share.
fn rewards(outcome: Option<&Outcome>, players: usize) -> Vec<f64> {
    match outcome {
        Some(Outcome {
            winner: Some(w), ..
        }) => (0..players)
            .map(|p| if p == w.0 as usize { 1.0 } else { 0.0 })
            .collect(),
        Some(o) if o.scores.len() == players => o.scores.iter().map(|&s| s as f64).collect(),
        _ => vec![1.0 / players as f64; players],
    }
}
