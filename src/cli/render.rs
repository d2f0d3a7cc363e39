//! `portolan render`: a game position drawn as SVG, for looking at a map
//! outside the REPL. The position is a new game's start (with `--seed`),
//! or the end of a save replayed under the target's rules (`--save`, as
//! the REPL's `load` does). Drawn for one seat (`--as PLAYER`) or, by
//! default, as every player sees it: no hidden face is drawn then.

use crate::data::catalog::Catalog;
use crate::files::{check_writable, write_atomic};
use crate::kernel::view::Viewer;
use crate::load::{Request, load};
use crate::render::draw;
use crate::repl::save::{Current, restore};
use crate::untrusted::echo;
use std::path::PathBuf;

/// What `portolan render` was asked to draw.
pub struct Render {
    pub request: Request,
    pub save: Option<PathBuf>,
    /// A player id: draw that seat's view.
    pub player: Option<String>,
    pub seed: Option<u64>,
    pub svg: PathBuf,
}

/// The seed of a new game drawn without `--seed` and without a scenario
/// that fixes one: the same as `simulate`'s, so the drawing is repeatable.
const DEFAULT_SEED: u64 = 1;

/// Draws the position and writes the file; says what it wrote. A failing
/// `rules.map_notes` still writes the drawing (without the notes), then
/// reports the failure as an error.
pub fn render(catalog: &Catalog, r: &Render) -> Result<String, String> {
    if r.save.is_some() && (r.seed.is_some() || !r.request.options.is_empty()) {
        return Err(
            "--save draws the saved game with its own seed and optional rules: leave out --seed and --option"
                .into(),
        );
    }
    // Refused before a save is replayed to draw it.
    check_writable(&r.svg).map_err(|e| format!("--svg {e}"))?;
    let loaded = load(catalog, &r.request).map_err(|e| e.to_string())?;
    eprint!("{}", loaded.warning_lines());
    let (loaded, state) = match &r.save {
        Some(path) => {
            let current = Current {
                catalog,
                loaded: &loaded,
                target: &r.request.target,
                reader: Viewer::Public,
            };
            let restored = restore(&current, path)
                .map_err(|e| format!("cannot draw the save {}: {e}", path.display()))?;
            let state = restored.replayed.last().clone();
            (restored.loaded, state)
        }
        None => {
            let seed = r.seed.or(loaded.scenario_seed()).unwrap_or(DEFAULT_SEED);
            let state = loaded.engine.new_game(seed).map_err(|e| e.to_string())?;
            (loaded, state)
        }
    };
    let game = &loaded.engine.game;
    let viewer = match &r.player {
        None => Viewer::Public,
        Some(id) => Viewer::Player(game.player_index(id).ok_or_else(|| {
            let ids: Vec<&str> = game.players.iter().map(|p| p.id.as_str()).collect();
            format!(
                "--as {}: {} has no such player; its players are {}",
                echo(id),
                echo(&game.title),
                ids.join(", ")
            )
        })?),
    };
    let drawing = draw(&loaded, &state, viewer);
    write_atomic(&r.svg, drawing.svg.as_bytes()).map_err(|e| format!("--svg {e}"))?;
    let wrote = format!(
        "wrote {} ({}, ply {})\n",
        r.svg.display(),
        echo(&game.title),
        state.ply
    );
    match drawing.problems.as_slice() {
        [] => Ok(wrote),
        problems => Err(format!(
            "{wrote}without the rules' notes: {}",
            crate::untrusted::excerpt(&problems.join("\n"))
        )),
    }
}
