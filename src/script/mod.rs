//! The Lua host: the sandbox, the API over the kernel, and the package
//! loader that runs scripts and optional-rule overlays.
pub mod api;
mod budget;
mod bytecode;
mod freeze;
pub mod error;
pub mod host;
pub mod limits;
pub mod package;
pub mod patterns;
pub mod sandbox;
