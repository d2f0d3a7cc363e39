//! Determinization: a full game state a seat could be in, sampled from
//! what it may see (DESIGN principle 6), in the manner of OpenSpiel's
//! resampling from an information state. Search bots play their lines on
//! such samples, never on the real state, so nothing they compute can
//! depend on a secret their seat has not seen.
//!
//! A sample is the state with everything the seat cannot see replaced:
//!
//! - **Hidden faces.** Each owner's pieces whose face the seat cannot see
//!   get that owner's hidden kinds shuffled among them (their attributes,
//!   hidden too, become the new kind's starting ones). The kinds still
//!   hidden are taken as known: the counts each side fields are in the
//!   rules, and the faces already seen tell which remain. In a game whose
//!   scripts change hidden kinds out of sight (`secrets.hidden_kinds`, see
//!   `kernel::secrets`), that is no longer so: those pieces are blanked to
//!   the game's first kind, for the package's sampler to deal.
//! - **Private attributes** (`pieces.private_attrs`: cargo in a hold)
//!   of pieces the seat does not own go back to their kind's starting
//!   value, face seen or not: the seat has not seen them.
//! - **Cards.** Face-down cards (the `cards` API: neutral pieces whose
//!   face nobody or only their holder sees) are hidden neutral pieces, so
//!   the deck and the other players' hands are dealt anew from the cards
//!   the seat has not seen.
//! - **Script data.** Other players' private variables and the contexts
//!   of frames hidden from the seat are removed.
//! - **The dice.** Future rolls are unknown too: the sample's random
//!   stream is reseeded from the searcher's own stream.
//! - **The repetition history.** Recorded position hashes include the
//!   true faces, so when anything was resampled the sample starts a new
//!   count (earlier positions do not count toward a repetition in it).
//!
//! Then the package's sampler, `rules.sample(player)`, if it has one, runs
//! on that sample with its reseeded dice and writes values for what was
//! blanked: it reads only what the seat may see, because nothing else is
//! left. Without a sampler, a state holding a blanked secret cannot be
//! sampled, and the search bot is refused (`secrets::refusal`).

use crate::kernel::engine::Engine;
use crate::kernel::game::Game;
use crate::kernel::piece::{KindId, PieceId, PlayerId};
use crate::kernel::rng::GameRng;
use crate::kernel::scripts::RulesError;
use crate::kernel::secrets::{self, blank_script_data};
use crate::kernel::state::GameState;
use crate::kernel::view::Viewer;

/// A full state consistent with what `seat` sees of `state`, drawn with
/// `rng`. Two states that `seat` sees alike give the same sample for the
/// same stream: only the view, never a hidden secret, steers the draw.
/// An error when the state holds secrets that neither the kernel nor a
/// sampler of the package can draw: it names them.
pub fn sample(
    engine: &Engine,
    state: &GameState,
    seat: PlayerId,
    rng: &mut GameRng,
) -> Result<GameState, RulesError> {
    let uncovered = uncovered_secrets(engine, state, seat)?;
    let mut sample = state.clone();
    draw(engine, state, seat, rng, &mut sample, uncovered)?;
    Ok(sample)
}

/// [`sample`], written over `sample` (a state no longer needed), whose
/// buffers it keeps: a bot that draws a sample after another pays no
/// allocation of a whole state.
pub fn sample_over(
    engine: &Engine,
    state: &GameState,
    seat: PlayerId,
    rng: &mut GameRng,
    sample: &mut GameState,
) -> Result<(), RulesError> {
    let uncovered = uncovered_secrets(engine, state, seat)?;
    sample.clone_from(state);
    draw(engine, state, seat, rng, sample, uncovered)
}

/// Whether `state` holds secrets from `seat` that only the package's
/// sampler can draw; an error naming them when the package has none.
fn uncovered_secrets(
    engine: &Engine,
    state: &GameState,
    seat: PlayerId,
) -> Result<bool, RulesError> {
    let game = &engine.game;
    let uncovered = secrets::uncovered(game, state, seat);
    if !uncovered.is_empty() && !engine.has_sampler() {
        return Err(RulesError(secrets::refusal(game, seat, &uncovered)));
    }
    Ok(!uncovered.is_empty())
}

