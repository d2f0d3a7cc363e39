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
//! added to the state does not compile until it is copied here.

use super::{Frame, GameState, Occupancy};

impl Clone for GameState {
    fn clone(&self) -> GameState {
        let GameState {
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
            script_bytes,
            result,
        } = self;
        GameState {
            pieces: pieces.clone(),
            occupancy: occupancy.clone(),
            vars: vars.clone(),
            vars_stamp: vars_stamp.clone(),
            players: players.clone(),
            stack: stack.clone(),
            flow: *flow,
            first_player: *first_player,
            rng: rng.clone(),
            reseeds: reseeds.clone(),
            ply: *ply,
            log: log.clone(),
            events: events.clone(),
            narrated: *narrated,
            logged: *logged,
            history: history.clone(),
            history_floor: *history_floor,
            piece_hash: *piece_hash,
            script_bytes: *script_bytes,
            result: result.clone(),
        }
    }

    fn clone_from(&mut self, source: &GameState) {
        let GameState {
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
            script_bytes,
            result,
        } = source;
        self.pieces.clone_from(pieces);
        self.occupancy.clone_from(occupancy);
        self.vars.clone_from(vars);
        self.vars_stamp.clone_from(vars_stamp);
        self.players.clone_from(players);
        self.stack.clone_from(stack);
        self.flow = *flow;
        self.first_player = *first_player;
        self.rng.clone_from(rng);
        self.reseeds.clone_from(reseeds);
        self.ply = *ply;
        self.log.clone_from(log);
        self.events.clone_from(events);
        self.narrated = *narrated;
        self.logged = *logged;
        self.history.clone_from(history);
        self.history_floor = *history_floor;
        self.piece_hash = *piece_hash;
        self.script_bytes = *script_bytes;
        self.result.clone_from(result);
    }
}

impl Clone for Occupancy {
    fn clone(&self) -> Occupancy {
        let Occupancy {
            head,
            next,
            owned,
            top,
        } = self;
        Occupancy {
            head: head.clone(),
            next: next.clone(),
            owned: owned.clone(),
            top: top.clone(),
        }
    }

    fn clone_from(&mut self, source: &Occupancy) {
        let Occupancy {
            head,
            next,
            owned,
            top,
        } = source;
        self.head.clone_from(head);
        self.next.clone_from(next);
        self.owned.clone_from(owned);
        self.top.clone_from(top);
    }
}

impl Clone for Frame {
    fn clone(&self) -> Frame {
        let Frame {
            phase,
            player,
            step,
            ctx,
            seen_by,
            choices,
        } = self;
        Frame {
            phase: *phase,
            player: *player,
            step: *step,
            ctx: ctx.clone(),
            seen_by: *seen_by,
            choices: choices.clone(),
        }
    }

    /// Keeps the texts' buffers: a scripted decision's choices are copied
    /// with every try of a bot.
    fn clone_from(&mut self, source: &Frame) {
        let Frame {
            phase,
            player,
            step,
            ctx,
            seen_by,
            choices,
        } = source;
        self.phase = *phase;
        self.player = *player;
        self.step = *step;
        self.ctx.clone_from(ctx);
        self.seen_by = *seen_by;
        self.choices.clone_from(choices);
    }
}
