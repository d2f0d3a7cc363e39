//! Hostile files, one finding each: what a hostile package author, a
//! planted file or a mistyped path could do to a user, and what Portolan
//! does instead. Every special file is built inside a temporary folder;
//! FIFOs come with a guard, so a regression fails a test instead of
//! hanging it. Generated inputs are in tests/hostile_fuzz.rs.

mod hostile;

use hostile::{
    board, endless_device, fifo, is_char_device, is_fifo, null_device, session, sparse, symlink,
    write,
};
use portolan::data::catalog::Catalog;
use portolan::data::package::Package;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

// ---- save: only regular files are written ----

#[test]
fn save_refuses_a_fifo_a_device_and_a_folder_and_leaves_them_be() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = fifo(&dir.path().join("pipe"));
    let mut s = session("med-convoy");
    let r = s.execute(&format!("save {}", pipe.display())).text;
    assert!(r.starts_with("error: cannot save to"), "{r}");
    assert!(
        r.contains("is a FIFO (a named pipe), not a regular file"),
        "{r}"
    );
    assert!(is_fifo(&pipe), "the FIFO was replaced");

    let r = s.execute(&format!("save {}", dir.path().display())).text;
    assert!(r.contains("is a folder, not a regular file"), "{r}");

    let null = dir.path().join("null");
    if null_device(&null) {
        let r = s.execute(&format!("save {}", null.display())).text;
        assert!(r.contains("is a device, not a regular file"), "{r}");
        assert!(is_char_device(&null), "the device node was replaced");
    }
}

#[test]
fn save_refuses_a_symbolic_link_and_names_where_it_leads() {
    let dir = tempfile::tempdir().unwrap();
    let precious = dir.path().join("precious.txt");
    write(&precious, "keep me");
    let link = dir.path().join("game.json");
    symlink(&precious, &link);
    let mut s = session("med-convoy");
    let r = s.execute(&format!("save {}", link.display())).text;
    assert!(r.contains("is a symbolic link (to "), "{r}");
    assert!(r.contains("precious.txt"), "{r}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
}

#[test]
fn save_never_writes_through_a_planted_temporary_name() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    write(&victim, "keep me");
    // The old, predictable temporary name, planted as a link to the victim.
    let planted = dir
        .path()
        .join(format!(".game.json.{}.tmp", std::process::id()));
    symlink(&victim, &planted);
    let save = dir.path().join("game.json");
    let mut s = session("med-convoy");
    let r = s.execute(&format!("save {}", save.display())).text;
    assert!(r.starts_with("saved "), "{r}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::read_to_string(&save).unwrap().contains("\"game\""));
}

#[test]
fn save_removes_stale_temporaries_and_keeps_everything_else() {
    let dir = tempfile::tempdir().unwrap();
    let aged = |name: &str| {
        let path = dir.path().join(name);
        write(&path, "left by a crash");
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(two_hours_ago).unwrap();
        path
    };
    let stale = aged(".game.json.a1B2c3.tmp");
    let other_file = aged(".notes.json.a1B2c3.tmp");
    let not_a_temp = aged(".game.json.backup");
    let fresh = dir.path().join(".game.json.zZ9y8X.tmp");
    write(&fresh, "a save in progress");
    let mut s = session("med-convoy");
    let r = s.execute(&format!("save {}", dir.path().join("game.json").display()));
    assert!(r.text.starts_with("saved "), "{}", r.text);
    assert!(!stale.exists(), "a stale temporary file was kept");
    for kept in [&other_file, &not_a_temp, &fresh] {
        assert!(kept.exists(), "{} was removed", kept.display());
    }
}

#[test]
fn save_replaces_a_file_whole_and_keeps_its_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    write(&save, "an older save");
    std::fs::set_permissions(&save, std::fs::Permissions::from_mode(0o640)).unwrap();
    let mut s = session("med-convoy");
    assert!(
        s.execute(&format!("save {}", save.display()))
            .text
            .starts_with("saved ")
    );
    let mode = save.metadata().unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert!(
        std::fs::read_to_string(&save)
            .unwrap()
            .contains("\"actions\"")
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn sheet_writes_only_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session("solo-convoy");
    let pipe = fifo(&dir.path().join("sheet.md"));
    let r = s.execute(&format!("sheet {}", pipe.display())).text;
    assert!(r.contains("cannot write") && r.contains("FIFO"), "{r}");
    assert!(is_fifo(&pipe));
    let sheet = dir.path().join("real.md");
    let link = dir.path().join("link.md");
    symlink(&sheet, &link);
    let r = s.execute(&format!("sheet {}", link.display())).text;
    assert!(r.contains("is a symbolic link"), "{r}");
    assert!(!sheet.exists());
}

