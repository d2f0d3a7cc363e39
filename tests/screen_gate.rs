//! One gate for the screen (issue 19): on a shared terminal no command
//! shows one player what another's seat hides before the terminal is
//! handed over (seat changes, undo, redo, switch, load, new, reload, the
//! turn passing), a peek against bots asks once and is marked, the seed
//! stays off a shared screen until the game ends, and a replay names
//! another seat's secret action only as "a hidden action".

#[path = "repl_fixtures/harness.rs"]
mod harness;

use harness::*;
use std::process::Command;

/// Hot-seat Convoy, both fleets set up at random; with this seed Red sets
/// up first and holds the terminal at the start.
const HOT_SEAT: [&str; 4] = ["--seed", "3", "--seat", "red=human"];

/// The first sign on `screen` of a hidden face of `player`'s ships: a
/// board or reserve cell (`rC `; a face revealed to all is `rC*`) or a
/// narrated kind (`Red Cruiser`) outside an attack, which reveals both.
fn hidden_face(screen: &str, player: char) -> Option<String> {
    let name = if player == 'r' { "Red" } else { "Blue" };
    let cells = ['C', 'D', 'M', 'S'].map(|k| format!("{player}{k} "));
    let named = ["Cruiser", "Destroyer", "Merchant", "Submarine"].map(|k| format!("{name} {k}"));
    let secret: String = screen
        .lines()
        .filter(|l| !l.contains(" attacked "))
        .flat_map(|l| [l, "\n"])
        .collect();
    cells
        .into_iter()
        .chain(named)
        .find(|sign| secret.contains(sign.as_str()))
}

/// The transcript cut at each handover, each part with the player who
/// held the terminal then (`b` or `r`), starting with `first`.
fn held_by(out: &str, first: char) -> Vec<(char, &str)> {
    let mut parts = Vec::new();
    let mut holder = first;
    let mut rest = out;
    while let Some(at) = rest.find("-- pass to ") {
        parts.push((holder, &rest[..at]));
        let tail = &rest[at + "-- pass to ".len()..];
        holder = if tail.starts_with("RED") { 'r' } else { 'b' };
        rest = &tail[tail.find('\n').map_or(tail.len(), |i| i + 1)..];
    }
    parts.push((holder, rest));
    parts
}

/// Asserts that no part of a hot-seat transcript shows the holder a hidden
/// face of the other player's.
fn no_secret_before_a_handover(out: &str, first: char) {
    for (holder, part) in held_by(out, first) {
        let other = if holder == 'r' { 'b' } else { 'r' };
        if let Some(sign) = hidden_face(part, other) {
            panic!("while {holder} held the terminal it showed '{sign}':\n{part}");
        }
    }
}

#[test]
fn a_god_view_does_not_survive_a_second_human_seat() {
    let out = play(
        &["--seed", "3"],
        "seat red random\nview all\nyes\nseat red human\nboard\n",
    );
    // Against a bot the peek is allowed, after one question, and marked.
    assert!(reply(&out, "view all").contains("Answer 'yes'"), "{out}");
    let peek = reply(&out, "yes");
    assert!(peek.contains("GOD VIEW") && peek.contains("rC "), "{peek}");
    // A second human at the terminal: the god view ends at once.
    for command in ["seat red human", "board"] {
        let screen = reply(&out, command);
        assert!(!screen.contains("GOD VIEW"), "{command}:\n{screen}");
        assert_eq!(hidden_face(screen, 'r'), None, "{command}:\n{screen}");
    }
}

/// The only human seat given to a bot: the bots play on, watched with the
/// eyes the person at the terminal had, never a silent god view they could
/// use if they took the seat back (stepping back with `undo` shows
/// positions where Red's ships still hide). A god view is one 'yes' away.
#[test]
fn the_last_human_seat_given_to_a_bot_keeps_that_players_eyes() {
    let out = play(
        &["--seed", "3"],
        "seat blue random\nview auto\nview all\nyes\n",
    );
    let own = reply(&out, "view auto");
    assert!(own.contains("now showing Blue's view"), "{own}");
    assert!(!own.contains("GOD VIEW"), "{own}");
    assert!(reply(&out, "view all").contains("Answer 'yes'"), "{out}");
    assert!(reply(&out, "yes").contains("GOD VIEW"), "{out}");
}

#[test]
fn a_peek_against_bots_asks_once_a_game_and_is_marked() {
    let out = play(
        &["--seed", "3"],
        "view red\nyes\nview auto\nview all\nlua #pieces.all()\nnew\nview all\nno\n",
    );
    assert!(reply(&out, "view red").contains("would show Red's hidden pieces"));
    let red = reply(&out, "yes");
    assert!(red.contains("== PEEK: Red's view"), "{red}");
    assert!(red.contains("rC "), "{red}");
    let own = reply(&out, "view auto");
    assert!(!own.contains("PEEK") && !own.contains("rC "), "{own}");
    // Asked once: the rest of the game's peeks go ahead, marked.
    let [god, asked] = replies(&out, "view all")[..] else {
        panic!("two 'view all':\n{out}")
    };
    assert!(god.contains("GOD VIEW"), "{god}");
    assert_eq!(reply(&out, "lua #pieces.all()").trim(), "20");
    // A new game asks again.
    assert!(asked.contains("Answer 'yes'"), "{asked}");
}

