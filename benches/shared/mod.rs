//! What the native-baseline benches share: how much work a run does, the
//! engine they measure, and the timing of each side.

pub mod plan;
pub mod stock;
pub mod timing;
