//! Loading a game: a CLI target (game id, scenario id, folder or file)
//! becomes an [`Engine`] ready to play, through every validation step:
//! the YAML schema, the references, the scenario's overrides, the scripts,
//! the optional rules' overlays, and the final compile.

use crate::data::catalog::Catalog;
use crate::data::compile::compile;
use crate::data::error::{DataError, DataErrors, suggest};
use crate::data::game_file::GameFile;
use crate::data::locate::{Outline, place_in_game};
use crate::data::overlay::{self, Overlay};
use crate::data::package::Package;
use crate::data::scenario::{Scenario, apply_overrides};
use crate::kernel::engine::Engine;
use crate::script::host::LuaRules;
use crate::script::limits::Limits;
use crate::script::lint::{check_package as lint_scripts, read_by_name};
use crate::untrusted::echo;
use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;

/// What the user asked to play.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub target: String,
    /// `id` or `+id` switches an optional rule on, `-id` off.
    pub options: Vec<String>,
    /// Balance overlays laid on top of the scenario's: a name the game's
    /// package ships, or a file.
    pub overlays: Vec<String>,
}

/// A loaded game and where it came from.
pub struct Loaded {
    pub engine: Engine,
    pub package: Package,
    pub scenario: Option<Scenario>,
    /// The optional rules switched on, by id.
    pub options: Vec<String>,
    /// The overlays laid on the data, the scenario's first.
    pub overlays: Vec<Overlay>,
    /// What loaded but deserves a word: the overlays' changes of data no
    /// rule reads. A command shows them once, when it loads.
    pub warnings: Vec<DataError>,
}

impl Loaded {
    /// The warnings as lines to show, each `warning: FILE:LINE:COL: ...`.
    pub fn warning_lines(&self) -> String {
        self.warnings
            .iter()
            .map(|w| format!("warning: {w}\n"))
            .collect()
    }
}

impl Loaded {
    /// The seed the scenario fixes, if it fixes one.
    pub fn scenario_seed(&self) -> Option<u64> {
        self.scenario.as_ref().and_then(|s| s.seed)
    }
}

/// Loads a target with options. Errors name files, lines and columns.
pub fn load(catalog: &Catalog, request: &Request) -> Result<Loaded, DataErrors> {
    load_counted(catalog, request, false)
}

/// [`load`], with an engine that counts what its rules do when `counted`
/// (rule-function calls, dice-table rows: `simulate --coverage`).
pub fn load_counted(
    catalog: &Catalog,
    request: &Request,
    counted: bool,
) -> Result<Loaded, DataErrors> {
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
    let file = package.game_file()?;
    let overlays = overlays_of(&package, &file.id, scenario.as_ref(), &request.overlays)?;
    let (engine, warnings) = build_from(
        &package,
        file,
        scenario.as_ref(),
        &options,
        &overlays,
        counted,
    )?;
    Ok(Loaded {
        engine,
        package,
        scenario,
        options,
        overlays,
        warnings,
    })
}

/// The scenario's overlays, then the ones asked for; an unknown one is
/// blamed on the scenario line that names it, or on `--overlay`.
fn overlays_of(
    package: &Package,
    game: &str,
    scenario: Option<&Scenario>,
    asked: &[String],
) -> Result<Vec<Overlay>, DataErrors> {
    let named = scenario.map_or(&[][..], |s| &s.overlays);
    let from_scenario = named.iter().map(|w| {
        (
            overlay::shipped(package, game, &w.value),
            &w.value,
            w.file.clone(),
            w.at,
        )
    });
    let from_command = asked
        .iter()
        .filter(|a| !named.iter().any(|w| &&w.value == a))
        .map(|a| {
            (
                overlay::resolve(package, game, a),
                a,
                format!("--overlay {}", echo(a)),
                None,
            )
        });
    let mut overlays = Vec::new();
    let mut errors = Vec::new();
    for (found, name, file, at) in from_scenario.chain(from_command) {
        match found {
            Ok(o) => overlays.push(o),
            // An overlay that is not there is blamed where it was named.
            Err(e) => errors.extend(e.0.into_iter().map(|mut e| {
                if e.file == *name && e.at.is_none() {
                    (e.file, e.at) = (file.clone(), at);
                }
                e
            })),
        }
    }
    if errors.is_empty() {
        Ok(overlays)
    } else {
        Err(DataErrors(errors))
    }
}

