//! What each seat may know of the data scripts keep (DESIGN principle 6).
//!
//! Faces, private attributes and cards say who sees them; so does the rest
//! of what a script keeps, and game.yaml declares where (its `secrets`):
//!
//! - **Player variables** are declared, each public (`public_player_vars`:
//!   scores, points, turn counters) or its player's own
//!   (`secrets.player_vars`). A script that touches an undeclared one is
//!   stopped at that line ([`check_player_var`]): a typo is caught, and no
//!   secret is kept by default where nobody declared one.
//! - **Frame contexts** are seen by every player, unless the script that
//!   pushed the frame said who sees it (`game.push_phase(..., { seen_by =
//!   ... })`), which only a phase listed in `secrets.frame_contexts` may.
//! - **Game variables** are public: views show them to everyone.
//! - **Hidden kinds** are dealt by samples from what the rules fix: each
//!   owner's hidden kinds are shuffled among its hidden pieces. A script
//!   that changes that set out of a seat's sight (`pieces.set_kind` or
//!   `pieces.set_owner` on a piece the seat cannot see, `pieces.create`
//!   of a piece it cannot see) would make the shuffle tell that seat the
//!   truth; only a game that declares `secrets.hidden_kinds` may, and in
//!   such a game every sample leaves the kinds of the pieces its seat
//!   cannot see to the package's sampler, whether or not a script changed
//!   them this game. A player who picks the kind of its own hidden piece
//!   is no exception: its opponents did not see the pick.
//!
//! Why declared: a search bot must be refused before the game starts
//! ([`seat_refusal`]), whatever the dice do. Refused only once a secret
//! was written, it would play on in every game where the secret went the
//! other way, and so know it.
//!
//! What a seat cannot see and the kernel cannot deal again in a given
//! state is [`uncovered`]: the package's sampler (`rules.sample`) deals it
//! in each sample.

use crate::kernel::game::Game;
use crate::kernel::piece::PlayerId;
use crate::kernel::state::{Frame, GameState};
use crate::kernel::view::Viewer;
use std::fmt;

/// The players of a game, a bit each.
fn players_mask(game: &Game) -> u8 {
    ((1u16 << game.players.len()) - 1) as u8
}

/// Stops a script that changes the kind of a piece some player cannot
/// see (`call`: `pieces.set_kind`, `set_owner` or `create`, for the
/// message), unless game.yaml declares that hidden kinds change.
pub fn check_kind_change(game: &Game, seen_by: u8, call: &str) -> Result<(), String> {
    let unseen = !seen_by & players_mask(game);
    if unseen != 0 && !game.secrets.hidden_kinds {
        return Err(format!(
            "{call} changes a hidden piece's kind where some player cannot see it, which game.yaml \
             does not declare: add `secrets: {{ hidden_kinds: true }}` to game.yaml (search bots \
             then need a sampler, rules.sample), or reveal the piece first"
        ));
    }
    Ok(())
}

/// Stops a script that reads or writes a player variable game.yaml does
/// not declare, naming the nearest declared one.
pub fn check_player_var(game: &Game, name: &str) -> Result<(), String> {
    let declared = game
        .public_player_vars
        .iter()
        .chain(&game.secrets.player_vars);
    if declared.clone().any(|n| n == name) {
        return Ok(());
    }
    Err(format!(
        "player variable '{name}' is not declared: list it in game.yaml's public_player_vars \
         (every player sees it) or under secrets: player_vars (its player alone); {}",
        crate::data::error::suggest(name, declared.map(String::as_str))
    ))
}

/// Stops a script that pushes a frame whose context some players may not
/// see, in a phase game.yaml does not declare as keeping one.
pub fn check_frame_context(game: &Game, phase: u16) -> Result<(), String> {
    if game.secrets.frame_contexts.contains(&phase) {
        return Ok(());
    }
    let name = &game.phases[phase as usize].name;
    Err(format!(
        "phase '{name}' is pushed with seen_by, but game.yaml does not declare that its context \
         may be secret: add it under secrets: frame_contexts: [{name}] (search bots then need a \
         sampler, rules.sample)"
    ))
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
    /// A player's private variable (`secrets.player_vars`).
    PlayerVar { owner: String, name: String },
    /// The context of a frame pushed with `seen_by`.
    Frame { phase: String },
    /// The kinds of the pieces the seat cannot see, in a game whose
    /// scripts change them out of sight (`secrets.hidden_kinds`).
    Kinds,
}

