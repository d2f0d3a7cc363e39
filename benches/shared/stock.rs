//! The engine a native-baseline bench measures against.

use portolan::data::catalog::Catalog;
use portolan::kernel::engine::Engine;
use portolan::load::{Request, load};
use std::path::PathBuf;

/// A stock game, base rules, from this repository's rules folder (so a
/// bench measures the working copy's rules, not the ones built into the
/// binary).
pub fn engine(game: &str) -> Engine {
    let catalog = Catalog::new(
        Some(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))),
        None,
    );
    let request = Request {
        target: game.into(),
        options: vec![],
    };
    match load(&catalog, &request) {
        Ok(loaded) => loaded.engine,
        Err(e) => panic!("{game} does not load:\n{e}"),
    }
}
