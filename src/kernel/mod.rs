//! The kernel: board, pieces, dice, state, turn loop and views.
pub mod dice;
pub mod rng;
