//! Drawing boards as SVG (`portolan render`, the REPL's `map`): the
//! drawing's structure is read back and checked, not its pixels. Every
//! space is there, every group of pieces with its count, every
//! connection with its kind; a face hidden from the viewer never is.
//! Fixtures: Convoy's grid (hidden faces), tests/render_fixtures/isles
//! (an area map), tests/render_fixtures/harbour (a grid with spaces
//! beside it).

#[path = "hostile/mod.rs"]
mod hostile;
#[path = "render_fixtures/xml.rs"]
mod xml;

use portolan::data::catalog::Catalog;
use portolan::kernel::action::Action;
use portolan::kernel::piece::{Location, PlayerId};
use portolan::kernel::state::GameState;
use portolan::kernel::view::Viewer;
use portolan::load::{Loaded, Request, load};
use portolan::render::draw;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xml::Element;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> String {
    repo()
        .join("tests/render_fixtures")
        .join(name)
        .display()
        .to_string()
}

fn loaded(target: &str) -> Loaded {
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays: vec![],
    };
    load(&Catalog::embedded(), &request).unwrap_or_else(|e| panic!("{target}: {e}"))
}

/// A game after `plies` actions, each the legal action a fixed stride
/// picks: the same game every run.
fn played(loaded: &Loaded, seed: u64, plies: u32) -> GameState {
    let engine = &loaded.engine;
    let mut state = engine.new_game(seed).unwrap();
    let mut legal: Vec<Action> = Vec::new();
    while state.ply < plies && state.result.is_none() {
        legal.clear();
        engine.legal_actions(&state, &mut legal);
        let pick = legal[(state.ply as usize * 7) % legal.len()];
        engine.apply(&mut state, pick).unwrap();
    }
    state
}

/// The drawing of a position, parsed (which checks it is well-formed).
fn drawn(loaded: &Loaded, state: &GameState, viewer: Viewer) -> (Element, String) {
    let drawing = draw(loaded, state, viewer);
    assert!(drawing.problems.is_empty(), "{:?}", drawing.problems);
    let tree = xml::parse(&drawing.svg).unwrap_or_else(|e| panic!("{e}\n{}", drawing.svg));
    assert_eq!(tree.name, "svg");
    assert_eq!(tree.attr("xmlns"), Some("http://www.w3.org/2000/svg"));
    (tree, drawing.svg)
}

