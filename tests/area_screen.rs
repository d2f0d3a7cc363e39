//! Mediterranea's screen on a 50-line terminal: after each choice a
//! summed-up board (counts per player and kind, the spaces that changed),
//! the question, the last lines of the log; `board full` for the whole
//! map; a log that tells each thing once; a header that says how the
//! game ended.

#[path = "repl_fixtures/harness.rs"]
mod harness;

use harness::{play, replies, reply, run};

/// Mediterranea's screens after each of `choices` choices of the first
/// listed move (White human, the others random bots).
fn screens_after_choices(target: &str, seed: &str, choices: usize) -> String {
    let (_, out, _) = run(&[], &[target, "--seed", seed], &"1\n".repeat(choices));
    out
}

#[test]
fn the_screen_after_every_choice_fits_a_50_line_terminal() {
    for (target, seed) in [
        ("mediterranea", "1"),
        ("mediterranea", "2"),
        ("mediterranea", "3"),
        ("mediterranea/jihad", "4"),
        ("mediterranea/decline-and-fall", "5"),
    ] {
        let out = screens_after_choices(target, seed, 80);
        let screens = replies(&out, "1");
        assert!(screens.len() > 20, "{target} {seed}: too few screens");
        let longest = screens.iter().map(|s| s.lines().count()).max().unwrap();
        assert!(
            longest <= 50,
            "{target} seed {seed}: a screen of {longest} lines:\n{out}"
        );
        // Every screen says what changed and what is asked.
        let last = screens.last().unwrap();
        assert!(last.contains(" on the map ("), "{last}");
        assert!(
            last.contains("legal action") || last.contains("game over"),
            "{last}"
        );
    }
}

#[test]
fn board_full_draws_every_occupied_area_and_the_screen_does_not() {
    let out = play(&["mediterranea", "--seed", "3"], "board\nboard full\n");
    let screen = reply(&out, "board");
    let full = reply(&out, "board full");
    for region in ["  Italy:", "  Gaul:", "  Levant:", "    Rome "] {
        assert!(full.contains(region), "{region}: {full}");
        assert!(!screen.contains(region), "{region}: {screen}");
    }
    assert!(
        screen.contains("White: ") && screen.contains("'board full'"),
        "{screen}"
    );
    assert!(full.lines().count() > 50, "the whole board is long: {full}");
    // Every face in Mediterranea is open: no piece is marked revealed.
    assert!(
        !full.contains("wRo*") && !full.contains("*=revealed"),
        "{full}"
    );
}

/// A whole game between bots: its log and its last screen.
fn bots_game(target: &str, seed: &str) -> String {
    play(
        &[target, "--seed", seed, "--seat", "white=random"],
        "log 5000\n",
    )
}

#[test]
fn the_log_tells_each_shot_once_and_a_run_of_one_line_once_with_its_count() {
    let mut counted = 0;
    for seed in ["1", "2", "3"] {
        let out = bots_game("mediterranea/decline-and-fall", seed);
        let log: Vec<&str> = reply(&out, "log 5000").lines().collect();
        for pair in log.windows(2) {
            assert_ne!(pair[0], pair[1], "a line told twice in a row");
            assert!(
                !(pair[1].contains("army shoots at") && pair[0].contains(" rolled ")),
                "a shot told twice: {pair:?}"
            );
        }
        assert!(log.iter().any(|l| l.contains("army shoots at")));
        counted += log.iter().filter(|l| l.ends_with(" times)")).count();
    }
    assert!(counted > 0, "no run of a repeated line was counted");
}

#[test]
fn after_the_game_the_header_names_the_last_turn_played_and_the_end() {
    let out = bots_game("mediterranea/decline-and-fall", "1");
    let end = reply(&out, "log 5000");
    assert!(
        out.contains(
            "Decline and Fall: game over after turn 3 (450-499), the last of 2-3; final scores:"
        ),
        "{out}"
    );
    assert!(!out.contains("turn 4 ("), "{end}");
}
