//! The board in the browser: a small HTTP server that hands each seat (or
//! the REPL's live board) the game as that seat may see it, and takes a
//! seat's actions as the REPL reads them.
//!
//! `http` reads requests under hard limits; `server` keeps the doors (one
//! unguessable token each), the prepared views and the event streams;
//! `views` builds what a page receives from the kernel's views; `host` is
//! `portolan host`, one game for remote seats and bots; `board` the REPL's
//! live board; `page.html` is the
//! page, which draws only what it is sent.

pub mod board;
pub mod host;
pub mod http;
pub mod server;
pub mod views;