// ---- load: only a regular file of a save's size ----

#[test]
fn load_refuses_endless_and_oversized_files_and_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session("med-convoy");
    s.execute("place random");
    let before = board(&mut s);

    let pipe = fifo(&dir.path().join("pipe.json"));
    let r = s.execute(&format!("load {}", pipe.display())).text;
    assert!(
        r.contains("FIFO") && r.contains("the current game is unchanged"),
        "{r}"
    );

    let huge = dir.path().join("huge.json");
    sparse(&huge, (8 << 20) + 1);
    let r = s.execute(&format!("load {}", huge.display())).text;
    assert!(
        r.contains("is larger than 8 MiB, the most a save may be"),
        "{r}"
    );

    let zero = dir.path().join("zero");
    if endless_device(&zero) {
        let r = s.execute(&format!("load {}", zero.display())).text;
        assert!(r.contains("is a device, not a regular file"), "{r}");
    }
    assert_eq!(board(&mut s), before);
}

/// A folder of rules whose script, if it ever ran, would fail loudly.
fn evil_rules(dir: &Path) -> std::path::PathBuf {
    let evil = dir.join("evil");
    write(&evil.join("game.yaml"), "id: med-convoy\ntitle: Evil\n");
    write(&evil.join("rules.lua"), "error('EVIL CODE RAN')\n");
    evil
}

fn edited_save(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let save = dir.join("game.json");
    let mut s = session("med-convoy");
    s.execute("place random");
    assert!(
        s.execute(&format!("save {}", save.display()))
            .text
            .starts_with("saved ")
    );
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    edit(&mut json);
    let edited = dir.join("edited.json");
    write(&edited, serde_json::to_string(&json).unwrap());
    edited.display().to_string()
}

#[test]
fn a_save_naming_other_rules_loads_under_the_sessions_rules() {
    let dir = tempfile::tempdir().unwrap();
    let evil = evil_rules(dir.path());
    let save = edited_save(dir.path(), |j| {
        j["target"] = evil.display().to_string().into();
    });
    let mut s = session("med-convoy");
    let r = s.execute(&format!("load {save}")).text;
    assert!(r.starts_with("loaded "), "{r}");
    assert!(!r.contains("EVIL"), "{r}");
    // The session still plays the stock rules: a reload reads them again.
    let r = s.execute("reload").text;
    assert!(r.contains("same positions"), "{r}");
}

#[test]
fn a_save_of_another_game_or_an_unknown_scenario_is_refused_naming_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let other_game = edited_save(dir.path(), |j| {
        j["game"] = "solo-convoy".into();
        j["target"] = "/some/where/solo".into();
    });
    let mut s = session("med-convoy");
    let before = board(&mut s);
    let r = s.execute(&format!("load {other_game}")).text;
    assert!(r.contains("it is a save of 'solo-convoy'"), "{r}");
    assert!(
        r.contains("start 'portolan play /some/where/solo' and load it there"),
        "{r}"
    );
    for scenario in ["med-convoy/../../evil", "med-convoy/nowhere", "/etc/x"] {
        let save = edited_save(dir.path(), |j| j["scenario"] = scenario.into());
        let r = s.execute(&format!("load {save}")).text;
        assert!(
            r.contains(&format!("played in scenario '{scenario}'")),
            "{r}"
        );
    }
    assert_eq!(board(&mut s), before);
}

#[test]
fn a_save_of_another_stock_scenario_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("radical.json");
    let mut s = session("med-convoy");
    s.execute("new radical");
    s.execute("place random");
    assert!(
        s.execute(&format!("save {}", save.display()))
            .text
            .starts_with("saved ")
    );
    let mut fresh = session("med-convoy");
    let r = fresh.execute(&format!("load {}", save.display())).text;
    assert!(r.starts_with("loaded "), "{r}");
    assert!(fresh.execute("scenarios").text.contains("* radical"));
}

#[test]
fn a_save_with_terminal_escapes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = edited_save(dir.path(), |j| {
        j["seats"]["red"] = "\u{1b}]0;pwned\u{7}random".into();
    });
    let mut s = session("med-convoy");
    let r = s.execute(&format!("load {save}")).text;
    assert!(r.contains("a control character"), "{r}");
    assert!(!r.contains('\u{1b}'), "{r:?}");
}

// ---- the command line's files ----

