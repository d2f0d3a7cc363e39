//! The Lua host.
mod budget;
pub mod error;
pub mod limits;
pub mod package;
pub mod sandbox;
