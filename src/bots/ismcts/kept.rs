//! What the search keeps between its seat's decisions: the tree it grew,
//! followed down through the actions the seat saw played since, so the
//! next search starts from the statistics already gathered under the
//! position the game reached instead of from nothing.
//!
//! The tree is followed only through actions the seat may read (its own
//! choices and public actions: moves, special actions, passes; see
//! `replay::secrecy` and `bots::tell`). A hidden action, one the tree
//! never tried, or a ply out of step with the game (a loop that does not
//! tell the bot every action, an undo) drops it: the next search starts
//! afresh, as it did before trees were kept. So a kept tree never steers
//! the search by a secret, and never stands for a position other than the
//! one the seat is in.
//!
//! Nor is it used once a face was revealed to the seat (or hidden again)
//! since the search: its statistics were gathered on samples that drew
//! that face at random, and what is now known would leave them biased
//! (Convoy's attacks show both ships: with the tree kept through them the
//! search won 36 of 40 games against greedy, 39 with it dropped there, as
//! many as without any kept tree).

use super::Node;
use crate::kernel::action::Action;

/// A search's tree and the node that stands for the game's position now.
pub(super) struct Kept {
    nodes: Vec<Node>,
    /// The node of the position after the actions followed so far.
    at: usize,
    /// The ply of that position (`GameState::ply`).
    ply: u32,
    /// What the seat had seen of faces when the search ran
    /// ([`Sight::faces_seen`](crate::bots::Sight::faces_seen)).
    seen: u64,
    /// Whether any action was followed since the search kept the tree:
    /// until one is, the game may have gone anywhere without the bot
    /// being told (the REPL asks again after an undo), so the tree is not
    /// used.
    followed: bool,
}

impl Kept {
    /// The tree a search grew at `ply`, rooted at node 0, with the seat
    /// having `seen` those faces.
    pub fn new(nodes: Vec<Node>, ply: u32, seen: u64) -> Kept {
        Kept {
            nodes,
            at: 0,
            ply,
            seen,
            followed: false,
        }
    }

    /// The tree after `seen`, applied at `ply`, as the seat read it
    /// (`None`: hidden from it); `None` when it cannot be followed.
    pub fn follow(mut self, ply: u32, seen: Option<Action>) -> Option<Kept> {
        let action = seen.filter(|_| ply == self.ply)?;
        self.at = self.nodes[self.at]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].action == action)?;
        self.ply += 1;
        self.followed = true;
        Some(self)
    }

    /// The subtree under the position reached, as the tree of a search at
    /// `ply` by a seat that has `seen` those faces (its root at index 0),
    /// if it stands for that position and nothing was revealed since.
    pub fn take(self, ply: u32, seen: u64) -> Option<Vec<Node>> {
        (self.followed && self.ply == ply && self.seen == seen)
            .then(|| subtree(self.nodes, self.at))
    }
}

/// The nodes under `root` (itself first, at index 0), their children
/// renumbered; the rest of the tree is dropped.
fn subtree(mut nodes: Vec<Node>, root: usize) -> Vec<Node> {
    let mut order = vec![root];
    let mut next = 0;
    while let Some(&node) = order.get(next) {
        order.extend_from_slice(&nodes[node].children);
        next += 1;
    }
    let mut renumbered = vec![usize::MAX; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        renumbered[old] = new;
    }
    order
        .iter()
        .map(|&old| {
            let mut node = std::mem::replace(&mut nodes[old], Node::placeholder());
            for child in &mut node.children {
                *child = renumbered[*child];
            }
            node
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::board::SpaceId;
    use crate::kernel::piece::{PieceId, PlayerId};

    /// What the seat had seen of faces when the tree was grown.
    const SEEN: u64 = 77;

    fn step(piece: u16, to: u16) -> Action {
        Action::Move {
            piece: PieceId(piece),
            to: SpaceId(to),
        }
    }

    /// A root (ply 10) whose seat tried two moves; under the first, the
    /// opponent tried a move and a hidden choice; each node visited as
    /// often as its index, so a renumbered node is told by its visits.
    fn tree() -> Vec<Node> {
        let (me, them) = (PlayerId(0), PlayerId(1));
        let mut nodes = vec![
            Node::new(Action::Pass, me),
            Node::new(step(1, 5), me),
            Node::new(step(2, 6), me),
            Node::new(step(7, 3), them),
            Node::new(Action::Choice(0), them),
        ];
        nodes[0].children = vec![1, 2];
        nodes[1].children = vec![3, 4];
        for (i, node) in nodes.iter_mut().enumerate() {
            node.visits = i as u32;
        }
        nodes
    }

    #[test]
    fn the_subtree_under_the_actions_seen_is_the_next_root() {
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .expect("the seat's own move is in the tree");
        let kept = kept.follow(11, Some(step(7, 3))).expect("a public move");
        let nodes = kept.take(12, SEEN).expect("the position the tree reached");
        assert_eq!(nodes.len(), 1, "only the node reached and what is under it");
        assert_eq!((nodes[0].action, nodes[0].visits), (step(7, 3), 3));
    }

    #[test]
    fn children_are_renumbered_in_the_subtree() {
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .unwrap();
        let nodes = kept.take(11, SEEN).unwrap();
        assert_eq!(nodes[0].visits, 1);
        assert_eq!(nodes[0].children, vec![1, 2]);
        assert_eq!(nodes[1].visits, 3);
        assert_eq!(nodes[2].visits, 4);
    }

    #[test]
    fn a_hidden_action_is_never_followed() {
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .unwrap();
        // The opponent's choice 0 is in the tree, but the seat was told
        // only that an action it may not read was played.
        assert!(kept.follow(11, None).is_none());
    }

    #[test]
    fn an_action_the_tree_never_tried_drops_it() {
        let kept = Kept::new(tree(), 10, SEEN);
        assert!(kept.follow(10, Some(step(9, 9))).is_none());
    }

    #[test]
    fn a_ply_out_of_step_drops_it() {
        // An action the bot was not told of came between.
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .unwrap();
        assert!(kept.follow(12, Some(step(7, 3))).is_none());
        // Asked at another ply than the one followed to.
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .unwrap();
        assert!(kept.take(13, SEEN).is_none());
    }

    #[test]
    fn a_tree_nothing_was_followed_through_is_not_used() {
        // The same ply asked again without the bot told of any action:
        // the game may have been undone and played elsewhere.
        assert!(Kept::new(tree(), 10, SEEN).take(10, SEEN).is_none());
    }

    #[test]
    fn a_face_revealed_since_drops_it() {
        let kept = Kept::new(tree(), 10, SEEN)
            .follow(10, Some(step(1, 5)))
            .unwrap();
        assert!(kept.take(11, SEEN + 1).is_none());
    }
}