#[test]
fn play_commands_refuses_a_fifo_instead_of_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = fifo(&dir.path().join("commands.txt"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(["play", "med-convoy", "--commands"])
        .arg(&pipe)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("commands.txt: is a FIFO"), "{err}");
}

// ---- rules packages: only regular files inside the package ----

fn package_dir(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("pkg");
    write(&p.join("game.yaml"), "id: pkg\n");
    write(&p.join("lib/util.lua"), "return {}\n");
    p
}

fn package_errors(dir: &Path) -> String {
    match Package::from_dir(dir) {
        Ok(p) => panic!("read: {:?}", p.files.keys().collect::<Vec<_>>()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_module_linked_to_a_file_outside_the_package_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    write(&dir.path().join("secret.lua"), "return 'SECRET'\n");
    symlink("../secret.lua", &pkg.join("stolen.lua"));
    let err = package_errors(&pkg);
    assert!(err.contains("pkg/stolen.lua: leads outside"), "{err}");
    assert!(!err.contains("SECRET"), "{err}");
}

#[test]
fn a_link_to_a_file_inside_the_package_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    symlink("lib/util.lua", &pkg.join("alias.lua"));
    let p = Package::from_dir(&pkg).unwrap();
    assert_eq!(p.files["alias.lua"], p.files["lib/util.lua"]);
}

#[test]
fn fifos_devices_and_linked_folders_in_a_package_are_refused_each_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    fifo(&pkg.join("x.lua"));
    symlink(dir.path(), &pkg.join("outside"));
    let has_device = endless_device(&dir.path().join("zero"));
    if has_device {
        symlink("../zero", &pkg.join("zero.lua"));
        endless_device(&pkg.join("inner-zero.yaml"));
    }
    let err = package_errors(&pkg);
    assert!(err.contains("pkg/x.lua: is a FIFO"), "{err}");
    assert!(err.contains("pkg/outside: is a link to a folder"), "{err}");
    if has_device {
        assert!(err.contains("pkg/zero.lua: leads outside"), "{err}");
        assert!(err.contains("pkg/inner-zero.yaml: is a device"), "{err}");
    }
}

#[test]
fn a_package_file_over_the_limit_or_not_utf8_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    sparse(&pkg.join("huge.lua"), (4 << 20) + 1);
    write(&pkg.join("latin1.md"), b"caf\xe9\n");
    let err = package_errors(&pkg);
    assert!(
        err.contains(
            "pkg/huge.lua: is larger than 4 MiB, the most a rules or scenario file may be"
        ),
        "{err}"
    );
    assert!(
        err.contains("pkg/latin1.md: is not UTF-8 text (a bad byte at offset 3)"),
        "{err}"
    );
}

#[test]
fn a_package_too_large_in_all_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    for i in 0..9 {
        sparse(&pkg.join(format!("part{i}.md")), 4 << 20);
    }
    let err = package_errors(&pkg);
    assert!(err.contains("more than 32 MiB together"), "{err}");

    let crowded = package_dir(&dir.path().join("crowded"));
    for i in 0..=portolan::data::package::PACKAGE_ENTRIES {
        std::fs::File::create(crowded.join(format!("n{i}.txt"))).unwrap();
    }
    let err = package_errors(&crowded);
    assert!(err.contains("more than 10000 files and folders"), "{err}");
}

#[test]
fn dot_entries_such_as_an_editors_lock_link_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package_dir(dir.path());
    symlink("user@host.1234:1700000000", &pkg.join(".#rules.lua"));
    write(&pkg.join(".git/config.yaml"), "x: 1\n");
    let p = Package::from_dir(&pkg).unwrap();
    let files: Vec<&String> = p.files.keys().collect();
    assert_eq!(files, ["game.yaml", "lib/util.lua"]);
}

// ---- scenarios: `extends` stays among the game's scenarios ----

const SECRET: &str = "TOP-SECRET-LINE: not a scenario";

fn scenarios_with(dir: &Path, name: &str, text: &str) -> Catalog {
    write(&dir.join("elsewhere/secret.yaml"), SECRET);
    let scenarios = dir.join("scenarios");
    write(&scenarios.join(format!("med-convoy/{name}.yaml")), text);
    Catalog::new(None, Some(scenarios))
}

