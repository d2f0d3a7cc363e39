//! Information-set Monte Carlo tree search (single observer, SO-ISMCTS,
//! with UCB1), after Cowling, Powley and Whitehouse (2012).
//!
//! One tree is grown over the bot's information set. Each iteration draws
//! a determinization (a full state its seat could be in: hidden faces
//! shuffled among the identities still unseen, future dice reseeded; see
//! `kernel::determinize`), walks down the tree choosing among the children
//! legal in that sample, adds one node, plays on with random moves, and
//! backs up what each player got. The real state is never searched, so
//! the bot's choice depends only on what its seat has seen.
//!
//! Three things make it strong where plain ISMCTS is weak:
//!
//! - **A cut-off.** A playout stops after [`PLAYOUT`] random decisions,
//!   or as many as the package declares (`tables.search.playout`), and
//!   the position is scored by the rules' heuristic (`rules.evaluate`)
//!   for every player (see `reward`): random moves to the end of a
//!   900-decision game say next to nothing about the first one (Treasure
//!   Fleet's search banked no treasure that way), and cost minutes a
//!   game. A package without a heuristic is played to the end. How many
//!   random decisions help depends on the game: Convoy's native moves are
//!   nearly free and show captures (the search beat greedy in 39 of 40
//!   games with twelve, 16 of 20 with none), Mediterranea's and the
//!   solitaire game's searches lose strength without them, while in
//!   Treasure Fleet twelve random decisions (a ship sails, fires and
//!   boards at random) cost four times the rest of an iteration and blur
//!   what the heuristic then scores, so it declares none: the search is
//!   then a sampled lookahead judged as greedy's one ply is, only deeper.
//! - **Progressive widening.** A node opens a new child only while it has
//!   fewer than [`WIDEN_BASE`] + [`WIDEN_RATE`] × √visits, so a decision
//!   with dozens of near-identical actions (ship orders, army moves) is
//!   searched deeply among a few before it is spread over all.
//! - **A greedy order at the root.** The root's actions are opened best
//!   first by one ply of the heuristic on one sample, so the moves the
//!   widening reaches first are the ones worth searching.
//!
//! Any number of players: a node holds the total reward of the player who
//! chose its action; UCB1 compares rewards rescaled to the lowest and
//! highest backed up so far, so a solitaire game's scores explore like
//! chances of winning.
//!
//! Budgets: a number of iterations (the same decisions on every machine)
//! or a time per decision (decisions then depend on the machine's speed
//! and load, so results are not reproducible). A watcher (the REPL on
//! Ctrl-C) may stop the search early: it then plays the best move so far.

use super::reward::Rewards;
use super::{Bot, Budget, Sight, greedy, quietly};
use crate::kernel::action::Action;
use crate::kernel::engine::Engine;
use crate::kernel::legal::Legal;
use crate::kernel::piece::PlayerId;
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;
use crate::kernel::state::GameState;
use std::time::Instant;

/// UCB1's exploration constant for rewards in 0..1.
const EXPLORATION: f64 = 0.7;

/// Random decisions a playout makes before the heuristic scores it,
/// where the package declares no other number (see the module's docs).
const PLAYOUT: u32 = 12;

/// Progressive widening: children a node may have before its first
/// visits, and how fast the limit grows with the square root of visits.
const WIDEN_BASE: f64 = 3.0;
const WIDEN_RATE: f64 = 1.5;

pub struct IsmctsBot {
    budget: Budget,
    rng: GameRng,
    /// Iterations run over every decision so far.
    iterations: u64,
}

