//! Generated hostile inputs, from fixed seeds (the same cases on every
//! run): random package trees of files, links, FIFOs and folders; saves
//! mutated byte by byte and field by field; `extends` values and targets
//! built from path pieces. Each checks what must hold whatever the input:
//! no hang, no panic, nothing read from outside, and a refused command
//! changes nothing.

mod hostile;

use hostile::{Rng, board, fifo, session, sparse, symlink, write};
use portolan::data::catalog::Catalog;
use portolan::data::package::Package;
use std::path::Path;

/// What the files outside every package and scenarios folder hold; it
/// must never show up in what is read or in an error.
const SECRET: &str = "SECRET-4242";

// ---- package trees ----

const FOLDERS: &[&str] = &["", "lib", "lib/deep", "options", ".hidden"];
const NAMES: &[&str] = &[
    "a.lua",
    "b.yaml",
    "c.md",
    "d.txt",
    "e",
    "game.yaml",
    ".f.lua",
];

/// One random entry of a package, in a random folder: a script (most
/// often), any bytes, a link (inside, outside, to a folder, to nothing)
/// or a FIFO.
fn random_entry(rng: &mut Rng, pkg: &Path, outside: &Path) {
    let folder = pkg.join(rng.pick(FOLDERS));
    let path = folder.join(rng.pick(NAMES));
    if path.symlink_metadata().is_ok() {
        return;
    }
    std::fs::create_dir_all(&folder).unwrap();
    match rng.below(12) {
        0..5 => write(&path, "return {}\n"),
        5 => symlink(pkg.join("game.yaml"), &path),
        6 => write(&path, rng.bytes(64)),
        7 => symlink(outside.join("secret.lua"), &path),
        8 => symlink(outside, &path),
        9 => symlink(pkg.join("lib"), &path),
        10 => symlink("no-such-file.lua", &path),
        _ => drop(fifo(&path)),
    }
}

fn read_twice(pkg: &Path) -> Result<Package, String> {
    let first = Package::from_dir(pkg).map_err(|e| e.to_string());
    let second = Package::from_dir(pkg).map_err(|e| e.to_string());
    assert_eq!(
        first.as_ref().map(|p| &p.files),
        second.as_ref().map(|p| &p.files),
        "reading a package is not deterministic"
    );
    first
}

#[test]
fn random_package_trees_are_read_inside_or_refused_by_name() {
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        write(&outside.join("secret.lua"), SECRET);
        let pkg = dir.path().join("pkg");
        write(&pkg.join("game.yaml"), "id: pkg\n");
        for _ in 0..rng.below(10) {
            random_entry(&mut rng, &pkg, &outside);
        }
        let real_pkg = pkg.canonicalize().unwrap();
        match read_twice(&pkg) {
            Ok(p) => {
                for (name, text) in &p.files {
                    assert!(!text.contains(SECRET), "seed {seed}: {name} read outside");
                    assert!(!name.split('/').any(|c| c.starts_with('.')), "{name}");
                    let real = pkg.join(name).canonicalize().unwrap();
                    assert!(real.starts_with(&real_pkg), "seed {seed}: {name}");
                }
            }
            Err(e) => {
                assert!(!e.contains(SECRET), "seed {seed}: {e}");
                for line in e.lines() {
                    assert!(
                        line.starts_with(&pkg.display().to_string()),
                        "seed {seed}: an error names no file of the package: {line}"
                    );
                }
            }
        }
    }
}

// ---- saves ----

/// Words a hostile save might hold: paths to rules, to special and huge
/// files (all inside the test's folder), escapes, and junk.
fn hostile_words(dir: &Path) -> Vec<String> {
    let evil = dir.join("evil");
    write(&evil.join("game.yaml"), "id: med-convoy\ntitle: Evil\n");
    write(&evil.join("rules.lua"), "error('EVIL CODE RAN')\n");
    let huge = dir.join("huge.yaml");
    sparse(&huge, 64 << 20);
    let pipe = fifo(&dir.join("pipe.yaml"));
    vec![
        evil.display().to_string(),
        format!("med-convoy/../../{}", evil.display()),
        huge.display().to_string(),
        pipe.display().to_string(),
        "med-convoy/radical".into(),
        "med-convoy".into(),
        "solo-convoy".into(),
        String::new(),
        "\u{1b}[2J\u{1b}]0;title\u{7}".into(),
        "x".repeat(10_000),
        "blue".into(),
        "random".into(),
        "pass".into(),
    ]
}

const FIELDS: &[&str] = &[
    "format",
    "game",
    "target",
    "scenario",
    "options",
    "seed",
    "seats",
    "viewer",
    "actions",
    "positions",
    "position_hash",
];

