//! The Lua host.
pub mod sandbox;
