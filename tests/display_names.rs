//! Every name a player reads (a REPL screen, a log line, a drawn map) is
//! the name the game's data gives, never an id: each stock game is played
//! for a while by number against random bots, and everything it printed
//! and drew is scanned for the ids of spaces, kinds, pools, tables and
//! phases whose display name differs.

#[allow(dead_code)]
mod common;
#[path = "repl_fixtures/harness.rs"]
mod harness;

use common::stock;
use harness::run;
use portolan::kernel::engine::Engine;
use portolan::kernel::game::label_or_id;
use portolan::kernel::piece::{Location, PoolId};
use std::ops::Add;

/// The ids of `engine`'s game that have another display name, each with
/// what it names: the words a screen must never show.
fn ids_with_other_names(engine: &Engine) -> Vec<(String, &'static str)> {
    let g = &engine.game;
    let mut ids = Vec::new();
    // An id that is a word of its own name (`contact` of "contact roll")
    // shows when the name does: only the others are searched for.
    let mut add = |id: &str, label: &str, what| {
        if find_word(&label.to_lowercase(), &id.to_lowercase()).is_none() {
            ids.push((id.to_string(), what));
        }
    };
    for s in g.board.ids() {
        add(g.board.name(s), &g.board.label(s), "space");
    }
    for kind in g.board.space_kinds() {
        add(kind, &label_or_id(None, kind), "space kind");
    }
    for k in &g.kinds {
        add(&k.name, &k.label, "piece kind");
    }
    for (i, pool) in g.pools.iter().enumerate() {
        add(
            pool,
            &g.location_label(Location::Pool(PoolId(i as u8))),
            "pool",
        );
    }
    for p in &g.phases {
        add(&p.name, &p.label, "phase");
    }
    for t in g.tables.keys() {
        let label = g
            .dice_table(t)
            .map_or_else(|| label_or_id(None, t), |d| d.label.clone());
        add(t, &label, "table");
    }
    for (attr, label) in &g.shown_attrs {
        add(attr, label, "piece attribute");
    }
    ids
}

/// Where `id` stands in `text` as a word of its own (not inside a longer
/// name: `a1` in `a10` or `battle.a1` is not `a1`).
fn find_word(text: &str, id: &str) -> Option<usize> {
    let part_of_name = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    text.match_indices(id).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(part_of_name)
    })
}

/// The text an SVG shows: its `<text>` elements' contents (attributes
/// are data for programs, not words for people).
fn svg_text(svg: &str) -> String {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].to_string() + "\n")
        })
        .collect()
}

/// Plays `target` for `plies` choices of the first listed move (the
/// other seats random), then reads the log, a few pieces, the whole
/// board, and the map through the player's eyes and the god view; fails
/// on any id shown where the data gives a name.
fn scan(target: &str, plies: usize, seed: &str) {
    let engine = stock(target);
    let dir = tempfile::tempdir().unwrap();
    let (seat, god) = (dir.path().join("seat.svg"), dir.path().join("god.svg"));
    let mut commands = "1\n".repeat(plies);
    commands += "log 1000\nboard full\nshow #1\nshow #2\nshow #7\n";
    commands += &format!(
        "map {}\nview all\nboard full\nmap {}\n",
        seat.display(),
        god.display()
    );
    let (_, screens, _) = run(&[], &[target, "--seed", seed], &commands);
    let mut shown = screens.clone();
    for svg in [&seat, &god] {
        shown += &svg_text(&std::fs::read_to_string(svg).unwrap());
    }
    // The commands echoed after each prompt are the user's words.
    let shown: String = shown
        .lines()
        .filter(|l| !l.contains("> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let found: Vec<String> = ids_with_other_names(&engine)
        .iter()
        .filter_map(|(id, what)| {
            let at = find_word(&shown, id)?;
            let line = shown[..at].rsplit('\n').next().unwrap_or("").to_string()
                + shown[at..].split('\n').next().unwrap_or("");
            Some(format!("{what} id '{id}' in: {line}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "{target}: ids on screen:\n{}",
        found.join("\n")
    );
}

#[test]
fn treasure_fleet_screens_show_names_not_ids() {
    scan("treasure-fleet", 80, "3");
}

#[test]
fn med_convoy_screens_show_names_not_ids() {
    scan("med-convoy", 40, "3");
}

#[test]
fn mediterranea_screens_show_names_not_ids() {
    scan("mediterranea", 40, "3");
}

#[test]
fn solo_convoy_screens_show_names_not_ids() {
    scan("solo-convoy", 20, "3");
}

/// `show #ID` lists the attributes game.yaml's `pieces.shown_attrs`
/// names, under those names; the rules' bookkeeping stays off it.
#[test]
fn show_lists_only_the_attributes_the_data_names() {
    let (_, out, _) = run(&[], &["treasure-fleet", "--seed", "3"], "1\nshow #3\n");
    let swallow = harness::reply(&out, "show #3");
    assert!(
        swallow.starts_with("#3 Side A Swallow at reserve"),
        "{swallow}"
    );
    assert!(swallow.contains("\n  CP: 60\n"), "{swallow}");
    for bookkeeping in ["origin", "name =", "max_cp", " = "] {
        assert!(!swallow.contains(bookkeeping), "{bookkeeping}: {swallow}");
    }
    let (_, out, _) = run(
        &[],
        &["mediterranea", "--seed", "3"],
        &"1\n".repeat(30).add("show #13\n"),
    );
    let army = harness::reply(&out, "show #13");
    for bookkeeping in ["from", "last", "moved", "seq", " = "] {
        assert!(!army.contains(bookkeeping), "{bookkeeping}: {army}");
    }
}

/// The SVG of a game with a battle board names its squares by their cells
/// under the board's heading, and its space kinds in words.
#[test]
fn a_drawn_battle_board_shows_cells_and_kinds_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tf.svg");
    run(
        &[],
        &["treasure-fleet", "--seed", "3"],
        &format!("map {}\n", file.display()),
    );
    let text = svg_text(&std::fs::read_to_string(&file).unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"battle") && lines.contains(&"a8"), "{text}");
    assert!(lines.contains(&"battle sea"), "{text}");
    assert!(find_word(&text, "battle.a8").is_none() && find_word(&text, "battle_sea").is_none());
}
