//! The LuaLS definitions in docs/lua/portolan.lua, the reference in
//! docs/lua-api.md and the API the host registers name the same
//! functions, table by table: an editor never offers a call the sandbox
//! lacks, and no call goes undocumented.

use portolan::script::lint::KnownGlobals;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The API's own tables (the standard libraries are the language server's).
const TABLES: [&str; 6] = ["board", "pieces", "cards", "dice", "game", "vars"];

fn read(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `table.name` in a text, for the API's tables.
fn api_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for table in TABLES {
        let prefix = format!("{table}.");
        for (start, _) in text.match_indices(&prefix) {
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = &text[start + prefix.len()..];
            let field: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !field.is_empty() {
                names.insert(format!("{table}.{field}"));
            }
        }
    }
    names
}

/// The functions (and fields) the definitions declare.
fn defined() -> BTreeSet<String> {
    let text = read("docs/lua/portolan.lua");
    assert!(
        text.starts_with("---@meta"),
        "a LuaLS definition file starts with ---@meta"
    );
    // `function board.spaces() end` and `vars.game = {}`; not comments.
    let declarations = text
        .lines()
        .filter_map(|line| match line.strip_prefix("function ") {
            Some(function) => function.split_once('(').map(|(name, _)| name),
            None if !line.starts_with('-') => line.split_once(" = ").map(|(name, _)| name),
            None => None,
        });
    api_names(&declarations.collect::<Vec<_>>().join("\n"))
}

/// The calls the reference documents: the first cell of each row of the
/// tables under the API tables' headings.
fn documented() -> BTreeSet<String> {
    let text = read("docs/lua-api.md");
    let mut section = "";
    let mut cells = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim();
        } else if TABLES.contains(&section) && line.starts_with("| `") {
            cells.push(line.split('|').nth(1).unwrap_or_default().to_string());
        }
    }
    api_names(&cells.join("\n"))
}

/// What the host registers on a fresh package state.
fn registered() -> BTreeSet<String> {
    let known = KnownGlobals::of_fresh_state().expect("a fresh state");
    TABLES
        .iter()
        .flat_map(|t| {
            let fields = known
                .closed
                .get(*t)
                .unwrap_or_else(|| panic!("no table {t}"));
            fields.iter().map(move |f| format!("{t}.{f}"))
        })
        .collect()
}

#[track_caller]
fn assert_same(a: (&str, &BTreeSet<String>), b: (&str, &BTreeSet<String>)) {
    let only_a: Vec<&String> = a.1.difference(b.1).collect();
    let only_b: Vec<&String> = b.1.difference(a.1).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "only in {}: {only_a:?}\nonly in {}: {only_b:?}",
        a.0,
        b.0
    );
}

#[test]
fn the_definitions_the_reference_and_the_host_name_the_same_functions() {
    let defined = defined();
    let documented = documented();
    let registered = registered();
    assert!(registered.len() >= 50, "{registered:?}");
    assert_same(
        ("docs/lua/portolan.lua", &defined),
        ("docs/lua-api.md", &documented),
    );
    assert_same(
        ("docs/lua/portolan.lua", &defined),
        ("the host", &registered),
    );
}

#[test]
fn the_definitions_declare_what_a_package_defines() {
    let text = read("docs/lua/portolan.lua");
    for declared in [
        "\nrules = {}",
        "\nphases = {}",
        "\ntables = {}",
        "---@field run fun(frame: portolan.frame)",
        "---@field choose? fun(frame: portolan.frame, choice: string)",
        "---@field evaluate? fun(player: portolan.player): number",
        "---@field sample? fun(player: portolan.player)",
        "---@field map_notes? fun(player: portolan.player): string[]",
        "\nfunction configure(data) end",
        "\nfunction prepare() end",
        "\nfunction table.create(nseq, nrec) end",
    ] {
        assert!(
            text.contains(declared),
            "docs/lua/portolan.lua lacks {declared:?}"
        );
    }
}