/// Builds the engine of a package with a scenario and options. The data
/// and the scripts are both checked before either error is returned, so a
/// designer sees every problem at once. The overlays' warnings are left
/// out: a save or a replay lays overlays a session already laid.
pub fn build(
    package: &Package,
    scenario: Option<&Scenario>,
    options: &[String],
    overlays: &[Overlay],
) -> Result<Engine, DataErrors> {
    build_from(
        package,
        package.game_file()?,
        scenario,
        options,
        overlays,
        false,
    )
    .map(|(engine, _)| engine)
}

/// [`build`] from the package's game.yaml, already read; `counted`
/// loads the scripts to count what they do (coverage). Returns the
/// overlays' warnings with the engine.
fn build_from(
    package: &Package,
    file: GameFile,
    scenario: Option<&Scenario>,
    options: &[String],
    overlays: &[Overlay],
    counted: bool,
) -> Result<(Engine, Vec<DataError>), DataErrors> {
    let yaml_path = package.path_of("game.yaml");
    check_options(&file, scenario, options)?;
    let overrides = scenario.map_or(&[][..], |s| &s.overrides);
    let mut errors = Vec::new();
    // The file as written must be valid on its own: this is where errors
    // still have their line and column.
    let outline = package
        .files
        .get("game.yaml")
        .and_then(|text| Outline::of(text));
    let written = compile(&file, &yaml_path, outline.as_ref(), &[], options)
        .map_err(|e| errors.extend(e.0))
        .ok();
    // The names the rules read the data by: what an overlay's keys are
    // weighed against. Read only when there are overlays to weigh.
    let names = match overlays.is_empty() {
        true => BTreeSet::new(),
        false => read_by_name(&package.lua_files()),
    };
    let (overridden, warnings) = match apply_overrides(&file, overrides, overlays, &names) {
        Ok((file, warnings)) => (Some(file), warnings),
        Err(e) => {
            errors.extend(e.0);
            (None, Vec::new())
        }
    };
    let for_scripts = overridden.as_ref().unwrap_or(&file);
    let scripts = LuaRules::load(package, for_scripts, options, Limits::default(), counted)
        .map_err(|e| errors.extend(e.0))
        .ok();
    let (Some(written), Some(file), Some((rules, configure))) = (written, overridden, scripts)
    else {
        return Err(DataErrors(errors));
    };
    let game = if overrides.is_empty() && overlays.is_empty() && configure.is_empty() {
        // Nothing changed the data: the game compiled from the file is it.
        written
    } else {
        let file = rules.configure(file, &configure, &yaml_path)?;
        let mut changed_by = match scenario {
            Some(s) if !s.overrides.is_empty() => {
                format!("{} (its overrides of {yaml_path})", s.path)
            }
            _ => yaml_path.clone(),
        };
        changed_by = with_overlays(changed_by, overlays);
        if !configure.is_empty() {
            changed_by += " after the optional rules' configure()";
        }
        compile(&file, &changed_by, None, overrides, options)?
    };
    let game = Rc::new(game);
    let place = |path: &str| {
        let path: Vec<&str> = path.split('.').collect();
        place_in_game(&yaml_path, outline.as_ref(), overrides, &path)
    };
    // A rule that refuses the data as prepared (a leader given a second
    // turn) names the overlays, which may be what wrote it.
    rules.attach(&game, &with_overlays(yaml_path.clone(), overlays), &place)?;
    Ok((Engine::new(game, Box::new(rules)), warnings))
}

/// The name of data some overlays changed: `game.yaml with the overlays
/// a.yaml, b.yaml`.
fn with_overlays(data: String, overlays: &[Overlay]) -> String {
    if overlays.is_empty() {
        return data;
    }
    let paths: Vec<&str> = overlays.iter().map(|o| o.path.as_str()).collect();
    format!("{data} with the overlays {}", paths.join(", "))
}