/// Draws what `seat` cannot see of `state` into `sample`, a copy of it.
fn draw(
    engine: &Engine,
    state: &GameState,
    seat: PlayerId,
    rng: &mut GameRng,
    sample: &mut GameState,
    uncovered: bool,
) -> Result<(), RulesError> {
    let game = &engine.game;
    let sampler = engine.has_sampler();
    let mut resampled = deal_hidden_kinds(game, state, sample, seat, rng);
    resampled |= forget_private_attrs(game, state, sample, seat);
    blank_script_data(game, sample, Viewer::Player(seat));
    resampled |= uncovered || sampler;
    redeal_dice(sample, rng);
    sample.events.clear();
    sample.narrated = false;
    if resampled {
        sample.history.clear();
        sample.history_floor = 0;
    }
    if sampler {
        engine.run_sampler(sample, seat)?;
    }
    Ok(())
}

/// Gives a sample a fresh stream of dice drawn from the searcher's `rng`.
/// Where [`samples_differ`] is false, that is all one sample differs in
/// from the next: the sample before, with its dice redealt this way, is
/// the sample [`sample`] would draw with the same stream.
pub fn redeal_dice(sample: &mut GameState, rng: &mut GameRng) {
    sample.rng =
        GameRng::new((u64::from(rng.below(u32::MAX)) << 32) | u64::from(rng.below(u32::MAX)));
}

/// Whether two samples for `seat` can differ in more than their dice
/// stream: when a face is hidden from it (dealt anew each sample) or the
/// package's sampler draws the rest. When not, every sample is the state
/// itself with the private data of others removed, the same each time.
pub fn samples_differ(engine: &Engine, state: &GameState, seat: PlayerId) -> bool {
    engine.has_sampler()
        || state
            .piece_ids()
            .any(|id| !state.piece(id).visible_to(seat))
}

/// Shuffles each owner's hidden kinds among its pieces `seat` cannot see,
/// or blanks them in a game whose scripts change them out of sight. Whether anything
/// was hidden.
fn deal_hidden_kinds(
    game: &Game,
    state: &GameState,
    sample: &mut GameState,
    seat: PlayerId,
    rng: &mut GameRng,
) -> bool {
    let owners =
        std::iter::once(None).chain((0..game.players.len()).map(|p| Some(PlayerId(p as u8))));
    let mut hidden_any = false;
    for owner in owners {
        let hidden: Vec<PieceId> = state
            .piece_ids()
            .filter(|&id| {
                let p = state.piece(id);
                p.owner == owner && !p.visible_to(seat)
            })
            .collect();
        hidden_any |= !hidden.is_empty();
        let mut kinds: Vec<KindId> = if game.secrets.hidden_kinds {
            vec![KindId(0); hidden.len()]
        } else {
            // Sorted first, so the draw does not depend on which piece
            // held which kind.
            let mut kinds: Vec<_> = hidden.iter().map(|&id| state.piece(id).kind).collect();
            kinds.sort_unstable();
            kinds
        };
        rng.shuffle(&mut kinds);
        for (&id, kind) in hidden.iter().zip(kinds) {
            sample.set_kind(id, kind);
            sample.set_piece_attrs(id, game.kind(kind).attrs.clone());
        }
    }
    hidden_any
}

/// Puts the private attributes of pieces `seat` does not own back to
/// their kind's starting values. Whether any changed.
fn forget_private_attrs(
    game: &Game,
    state: &GameState,
    sample: &mut GameState,
    seat: PlayerId,
) -> bool {
    let mut changed = false;
    if game.private_attrs.is_empty() {
        return changed;
    }
    for id in state.piece_ids() {
        let p = state.piece(id);
        if p.is_owned_by(seat) || !p.visible_to(seat) {
            continue;
        }
        let start = &game.kind(p.kind).attrs;
        for name in &game.private_attrs {
            let value = start.get(name).cloned();
            if p.attrs.get(name) != value.as_ref() {
                sample.set_piece_attr(id, name, value);
                changed = true;
            }
        }
    }
    changed
}
