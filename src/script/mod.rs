//! The Lua host.
pub mod error;
pub mod limits;
pub mod sandbox;
