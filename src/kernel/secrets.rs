//! What each seat may know of the data scripts keep (DESIGN principle 6).
//!
//! Faces, private attributes and cards say who sees them; so does the rest
//! of what a script keeps:
//!
//! - **Player variables** are seen by their player only, unless game.yaml
//!   names them in `public_player_vars` (scores, points, turn counters). A
//!   forgotten declaration then hides a public value, which the refusal
//!   below names; the other default would let a search bot read a
//!   forgotten secret without a word.
//! - **Frame contexts** are seen by every player, unless the script that
//!   pushed the frame said who sees it (`game.push_phase(..., { seen_by =
//!   ... })`): most frames hold the public situation of a procedure (the
//!   area of a combat, the nation moving).
//! - **Game variables** are public: views show them to everyone.
//! - **Hidden kinds** are dealt by samples from what the rules fix: each
//!   owner's hidden kinds are shuffled among its hidden pieces. A script
//!   that changes that set out of a seat's sight (`pieces.set_kind` or
//!   `pieces.set_owner` on a piece the seat cannot see, `pieces.create`
//!   of a piece it cannot see) makes the shuffle tell that seat the truth,
//!   so the state records it ([`KindChanges`]) and samples for that seat
//!   leave those kinds to the package's sampler. A player who picks the
//!   kind of its own hidden piece is no exception: its opponents did not
//!   see the pick, and a shuffle of the true kinds would show it to them.
//!
//! What a seat cannot see and the kernel cannot deal again is
//! [`uncovered`]: a search bot plays that seat only if the package has a
//! sampler (`rules.sample`), and is refused with [`refusal`] otherwise.

use crate::kernel::game::Game;
use crate::kernel::hash::mix;
use crate::kernel::piece::{KindId, MAX_PLAYERS, PieceId, PlayerId};
use crate::kernel::state::{Frame, GameState};
use crate::kernel::view::Viewer;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Owner groups: nobody (cards, neutral pieces), then each player.
const GROUPS: usize = MAX_PLAYERS + 1;

/// For each owner group, the seats (a bit each) out of whose sight a
/// script changed the group's hidden kinds. A seat cannot unlearn such a
/// change, so bits are only ever set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KindChanges([u8; GROUPS]);

impl KindChanges {
    pub fn is_empty(&self) -> bool {
        self.0 == [0; GROUPS]
    }

    /// Whether `owner`'s hidden kinds changed out of `seat`'s sight.
    pub fn unseen_by(&self, owner: Option<PlayerId>, seat: PlayerId) -> bool {
        self.0[group(owner)] & (1 << seat.0) != 0
    }

    /// Part of the position hash: the same pieces are another position
    /// when a seat may no longer take their kinds from the rules.
    pub fn hash(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        mix(u64::from_le_bytes(self.0[..8].try_into().expect("8 groups")) ^ 0x5EC_2E75)
            ^ mix(u64::from(self.0[8]) ^ 0xC4A_4635)
    }

    fn mark(&mut self, owner: Option<PlayerId>, unseen: u8) {
        self.0[group(owner)] |= unseen;
    }
}

fn group(owner: Option<PlayerId>) -> usize {
    owner.map_or(0, |p| 1 + p.0 as usize)
}

/// The players of a game, a bit each.
fn players_mask(game: &Game) -> u8 {
    ((1u16 << game.players.len()) - 1) as u8
}

impl GameState {
    /// `pieces.set_kind`: changes a piece's kind, and records who could
    /// not see the change (see the module's doc).
    ///
    /// A call that leaves the kind as it was is marked too: rules that
    /// turn a hidden piece into one kind or another on a secret (Yes or
    /// No) must not tell a seat which by whether it was marked.
    pub fn change_kind(&mut self, game: &Game, id: PieceId, kind: KindId) {
        let p = self.piece(id);
        let unseen = !p.seen_by & players_mask(game);
        self.kind_changes.mark(p.owner, unseen);
        self.set_kind(id, kind);
    }

    /// `pieces.set_owner`: a hidden piece changing hands takes its kind
    /// from one owner's hidden set to another's.
    pub fn change_owner(&mut self, game: &Game, id: PieceId, owner: Option<PlayerId>) {
        let p = self.piece(id);
        if p.owner != owner {
            let unseen = !p.seen_by & players_mask(game);
            self.kind_changes.mark(p.owner, unseen);
            self.kind_changes.mark(owner, unseen);
            self.set_owner(id, owner);
        }
    }

    /// `pieces.create`: a piece made where some seat cannot see its face
    /// adds a kind the rules did not deal to its owner's hidden set.
    pub fn note_created(&mut self, game: &Game, id: PieceId) {
        let p = self.piece(id);
        let unseen = !p.seen_by & players_mask(game);
        self.kind_changes.mark(p.owner, unseen);
    }
}

/// Whether `viewer` may see `owner`'s variable `name`.
pub fn sees_player_var(game: &Game, owner: PlayerId, name: &str, viewer: Viewer) -> bool {
    viewer == Viewer::All
        || viewer == Viewer::Player(owner)
        || game.public_player_vars.iter().any(|n| n == name)
}

