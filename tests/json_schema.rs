//! The JSON Schemas editors check YAML with: docs/schema/ holds exactly
//! what `portolan schema` prints (generated from the types that read the
//! files, so neither can drift), every stock file fits its schema, and a
//! misspelt key is refused.

use portolan::data::json_schema::SchemaFile;
use serde_json::Value as Json;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped(file: SchemaFile) -> PathBuf {
    repo().join(format!("docs/schema/{}.json", file.name()))
}

/// A YAML file as the JSON an editor's YAML extension validates: YAML
/// 1.2, where only `true` and `false` are booleans (Treasure Fleet's wind
/// card `short: N` is the letter N, as Portolan reads it too).
fn yaml_as_json(path: &Path) -> Json {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut yaml_1_2 = serde_saphyr::Options::default();
    yaml_1_2.strict_booleans = true;
    serde_saphyr::from_str_with_options(&text, yaml_1_2)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every problem the schema finds in a value, one a line.
fn problems(file: SchemaFile, value: &Json) -> Vec<String> {
    let validator = jsonschema::validator_for(&file.schema()).expect("a valid schema");
    validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The `.yaml` files of a folder and its subfolders.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(yaml_files(&path));
        } else if path.extension().is_some_and(|x| x == "yaml") {
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
fn docs_schema_holds_what_portolan_schema_prints() {
    for file in SchemaFile::ALL {
        let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
            .args(["schema", file.name()])
            .current_dir(repo())
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(printed, file.text());
        let path = shipped(file);
        let kept = fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == printed,
            "{} is not what `portolan schema {}` prints: write it again with \
             `portolan schema {} > docs/schema/{}.json`",
            path.display(),
            file.name(),
            file.name(),
            file.name()
        );
    }
}

#[test]
fn every_stock_file_fits_its_schema() {
    let mut files: Vec<(SchemaFile, PathBuf)> = Vec::new();
    for game in fs::read_dir(repo().join("rules")).unwrap().flatten() {
        files.push((SchemaFile::Game, game.path().join("game.yaml")));
        let overlays = game.path().join("overlays");
        if overlays.is_dir() {
            files.extend(
                yaml_files(&overlays)
                    .into_iter()
                    .map(|p| (SchemaFile::Overlay, p)),
            );
        }
    }
    files.push((
        SchemaFile::Game,
        repo().join("docs/examples/secret-sampler/game.yaml"),
    ));
    files.extend(
        yaml_files(&repo().join("scenarios"))
            .into_iter()
            .map(|p| (SchemaFile::Scenario, p)),
    );
    let kinds = |k: SchemaFile| files.iter().filter(|(f, _)| *f == k).count();
    assert!(
        kinds(SchemaFile::Game) >= 5
            && kinds(SchemaFile::Scenario) >= 15
            && kinds(SchemaFile::Overlay) >= 8
    );
    for (file, path) in &files {
        let found = problems(*file, &yaml_as_json(path));
        assert!(
            found.is_empty(),
            "{}:\n{}",
            path.display(),
            found.join("\n")
        );
    }
}

#[test]
fn a_misspelt_key_is_refused_where_it_is_written() {
    let mut game = yaml_as_json(&repo().join("rules/mediterranea/game.yaml"));
    game["max_plie"] = Json::from(3);
    let found = problems(SchemaFile::Game, &game);
    assert!(found.iter().any(|p| p.contains("max_plie")), "{found:?}");

    let mut kinds = yaml_as_json(&repo().join("rules/med-convoy/game.yaml"));
    kinds["pieces"]["kinds"]["Merchant"]["cuont"] = Json::from(3);
    let found = problems(SchemaFile::Game, &kinds);
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("/pieces/kinds/Merchant") && p.contains("cuont")),
        "{found:?}"
    );

    let mut scenario = yaml_as_json(&repo().join("scenarios/mediterranea/jihad.yaml"));
    scenario["titel"] = Json::from("Jihad");
    let found = problems(SchemaFile::Scenario, &scenario);
    assert!(found.iter().any(|p| p.contains("titel")), "{found:?}");

    let mut overlay = yaml_as_json(&repo().join("rules/mediterranea/overlays/green-up.yaml"));
    overlay["changes"][0]["sett"] = Json::from(1);
    let found = problems(SchemaFile::Overlay, &overlay);
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("/changes/0") && p.contains("sett")),
        "{found:?}"
    );
}

#[test]
fn a_value_of_the_wrong_kind_or_an_unknown_word_is_refused() {
    let mut game = yaml_as_json(&repo().join("rules/med-convoy/game.yaml"));
    game["max_plies"] = Json::from("many");
    game["phases"]["sailing"]["kind"] = Json::from("sailing");
    let found = problems(SchemaFile::Game, &game);
    assert!(
        found.iter().any(|p| p.starts_with("/max_plies")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.starts_with("/phases/sailing")),
        "{found:?}"
    );
}