#[test]
fn a_save_from_the_other_seat_loads_behind_a_handover() {
    let dir = tempfile::tempdir().unwrap();
    let blue = dir.path().join("blue.json");
    let blue = blue.to_str().unwrap();
    // Saved after Red's set-up, with Blue holding the terminal.
    play(&HOT_SEAT, &format!("place random\nsave {blue}\n"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(blue).unwrap()).unwrap();
    assert_eq!(json["viewer"], "blue");
    // Loaded where Red holds the terminal: Blue's screen waits for a pass.
    let out = play(&HOT_SEAT, &format!("load {blue}\n"));
    no_secret_before_a_handover(&out, 'r');
    assert!(after(&out, &format!("load {blue}")).contains("-- pass to BLUE"));

    // The viewer a save names is a preference, never a way round the
    // gate: edited to say Red while Blue is to move, it is loaded where
    // Blue holds the terminal, and Blue sees Blue's own view.
    let mut edited = json.clone();
    edited["viewer"] = "red".into();
    let red = dir.path().join("red.json");
    std::fs::write(&red, serde_json::to_string(&edited).unwrap()).unwrap();
    let red = red.to_str().unwrap();
    let out = play(&["--seed", "3"], &format!("load {red}\n"));
    no_secret_before_a_handover(&out, 'b');
    let loaded = reply(&out, &format!("load {red}"));
    assert!(loaded.contains("bC "), "{loaded}");
}

#[test]
fn stepping_through_the_game_hands_the_terminal_over_first() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let save = rules.path().join("g.json");
    let save = save.to_str().unwrap();
    let out = play_with(
        &["--rules", dir.to_str().unwrap()],
        &HOT_SEAT,
        &format!(
            "place random\nplace random\nsave {save}\n1\nundo\nredo\nfork f\n1\nswitch f\n\
             undo\nreload\nseat blue random\nseat blue human\nswitch main\n1\nnew\nyes\n\
             place random\nload {save}\nyes\n1\n"
        ),
    );
    assert!(out.matches("-- pass to ").count() >= 10, "{out}");
    no_secret_before_a_handover(&out, 'r');
}

#[test]
fn a_shared_screen_shows_the_seed_only_when_the_game_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.json");
    let save = save.to_str().unwrap();
    let commands = format!(
        "{}save {save}\n",
        "place random\n".repeat(2) + &"1\n".repeat(400)
    );
    let (out, _) = play_failing(&["--seat", "red=human"], &commands);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    let seed = json["seed"].as_u64().unwrap().to_string();
    let end = out.find("game over:").expect("the game ends");
    let playing = &out[..end];
    assert!(
        playing.contains("seed: hidden until the game ends"),
        "{playing}"
    );
    assert!(
        !playing.contains(&seed),
        "the seed {seed} showed:\n{playing}"
    );
    assert!(
        out[end..].contains(&format!("seed: {seed}")),
        "{}",
        &out[end..]
    );
    // One human against a bot: the seed shows, to replay the game.
    let out = play(&["--seed", "3"], "board\n");
    assert!(out.contains("seed: 3"), "{out}");
}

#[test]
fn a_divergence_names_another_seats_secret_action_as_hidden() {
    let rules = rules_copy();
    let dir = rules.path().join("rules");
    let save = rules.path().join("set-up.json");
    let mut repl = Live::start(&["--rules", dir.to_str().unwrap()], &HOT_SEAT);
    // Red sets up, the terminal passes to Blue, Blue saves.
    let set_up = repl.run(&format!("place random\nsave {}", save.display()));
    assert!(set_up.contains("-- pass to BLUE"), "{set_up}");
    // Seven ships on the home row are now one too many: Red's seventh
    // home-row placement is illegal under the new rules.
    let yaml = dir.join("med-convoy/game.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("home_row: 7, second_row: 3", "home_row: 6, second_row: 4"),
    )
    .unwrap();
    let r = repl.run("reload");
    assert!(r.contains("(a hidden action) is now illegal"), "{r}");
    assert_eq!(hidden_face(&r, 'r'), None, "{r}");
    assert!(!r.contains("place "), "{r}");

    // `portolan replay` of a hot-seat save speaks to the table: every
    // seat's secret placement is a hidden action.
    let out = Command::new(BIN)
        .env("NO_COLOR", "1")
        .arg("--rules")
        .arg(&dir)
        .arg("replay")
        .arg(&save)
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stderr);
    assert!(
        listing.contains("(a hidden action) is now illegal"),
        "{listing}"
    );
    assert!(!listing.contains("place "), "{listing}");
}
