//! The REPL: a terminal loop on rustyline around a [`Session`], and a
//! non-interactive runner for command files and pipes. Both print exactly
//! what the session answers, so a command file is a faithful transcript.
//!
//! Modules, by concern: `session` (the game, seats, lines of play),
//! `gate` (whose eyes the screen follows, handovers and peeks),
//! `line` (one line with its undo and redo, in memory linear in its
//! length), `fresh_dice` (undo that cannot see the dice to come),
//! `commands` (the table and dispatch), `play` (actions, undo),
//! `explain` (why a line is no legal action), `branches` (forks),
//! `save`, `reload` (both built on the crate's `replay`),
//! `setup` (options, scenarios, seats, views), `show` (details, log,
//! sheet), `odds`, `render` and `narrate` (the board and events in words),
//! `summary` (a board too long for a screen, summed up),
//! `complete` (the line editor's helper), `confirm` (questions before
//! showing hidden faces on a shared screen or dropping an unsaved game),
//! `escape` (untrusted text made safe for the terminal).

pub mod branches;
pub mod commands;
pub mod complete;
pub mod confirm;
pub mod escape;
pub mod explain;
mod fresh_dice;
mod gate;
pub mod line;
mod move_help;
pub mod narrate;
pub mod odds;
pub mod play;
pub mod reload;
pub mod render;
/// The replay core, shared with `portolan replay`.
pub use crate::replay;
pub mod save;
mod screen;
pub mod session;
pub mod setup;
pub mod show;
pub mod summary;
mod terminal;
mod thinking;

pub use session::{Reply, Seat, Session};
pub use terminal::{interactive, scripted};

#[cfg(test)]
mod tests;