/// Every optional rule asked for must exist; an unknown one is blamed on
/// the scenario line that names it, or on the command line.
fn check_options(
    file: &GameFile,
    scenario: Option<&Scenario>,
    options: &[String],
) -> Result<(), DataErrors> {
    let known: HashSet<&str> = file.options.iter().map(|o| o.id.as_str()).collect();
    let errors: Vec<DataError> = options
        .iter()
        .filter(|id| !known.contains(id.as_str()))
        .map(|id| {
            let message = format!(
                "unknown optional rule '{}': {}",
                echo(id),
                suggest(id, file.options.iter().map(|o| o.id.as_str()))
            );
            let written = scenario.and_then(|s| s.options_at.iter().find(|w| &w.value == id));
            match written {
                Some(w) => DataError {
                    file: w.file.clone(),
                    at: w.at,
                    message,
                },
                None => DataError::new("--option", message),
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(DataErrors(errors))
    }
}

/// What `check` found in a target that loads: the variants that passed,
/// and the warnings (an overlay's changes of data no rule reads), each
/// once.
#[derive(Debug, Default)]
pub struct Checked {
    pub passed: Vec<String>,
    pub warnings: Vec<DataError>,
}

/// Checks a target thoroughly: the package alone, each optional rule
/// alone, each overlay it ships alone, every stock scenario of the game,
/// and a game started from each; then each overlay asked for (a name or a
/// file) on the target; then reads every script of the package for
/// mistakes no run may reach ([`crate::script::lint`]). Returns every
/// error found.
pub fn check(catalog: &Catalog, target: &str, asked: &[String]) -> Result<Checked, DataErrors> {
    let (package, scenario) = catalog.resolve(target)?;
    let file = package.game_file()?;
    let warnings = std::cell::RefCell::new(Vec::new());
    let attempt = |label: String,
                   scenario: Option<&Scenario>,
                   options: &[String],
                   overlays: &[String]|
     -> Result<String, DataErrors> {
        let overlays = overlays_of(&package, &file.id, scenario, overlays)?;
        let (engine, found) =
            build_from(&package, file.clone(), scenario, options, &overlays, false)?;
        warnings.borrow_mut().extend(found);
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
        Some(s) => results.push(attempt(
            format!("scenario {}", s.id),
            Some(s),
            &s.options,
            &[],
        )),
        None => {
            results.push(attempt(format!("package {}", package.root), None, &[], &[]));
            for o in &file.options {
                results.push(attempt(
                    format!("optional rule {} ({})", o.number, o.id),
                    None,
                    std::slice::from_ref(&o.id),
                    &[],
                ));
            }
            for name in overlay::names(&package) {
                results.push(attempt(
                    format!("overlay {name}"),
                    None,
                    &[],
                    std::slice::from_ref(&name),
                ));
            }
            for name in catalog.scenario_ids(&file.id) {
                let s = catalog.scenario(&file.id, &name);
                results.push(s.and_then(|s| {
                    attempt(format!("scenario {}", s.id), Some(&s), &s.options, &[])
                }));
            }
        }
    }
    let options = scenario.as_ref().map_or(&[][..], |s| &s.options);
    for name in asked {
        results.push(attempt(
            format!("overlay {name} on {target}"),
            scenario.as_ref(),
            options,
            std::slice::from_ref(name),
        ));
    }
    results.push(lint_scripts(&package).map(|()| format!("scripts of {}", package.root)));
    let mut checked = Checked::default();
    let mut errors: Vec<DataError> = Vec::new();
    let mut seen = HashSet::new();
    for r in results {
        match r {
            Ok(label) => checked.passed.push(label),
            // A mistake in game.yaml shows up in every variant tried: once is enough.
            Err(e) => errors.extend(e.0.into_iter().filter(|x| seen.insert(x.clone()))),
        }
    }
    let mut seen = HashSet::new();
    checked.warnings = warnings
        .into_inner()
        .into_iter()
        .filter(|w| seen.insert(w.clone()))
        .collect();
    if errors.is_empty() {
        Ok(checked)
    } else {
        Err(DataErrors(errors))
    }
}
