//! Loading a game: a CLI target (game id, scenario id, folder or file)
//! becomes an [`Engine`] ready to play, through every validation step:
//! the YAML schema, the references, the scenario's overrides, the scripts,
//! the optional rules' overlays, and the final compile.

use crate::data::catalog::Catalog;
use crate::data::compile::compile;
use crate::data::error::{DataError, DataErrors};
use crate::data::package::Package;
use crate::data::scenario::{Scenario, apply_overrides};
use crate::kernel::engine::Engine;
use crate::script::host::LuaRules;
use crate::script::limits::Limits;
use std::rc::Rc;

/// What the user asked to play.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub target: String,
    /// `id` or `+id` switches an optional rule on, `-id` off.
    pub options: Vec<String>,
}

/// A loaded game and where it came from.
pub struct Loaded {
    pub engine: Engine,
    pub package: Package,
    pub scenario: Option<Scenario>,
    /// The optional rules switched on, by id.
    pub options: Vec<String>,
}

impl Loaded {
    /// The seed the scenario fixes, if it fixes one.
    pub fn scenario_seed(&self) -> Option<u64> {
        self.scenario.as_ref().and_then(|s| s.seed)
    }
}

/// Loads a target with options. Errors name files, lines and columns.
pub fn load(catalog: &Catalog, request: &Request) -> Result<Loaded, DataErrors> {
    let (package, scenario) = catalog.resolve(&request.target)?;
    let mut options = scenario
        .as_ref()
        .map(|s| s.options.clone())
        .unwrap_or_default();
    for o in &request.options {
        match o.strip_prefix('-') {
            Some(off) => options.retain(|x| x != off),
            None => {
                let on = o.trim_start_matches('+').to_string();
                if !options.contains(&on) {
                    options.push(on);
                }
            }
        }
    }
    let engine = build(&package, scenario.as_ref(), &options)?;
    Ok(Loaded {
        engine,
        package,
        scenario,
        options,
    })
}

/// Builds the engine of a package with a scenario and options.
pub fn build(
    package: &Package,
    scenario: Option<&Scenario>,
    options: &[String],
) -> Result<Engine, DataErrors> {
    let yaml_path = package.path_of("game.yaml");
    let file = package.game_file()?;
    // The file as written must be valid on its own: this is where errors
    // still have their line and column.
    compile(&file, &yaml_path, options)?;
    let file = apply_overrides(&file, scenario.map_or(&[][..], |s| &s.overrides))?;
    let (rules, configure) = LuaRules::load(package, &file, options, Limits::default())?;
    let file = rules.configure(file, &configure, &yaml_path)?;
    let game = Rc::new(compile(
        &file,
        &format!("{yaml_path} (after the scenario and optional rules)"),
        options,
    )?);
    rules.attach(&game)?;
    Ok(Engine::new(game, Box::new(rules)))
}

/// Checks a target thoroughly: the package alone, each optional rule
/// alone, every stock scenario of the game, and a game started from each.
/// Returns every error found.
pub fn check(catalog: &Catalog, target: &str) -> Result<Vec<String>, DataErrors> {
    let (package, scenario) = catalog.resolve(target)?;
    let attempt = |label: String,
                   scenario: Option<&Scenario>,
                   options: &[String]|
     -> Result<String, DataErrors> {
        let engine = build(&package, scenario, options)?;
        engine.new_game(0).map_err(|e| {
            DataErrors::from(DataError::new(
                &package.root,
                format!("starting a game: {e}"),
            ))
        })?;
        Ok(label)
    };
    let mut results = Vec::new();
    match &scenario {
        Some(s) => results.push(attempt(format!("scenario {}", s.id), Some(s), &s.options)),
        None => {
            results.push(attempt(format!("package {}", package.root), None, &[]));
            let file = package.game_file()?;
            for o in &file.options {
                results.push(attempt(
                    format!("optional rule {} ({})", o.number, o.id),
                    None,
                    std::slice::from_ref(&o.id),
                ));
            }
            for name in catalog.scenario_ids(&file.id) {
                let s = catalog.scenario(&file.id, &name);
                results.push(
                    s.and_then(|s| attempt(format!("scenario {}", s.id), Some(&s), &s.options)),
                );
            }
        }
    }
    let mut checked = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(label) => checked.push(label),
            Err(e) => errors.extend(e.0),
        }
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        Err(DataErrors(errors))
    }
}
