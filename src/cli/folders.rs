//! The rules and scenarios folders a user names (`--rules DIR`,
//! `PORTOLAN_RULES`, and the same for scenarios). A folder named on
//! purpose must be one that holds packages or scenarios: a typo in the
//! path, a file, or a package given where its parent folder was meant
//! would otherwise fall back, without a word, to the stock rules.

use crate::data::catalog::Catalog;
use crate::untrusted::echo;
use std::path::{Path, PathBuf};

/// The catalog the command line asks for, once the folders it names are
/// known to hold what they should.
pub fn catalog(rules: Option<PathBuf>, scenarios: Option<PathBuf>) -> Result<Catalog, String> {
    let rules = named(rules, "--rules", "PORTOLAN_RULES")?;
    let scenarios = named(scenarios, "--scenarios", "PORTOLAN_SCENARIOS")?;
    if let Some((dir, how)) = &rules {
        holds_packages(dir, how)?;
    }
    if let Some((dir, how)) = &scenarios {
        holds_scenarios(dir, how)?;
    }
    Ok(Catalog::new(rules.map(|r| r.0), scenarios.map(|s| s.0)))
}

/// The folder named by a flag, else by an environment variable, with how
/// it was named (for errors).
fn named(
    flag: Option<PathBuf>,
    name: &str,
    var: &str,
) -> Result<Option<(PathBuf, String)>, String> {
    if let Some(dir) = flag {
        let how = format!("{name} {}", dir.display());
        return Ok(Some((dir, how)));
    }
    match std::env::var_os(var) {
        None => Ok(None),
        Some(v) if v.is_empty() => Err(format!(
            "{var} is set but empty: name a folder in it, or unset it to use the stock files"
        )),
        Some(v) => {
            let dir = PathBuf::from(v);
            let how = format!("{var}={}", dir.display());
            Ok(Some((dir, how)))
        }
    }
}

/// A rules folder holds packages: folders with a game.yaml.
fn holds_packages(dir: &Path, how: &str) -> Result<(), String> {
    let how = echo(how);
    is_folder(dir, &how, "the folder that holds your rules packages")?;
    if dir.join("game.yaml").is_file() {
        return Err(format!(
            "{how}: this is a rules package itself; give the folder that holds it ({}), or play the package directly: portolan play {}",
            echo(&parent(dir).display().to_string()),
            echo(&dir.display().to_string())
        ));
    }
    if !subfolders(dir, &how)?.any(|d| d.join("game.yaml").is_file()) {
        return Err(format!(
            "{how}: no rules package here (a package is a folder with a game.yaml)"
        ));
    }
    Ok(())
}

/// A scenarios folder holds `<game>/<name>.yaml` files.
fn holds_scenarios(dir: &Path, how: &str) -> Result<(), String> {
    let how = echo(how);
    is_folder(
        dir,
        &how,
        "the folder that holds a folder of scenarios per game",
    )?;
    if subfolders(dir, &how)?.any(|d| has_yaml(&d)) {
        return Ok(());
    }
    if has_yaml(dir) {
        return Err(format!(
            "{how}: these scenarios are one game's; give the folder above it ({}): scenarios go in <folder>/<game>/<name>.yaml",
            echo(&parent(dir).display().to_string())
        ));
    }
    Err(format!(
        "{how}: no scenarios here (a scenario is <folder>/<game>/<name>.yaml)"
    ))
}

fn is_folder(dir: &Path, how: &str, wanted: &str) -> Result<(), String> {
    if !dir.exists() {
        return Err(format!("{how}: no such folder"));
    }
    if !dir.is_dir() {
        return Err(format!("{how}: not a folder; give {wanted}"));
    }
    Ok(())
}

fn subfolders(dir: &Path, how: &str) -> Result<impl Iterator<Item = PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{how}: cannot read it: {e}"))?;
    Ok(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()))
}

fn has_yaml(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "yaml"))
    })
}

fn parent(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from(".."),
    }
}
