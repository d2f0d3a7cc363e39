//! Portolan: a rules host for board and war games.
pub mod data;
pub mod kernel;
pub mod script;