/// Whether `viewer` may see a frame's context.
pub fn sees_frame(frame: &Frame, viewer: Viewer) -> bool {
    viewer.sees(frame.seen_by)
}

/// A secret a seat cannot see and the kernel cannot sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uncovered {
    /// A player variable kept private (`vars.set_player`).
    PlayerVar { owner: String, name: String },
    /// The context of a frame pushed with `seen_by`.
    Frame { phase: String, player: String },
    /// An owner's hidden kinds, changed out of the seat's sight.
    Kinds { owner: String },
}

impl fmt::Display for Uncovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uncovered::PlayerVar { owner, name } => write!(
                f,
                "{owner}'s variable '{name}' (vars.set_player; private unless game.yaml lists it in public_player_vars)"
            ),
            Uncovered::Frame { phase, player } => write!(
                f,
                "the context of phase '{phase}' ({player}'s), pushed with seen_by"
            ),
            Uncovered::Kinds { owner } => write!(
                f,
                "the kinds of {owner}'s hidden pieces, changed by pieces.set_kind, set_owner or create where the seat could not see"
            ),
        }
    }
}

/// Everything in `state` that `seat` cannot see and a sample cannot deal
/// from the rules, in a stable order.
pub fn uncovered(game: &Game, state: &GameState, seat: PlayerId) -> Vec<Uncovered> {
    let seat_viewer = Viewer::Player(seat);
    let mut found = Vec::new();
    for (i, p) in state.players.iter().enumerate() {
        let owner = PlayerId(i as u8);
        for (name, _) in p.vars.iter() {
            if !sees_player_var(game, owner, name, seat_viewer) {
                found.push(Uncovered::PlayerVar {
                    owner: game.players[i].name.clone(),
                    name: name.to_string(),
                });
            }
        }
    }
    for f in &state.stack {
        // Even an empty context: which keys a secret context holds can be
        // the secret.
        if !sees_frame(f, seat_viewer) {
            found.push(Uncovered::Frame {
                phase: game.phases[f.phase as usize].name.clone(),
                player: game.players[f.player.0 as usize].name.clone(),
            });
        }
    }
    let owners =
        std::iter::once(None).chain((0..game.players.len()).map(|p| Some(PlayerId(p as u8))));
    for owner in owners {
        if state.kind_changes.unseen_by(owner, seat) {
            found.push(Uncovered::Kinds {
                owner: owner.map_or("nobody".into(), |o| game.players[o.0 as usize].name.clone()),
            });
        }
    }
    found
}

/// Why a search bot may not play `seat`: what it would read, and what
/// the package's author can do.
pub fn refusal(game: &Game, seat: PlayerId, uncovered: &[Uncovered]) -> String {
    let list: Vec<String> = uncovered.iter().map(ToString::to_string).collect();
    format!(
        "a search bot (greedy, ismcts) cannot play {}: the game keeps secrets this seat may not see \
         and the kernel cannot sample: {}. It would read the truth, so it is refused. List a public \
         variable in game.yaml's public_player_vars, or give the package a sampler, rules.sample(player) \
         (docs/lua-api.md, \"Secrets and samplers\"), or seat a random bot",
        game.players[seat.0 as usize].name,
        list.join("; ")
    )
}

