//! Portolan: a rules host for board and war games. See `src/README.md`
//! for a map of the modules.
pub mod balance;
pub mod bots;
pub mod cli;
pub mod data;
pub mod files;
pub mod kernel;
pub mod load;
pub mod output;
pub mod plot;
pub mod render;
pub mod repl;
pub mod replay;
pub mod script;
pub mod sim;
pub mod untrusted;
pub mod web;
