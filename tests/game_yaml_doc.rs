//! docs/game-yaml.md and `check` agree: every example of the reference
//! loads. The page's complete game (the YAML block starting with `id:`)
//! becomes a package, with each Lua block written to the file its first
//! line names (`-- rules.lua`); a YAML block starting with `game:` is a
//! scenario of it, or a balance overlay the package ships when it has
//! `changes:`; any other YAML block is merged into the complete game as a
//! package of its own (a scenario may only change what a game declares).

use portolan::data::catalog::Catalog;
use std::path::Path;

/// A fenced block of the page: its language, its text, and the line its
/// fence is on (to name a failing example).
struct Block {
    language: String,
    text: String,
    line: usize,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in page.lines().enumerate() {
        match (line.strip_prefix("```"), open.take()) {
            (Some(language), None) => {
                open = Some(Block {
                    language: language.trim().to_string(),
                    text: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some(block)) => found.push(block),
            (None, Some(mut block)) => {
                block.text += line;
                block.text.push('\n');
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    found
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The file a Lua block names on its first line (`-- rules.lua`).
fn lua_file(block: &Block) -> &str {
    let first = block.text.lines().next().unwrap();
    first
        .strip_prefix("-- ")
        .expect("a Lua block names its file")
}

#[test]
fn every_example_of_the_game_yaml_reference_loads() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/game-yaml.md")).unwrap();
    let blocks = blocks(&page);
    let yaml: Vec<&Block> = blocks.iter().filter(|b| b.language == "yaml").collect();
    let game = yaml
        .iter()
        .find(|b| b.text.starts_with("id:"))
        .expect("the page has a complete game");
    let id = game.text.lines().next().unwrap()["id:".len()..].trim();

    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("rules").join(id);
    let scenarios = dir.path().join("scenarios").join(id);
    write(&package.join("game.yaml"), &game.text);
    for lua in blocks.iter().filter(|b| b.language == "lua") {
        write(&package.join(lua_file(lua)), &lua.text);
    }
    let lua: Vec<&Block> = blocks.iter().filter(|b| b.language == "lua").collect();
    let mut examples = Vec::new();
    for block in yaml.iter().filter(|b| b.line != game.line) {
        let name = format!("line-{}", block.line);
        if block.text.starts_with("game:") && block.text.contains("\nchanges:") {
            // `check` of the package tries each overlay it ships.
            write(&package.join(format!("overlays/{name}.yaml")), &block.text);
            examples.push((block.line, id.to_string()));
            continue;
        }
        if block.text.starts_with("game:") {
            write(&scenarios.join(format!("{name}.yaml")), &block.text);
            examples.push((block.line, format!("{id}/{name}")));
            continue;
        }
        // The game with the example merged in, as JSON (which is YAML).
        let mut merged: serde_json::Value = serde_saphyr::from_str(&game.text).unwrap();
        let example: serde_json::Value = serde_saphyr::from_str(&block.text)
            .unwrap_or_else(|e| panic!("docs/game-yaml.md:{}: {e}", block.line));
        portolan::data::scenario::merge(&mut merged, &example);
        let own = format!("{id}-{name}");
        merged["id"] = serde_json::Value::from(own.as_str());
        let folder = dir.path().join("rules").join(&own);
        write(&folder.join("game.yaml"), &merged.to_string());
        for block in &lua {
            write(&folder.join(lua_file(block)), &block.text);
        }
        examples.push((block.line, own));
    }
    assert!(
        examples.len() >= 10,
        "only {} examples found",
        examples.len()
    );

    let catalog = Catalog::new(
        Some(dir.path().join("rules")),
        Some(dir.path().join("scenarios")),
    );
    let mut failures = Vec::new();
    let targets = std::iter::once((game.line, id.to_string())).chain(examples);
    for (line, target) in targets {
        if let Err(e) = portolan::load::check(&catalog, &target, &[]) {
            failures.push(format!(
                "docs/game-yaml.md:{line}: the example does not load:\n{e}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
