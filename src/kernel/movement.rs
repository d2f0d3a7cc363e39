//! The native movement phase: the current player moves one piece along its
//! compiled movement pattern, or uses a special action; moving onto an
//! enemy attacks, resolved by the combat table. This is the hot path of a
//! Convoy playout, so it reads precompiled lists and calls no script unless
//! the data names one.

use crate::data::game_file::Target;
use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::event::{Event, Resolved};
use crate::kernel::game::{CombatEntry, Game, Movement};
use crate::kernel::piece::{ELIMINATED, EVERYONE, Location, PieceId, PlayerId};
use crate::kernel::scripts::{RulesError, Scripts};
use crate::kernel::state::{EMPTY, GameState};
use crate::kernel::victory;

pub fn actions(
    game: &Game,
    m: &Movement,
    state: &GameState,
    player: PlayerId,
    out: &mut Vec<Action>,
) {
    // Random play makes "is that cell free?" unpredictable, so the test is
    // data, not a branch: every target is written, and only the allowed
    // ones are kept. A space whose first piece is the mover's is closed;
    // an enemy's is open only when attacks are part of the phase.
    for &piece in state.pieces_of(player) {
        let p = state.piece(piece);
        let Location::Space(from) = p.loc else {
            continue;
        };
        let reach = &m.reaches[m.kind_reach[p.kind.0 as usize]];
        let targets = reach.next(player, from);
        if reach.steps == 1 {
            for &to in targets {
                let keep = can_enter(m, state, player, to);
                out.push(Action::Move { piece, to });
                let len = out.len() - usize::from(!keep);
                out.truncate(len);
            }
        } else {
            multi_step(m, reach, state, player, piece, from, out);
        }
    }

    for (index, special) in m.specials.iter().enumerate() {
        if special.once_per_game
            && state.players[player.0 as usize].used_specials & (1 << index) != 0
        {
            continue;
        }
        // Kept by data, not by branch, as for the moves above.
        let spaces = game.zones[special.zone].spaces(player);
        let start = out.len();
        out.resize(start + spaces.len(), Action::Pass);
        let mut kept = start;
        for &target in spaces {
            out[kept] = Action::Special {
                index: index as u8,
                target,
            };
            kept += usize::from(target_allowed(
                special.target,
                state.top_owner(target),
                player,
            ));
        }
        out.truncate(kept);
    }
}

/// A piece may end its move on an empty space, or attack an enemy when the
/// phase has a combat table; it never stacks with its own side.
fn can_enter(m: &Movement, state: &GameState, player: PlayerId, to: SpaceId) -> bool {
    let top = state.top_owner(to);
    top == EMPTY || (m.combat.is_some() && top != player.0)
}

/// Moves of more than one step: a breadth-first walk through empty spaces,
/// ending on any enterable space; each destination is listed once.
fn multi_step(
    m: &Movement,
    reach: &crate::kernel::game::Reach,
    state: &GameState,
    player: PlayerId,
    piece: PieceId,
    from: SpaceId,
    out: &mut Vec<Action>,
) {
    let mut seen = vec![from];
    let mut frontier = vec![from];
    for _ in 0..reach.steps {
        let mut next = Vec::new();
        for &s in &frontier {
            for &to in reach.next(player, s) {
                if seen.contains(&to) || !can_enter(m, state, player, to) {
                    continue;
                }
                seen.push(to);
                if state.first_at(to).is_none() {
                    next.push(to);
                }
            }
        }
        frontier = next;
    }
    seen.sort();
    out.extend(
        seen.into_iter()
            .filter(|&s| s != from)
            .map(|to| Action::Move { piece, to }),
    );
}

fn target_allowed(target: Target, top: u8, player: PlayerId) -> bool {
    match target {
        Target::Any => true,
        Target::Occupied => top != EMPTY,
        Target::Empty => top == EMPTY,
        Target::Enemy => top != EMPTY && top != player.0,
    }
}

pub fn apply(
    game: &Game,
    m: &Movement,
    scripts: &dyn Scripts,
    state: &mut GameState,
    action: Action,
) -> Result<(), RulesError> {
    let player = state.stack.last().expect("movement frame").player;
    match action {
        Action::Move { piece, to } => {
            let from = state
                .piece(piece)
                .loc
                .space()
                .expect("a moving piece stands on the board");
            match state.first_at(to) {
                Some(defender) if state.piece(defender).owner != Some(player) => {
                    attack(game, m, scripts, state, piece, defender, from, to)?
                }
                _ => {
                    state.set_location(piece, Location::Space(to));
                    state.events.push(Event::Moved { piece, from, to });
                    victory::after_move(game, state, piece);
                }
            }
        }
        Action::Special { index, target } => {
            let special = &m.specials[index as usize];
            state.players[player.0 as usize].used_specials |= 1 << index;
            state.events.push(Event::Special {
                player,
                name: special.name.clone(),
                target,
            });
            scripts.special(state, &special.script, player, target)?;
            victory::check_all(game, state);
        }
        other => {
            return Err(RulesError(format!(
                "a movement phase cannot take {other:?}"
            )));
        }
    }
    if let Some(top) = state.stack.last_mut() {
        top.player = game.next_player(player);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn attack(
    game: &Game,
    m: &Movement,
    scripts: &dyn Scripts,
    state: &mut GameState,
    attacker: PieceId,
    defender: PieceId,
    from: SpaceId,
    at: SpaceId,
) -> Result<(), RulesError> {
    if m.reveal_on_attack {
        state.reveal(attacker, EVERYONE);
        state.reveal(defender, EVERYONE);
    }
    let table = m.combat.as_ref().expect("attacks need a combat table");
    let entry =
        &table[state.piece(attacker).kind.0 as usize][state.piece(defender).kind.0 as usize];
    let (coin, result) = match entry {
        CombatEntry::Fixed(r) => (None, *r),
        CombatEntry::Coin(heads, tails) => {
            let attacker_colour = state.rng.coin();
            (
                Some(attacker_colour),
                if attacker_colour { *heads } else { *tails },
            )
        }
        CombatEntry::Script(name) => (None, scripts.combat(state, name, attacker, defender)?),
    };
    state.events.push(Event::Attack {
        attacker,
        defender,
        from,
        at,
        coin,
        result,
    });
    // The attack event already tells who was destroyed.
    let eliminate = |state: &mut GameState, piece: PieceId| {
        state.set_location(piece, Location::Pool(ELIMINATED))
    };
    match result {
        Resolved::Win => {
            eliminate(state, defender);
            state.set_location(attacker, Location::Space(at));
        }
        Resolved::Bounce => {}
        Resolved::Lose => eliminate(state, attacker),
        Resolved::Both => {
            eliminate(state, defender);
            eliminate(state, attacker);
        }
    }
    if result != Resolved::Bounce {
        victory::after_removal(game, state);
    }
    if result == Resolved::Win {
        victory::after_move(game, state, attacker);
    }
    Ok(())
}