impl fmt::Display for Uncovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uncovered::PlayerVar { owner, name } => {
                write!(f, "{owner}'s variable '{name}' (secrets.player_vars)")
            }
            Uncovered::Frame { phase } => write!(
                f,
                "the context of phase '{phase}', pushed with seen_by (secrets.frame_contexts)"
            ),
            Uncovered::Kinds => write!(
                f,
                "the kinds of the hidden pieces, which scripts change out of sight \
                 (secrets.hidden_kinds)"
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
            });
        }
    }
    if game.secrets.hidden_kinds
        && state
            .piece_ids()
            .any(|id| !state.piece(id).visible_to(seat))
    {
        found.push(Uncovered::Kinds);
    }
    found
}

/// The secrets game.yaml declares that `seat` may not see and the kernel
/// cannot deal: what a search bot seated there would need a sampler for,
/// in any game of these rules, whatever its dice.
pub fn declared(game: &Game, seat: PlayerId) -> Vec<Uncovered> {
    let declared = &game.secrets;
    let others = (0..game.players.len()).filter(|&p| p != seat.0 as usize);
    let vars = others.flat_map(|p| {
        declared
            .player_vars
            .iter()
            .map(move |name| Uncovered::PlayerVar {
                owner: game.players[p].name.clone(),
                name: name.clone(),
            })
    });
    let frames = declared
        .frame_contexts
        .iter()
        .map(|&phase| Uncovered::Frame {
            phase: game.phases[phase as usize].name.clone(),
        });
    let kinds = declared.hidden_kinds.then_some(Uncovered::Kinds);
    vars.chain(frames).chain(kinds).collect()
}

/// Why a search bot may not be seated at `seat`, if it may not: the game
/// declares secrets the seat cannot see and the package has no sampler.
pub fn seat_refusal(game: &Game, seat: PlayerId, has_sampler: bool) -> Option<String> {
    let uncovered = declared(game, seat);
    (!has_sampler && !uncovered.is_empty()).then(|| refusal(game, seat, &uncovered))
}

