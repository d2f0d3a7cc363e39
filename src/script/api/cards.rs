//! `cards`: decks and hidden hands, built on pieces in pools. A card is a
//! neutral piece whose kind is its face: in a deck nobody sees it, in a
//! hand only its holder does, and a card played or discarded is shown to
//! everyone with `pieces.reveal`. Because face-down cards are hidden
//! neutral pieces, views show the other hands as backs only and search
//! bots deal the unseen cards anew (kernel/determinize.rs).
//!
//! Shuffling deals the faces anew among the cards' ids, so a card seen in
//! a discard pile cannot be followed by its id once shuffled back.

use super::link::Link;
use super::native::{ApiError, Native};
use super::{location_arg, lua_piece, natives, player_arg};
use crate::kernel::game::Game;
use crate::kernel::piece::{Location, PieceId, PoolId, player_bit};
use crate::kernel::state::GameState;
use mlua::Lua;
use std::rc::Rc;

pub fn register(lua: &Lua, link: &Rc<Link>) -> mlua::Result<()> {
    let t = natives(lua, link, &[&SHUFFLE, &DRAW])?;
    lua.globals().raw_set("cards", t)
}

/// `cards.shuffle(deck [, pool...])`: the cards of every pool named go
/// into the deck, and every card of the deck is turned face down and given
/// a face drawn at random among the deck's faces. Returns the deck's size.
static SHUFFLE: Native = Native {
    name: "cards.shuffle",
    call: |link, a, out| {
        let deck = a.str(1)?;
        let others = (2..=a.count())
            .map(|i| a.str(i).map(str::to_string))
            .collect::<Result<Vec<_>, _>>()?;
        link.with_state(|g, s| {
            let deck = pool_arg(g, deck)?;
            let others = others
                .iter()
                .map(|p| pool_arg(g, p))
                .collect::<Result<Vec<_>, _>>()?;
            out.int(shuffle(g, s, deck, &others) as i64);
            Ok(())
        })
    },
};

/// `cards.draw(deck, to, player [, discard])`: a card at random from the
/// deck (the whole discard pile shuffled back first when the deck is
/// empty) goes to the pool or space `to`, its face seen by `player` only.
/// Returns its id, or nil when no card is left anywhere. The card is the
/// n-th of the deck in id order for a roll of n on a die as big as the
/// deck, so a test can force which card comes (`GameRng::force`).
static DRAW: Native = Native {
    name: "cards.draw",
    call: |link, a, out| {
        let (deck, to, player, discard) = (a.str(1)?, a.str(2)?, a.str(3)?, a.opt_str(4)?);
        link.with_state(|g, s| {
            let deck = pool_arg(g, deck)?;
            let to = location_arg(g, to)?;
            let holder = player_bit(player_arg(g, player)?);
            let discard = discard.map(|d| pool_arg(g, d)).transpose()?;
            let mut in_deck = in_pool(s, deck);
            if in_deck.is_empty()
                && let Some(discard) = discard
            {
                shuffle(g, s, deck, &[discard]);
                in_deck = in_pool(s, deck);
            }
            if in_deck.is_empty() {
                out.nil();
                return Ok(());
            }
            let card = in_deck[s.rng.die(in_deck.len() as u32) as usize - 1];
            s.set_location(card, to);
            s.set_seen_by(card, holder);
            out.int(lua_piece(card));
            Ok(())
        })
    },
};

fn pool_arg(g: &Game, name: &str) -> Result<PoolId, ApiError> {
    g.pool_index(name)
        .ok_or_else(|| ApiError(format!("no pool '{name}' (pools: {})", g.pools.join(", "))))
}

fn in_pool(s: &GameState, pool: PoolId) -> Vec<PieceId> {
    s.piece_ids()
        .filter(|&id| s.piece(id).loc == Location::Pool(pool))
        .collect()
}

/// Gathers the cards of `others` into `deck`, face down, and deals the
/// deck's faces (kinds and their attributes) anew among its cards.
fn shuffle(g: &Game, s: &mut GameState, deck: PoolId, others: &[PoolId]) -> usize {
    for &pool in others {
        for id in in_pool(s, pool) {
            s.set_location(id, Location::Pool(deck));
        }
    }
    let cards = in_pool(s, deck);
    // Sorted first, so the deal does not depend on which card held which face.
    let mut faces: Vec<_> = cards.iter().map(|&id| s.piece(id).kind).collect();
    faces.sort_unstable();
    s.rng.shuffle(&mut faces);
    for (&id, face) in cards.iter().zip(faces) {
        s.set_kind(id, face);
        s.set_piece_attrs(id, g.kind(face).attrs.clone());
        s.set_seen_by(id, 0);
    }
    cards.len()
}
