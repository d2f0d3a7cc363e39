//! The Lua host.
