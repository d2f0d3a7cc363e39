//! The kernel: board, pieces, dice, state, turn loop and views. Nothing here
//! names a game: every game's specifics come from its package's data and
//! scripts.
pub mod action;
pub mod board;
pub mod determinize;
pub mod dice;
pub mod dice_table;
pub mod engine;
pub mod event;
pub mod game;
pub mod hash;
pub mod legal;
pub mod movement;
pub mod notation;
pub mod piece;
pub mod placement;
pub mod rng;
pub mod script_data;
pub mod scripts;
pub mod secrets;
pub mod state;
pub mod value;
pub mod victory;
pub mod view;