/// Removes from `state` the script data `viewer` may not see: other
/// players' private variables, and the contexts of frames hidden from it.
/// What is left is what rules may read on that viewer's behalf (a sampler,
/// a status block).
pub fn blank_script_data(game: &Game, state: &mut GameState, viewer: Viewer) {
    if viewer == Viewer::All {
        return;
    }
    let mut blanked = false;
    for (i, p) in state.players.iter_mut().enumerate() {
        let owner = PlayerId(i as u8);
        let hidden: Vec<String> = p
            .vars
            .iter()
            .filter(|(name, _)| !sees_player_var(game, owner, name, viewer))
            .map(|(name, _)| name.to_string())
            .collect();
        blanked |= !hidden.is_empty();
        for name in hidden {
            p.vars.remove(&name);
        }
    }
    for f in &mut state.stack {
        if !sees_frame(f, viewer) && !f.ctx.is_empty() {
            f.ctx = Default::default();
            blanked = true;
        }
    }
    // Measured again only when something went: a bot samples often.
    if blanked {
        state.script_bytes = state.measure_script_data();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::piece::{EVERYONE, Location, Piece, RESERVE};
    use crate::kernel::rng::GameRng;
    use crate::kernel::value::{Value, Vars};
    use crate::kernel::view::View;

    const BLUE: PlayerId = PlayerId(0);
    const RED: PlayerId = PlayerId(1);

    fn game() -> Game {
        let file: crate::data::game_file::GameFile = serde_saphyr::from_str(
            "id: t\ntitle: T\nplayers: [{id: blue, name: Blue}, {id: red, name: Red}]\n\
             pieces: {kinds: {No: {count: 0}, Yes: {count: 0}}}\n\
             public_player_vars: [score]\nphases: {p: {kind: script}}\nflow: [p]\n",
        )
        .unwrap();
        crate::data::compile::compile(&file, "t", None, &[], &[]).unwrap()
    }

    /// A state with one piece of Blue's, its face seen by Blue alone.
    fn state() -> GameState {
        let piece = Piece {
            kind: KindId(0),
            owner: Some(BLUE),
            loc: Location::Pool(RESERVE),
            seen_by: 1,
            attrs: Vars::new(),
        };
        GameState::new(vec![piece], 0, 2, GameRng::new(1))
    }

    #[test]
    fn a_kind_changed_out_of_sight_is_marked_for_those_who_did_not_see_it() {
        let g = game();
        let mut s = state();
        s.change_kind(&g, PieceId(0), KindId(0));
        assert!(
            s.kind_changes.unseen_by(Some(BLUE), RED),
            "a kind set to what it was is marked too"
        );
        s.change_kind(&g, PieceId(0), KindId(1));
        assert!(s.kind_changes.unseen_by(Some(BLUE), RED));
        assert!(!s.kind_changes.unseen_by(Some(BLUE), BLUE), "Blue saw it");
        assert!(!s.kind_changes.unseen_by(Some(RED), RED));
        let names: Vec<String> = uncovered(&g, &s, RED)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names.len(), 1);
        assert!(
            names[0].starts_with("the kinds of Blue's hidden pieces"),
            "{names:?}"
        );
        assert!(uncovered(&g, &s, BLUE).is_empty());
    }

    #[test]
    fn a_face_everyone_sees_changes_in_the_open() {
        let g = game();
        let mut s = state();
        s.reveal(PieceId(0), EVERYONE);
        s.change_kind(&g, PieceId(0), KindId(1));
        s.change_owner(&g, PieceId(0), Some(RED));
        assert!(s.kind_changes.is_empty());
    }

    #[test]
    fn a_hidden_piece_changing_hands_marks_both_owners() {
        let g = game();
        let mut s = state();
        s.change_owner(&g, PieceId(0), Some(RED));
        assert!(s.kind_changes.unseen_by(Some(BLUE), RED));
        assert!(s.kind_changes.unseen_by(Some(RED), RED));
    }

    #[test]
    fn the_position_hash_and_a_save_keep_who_sees_what() {
        let g = game();
        let mut s = state();
        s.stack.push(Frame::new(0, BLUE));
        s.rebuild_index(0);
        let start = s.position_hash();
        let mut hidden_frame = s.clone();
        hidden_frame.stack[0].seen_by = 1;
        assert_ne!(hidden_frame.position_hash(), start);
        let mut changed = s.clone();
        changed.change_kind(&g, PieceId(0), KindId(1));
        changed.set_kind(PieceId(0), KindId(0));
        assert_eq!(changed.pieces(), s.pieces(), "the same pieces again");
        assert_ne!(
            changed.position_hash(),
            start,
            "but no longer the rules' set"
        );
        for state in [hidden_frame, changed] {
            let json = serde_json::to_string(&state).unwrap();
            let mut back: GameState = serde_json::from_str(&json).unwrap();
            back.rebuild_index(0);
            assert_eq!(back, state);
            assert_eq!(back.position_hash(), state.position_hash());
        }
    }

    #[test]
    fn views_show_a_players_private_variables_to_that_player_alone() {
        let g = game();
        let mut s = state();
        for p in [BLUE, RED] {
            s.players[p.0 as usize].vars.insert("score", Value::Int(3));
            s.players[p.0 as usize]
                .vars
                .insert("plan", Value::Bool(true));
        }
        let red = View::new(&g, &s, Viewer::Player(RED));
        assert_eq!(red.player_vars[1].len(), 2, "Red's own");
        assert_eq!(red.player_vars[0].get("score"), Some(&Value::Int(3)));
        assert_eq!(red.player_vars[0].get("plan"), None);
        let table = View::new(&g, &s, Viewer::Public);
        assert!(table.player_vars.iter().all(|v| v.len() == 1));
        let names: Vec<String> = uncovered(&g, &s, RED)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names.len(), 1);
        assert!(names[0].starts_with("Blue's variable 'plan'"), "{names:?}");
    }

    #[test]
    fn blanking_leaves_only_what_the_viewer_may_see() {
        let g = game();
        let mut s = state();
        s.players[0].vars.insert("plan", Value::Bool(true));
        let mut frame = Frame::new(0, BLUE);
        frame.ctx.insert("bid", Value::Int(4));
        frame.seen_by = 1;
        s.stack.push(frame);
        let mut red = s.clone();
        blank_script_data(&g, &mut red, Viewer::Player(RED));
        assert!(red.players[0].vars.is_empty());
        assert!(red.stack[0].ctx.is_empty());
        assert_eq!(red.script_bytes, red.measure_script_data());
        let mut blue = s.clone();
        blank_script_data(&g, &mut blue, Viewer::Player(BLUE));
        assert_eq!((&blue.players, &blue.stack), (&s.players, &s.stack));
    }
}
