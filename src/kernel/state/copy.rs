//! Copying a state: `clone` makes a new one, `clone_from` writes one over
//! a state that is no longer needed, keeping its buffers.
//!
//! A bot that weighs actions copies the position once for every action it
//! tries. A new copy allocates the piece list, the occupancy index, the
//! phase stack (with its choices' texts) and the history, and frees them
//! after the try; between a script's many small allocations those large
//! ones also make the allocator sweep its free lists. Writing each try
//! over one scratch state reuses the buffers instead. The copy is the
//! same either way: equal states, the same position hash and the same
//! stamp of the variables (tests compare a scratch copy played on with a
//! fresh one).
//!
//! Every structure is taken apart field by field (no `..`), so a field
//! added to the state does not compile until it is listed here. A frame's
//! choices keep their texts' buffers too: a scripted decision's choices
//! are copied with every try of a bot.

use super::{Frame, GameState, Occupancy};

/// `Clone` for a struct, field by field: `clone` builds a new value and
/// `clone_from` writes each field over the old one, keeping its buffers.
/// Both take the source apart without `..`.
macro_rules! clone_by_fields {
    ($type:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $type {
            fn clone(&self) -> $type {
                let $type { $($field),* } = self;
                $type { $($field: $field.clone()),* }
            }

            fn clone_from(&mut self, source: &$type) {
                let $type { $($field),* } = source;
                $(self.$field.clone_from($field);)*
            }
        }
    };
}

clone_by_fields!(GameState {
    pieces,
    occupancy,
    vars,
    vars_stamp,
    players,
    stack,
    flow,
    first_player,
    rng,
    reseeds,
    ply,
    log,
    events,
    narrated,
    logged,
    history,
    history_floor,
    piece_hash,
    piece_keys,
    seen_bits,
    script_bytes,
    result,
});

clone_by_fields!(Occupancy {
    head,
    next,
    owned,
    top,
    masked,
    masks,
    at,
});

clone_by_fields!(Frame {
    phase,
    player,
    step,
    ctx,
    seen_by,
    choices,
});