#[test]
fn extends_cannot_reach_a_file_outside_the_scenarios_folder() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("elsewhere/secret");
    for parent in [
        "../../elsewhere/secret".to_string(),
        secret.display().to_string(),
    ] {
        let text = format!("game: med-convoy\ntitle: T\nextends: {parent}\n");
        let catalog = scenarios_with(dir.path(), "sneaky", &text);
        let err = catalog.scenario("med-convoy", "sneaky").unwrap_err();
        let err = err.to_string();
        assert!(
            err.contains("sneaky.yaml:3:10: extends unknown scenario"),
            "{err}"
        );
        assert!(err.contains("not by a path"), "{err}");
        assert!(!err.contains("TOP-SECRET"), "{err}");
    }
}

#[test]
fn a_scenario_linked_outside_its_folder_or_special_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = scenarios_with(dir.path(), "fine", "game: med-convoy\ntitle: Fine\n");
    let folder = dir.path().join("scenarios/med-convoy");
    symlink(
        dir.path().join("elsewhere/secret.yaml"),
        &folder.join("linked.yaml"),
    );
    fifo(&folder.join("piped.yaml"));
    let err = catalog
        .scenario("med-convoy", "linked")
        .unwrap_err()
        .to_string();
    assert!(err.contains("leads outside"), "{err}");
    assert!(!err.contains("TOP-SECRET"), "{err}");
    let err = catalog
        .scenario("med-convoy", "piped")
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a FIFO"), "{err}");
    assert!(catalog.scenario("med-convoy", "fine").is_ok());
}

#[test]
fn targets_name_games_and_scenarios_never_paths() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = scenarios_with(dir.path(), "fine", "game: med-convoy\ntitle: Fine\n");
    for target in ["med-convoy/../../elsewhere/secret", "../elsewhere/x"] {
        let err = match catalog.resolve(target) {
            Ok(_) => panic!("{target} resolved"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("not a path") || err.contains("not by a path"),
            "{err}"
        );
        assert!(!err.contains("TOP-SECRET"), "{err}");
    }
}

#[test]
fn a_scenario_file_target_that_is_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = fifo(&dir.path().join("scenario.yaml"));
    let err = match Catalog::embedded().resolve(pipe.to_str().unwrap()) {
        Ok(_) => panic!("a FIFO resolved"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("is a FIFO"), "{err}");
}

// ---- overlays: a user's file is read only if regular; others by name ----

fn load_overlay(target: &str, overlay: &str) -> String {
    let request = portolan::load::Request {
        target: target.into(),
        options: vec![],
        overlays: vec![overlay.into()],
    };
    match portolan::load::load(&Catalog::embedded(), &request) {
        Ok(_) => panic!("{overlay} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_overlay_file_that_is_special_or_huge_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = fifo(&dir.path().join("pipe.yaml"));
    let err = load_overlay("mediterranea", pipe.to_str().unwrap());
    assert!(err.contains("is a FIFO"), "{err}");
    let huge = dir.path().join("huge.yaml");
    sparse(&huge, (4 << 20) + 1);
    let err = load_overlay("mediterranea", huge.to_str().unwrap());
    assert!(err.contains("is larger than 4 MiB"), "{err}");
    let folder = dir.path().join("folder.yaml");
    std::fs::create_dir(&folder).unwrap();
    let err = load_overlay("mediterranea", folder.to_str().unwrap());
    assert!(err.contains("folder.yaml: cannot read"), "{err}");
    let zero = dir.path().join("zero.yaml");
    if endless_device(&zero) {
        let err = load_overlay("mediterranea", zero.to_str().unwrap());
        assert!(err.contains("is a device, not a regular file"), "{err}");
    }
    let looped = dir.path().join("loop.yaml");
    symlink(&looped, &looped);
    let err = load_overlay("mediterranea", looped.to_str().unwrap());
    assert!(err.contains("loop.yaml: cannot read"), "{err}");
}

#[test]
fn a_scenario_names_overlays_never_paths() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("elsewhere/secret.yaml");
    write(
        &secret,
        format!("game: mediterranea\ntitle: {SECRET}\nchanges: []\n"),
    );
    for named in [
        secret.display().to_string(),
        "../../elsewhere/secret".to_string(),
        "../game".to_string(),
    ] {
        let scenario = dir.path().join("sneaky.yaml");
        write(
            &scenario,
            format!("game: mediterranea\ntitle: T\noverlays: [\"{named}\"]\n"),
        );
        let request = portolan::load::Request {
            target: scenario.display().to_string(),
            ..Default::default()
        };
        let err = match portolan::load::load(&Catalog::embedded(), &request) {
            Ok(_) => panic!("{named} loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("sneaky.yaml:3:12: no overlay") && !err.contains(SECRET),
            "{err}"
        );
    }
}