/// Why a search bot may not play `seat`: what it would read, and what
/// the package's author can do.
pub fn refusal(game: &Game, seat: PlayerId, uncovered: &[Uncovered]) -> String {
    let list: Vec<String> = uncovered.iter().map(ToString::to_string).collect();
    format!(
        "a search bot (greedy, ismcts) cannot play {}: the game keeps secrets this seat may not see \
         and the kernel cannot sample: {}. It would read the truth, so it is refused. Give the package \
         a sampler, rules.sample(player) (docs/lua-api.md, \"Secrets and samplers\"), or seat a \
         random bot",
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
    use crate::kernel::piece::{EVERYONE, KindId, Location, Piece, PieceId, RESERVE};
    use crate::kernel::rng::GameRng;
    use crate::kernel::value::{Value, Vars};
    use crate::kernel::view::View;

    const BLUE: PlayerId = PlayerId(0);
    const RED: PlayerId = PlayerId(1);

    fn game() -> Game {
        let file: crate::data::game_file::GameFile = serde_saphyr::from_str(
            "id: t\ntitle: T\nplayers: [{id: blue, name: Blue}, {id: red, name: Red}]\n\
             pieces: {kinds: {No: {count: 0}, Yes: {count: 0}}}\n\
             public_player_vars: [score]\nphases: {p: {kind: script}}\nflow: [p]\n\
             secrets: {player_vars: [plan], hidden_kinds: true}\n",
        )
        .unwrap();
        crate::data::compile::compile(&file, "t", None, &[], &[]).unwrap()
    }

    /// The game of [`game`], declaring no secrets.
    fn open_game() -> Game {
        let mut g = game();
        g.secrets = Default::default();
        g
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
    fn hidden_kinds_are_the_samplers_where_the_game_declares_they_change() {
        let g = game();
        let s = state();
        let names: Vec<String> = uncovered(&g, &s, RED)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names.len(), 1, "whether or not a script changed one yet");
        assert!(
            names[0].starts_with("the kinds of the hidden pieces"),
            "{names:?}"
        );
        assert!(uncovered(&g, &s, BLUE).is_empty(), "Blue sees its piece");
        assert!(uncovered(&open_game(), &s, RED).is_empty());
    }

    #[test]
    fn an_undeclared_change_out_of_sight_is_refused() {
        let g = open_game();
        let hidden = state().piece(PieceId(0)).seen_by;
        for call in ["pieces.set_kind", "pieces.set_owner", "pieces.create"] {
            let e = check_kind_change(&g, hidden, call).unwrap_err();
            assert!(
                e.starts_with(call) && e.contains("secrets: { hidden_kinds: true }"),
                "{e}"
            );
        }
        assert_eq!(check_kind_change(&g, EVERYONE, "pieces.set_kind"), Ok(()));
        assert_eq!(
            check_kind_change(&game(), hidden, "pieces.set_kind"),
            Ok(())
        );
    }

    #[test]
    fn seats_are_refused_on_what_the_game_declares_not_on_what_happened() {
        let g = game();
        let names: Vec<String> = declared(&g, RED).iter().map(ToString::to_string).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].starts_with("Blue's variable 'plan'"), "{names:?}");
        assert!(
            names[1].starts_with("the kinds of the hidden pieces"),
            "{names:?}"
        );
        let why = seat_refusal(&g, RED, false).expect("refused before any secret is written");
        assert!(
            why.contains("cannot play Red") && why.contains("rules.sample"),
            "{why}"
        );
        assert_eq!(seat_refusal(&g, RED, true), None, "a sampler covers them");
        assert_eq!(seat_refusal(&open_game(), RED, false), None);
    }

    #[test]
    fn a_variable_both_public_and_secret_is_refused_at_compile() {
        let file: crate::data::game_file::GameFile = serde_saphyr::from_str(
            "id: t\ntitle: T\nplayers: [{id: blue}, {id: red}]\npublic_player_vars: [vp]\n\
             secrets: {player_vars: [vp]}\nphases: {p: {kind: script}}\nflow: [p]\n",
        )
        .unwrap();
        let e = crate::data::compile::compile(&file, "t", None, &[], &[]).unwrap_err();
        assert!(e.to_string().contains("'vp' is listed both"), "{e}");
    }

    #[test]
    fn player_variables_and_secret_contexts_must_be_declared() {
        let g = game();
        assert!(check_player_var(&g, "score").is_ok());
        assert!(check_player_var(&g, "plan").is_ok());
        let e = check_player_var(&g, "plam").unwrap_err();
        assert!(
            e.contains("'plam' is not declared") && e.contains("did you mean 'plan'"),
            "{e}"
        );
        let e = check_frame_context(&g, 0).unwrap_err();
        assert!(e.contains("frame_contexts: [p]"), "{e}");
    }

    #[test]
    fn the_position_hash_and_a_save_keep_who_sees_a_frame() {
        let mut s = state();
        s.stack.push(Frame::new(0, BLUE));
        s.rebuild_index(0);
        let start = s.position_hash();
        let mut hidden_frame = s.clone();
        hidden_frame.stack[0].seen_by = 1;
        assert_ne!(hidden_frame.position_hash(), start);
        let json = serde_json::to_string(&hidden_frame).unwrap();
        let mut back: GameState = serde_json::from_str(&json).unwrap();
        back.rebuild_index(0);
        assert_eq!(back, hidden_frame);
        assert_eq!(back.position_hash(), hidden_frame.position_hash());
    }

    #[test]
    fn views_show_a_players_private_variables_to_that_player_alone() {
        let g = game();
        let mut s = state();
        s.reveal(PieceId(0), EVERYONE);
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