impl IsmctsBot {
    pub fn new(budget: Budget, seed: u64) -> IsmctsBot {
        IsmctsBot {
            budget,
            rng: GameRng::new(seed),
            iterations: 0,
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

impl Node {
    fn new(action: Action, mover: PlayerId) -> Node {
        Node {
            action,
            mover,
            children: Vec::new(),
            visits: 0,
            available: 1,
            reward: 0.0,
        }
    }
}

/// The tree and what one search has seen of the rewards.
struct Search {
    nodes: Vec<Node>,
    /// The root's actions in the order the tree opens them.
    root_order: Vec<Action>,
    rewards: Rewards,
    /// Whether the rules have a heuristic to cut playouts off with.
    heuristic: bool,
    /// Random decisions a playout makes before the heuristic scores it.
    playout: u32,
    low: f64,
    high: f64,
}

impl Bot for IsmctsBot {
    fn choose(&mut self, sight: &Sight, legal: &[Action]) -> Result<usize, RulesError> {
        if legal.len() == 1 {
            return Ok(0);
        }
        let start = Instant::now();
        let engine = sight.engine();
        let (search, done) = quietly(engine, || -> Result<(Search, u32), RulesError> {
            let (root_order, heuristic) = greedy_order(sight, legal, &mut self.rng)?;
            let mut search = Search {
                nodes: vec![Node::new(Action::Pass, sight.seat)],
                root_order,
                rewards: Rewards::new(engine.game.players.len()),
                heuristic,
                playout: engine.game.search_playout.unwrap_or(PLAYOUT),
                low: f64::INFINITY,
                high: f64::NEG_INFINITY,
            };
            let mut done = 0u32;
            while done == 0
                || !sight.watch.is_some_and(|w| w.stopped())
                    && match self.budget {
                        Budget::Iterations(n) => done < n,
                        Budget::Time(t) => start.elapsed() < t,
                    }
            {
                search.iterate(sight, &mut self.rng)?;
                done += 1;
                if let Some(w) = sight.watch {
                    w.count_iteration();
                }
            }
            Ok((search, done))
        })?;
        self.iterations += u64::from(done);
        let best = search.nodes[0]
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

    fn iterations(&self) -> u64 {
        self.iterations
    }
}

/// The root's actions, best first for the seat by one ply of the
/// heuristic on one sample (ties and a package without a heuristic in
/// a random order), and whether the package has a heuristic.
fn greedy_order(
    sight: &Sight,
    legal: &[Action],
    rng: &mut GameRng,
) -> Result<(Vec<Action>, bool), RulesError> {
    let engine = sight.engine();
    let mut order = legal.to_vec();
    rng.shuffle(&mut order);
    let sample = sight.sample(rng)?;
    let mut values = Vec::with_capacity(order.len());
    for &action in &order {
        let mut next = sample.clone();
        engine.apply(&mut next, action)?;
        match greedy::value(engine, &mut next, sight.seat) {
            Some(v) => values.push(v?),
            None => return Ok((order, false)),
        }
    }
    let mut ranked: Vec<(f64, Action)> = values.into_iter().zip(order).collect();
    // A stable sort: equal values keep their shuffled order.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok((ranked.into_iter().map(|(_, a)| a).collect(), true))
}

impl Search {
    /// One iteration: sample, select and expand, play out, back up.
    fn iterate(&mut self, sight: &Sight, rng: &mut GameRng) -> Result<(), RulesError> {
        let engine = sight.engine();
        let mut state = sight.sample(rng)?;
        let mut path = vec![0];
        let mut legal = Vec::new();
        let mut node = 0;
        // Selection and expansion.
        while let Some(mover) = engine.to_move(&state) {
            if node == 0 {
                legal.clone_from(&self.root_order);
            } else {
                engine.legal_actions(&state, &mut legal);
            }
            let mut untried = Vec::new();
            let mut any_child = false;
            for &action in &legal {
                match self.child(node, action) {
                    Some(c) => {
                        self.nodes[c].available += 1;
                        any_child = true;
                    }
                    None => untried.push(action),
                }
            }
            if !untried.is_empty() && (!any_child || self.may_widen(node)) {
                // The root opens its actions in the greedy order; below,
                // any untried action.
                let action = if node == 0 {
                    untried[0]
                } else {
                    *rng.pick(&untried).expect("untried is not empty")
                };
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
        let rewards = self.play_out(engine, &mut state, &mut legal, rng)?;
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

    /// Random moves to the end of the game, or to the cut-off where the
    /// heuristic scores the position; the rewards of each player.
    fn play_out(
        &mut self,
        engine: &Engine,
        state: &mut GameState,
        legal: &mut Vec<Action>,
        rng: &mut GameRng,
    ) -> Result<Vec<f64>, RulesError> {
        let mut depth = 0;
        while engine.to_move(state).is_some() {
            if self.heuristic && depth >= self.playout {
                return self.scored(engine, state);
            }
            // Counted, not listed, where the kernel can (`kernel::legal`):
            // the same action for the same draw.
            let action = {
                let counted = Legal::new(engine, state, legal);
                counted.get(rng.below(counted.len() as u32) as usize)
            };
            engine.apply(state, action)?;
            depth += 1;
        }
        Ok(self.rewards.of_outcome(state.result.as_ref()))
    }

    /// The rewards of a position from the heuristic of every player.
    fn scored(&mut self, engine: &Engine, state: &mut GameState) -> Result<Vec<f64>, RulesError> {
        let players = engine.game.players.len();
        let mut values = Vec::with_capacity(players);
        for p in 0..players {
            match engine.evaluate(state, PlayerId(p as u8)) {
                Some(v) => values.push(v?),
                None => {
                    self.heuristic = false;
                    return Ok(self.rewards.of_outcome(state.result.as_ref()));
                }
            }
        }
        Ok(self.rewards.of_values(&values))
    }

    fn child(&self, node: usize, action: Action) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].action == action)
    }

    /// Whether `node` has been visited enough to open one more child.
    fn may_widen(&self, node: usize) -> bool {
        let n = &self.nodes[node];
        (n.children.len() as f64) < WIDEN_BASE + WIDEN_RATE * f64::from(n.visits).sqrt()
    }

    fn add(&mut self, parent: usize, action: Action, mover: PlayerId) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node::new(action, mover));
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
            .expect("a node with a child legal here")
    }
}