/// (owner id, kind as shown, count) of the groups inside an element,
/// sorted.
fn groups(e: &Element) -> Vec<(String, String, usize)> {
    e.with_class("pieces")
        .iter()
        .map(|g| {
            (
                g.attr("data-owner").unwrap().to_string(),
                g.attr("data-kind").unwrap().to_string(),
                g.attr("data-count").unwrap().parse().unwrap(),
            )
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The space elements by name.
fn spaces(tree: &Element) -> BTreeMap<String, &Element> {
    tree.with_class("space")
        .into_iter()
        .map(|s| (s.attr("data-space").unwrap().to_string(), s))
        .collect()
}

/// The groups every space should show to an all-seeing viewer, counted
/// from the state itself.
fn expected_groups(
    loaded: &Loaded,
    state: &GameState,
) -> BTreeMap<String, BTreeSet<(String, String, usize)>> {
    let g = &loaded.engine.game;
    let mut counts: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for id in state.piece_ids() {
        let p = state.piece(id);
        if let Location::Space(s) = p.loc {
            let owner = p.owner.map_or("", |o| g.player_id(o)).to_string();
            let key = (
                g.board.name(s).to_string(),
                owner,
                g.kind(p.kind).name.clone(),
            );
            *counts.entry(key).or_default() += 1;
        }
    }
    let mut out: BTreeMap<String, BTreeSet<_>> = BTreeMap::new();
    for ((space, owner, kind), n) in counts {
        out.entry(space).or_default().insert((owner, kind, n));
    }
    out
}

// ---- grids: Convoy ----

#[test]
fn convoy_draws_every_cell_and_every_group_with_its_count() {
    let convoy = loaded("med-convoy");
    let state = played(&convoy, 5, 26);
    let (tree, _) = drawn(&convoy, &state, Viewer::All);
    assert_eq!(tree.with_class("cell").len(), 35);
    assert!(
        expected_groups(&convoy, &state).len() >= 15,
        "pieces stand on the board"
    );
    assert_every_space_and_group_drawn(&convoy, &state, &tree);
    assert_eq!(tree.attr("data-ply"), Some("26"));
}

/// Every space of the board is drawn with exactly the groups of pieces on
/// it, and every piece is somewhere in the drawing (a space or a pool).
fn assert_every_space_and_group_drawn(loaded: &Loaded, state: &GameState, tree: &Element) {
    let shown = spaces(tree);
    let board = &loaded.engine.game.board;
    let names: BTreeSet<String> = board.ids().map(|i| board.name(i).to_string()).collect();
    assert_eq!(shown.keys().cloned().collect::<BTreeSet<_>>(), names);
    let expected = expected_groups(loaded, state);
    for (name, space) in &shown {
        let want: Vec<_> = expected
            .get(name)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .collect();
        assert_eq!(groups(space), want, "space {name}");
    }
    let total: usize = tree
        .with_class("pieces")
        .iter()
        .map(|g| g.attr("data-count").unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(total, state.piece_ids().count());
}

#[test]
fn mediterranea_draws_every_area_every_army_and_the_turn_and_points() {
    let med = loaded("mediterranea");
    let state = played(&med, 4, 20);
    let (tree, svg) = drawn(&med, &state, Viewer::Public);
    assert!(med.engine.game.board.len() >= 60);
    assert_every_space_and_group_drawn(&med, &state, &tree);
    // The rules' notes: the turn on the track and each faction's points.
    assert!(
        svg.contains("turn 2 (400-449)"),
        "the turn is in the header"
    );
    for faction in ["White", "Yellow", "Green", "Orange"] {
        assert!(svg.contains(&format!("{faction} ")), "{faction}'s points");
    }
}

/// The rectangle of a space's box: its first `rect`.
fn box_of(space: &Element) -> [f32; 4] {
    let rect = space
        .children
        .iter()
        .find(|c| c.name == "rect")
        .expect("a box");
    let n = |k: &str| rect.attr(k).unwrap().parse::<f32>().unwrap();
    [n("x"), n("y"), n("width"), n("height")]
}

/// Whether a line passes through the inside of a box (sampled along it).
fn crosses(line: &Element, [x, y, w, h]: [f32; 4]) -> bool {
    let n = |k: &str| line.attr(k).unwrap().parse::<f32>().unwrap();
    let (x1, y1, x2, y2) = (n("x1"), n("y1"), n("x2"), n("y2"));
    (1..100).any(|i| {
        let t = i as f32 / 100.0;
        let (px, py) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
        px > x && px < x + w && py > y && py < y + h
    })
}

#[test]
fn mediterranea_shows_whole_names_and_straits_clear_of_land() {
    let med = loaded("mediterranea");
    let state = med.engine.new_game(1).unwrap();
    let (tree, _) = drawn(&med, &state, Viewer::Public);
    let shown = spaces(&tree);
    // A name longer than a line takes two: none is cut.
    for (name, space) in &shown {
        let lines: Vec<String> = space
            .with_class("space-name")
            .iter()
            .map(|t| t.all_text())
            .collect();
        assert_eq!(&lines.join(" "), name, "{name} as drawn: {lines:?}");
    }
    // A strait's line crosses no land box but (the Bosporus) its guard's.
    for line in tree.with_class("edge") {
        let kind = line.attr("data-kind").unwrap();
        if !kind.ends_with("strait") {
            continue;
        }
        let ends = [
            line.attr("data-from").unwrap(),
            line.attr("data-to").unwrap(),
        ];
        for (name, space) in &shown {
            let land = space.attr("data-kind") == Some("land");
            if land && !ends.contains(&name.as_str()) && name != "Constantinople" {
                assert!(
                    !crosses(line, box_of(space)),
                    "the {kind} {ends:?} crosses {name}"
                );
            }
        }
    }
}

#[test]
fn a_named_grid_is_drawn_as_a_second_board_of_cells() {
    let fleet = loaded("treasure-fleet");
    let state = played(&fleet, 3, 0);
    let (tree, _) = drawn(&fleet, &state, Viewer::Public);
    let board = &fleet.engine.game.board;
    let names: BTreeSet<String> = board.ids().map(|i| board.name(i).to_string()).collect();
    assert_eq!(
        spaces(&tree).keys().cloned().collect::<BTreeSet<_>>(),
        names
    );
    // The strategic grid's cells and the battle board's, all as cells: none
    // is left in the column of spaces off the map.
    assert_eq!(tree.with_class("cell").len(), names.len());
    assert!(tree.with_class("off-map").is_empty());
    let headings = tree.with_class("heading");
    assert!(
        headings
            .iter()
            .any(|h| h.attr("data-grid") == Some("battle")),
        "the battle board is named"
    );
}

#[test]
fn a_hidden_face_never_reaches_a_drawing_for_another_seat_or_the_table() {
    let convoy = loaded("med-convoy");
    let state = played(&convoy, 5, 20);
    assert_eq!(
        state
            .piece_ids()
            .filter(|&i| state.piece(i).loc.space().is_some())
            .count(),
        20,
        "both fleets are set up"
    );
    let kinds = ["Cruiser", "Destroyer", "Merchant", "Submarine"];
    let (red_tree, red_svg) = drawn(&convoy, &state, Viewer::Player(PlayerId(1)));
    for g in red_tree.with_class("pieces") {
        let own = g.attr("data-owner") == Some("red");
        let kind = g.attr("data-kind").unwrap();
        assert_eq!(
            kinds.contains(&kind),
            own,
            "red sees {kind} of {:?}",
            g.attr("data-owner")
        );
        if !own {
            assert!(g.attr("class").unwrap().contains("hidden"));
            assert!(g.all_text().trim().starts_with('?'), "{}", g.all_text());
        }
    }
    assert!(red_svg.contains("Merchant"), "red sees its own ships");
    // The table sees no face at all before a ship is revealed.
    let (_, public) = drawn(&convoy, &state, Viewer::Public);
    for k in kinds {
        assert!(!public.contains(k), "{k} shown to the table");
    }
    // Blue sees its own ships and none of red's.
    let (blue_tree, _) = drawn(&convoy, &state, Viewer::Player(PlayerId(0)));
    let blue = groups(&blue_tree);
    assert!(blue.iter().any(|(o, k, _)| o == "blue" && k == "Merchant"));
    assert!(
        blue.iter()
            .filter(|(o, _, _)| o == "red")
            .all(|(_, k, _)| k == "?")
    );
}

// ---- area maps ----

#[test]
fn an_area_map_draws_every_area_and_every_connection_by_kind() {
    let isles = loaded(&fixture("isles"));
    let state = isles.engine.new_game(1).unwrap();
    let (tree, svg) = drawn(&isles, &state, Viewer::Player(PlayerId(0)));
    let shown = spaces(&tree);
    let names: BTreeSet<&str> = shown.keys().map(String::as_str).collect();
    let want = [
        "Albion",
        "Erin",
        "North Sea",
        "Gaul",
        "Tom & Jerry's <Cove>",
        "Biscay",
        "Ocean",
        "Limbo",
    ];
    assert_eq!(names, want.into_iter().collect());
    assert!(svg.contains("Tom &amp; Jerry&apos;s &lt;Cove&gt;"));
    assert_eq!(tree.with_class("area").len(), 7);
    assert_eq!(tree.with_class("off-map").len(), 1);
    assert_eq!(shown["Limbo"].attr("data-kind"), Some("box"));
    assert!(shown["Limbo"].all_text().contains("next to: Ocean"));
    assert_eq!(shown["Gaul"].attr("data-region"), Some("south"));

    let edges: BTreeMap<(String, String), &Element> = tree
        .with_class("edge")
        .into_iter()
        .map(|e| {
            let mut ends = [e.attr("data-from").unwrap(), e.attr("data-to").unwrap()];
            ends.sort();
            ((ends[0].to_string(), ends[1].to_string()), e)
        })
        .collect();
    let edge = |a: &str, b: &str| {
        let mut ends = [a.to_string(), b.to_string()];
        ends.sort();
        edges
            .get(&(ends[0].clone(), ends[1].clone()))
            .unwrap_or_else(|| panic!("no edge {a}-{b}: {:?}", edges.keys()))
    };
    assert_eq!(
        edges.len(),
        6,
        "each connection once; Limbo's is in its box"
    );
    let arrow = edge("Albion", "Erin");
    assert_eq!(arrow.name, "line");
    assert_eq!(arrow.attr("data-kind"), Some("crossing_arrow"));
    assert_eq!(arrow.attr("marker-end"), Some("url(#arrow-head)"));
    assert_eq!(arrow.attr("marker-start"), Some("url(#arrow-head)"));
    let strait = edge("Albion", "Gaul");
    assert!(strait.attr("stroke-dasharray").is_some());
    assert_eq!(strait.attr("stroke-width"), Some("4"));
    assert_eq!(
        edge("Gaul", "Tom & Jerry's <Cove>").attr("data-kind"),
        Some("adjacent")
    );
    assert_eq!(edge("Biscay", "Gaul").attr("data-kind"), Some("coast"));
    assert_eq!(edge("Biscay", "Ocean").attr("data-kind"), Some("portage"));
    assert!(
        edge("Albion", "North Sea")
            .attr("class")
            .unwrap()
            .contains("edge-coast")
    );
    // The legend names every kind.
    let legend: BTreeSet<&str> = tree
        .with_class("legend-edge-kind")
        .iter()
        .chain(&tree.with_class("legend-space-kind"))
        .map(|e| e.attr("data-name").unwrap())
        .collect();
    for kind in [
        "crossing_arrow",
        "strait",
        "coast",
        "portage",
        "adjacent",
        "land",
        "sea",
        "external",
        "box",
    ] {
        assert!(legend.contains(kind), "{kind} not in the legend");
    }
}

#[test]
fn armies_are_grouped_with_counts_and_coloured_by_kind_then_owner() {
    let isles = loaded(&fixture("isles"));
    let state = isles.engine.new_game(1).unwrap();
    let (tree, _) = drawn(&isles, &state, Viewer::Player(PlayerId(0)));
    let shown = spaces(&tree);
    let s = |owner: &str, kind: &str, n: usize| (owner.to_string(), kind.to_string(), n);
    assert_eq!(
        groups(shown["Gaul"]),
        vec![s("white", "Franks", 3), s("white", "Leader", 1)]
    );
    assert_eq!(
        groups(shown["Tom & Jerry's <Cove>"]),
        vec![s("green", "?", 4)]
    );
    assert_eq!(groups(shown["Ocean"]), vec![s("", "Saxons", 1)]);
    let fill = |space: &str, kind: &str| {
        let g = shown[space]
            .with_class("pieces")
            .into_iter()
            .find(|g| g.attr("data-kind") == Some(kind))
            .unwrap();
        g.children[0].attr("fill").unwrap().to_string()
    };
    assert_eq!(
        fill("Gaul", "Franks"),
        "#4682b4",
        "the kind's colour (SteelBlue)"
    );
    assert_eq!(
        fill("Albion", "Saxons"),
        "#fffff0",
        "the owner's colour (ivory)"
    );
    assert_eq!(
        fill("Tom & Jerry's <Cove>", "?"),
        "#2ca02c",
        "a hidden kind: the owner's"
    );
    assert!(shown["Gaul"].all_text().contains("Franks x3"));
    // Pools are listed beside the map, by owner.
    let reserve: Vec<&Element> = tree
        .with_class("pieces")
        .into_iter()
        .filter(|g| g.attr("id").unwrap().starts_with("pool-0-"))
        .collect();
    assert_eq!(reserve.len(), 1);
    assert!(reserve[0].all_text().contains("Green ? x2"));
}

#[test]
fn the_header_says_the_turn_and_the_rules_notes_for_the_viewer() {
    let isles = loaded(&fixture("isles"));
    let state = isles.engine.new_game(1).unwrap();
    let (white, _) = drawn(&isles, &state, Viewer::Player(PlayerId(0)));
    let header = white.with_class("header")[0].all_text();
    assert!(header.contains("The Isles & <Straits>"), "{header}");
    assert!(header.contains("Ply 0, White to move"), "{header}");
    assert!(
        header.contains("Turn 3") && header.contains("Notes for white"),
        "{header}"
    );
    let (table, _) = drawn(&isles, &state, Viewer::Public);
    let header = table.with_class("header")[0].all_text();
    assert!(header.contains("Notes for the table"), "{header}");
    assert_eq!(table.attr("data-viewer"), Some("public"));
}

/// A copy of a fixture in a temporary folder, with one text replaced.
fn changed_fixture(name: &str, file: &str, from: &str, to: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name);
    std::fs::create_dir_all(&root).unwrap();
    for entry in std::fs::read_dir(fixture(name)).unwrap().flatten() {
        std::fs::copy(entry.path(), root.join(entry.file_name())).unwrap();
    }
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    assert_eq!(text.matches(from).count(), 1, "'{from}' once in {file}");
    std::fs::write(root.join(file), text.replacen(from, to, 1)).unwrap();
    (dir, root.display().to_string())
}

#[test]
fn a_failing_notes_hook_leaves_the_drawing_whole_and_says_why() {
    for (body, why) in [
        ("error('the turn track is lost')", "the turn track is lost"),
        ("return 7", "return a list of strings"),
        ("return { 'ok', {} }", "a list holding a table"),
    ] {
        let (_dir, root) = changed_fixture(
            "isles",
            "rules.lua",
            "local who = player == \"\" and \"the table\" or player",
            &format!("do {body} end\n  local who = player"),
        );
        let isles = loaded(&root);
        let state = isles.engine.new_game(1).unwrap();
        let drawing = draw(&isles, &state, Viewer::Public);
        let tree = xml::parse(&drawing.svg).unwrap();
        assert_eq!(spaces(&tree).len(), 8);
        assert_eq!(drawing.problems.len(), 1);
        assert!(
            drawing.problems[0].contains("rules.map_notes"),
            "{:?}",
            drawing.problems
        );
        assert!(drawing.problems[0].contains(why), "{:?}", drawing.problems);
    }
}

// ---- a grid with spaces beside it ----

#[test]
fn spaces_beside_a_grid_are_drawn_and_spaces_without_a_point_are_listed() {
    let harbour = loaded(&fixture("harbour"));
    let state = harbour.engine.new_game(1).unwrap();
    let (tree, _) = drawn(&harbour, &state, Viewer::Public);
    let shown = spaces(&tree);
    assert_eq!(shown.len(), 9);
    assert_eq!(tree.with_class("cell").len(), 6);
    assert_eq!(shown["b2"].attr("data-kind"), Some("land"));
    assert!(shown["quay"].attr("class").unwrap().contains("area"));
    for name in ["battle_line", "battle_reserve"] {
        assert!(
            shown[name].attr("class").unwrap().contains("off-map"),
            "{name}"
        );
    }
    let side = tree
        .all()
        .into_iter()
        .find(|e| e.attr("id") == Some("side"))
        .unwrap();
    assert!(side.all_text().contains("Not on the map"));
    let s = |owner: &str, n: usize| (owner.to_string(), "Galleon".to_string(), n);
    assert_eq!(groups(shown["a1"]), vec![s("east", 2)]);
    assert_eq!(groups(shown["battle_line"]), vec![s("west", 1)]);
    let dock = tree.with_class("edge");
    assert_eq!(dock.len(), 1, "grid neighbours need no lines");
    assert_eq!(dock[0].attr("data-kind"), Some("dock"));
}

// ---- colours in game.yaml ----

#[test]
fn a_bad_colour_is_refused_at_its_line_with_what_to_write() {
    for (from, to, path) in [
        (
            "- { id: east }",
            "- { id: east, colour: bluish }",
            "players.0.colour",
        ),
        (
            "Galleon: { short: G }",
            "Galleon: { short: G, colour: \"#12345\" }",
            "pieces.kinds.Galleon.colour",
        ),
    ] {
        let (_dir, root) = changed_fixture("harbour", "game.yaml", from, to);
        let request = Request {
            target: root.clone(),
            options: vec![],
            overlays: vec![],
        };
        let e = load(&Catalog::embedded(), &request)
            .err()
            .expect("refused")
            .to_string();
        let line = std::fs::read_to_string(Path::new(&root).join("game.yaml"))
            .unwrap()
            .lines()
            .position(|l| l.contains(to))
            .unwrap()
            + 1;
        assert!(e.contains(&format!("game.yaml:{line}:")), "{e}");
        assert!(e.contains(path) && e.contains("write #rrggbb"), "{e}");
    }
}

// ---- the command line ----

fn portolan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .current_dir(repo())
        .env_remove("PORTOLAN_RULES")
        .env_remove("PORTOLAN_SCENARIOS")
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn svg_at(path: &Path) -> Element {
    xml::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn render_draws_a_new_game_for_the_table_or_for_one_seat() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("convoy.svg");
    let f = file.to_str().unwrap();
    let o = portolan(&["render", "med-convoy", "--seed", "4", "--svg", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("wrote"));
    let tree = svg_at(&file);
    assert_eq!(tree.attr("data-viewer"), Some("public"));
    assert_eq!(spaces(&tree).len(), 35);
    let o = portolan(&["render", "med-convoy", "--as", "Red", "--svg", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(svg_at(&file).attr("data-viewer"), Some("red"));
    let o = portolan(&["render", &fixture("isles"), "--svg", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(spaces(&svg_at(&file)).len(), 8);
}

#[test]
fn render_says_which_players_there_are_when_asked_for_another() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.svg");
    let o = portolan(&[
        "render",
        "med-convoy",
        "--as",
        "green",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("its players are blue, red"),
        "{}",
        stderr(&o)
    );
    assert!(!file.exists());
}

#[test]
fn render_draws_where_a_save_ends_and_refuses_a_bad_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let mut s = hostile::session("med-convoy");
    assert!(!s.execute("autoplace").failed);
    let r = s.execute(&format!("save {}", save.display()));
    assert!(!r.failed, "{}", r.text);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let plies = saved["actions"].as_array().unwrap().len();
    assert!(plies >= 20);

    let file = dir.path().join("saved.svg");
    let (f, sv) = (file.to_str().unwrap(), save.to_str().unwrap());
    let o = portolan(&[
        "render",
        "med-convoy",
        "--save",
        sv,
        "--as",
        "blue",
        "--svg",
        f,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let tree = svg_at(&file);
    assert_eq!(tree.attr("data-ply"), Some(plies.to_string().as_str()));
    let on_board: usize = tree
        .with_class("cell")
        .iter()
        .flat_map(|c| groups(c))
        .map(|(_, _, n)| n)
        .sum();
    assert_eq!(on_board, 20);

    let o = portolan(&[
        "render",
        "med-convoy",
        "--save",
        sv,
        "--seed",
        "3",
        "--svg",
        f,
    ]);
    assert!(stderr(&o).contains("leave out --seed"), "{}", stderr(&o));

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": 1}").unwrap();
    let o = portolan(&[
        "render",
        "med-convoy",
        "--save",
        bad.to_str().unwrap(),
        "--svg",
        f,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot draw the save"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("not a Portolan save"), "{}", stderr(&o));

    let o = portolan(&["render", "solo-convoy", "--save", sv, "--svg", f]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("it is a save of 'med-convoy'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn render_writes_the_drawing_then_reports_a_failing_notes_hook() {
    let (_dir, root) = changed_fixture(
        "isles",
        "rules.lua",
        "local who = player == \"\" and \"the table\" or player",
        "error('no notes today')",
    );
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("isles.svg");
    let o = portolan(&["render", &root, "--svg", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("rules.map_notes") && stderr(&o).contains("no notes today"),
        "{}",
        stderr(&o)
    );
    assert_eq!(spaces(&svg_at(&file)).len(), 8);
}

// ---- hostile files: only regular files are written ----

#[test]
fn render_refuses_a_fifo_a_folder_and_a_symbolic_link_and_leaves_them_be() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = hostile::fifo(&dir.path().join("pipe.svg"));
    let o = portolan(&["render", "med-convoy", "--svg", pipe.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("is a FIFO (a named pipe), not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(hostile::is_fifo(&pipe));

    let o = portolan(&[
        "render",
        "med-convoy",
        "--svg",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("is a folder, not a regular file"),
        "{}",
        stderr(&o)
    );

    let precious = dir.path().join("precious.txt");
    hostile::write(&precious, "keep me");
    let link = dir.path().join("board.svg");
    hostile::symlink(&precious, &link);
    let o = portolan(&["render", "med-convoy", "--svg", link.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("is a symbolic link (to "),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert!(!o.status.success());

    let null = dir.path().join("null");
    if hostile::null_device(&null) {
        let o = portolan(&["render", "med-convoy", "--svg", null.to_str().unwrap()]);
        assert!(
            stderr(&o).contains("is a device, not a regular file"),
            "{}",
            stderr(&o)
        );
        assert!(hostile::is_char_device(&null));
    }
}

// ---- the REPL's map ----

#[test]
fn map_draws_the_board_as_the_seat_at_the_screen_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.svg");
    let mut s = hostile::session("med-convoy");
    assert!(!s.execute("autoplace").failed);
    let r = s.execute(&format!("map {}", file.display()));
    assert!(!r.failed, "{}", r.text);
    assert!(
        r.text.contains("wrote the map to") && r.text.contains("Blue's view"),
        "{}",
        r.text
    );
    let tree = svg_at(&file);
    assert_eq!(tree.attr("data-viewer"), Some("blue"));
    let seen = groups(&tree);
    assert!(
        seen.iter()
            .filter(|(o, _, _)| o == "red")
            .all(|(_, k, _)| k == "?")
    );
    assert!(
        seen.iter()
            .filter(|(o, _, _)| o == "blue")
            .all(|(_, k, _)| k != "?")
    );

    let pipe = hostile::fifo(&dir.path().join("pipe.svg"));
    let r = s.execute(&format!("map {}", pipe.display()));
    assert!(
        r.failed && r.text.contains("not a regular file"),
        "{}",
        r.text
    );
    assert!(hostile::is_fifo(&pipe));
    let r = s.execute("map");
    assert!(
        r.failed && r.text.contains("usage: map FILE.svg"),
        "{}",
        r.text
    );
}

#[test]
fn a_named_piece_is_drawn_by_its_name_only_for_those_who_see_its_face() {
    use portolan::kernel::value::Value;
    let isles = loaded(&fixture("isles"));
    let mut state = isles.engine.new_game(1).unwrap();
    let g = &isles.engine.game;
    let leader = g.kind_index("Leader").unwrap();
    let on_gaul = state
        .piece_ids()
        .find(|&i| state.piece(i).kind == leader && state.piece(i).loc.space().is_some())
        .unwrap();
    state.set_piece_attr(on_gaul, "name", Some(Value::Str("Clovis".into())));
    let (white, _) = drawn(&isles, &state, Viewer::Player(PlayerId(0)));
    let named: Vec<&Element> = white
        .with_class("pieces")
        .into_iter()
        .filter(|e| e.attr("data-name") == Some("Clovis"))
        .collect();
    assert_eq!(named.len(), 1);
    assert!(named[0].all_text().contains("Clovis"));
    assert_eq!(named[0].attr("data-kind"), Some("Leader"));
    let (_, green) = drawn(&isles, &state, Viewer::Player(PlayerId(1)));
    assert!(
        !green.contains("Clovis"),
        "green does not see White's leader"
    );
}
