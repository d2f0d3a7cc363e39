//! The Lua host: the sandbox, the API over the kernel, and the package
//! loader that runs scripts and optional-rule overlays.
pub mod api;
mod budget;
mod bytecode;
mod choices;
pub mod coverage;
pub mod error;
mod freeze;
mod heap;
pub mod host;
pub mod limits;
pub mod lint;
mod lua54;
pub mod package;
pub mod patterns;
pub mod sandbox;
mod strict_tables;
