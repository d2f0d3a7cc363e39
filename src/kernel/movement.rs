//! The native movement phase: the current player moves one piece along its
//! compiled movement pattern, or uses a special action; moving onto an
//! enemy attacks, resolved by the combat table. This is the hot path of a
//! Convoy playout, so it reads precompiled lists and calls no script unless
//! the data names one.

use crate::data::game_file::Target;
use crate::kernel::action::Action;
use crate::kernel::board::SpaceId;
use crate::kernel::event::{Event, Resolved};
use crate::kernel::game::{CombatEntry, Game, Movement, Reach};
use crate::kernel::piece::{ELIMINATED, EVERYONE, KindId, Location, PieceId, PlayerId};
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
    if m.combat.is_some() {
        moves::<true>(m, state, player, out);
    } else {
        moves::<false>(m, state, player, out);
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
        out.resize(start + spaces.len(), Action::ROOM);
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

/// A piece may end its move on an empty space (`top` is the owner of the
/// first piece there, [`GameState::top_owner`]), or, when the phase has
/// attacks, on any space whose first piece is not its own side's.
#[inline]
fn can_enter<const ATTACKS: bool>(top: u8, player: PlayerId) -> bool {
    if ATTACKS {
        top != player.0
    } else {
        top == EMPTY
    }
}

/// Every move of the player's pieces, by piece id, each piece's in the
/// order of its reach. Whether attacks are allowed is a constant of the
/// loop, so the test of a target is one comparison.
fn moves<const ATTACKS: bool>(
    m: &Movement,
    state: &GameState,
    player: PlayerId,
    out: &mut Vec<Action>,
) {
    if m.reaches.iter().all(|r| r.steps == 1) {
        one_step_moves::<ATTACKS>(m, state, player, out);
        return;
    }
    for &piece in state.pieces_of(player) {
        let p = state.piece(piece);
        if let Location::Space(from) = p.loc {
            let reach = m.reach(p.kind);
            if reach.steps == 1 {
                out.extend(
                    reach
                        .next(player, from)
                        .iter()
                        .filter(|&&to| can_enter::<ATTACKS>(state.top_owner(to), player))
                        .map(|&to| Action::Move { piece, to }),
                );
            } else {
                multi_step::<ATTACKS>(reach, state, player, piece, from, out);
            }
        }
    }
}

/// [`moves`] when every piece moves one step: the hot loop of a playout.
/// When all kinds share one pattern (Convoy's do), the pattern is a
/// constant of the loop rather than a lookup per piece.
fn one_step_moves<const ATTACKS: bool>(
    m: &Movement,
    state: &GameState,
    player: PlayerId,
    out: &mut Vec<Action>,
) {
    // Room for every piece's widest reach, made once: the loop writes into
    // it without growing the list.
    let widest = m.reaches.iter().map(Reach::width).max().unwrap_or(0);
    let start = out.len();
    out.resize(start + state.pieces_of(player).len() * widest, Action::ROOM);
    let kept = match m.reaches.as_slice() {
        [only] => list_steps::<ATTACKS>(|_| only, state, player, out, start),
        _ => list_steps::<ATTACKS>(|kind| m.reach(kind), state, player, out, start),
    };
    out.truncate(kept);
}

/// Writes the one-step moves of the player's pieces into `slots` from
/// `kept` on, each piece's reach given by `reach_of` its kind, and returns
/// where the list ends. (A function of its own, so its loop gets all the
/// registers.)
#[inline(never)]
fn list_steps<'m, const ATTACKS: bool>(
    reach_of: impl Fn(KindId) -> &'m Reach,
    state: &GameState,
    player: PlayerId,
    slots: &mut [Action],
    mut kept: usize,
) -> usize {
    let tops = state.top_owners();
    for &piece in state.pieces_of(player) {
        let p = state.piece(piece);
        let Location::Space(from) = p.loc else {
            continue;
        };
        // Random play makes "is that space open?" unpredictable, so the
        // test is data, not a branch: every target of the padded row is
        // written, and the list keeps only the real, open ones.
        let (row, real) = reach_of(p.kind).padded(player, from);
        for (i, &to) in row.iter().enumerate() {
            slots[kept] = Action::Move { piece, to };
            let open = can_enter::<ATTACKS>(tops[to.0 as usize], player);
            kept += usize::from((i < real) & open);
        }
    }
    kept
}

/// Moves of more than one step: a breadth-first walk through empty spaces,
/// ending on any enterable space; each destination is listed once.
fn multi_step<const ATTACKS: bool>(
    reach: &Reach,
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
                if seen.contains(&to) || !can_enter::<ATTACKS>(state.top_owner(to), player) {
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

/// The piece a move of `player`'s onto `to` attacks: the first piece
/// there, when it is not the mover's own.
pub fn defender(state: &GameState, player: PlayerId, to: SpaceId) -> Option<PieceId> {
    state
        .first_at(to)
        .filter(|&d| state.piece(d).owner != Some(player))
}

/// Applies a move or a special action of the movement phase. Always
/// inlined into the engine's apply, its one caller: as a call it cost a
/// Convoy ply 20 instructions.
#[inline(always)]
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
            match defender(state, player, to) {
                Some(defender) => attack(game, m, scripts, state, piece, defender, from, to)?,
                None => {
                    state.set_location(piece, Location::Space(to));
                    state.record(|| Event::Moved { piece, from, to });
                    victory::after_move(game, state, piece);
                }
            }
        }
        Action::Special { index, target } => {
            let special = &m.specials[index as usize];
            state.players[player.0 as usize].used_specials |= 1 << index;
            state.record(|| Event::Special {
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
    state.record(|| Event::Attack {
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