/// A valid save, changed: bytes flipped, cut short, or one field set to
/// a hostile word, a number, a list, or removed.
fn mutate(rng: &mut Rng, original: &str, words: &[String]) -> Vec<u8> {
    match rng.below(4) {
        0 | 1 => rng.damage(original.as_bytes().to_vec()),
        _ => {
            let mut json: serde_json::Value = serde_json::from_str(original).unwrap();
            let field = *rng.pick(FIELDS);
            let word = rng.pick(words).clone();
            json[field] = match rng.below(5) {
                0 => serde_json::Value::Null,
                1 => (rng.next() >> rng.below(64)).into(),
                2 => serde_json::json!([word]),
                3 => serde_json::json!({"blue": word, "red": "random"}),
                _ => word.into(),
            };
            serde_json::to_vec(&json).unwrap()
        }
    }
}

#[test]
fn mutated_saves_load_under_the_sessions_rules_or_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let words = hostile_words(dir.path());
    let original_path = dir.path().join("original.json");
    let mut s = session("med-convoy");
    s.execute("place random");
    s.execute(&format!("save {}", original_path.display()));
    let original = std::fs::read_to_string(&original_path).unwrap();
    let mut rng = Rng::new(2024);
    let case = dir.path().join("case.json");
    for i in 0..150 {
        std::fs::write(&case, mutate(&mut rng, &original, &words)).unwrap();
        let before = board(&mut s);
        let r = s.execute(&format!("load {}", case.display())).text;
        assert!(
            !r.contains("EVIL"),
            "case {i}: the save chose the rules: {r}"
        );
        assert!(
            !r.contains('\u{1b}'),
            "case {i}: an escape reached the screen"
        );
        if r.starts_with("error: cannot load") {
            assert!(r.contains("the current game is unchanged"), "case {i}: {r}");
            assert_eq!(
                board(&mut s),
                before,
                "case {i}: a refused load changed the game"
            );
        } else {
            assert!(r.starts_with("loaded "), "case {i}: {r}");
        }
    }
    let r = s.execute(&format!("load {}", original_path.display())).text;
    assert!(r.starts_with("loaded "), "{r}");
}

// ---- scenario names and `extends` ----

/// A word built from path pieces: `..`, `/`, absolute paths, names.
fn path_word(rng: &mut Rng, outside: &Path) -> String {
    let outside = outside.display().to_string();
    let pieces = [
        "..",
        ".",
        "",
        "/",
        "\\",
        "~",
        "\0",
        "%2e%2e",
        "elsewhere",
        "secret",
        "med-convoy",
        "standard",
        "radical",
        "fine",
        &outside,
    ];
    (0..=rng.below(4))
        .map(|_| *rng.pick(&pieces))
        .collect::<Vec<_>>()
        .join(if rng.below(2) == 0 { "/" } else { "" })
}

fn is_plain_name(word: &str) -> bool {
    !word.is_empty() && word != "." && word != ".." && !word.contains(['/', '\\', '\0'])
}

#[test]
fn generated_names_and_extends_stay_among_the_games_scenarios() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("elsewhere");
    write(&outside.join("secret.yaml"), SECRET);
    let scenarios = dir.path().join("scenarios");
    write(
        &scenarios.join("med-convoy/fine.yaml"),
        "game: med-convoy\ntitle: Fine\n",
    );
    let catalog = Catalog::new(None, Some(scenarios.clone()));
    let known = catalog.scenario_ids("med-convoy");
    let mut rng = Rng::new(99);
    for i in 0..300 {
        let word = path_word(&mut rng, &outside);
        let quoted = serde_json::to_string(&word).unwrap();
        write(
            &scenarios.join("med-convoy/probe.yaml"),
            format!("game: med-convoy\ntitle: Probe\nextends: {quoted}\n"),
        );
        let results = [
            catalog.scenario("med-convoy", &word).map(|s| s.title),
            catalog.scenario("med-convoy", "probe").map(|s| s.title),
            catalog
                .resolve(&format!("med-convoy/{word}"))
                .map(|(_, s)| s.map(|s| s.title).unwrap_or_default()),
        ];
        let may_exist = is_plain_name(&word) && known.contains(&word);
        for r in results {
            let text = match &r {
                Ok(title) => title.clone(),
                Err(e) => e.to_string(),
            };
            assert!(!text.contains(SECRET), "case {i} ({word:?}): {text}");
            assert!(
                r.is_err() || may_exist,
                "case {i}: {word:?} found a scenario"
            );
        }
    }
}
