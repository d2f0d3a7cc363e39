//! The engines a native-baseline bench measures against: this
//! repository's rules and scenarios folders (so a bench measures the
//! working copy, not the files built into the binary).

use portolan::data::catalog::Catalog;
use portolan::kernel::engine::Engine;
use portolan::load::{Request, load};
use std::path::Path;

/// This repository's rules and scenarios.
pub fn catalog() -> Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Catalog::new(Some(root.join("rules")), Some(root.join("scenarios")))
}

/// A game (`med-convoy`) or a scenario (`solo-convoy/long-run`), with no
/// optional rule switched on by the request, unnarrated as `simulate`
/// plays it (nobody reads a benchmark game's log).
pub fn engine(target: &str) -> Engine {
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays: vec![],
    };
    match load(&catalog(), &request) {
        Ok(loaded) => {
            loaded.engine.set_narration(false);
            loaded.engine
        }
        Err(e) => panic!("{target} does not load:\n{e}"),
    }
}
