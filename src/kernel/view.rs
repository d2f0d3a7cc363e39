//! Views: the game as one player may see it (DESIGN principle 6). Every
//! piece of state that leaves the kernel for a player (the REPL's board and
//! log, a bot's input, a one-seat save) goes through a view, so a hidden
//! face cannot leak by accident.

use crate::kernel::event::{Event, Outcome};
use crate::kernel::game::Game;
use crate::kernel::piece::{EVERYONE, KindId, Location, Piece, PieceId, PlayerId, player_bit};
use crate::kernel::secrets::sees_player_var;
use crate::kernel::state::GameState;
use crate::kernel::value::Vars;
use serde::Serialize;

/// Who is looking: one player, the designer's all-seeing eye, or a
/// spectator who sees only what every player sees (a map drawn for the
/// table, where no seat's secret may show).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Player(PlayerId),
    All,
    Public,
}

impl Viewer {
    /// Whether this viewer is among the players of a `seen_by` mask.
    pub fn sees(self, seen_by: u8) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Player(p) => seen_by & player_bit(p) != 0,
            Viewer::Public => seen_by == EVERYONE,
        }
    }
}

/// A piece as the viewer sees it: its kind only if its face is visible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    pub id: PieceId,
    pub kind: Option<KindId>,
    pub owner: Option<PlayerId>,
    pub loc: Location,
    /// The face is shown to every player.
    pub public: bool,
    #[serde(skip_serializing_if = "Vars::is_empty")]
    pub attrs: Vars,
}

/// The game as seen by one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    #[serde(skip)]
    pub viewer: Option<PlayerId>,
    pub pieces: Vec<PieceView>,
    pub vars: Vars,
    /// Each player's variables that the viewer may see: all of its own,
    /// the public ones of the others (see `kernel::secrets`).
    pub player_vars: Vec<Vars>,
    pub to_move: Option<PlayerId>,
    pub ply: u32,
    pub events: Vec<Event>,
    pub result: Option<Outcome>,
}

impl View {
    pub fn new(game: &Game, state: &GameState, viewer: Viewer) -> View {
        let pieces = state
            .piece_ids()
            .map(|id| {
                let p = state.piece(id);
                let visible = viewer.sees(p.seen_by);
                PieceView {
                    id,
                    kind: visible.then_some(p.kind),
                    owner: p.owner,
                    loc: p.loc,
                    public: p.is_public(),
                    attrs: if visible {
                        visible_attrs(game, p, viewer)
                    } else {
                        Vars::new()
                    },
                }
            })
            .collect();
        let player_vars = (0..game.players.len())
            .map(|i| {
                let owner = PlayerId(i as u8);
                state.players[i]
                    .vars
                    .iter()
                    .filter(|(name, _)| sees_player_var(game, owner, name, viewer))
                    .map(|(name, value)| (name, value.clone()))
                    .collect()
            })
            .collect();
        let events = state
            .events
            .iter()
            .filter(|e| visible_event(e, viewer))
            .cloned()
            .collect();
        View {
            viewer: match viewer {
                Viewer::Player(p) => Some(p),
                Viewer::All | Viewer::Public => None,
            },
            pieces,
            vars: state.vars().clone(),
            player_vars,
            to_move: if state.result.is_none() {
                state.stack.last().map(|f| f.player)
            } else {
                None
            },
            ply: state.ply,
            events,
            result: state.result.clone(),
        }
    }

    pub fn piece(&self, id: PieceId) -> &PieceView {
        &self.pieces[id.0 as usize]
    }
}

/// A visible piece's attributes, less the game's private ones (cargo in a
/// hold) unless the viewer is its owner (or sees everything).
fn visible_attrs(game: &Game, piece: &Piece, viewer: Viewer) -> Vars {
    let mut attrs = piece.attrs.clone();
    let owner_sees = match viewer {
        Viewer::All => true,
        Viewer::Player(p) => piece.is_owned_by(p),
        Viewer::Public => false,
    };
    if !owner_sees {
        for name in &game.private_attrs {
            attrs.remove(name);
        }
    }
    attrs
}

/// Events carry piece ids, not faces; the narrator looks faces up in the
/// view. Only script text addressed to other players is withheld.
pub fn visible_event(e: &Event, viewer: Viewer) -> bool {
    match e {
        Event::Text { to, .. } => viewer.sees(*to),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::piece::RESERVE;
    use crate::kernel::rng::GameRng;

    fn game_with_two_players() -> Game {
        let file: crate::data::game_file::GameFile = serde_saphyr::from_str(
            "id: t\ntitle: T\nplayers: [{id: blue}, {id: red}]\npieces: {kinds: {Ship: {count: 0}}}\nphases: {p: {kind: script}}\nflow: [p]\n",
        )
        .unwrap();
        crate::data::compile::compile(&file, "t", None, &[], &[]).unwrap()
    }

    #[test]
    fn a_hidden_face_is_seen_only_by_its_owner() {
        let game = game_with_two_players();
        let hidden = Piece {
            kind: KindId(0),
            owner: Some(PlayerId(0)),
            loc: Location::Pool(RESERVE),
            seen_by: 1,
            attrs: Vars::new(),
        };
        let public = Piece {
            seen_by: EVERYONE,
            ..hidden.clone()
        };
        let state = GameState::new(vec![hidden, public], 0, 2, GameRng::new(1));
        let red = View::new(&game, &state, Viewer::Player(PlayerId(1)));
        assert_eq!(red.pieces[0].kind, None);
        assert_eq!(red.pieces[1].kind, Some(KindId(0)));
        let blue = View::new(&game, &state, Viewer::Player(PlayerId(0)));
        assert_eq!(blue.pieces[0].kind, Some(KindId(0)));
        assert_eq!(
            View::new(&game, &state, Viewer::All).pieces[0].kind,
            Some(KindId(0))
        );
        let table = View::new(&game, &state, Viewer::Public);
        assert_eq!(table.pieces[0].kind, None);
        assert_eq!(table.pieces[1].kind, Some(KindId(0)));
        assert!(table.player_vars.iter().all(Vars::is_empty));
    }

    #[test]
    fn private_log_lines_reach_only_their_player() {
        let game = game_with_two_players();
        let mut state = GameState::new(vec![], 0, 2, GameRng::new(1));
        state.events.push(Event::Text {
            text: "secret".into(),
            to: 1,
        });
        assert_eq!(
            View::new(&game, &state, Viewer::Player(PlayerId(1)))
                .events
                .len(),
            0
        );
        assert_eq!(
            View::new(&game, &state, Viewer::Player(PlayerId(0)))
                .events
                .len(),
            1
        );
    }
}
