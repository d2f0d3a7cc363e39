//! Conformance tests of the solitaire convoy (`rules/solo-convoy`): each
//! table row and each rule driven by forced dice (`GameRng::force`), its
//! effect read back from the kernel's variables.
//!
//! A test sets the convoy up with known dice, jumps to a turn with
//! `begin_phase("journey")`, queues the faces that turn will roll, answers
//! the option decision and checks every queued face was used: the dice
//! order of a turn is part of what is tested.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::event::Event;
use portolan::kernel::piece::PlayerId;
use portolan::kernel::state::{GameState, set_var};
use portolan::kernel::value::Value;
use portolan::kernel::view::{View, Viewer};
use portolan::repl::narrate::narrate;

const TYPES: [&str; 5] = ["cargo", "tanker", "carrier", "cruiser", "destroyer"];

/// The stock game or scenario `target`.
fn engine(target: &str) -> Engine {
    common::stock(target)
}

struct Solo {
    engine: Engine,
    state: GameState,
    /// Events before this index belong to earlier steps.
    mark: usize,
}

/// Composition dice: 12 cargo (3D6), 3 tankers, 2 carriers, 10 cruisers
/// (1D6x5), 30 destroyers (1D6x10); a 24-turn journey; 2 friendly turns.
const SETUP: [u32; 9] = [4, 4, 4, 3, 2, 2, 3, 4, 2];

impl Solo {
    fn new() -> Solo {
        Solo::with(engine("solo-convoy"), &SETUP)
    }

    fn with(engine: Engine, setup: &[u32]) -> Solo {
        let state = engine.new_game(7).expect("a game starts");
        let mut solo = Solo {
            engine,
            state,
            mark: 0,
        };
        solo.state.rng.force(setup.iter().copied());
        solo.begin("setup");
        assert_eq!(solo.state.rng.forced_left(), 0, "setup rolls 7 dice");
        solo
    }

    fn begin(&mut self, phase: &str) {
        self.mark = self.state.events.len();
        self.engine
            .begin_phase(&mut self.state, phase, PlayerId(0))
            .expect("the phase runs");
    }

    fn set(&mut self, name: &str, v: i64) {
        set_var(self.state.vars_mut(), name, Some(Value::Int(v)));
    }

    fn set_bool(&mut self, name: &str, v: bool) {
        set_var(self.state.vars_mut(), name, Some(Value::Bool(v)));
    }

    fn int(&self, name: &str) -> i64 {
        match self.state.vars().get(name) {
            Some(Value::Int(i)) => *i,
            None => 0,
            other => panic!("{name} is {other:?}, not an integer"),
        }
    }

    fn text(&self, name: &str) -> String {
        match self.state.vars().get(name) {
            Some(Value::Str(s)) => s.clone(),
            other => panic!("{name} is {other:?}, not a string"),
        }
    }

    /// Sets the convoy afloat (and as sailed), with no damage or loss.
    fn fleet(&mut self, counts: [i64; 5]) {
        for (t, n) in TYPES.iter().zip(counts) {
            self.set(&format!("afloat_{t}"), n);
            self.set(&format!("sailed_{t}"), n);
            for c in ["damaged", "lost", "home"] {
                self.set(&format!("{c}_{t}"), 0);
            }
        }
    }

    fn afloat(&self, t: &str) -> i64 {
        self.int(&format!("afloat_{t}"))
    }

    /// Jumps to the start of a turn (the option decision).
    fn at_turn(&mut self, turn: i64) {
        self.set("turn", turn);
        self.begin("journey");
    }

    fn choices(&self) -> Vec<String> {
        self.state
            .stack
            .last()
            .map_or(vec![], |f| f.choices.clone())
    }

    /// Answers the decision with `faces` queued; every face must be used.
    fn choose(&mut self, choice: &str, faces: &[u32]) {
        let i = self
            .choices()
            .iter()
            .position(|c| c == choice)
            .unwrap_or_else(|| panic!("'{choice}' is not offered: {:?}", self.choices()));
        self.state.rng.force(faces.iter().copied());
        self.mark = self.state.events.len();
        self.engine
            .apply(&mut self.state, Action::Choice(i as u32))
            .expect("the turn runs");
        assert_eq!(
            self.state.rng.forced_left(),
            0,
            "faces left unused; log:\n{}",
            self.log().join("\n")
        );
    }

    /// Plays one turn from its start with no option taken.
    fn turn(&mut self, turn: i64, faces: &[u32]) {
        self.at_turn(turn);
        self.choose("no option", faces);
    }

    /// The rules' narration since the last step (their log lines and
    /// their rolls on dice tables), as the REPL shows it.
    fn log(&self) -> Vec<String> {
        let view = View::new(&self.engine.game, &self.state, Viewer::Player(PlayerId(0)));
        self.state.events[self.mark..]
            .iter()
            .filter(|e| matches!(e, Event::Text { .. } | Event::TableRoll { .. }))
            .filter_map(|e| narrate(&self.engine, &view, e))
            .collect()
    }

    fn logged(&self, needle: &str) -> bool {
        self.log().iter().any(|l| l.contains(needle))
    }

    fn lua(&self, code: &str) -> String {
        self.engine.lua_eval(&self.state, code).expect("lua runs")
    }
}

// ---------------------------------------------------------------- set-up

#[test]
fn composition_is_rolled_at_setup() {
    let s = Solo::new();
    assert_eq!(s.afloat("cargo"), 12, "3D6: 4+4+4");
    assert_eq!(s.afloat("tanker"), 3, "1D6");
    assert_eq!(s.afloat("carrier"), 2, "1D3");
    assert_eq!(s.afloat("cruiser"), 10, "1D6x5");
    assert_eq!(s.afloat("destroyer"), 30, "1D6x10");
    assert_eq!(s.int("sailed_cargo"), 12);
    assert_eq!(s.int("length"), 24, "20+1D6");
    assert_eq!(s.int("friendly"), 2, "1D6 turns of friendly waters");
    assert_eq!(s.int("turn"), 1);
}

#[test]
fn the_game_sheet_starts_from_the_data() {
    // Every counter of every ship type starts at zero and the turn at 1:
    // game data that `configure` fills from the composition table (a
    // scenario's ship types get theirs), set by the kernel at a new game.
    for target in ["solo-convoy", "solo-convoy/small-convoy"] {
        let e = engine(target);
        for t in TYPES {
            for c in ["sailed", "afloat", "damaged", "lost", "home"] {
                let name = format!("{c}_{t}");
                assert_eq!(
                    e.game.vars.get(&name),
                    Some(&Value::Int(0)),
                    "{target}: {name}"
                );
            }
        }
        for (name, start) in [
            ("turn", 1),
            ("interceptions", 0),
            ("next_turn", 0),
            ("options_used", 0),
        ] {
            assert_eq!(
                e.game.vars.get(name),
                Some(&Value::Int(start)),
                "{target}: {name}"
            );
        }
    }
    // The setup rolls the convoy; nothing is yet damaged, lost or home.
    let s = Solo::new();
    for t in TYPES {
        for c in ["damaged", "lost", "home"] {
            assert_eq!(
                s.state.vars().get(&format!("{c}_{t}")),
                Some(&Value::Int(0)),
                "{c}_{t}"
            );
        }
    }
    assert_eq!(s.int("sailed_cargo"), 12);
}

#[test]
fn composition_dice_reach_their_ends() {
    let s = Solo::with(engine("solo-convoy"), &[6, 6, 6, 6, 3, 6, 6, 6, 6]);
    assert_eq!(s.afloat("cargo"), 18);
    assert_eq!(s.afloat("tanker"), 6);
    assert_eq!(s.afloat("carrier"), 3);
    assert_eq!(s.afloat("cruiser"), 30);
    assert_eq!(s.afloat("destroyer"), 60);
    assert_eq!(s.int("length"), 26);
    assert_eq!(s.int("friendly"), 6);
}

// ------------------------------------------------------ friendly waters

#[test]
fn friendly_waters_roll_no_contact() {
    let mut s = Solo::new();
    s.turn(1, &[]);
    assert_eq!(s.text("turn_1"), "friendly waters");
    s.turn(2, &[]);
    assert_eq!(s.text("turn_2"), "friendly waters");
    // Turn 3 is open sea: one contact roll.
    s.turn(3, &[2]);
    assert_eq!(s.text("turn_3"), "contact 2: No contact");
}

// --------------------------------------------------------------- contact

#[test]
fn contact_rows_without_an_enemy() {
    for (face, row, next) in [
        (1, "Dumb luck", -1),
        (2, "No contact", 0),
        (3, "No contact", 0),
        (4, "Reconnaissance plane", 2),
    ] {
        let mut s = Solo::new();
        s.turn(5, &[face]);
        assert!(
            s.logged(&format!("contact roll {face}: {row}")),
            "{:?}",
            s.log()
        );
        assert_eq!(s.int("next_turn"), next, "face {face}");
    }
}

#[test]
fn next_turn_modifier_applies_to_one_roll_only() {
    let mut s = Solo::new();
    s.turn(5, &[4]);
    assert_eq!(s.int("next_turn"), 2);
    // 1+2 = 3: no contact, and the +2 is spent.
    s.turn(6, &[1]);
    assert!(s.logged("contact roll 1+2=3: No contact"), "{:?}", s.log());
    assert_eq!(s.int("next_turn"), 0);
    s.turn(7, &[1]);
    assert!(s.logged("contact roll 1: Dumb luck"));
    assert_eq!(s.int("next_turn"), -1);
    s.turn(8, &[5]);
    assert!(s.logged("contact roll 5-1=4: Reconnaissance plane (Dumb luck -1)"));
}

#[test]
fn modified_contact_beyond_the_table_reads_its_end_rows() {
    let mut s = Solo::new();
    s.set("next_turn", -1);
    s.turn(5, &[1]);
    assert!(
        s.logged("contact roll 1-1=0 (read as 1): Dumb luck"),
        "{:?}",
        s.log()
    );
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.set("next_turn", 2);
    // 6+2 = 8: Attack force, force +2. Force 1D6=1 -> 3, three misses.
    s.turn(5, &[6, 6, 1, 6, 6, 6, 1, 1, 1, 1]);
    assert!(s.logged("contact roll 6+2=8: Attack force"));
    let record = s.text("turn_5");
    assert!(record.contains("Combined air force, force 4"), "{record}");
}

/// Contact, enemy type and force dice, then the interception rolls (3 with
/// no carrier), then `attacks`.
fn engagement(contact: u32, enemy: u32, force: u32, attacks: &[u32]) -> Vec<u32> {
    let mut faces = vec![contact, enemy, force, 6, 6, 6];
    faces.extend_from_slice(attacks);
    faces
}

fn force_after(contact: u32, next_turn: i64, enemy: u32, force: u32, misses: usize) -> String {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.set("next_turn", next_turn);
    s.turn(5, &engagement(contact, enemy, force, &vec![1; misses]));
    s.text("turn_5")
}

#[test]
fn contact_rows_set_the_force_size() {
    // Italian air force (2) has no force modifier.
    assert!(
        force_after(5, 0, 2, 4, 3).contains("force 3"),
        "surprise contact -1"
    );
    assert!(force_after(6, 0, 2, 4, 4).contains("force 4"), "contact +0");
    assert!(force_after(6, 1, 2, 4, 5).contains("force 5"), "sortie +1");
    assert!(
        force_after(6, 2, 2, 4, 6).contains("force 6"),
        "attack force +2"
    );
}

// ----------------------------------------------------- enemy force type

#[test]
fn enemy_types_modify_force_size() {
    assert!(force_after(6, 0, 1, 4, 3).contains("U-boats, force 3"));
    assert!(force_after(6, 0, 3, 4, 4).contains("Italian air force, force 4"));
    assert!(force_after(6, 0, 5, 4, 4).contains("German air force, force 4"));
    assert!(force_after(6, 0, 6, 4, 5).contains("Combined air force, force 5"));
}

#[test]
fn force_size_is_at_least_one() {
    // Surprise contact -1, U-boats -1, 1D6 = 1: 1-2 = -1, so 1.
    let t = force_after(5, 0, 1, 1, 1);
    assert!(t.contains("U-boats, force 1"), "{t}");
}

#[test]
fn enemy_types_modify_attack_rolls() {
    // Italian air force: 3-1 = 2 misses; German: 4+1 = 5 destroys.
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.turn(5, &engagement(6, 2, 1, &[3]));
    assert!(s.logged("attack roll 3-1=2: Miss"), "{:?}", s.log());
    s.turn(6, &engagement(6, 4, 1, &[4, 2]));
    assert!(s.logged("attack roll 4+1=5: Ship destroyed"));
    assert_eq!(s.int("lost_cargo"), 1);
    // 6+1 = 7 reads as 6; 1-1 = 0 reads as 1.
    s.turn(7, &engagement(6, 5, 1, &[6, 2]));
    assert!(s.logged("attack roll 6+1=7 (read as 6): Ship destroyed"));
    s.turn(8, &engagement(6, 3, 1, &[1]));
    assert!(s.logged("attack roll 1-1=0 (read as 1): Miss"));
}

// ---------------------------------------------------------- interception

#[test]
fn interception_rolls_count_carriers_cruisers_and_destroyers() {
    let mut s = Solo::new();
    let rolls = |s: &Solo| s.lua("rules.interception_rolls()");
    s.fleet([10, 3, 0, 10, 30]);
    assert_eq!(rolls(&s), "3");
    s.fleet([10, 3, 2, 10, 30]);
    assert_eq!(rolls(&s), "5", "+1 per carrier");
    s.fleet([10, 3, 1, 0, 30]);
    assert_eq!(rolls(&s), "3", "-1 without cruisers");
    s.fleet([10, 3, 0, 10, 0]);
    assert_eq!(rolls(&s), "2", "-1 without destroyers");
    s.fleet([10, 3, 0, 0, 0]);
    assert_eq!(rolls(&s), "1");
    // Ships sent home are gone too.
    s.fleet([10, 3, 0, 10, 30]);
    s.set("afloat_cruiser", 0);
    s.set("home_cruiser", 10);
    assert_eq!(rolls(&s), "2");
}

#[test]
fn each_interception_one_removes_an_enemy_and_scores() {
    let mut s = Solo::new();
    s.fleet([10, 3, 2, 10, 30]);
    // Force 2; five interception rolls: 1, 4, 1, 1, 6. The third 1 finds
    // no enemy left and does not score; no attack roll follows.
    s.turn(5, &[6, 2, 2, 1, 4, 1, 1, 6]);
    assert_eq!(s.int("interceptions"), 2);
    assert!(s.text("turn_5").contains("force 2, 2 intercepted"));
    assert!(s.logged("interception roll 1: nothing left to intercept"));
}

// ------------------------------------------------------- attacks, targets

#[test]
fn attack_rows() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    // Italian air force with no modifier is not available, so roll the
    // attacks with the Combined air force (force +1): force 1D6=2 -> 3.
    s.turn(5, &engagement(6, 6, 2, &[1, 2, 3, 2]));
    assert!(s.logged("attack roll 1: Miss"));
    assert!(s.logged("attack roll 2: Miss"));
    assert!(s.logged("attack roll 3: Ship damaged"));
    assert_eq!(s.int("damaged_cargo"), 1);
    s.turn(6, &engagement(6, 6, 2, &[4, 1, 5, 1, 6, 1]));
    assert!(s.logged("attack roll 4: Ship damaged"));
    assert!(s.logged("attack roll 5: Ship destroyed"));
    assert!(s.logged("attack roll 6: Ship destroyed"));
    assert_eq!(s.int("lost_tanker"), 2, "destroyed twice");
    assert_eq!(s.int("damaged_tanker"), 0, "the damaged tanker sank first");
    assert_eq!(s.afloat("tanker"), 1);
}

#[test]
fn target_rows() {
    for (face, t) in [
        (1, "tanker"),
        (2, "cargo"),
        (3, "carrier"),
        (4, "carrier"),
        (5, "cruiser"),
        (6, "destroyer"),
    ] {
        let mut s = Solo::new();
        s.fleet([10, 3, 2, 10, 30]);
        // Five interception rolls (two carriers), all misses.
        s.turn(5, &[6, 2, 1, 6, 6, 6, 6, 6, 6, face]);
        assert_eq!(s.int(&format!("lost_{t}")), 1, "target {face}");
        assert_eq!(s.afloat(t), s.int(&format!("sailed_{t}")) - 1);
    }
}

#[test]
fn a_carrier_result_with_no_carrier_left_counts_as_cargo() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.turn(5, &engagement(6, 2, 1, &[6, 3]));
    assert_eq!(s.int("lost_cargo"), 1);
    assert!(s.logged("the hit counts against the cargo ships"));
}

#[test]
fn a_target_type_with_no_ship_left_is_a_lost_hit() {
    let mut s = Solo::new();
    s.fleet([10, 0, 0, 10, 30]);
    s.turn(5, &engagement(6, 2, 1, &[6, 1]));
    assert!(s.logged("No oil tankers left: the hit falls on empty sea."));
    assert!(s.text("turn_5").contains("hit on empty sea"));
    for t in TYPES {
        assert_eq!(s.int(&format!("lost_{t}")), 0);
    }
    // No carrier and no cargo ship: the carrier result is lost too.
    s.fleet([0, 0, 0, 10, 30]);
    s.turn(6, &engagement(6, 2, 1, &[6, 4]));
    assert!(s.logged("No cargo ships left: the hit falls on empty sea."));
}

// ------------------------------------------------------ the damaged rule

#[test]
fn a_second_damage_may_sink_the_damaged_ship() {
    for (face, sunk) in [(1, true), (3, true), (4, false), (6, false)] {
        let mut s = Solo::new();
        s.fleet([10, 3, 0, 10, 30]);
        s.set("damaged_cruiser", 1);
        // Italian air force (attack -1): 5-1 = 4, damaged; target 5 cruiser.
        s.turn(5, &engagement(6, 2, 1, &[5, 5, face]));
        if sunk {
            assert_eq!(s.int("lost_cruiser"), 1, "face {face}");
            assert_eq!(s.int("damaged_cruiser"), 0);
            assert_eq!(s.afloat("cruiser"), 9);
        } else {
            assert_eq!(s.int("lost_cruiser"), 0, "face {face}");
            assert_eq!(s.int("damaged_cruiser"), 2, "another cruiser damaged");
            assert_eq!(s.afloat("cruiser"), 10);
        }
    }
}

#[test]
fn a_second_damage_with_every_ship_damaged_does_no_more_harm() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 2, 30]);
    s.set("damaged_cruiser", 2);
    s.turn(5, &engagement(6, 2, 1, &[5, 5, 5]));
    assert_eq!(s.int("damaged_cruiser"), 2);
    assert_eq!(s.int("lost_cruiser"), 0);
    assert!(s.logged("every cruiser is already damaged"));
}

#[test]
fn a_destroyed_result_sinks_a_damaged_ship_first() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.set("damaged_cargo", 1);
    s.turn(5, &engagement(6, 4, 1, &[5, 2]));
    assert_eq!(s.int("lost_cargo"), 1);
    assert_eq!(s.int("damaged_cargo"), 0);
}

#[test]
fn damaged_ships_still_count_as_ships() {
    let mut s = Solo::new();
    s.fleet([10, 3, 2, 10, 30]);
    s.set("damaged_carrier", 2);
    s.set("damaged_cruiser", 10);
    assert_eq!(s.lua("rules.interception_rolls()"), "5");
    assert_eq!(s.lua("(rules.score())"), "100", "damage costs no points");
}

// ------------------------------------------------ covering force returns

#[test]
fn halfway_each_carrier_may_go_home_with_warships() {
    let mut s = Solo::new();
    // 24 turns: halfway is the end of turn 12. Contact 2 (no contact), then
    // carrier 1 rolls 4 (home, escort 1D6+3 = 9), carrier 2 rolls 3 (stays).
    s.turn(12, &[2, 4, 6, 3]);
    assert_eq!(s.afloat("carrier"), 1);
    assert_eq!(s.int("home_carrier"), 1);
    assert_eq!(s.afloat("destroyer"), 21);
    assert_eq!(s.int("home_destroyer"), 9);
    assert_eq!(s.afloat("cruiser"), 10);
    assert_eq!(s.int("lost_carrier"), 0, "going home is no loss");
    assert_eq!(s.lua("(rules.score())"), "100");
    // Once only: turn 13 rolls nothing but its contact.
    s.turn(13, &[2]);
    assert_eq!(s.afloat("carrier"), 1);
}

#[test]
fn halfway_rolls_on_each_face() {
    for (face, home) in [(1, 0), (3, 0), (4, 1), (5, 1), (6, 1)] {
        let mut s = Solo::new();
        s.fleet([10, 3, 1, 10, 30]);
        let faces: Vec<u32> = if home == 1 {
            vec![2, face, 1]
        } else {
            vec![2, face]
        };
        s.turn(12, &faces);
        assert_eq!(s.int("home_carrier"), home, "face {face}");
    }
}

#[test]
fn an_escort_takes_cruisers_when_the_destroyers_run_out() {
    let mut s = Solo::new();
    s.fleet([10, 3, 1, 10, 5]);
    s.turn(12, &[2, 6, 6]);
    assert_eq!(s.afloat("destroyer"), 0);
    assert_eq!(
        s.afloat("cruiser"),
        6,
        "9 warships: 5 destroyers, 4 cruisers"
    );
    assert_eq!(s.int("home_cruiser"), 4);
}

#[test]
fn halfway_is_the_turn_that_completes_half_the_journey() {
    let mut s = Solo::new();
    s.set("length", 21);
    s.fleet([10, 3, 1, 10, 30]);
    s.turn(10, &[2]);
    assert_eq!(
        s.state.vars().get("halfway_done"),
        Some(&Value::Bool(false))
    );
    s.turn(11, &[2, 1]);
    assert_eq!(s.state.vars().get("halfway_done"), Some(&Value::Bool(true)));
}

// ---------------------------------------------------------------- options

#[test]
fn options_are_offered_at_the_start_of_a_turn() {
    let mut s = Solo::new();
    s.at_turn(1);
    assert_eq!(
        s.choices(),
        ["decoy", "split", "evade", "screen", "no option"]
    );
}

#[test]
fn an_option_lasts_1d6_turns_and_blocks_others() {
    let mut s = Solo::new();
    s.at_turn(1);
    // Screen for 3 turns, all in friendly waters but turn 3 (contact 2).
    s.choose("screen", &[3, 2]);
    assert_eq!(s.int("option_until"), 3);
    assert_eq!(s.int("turn"), 4, "turns 2 and 3 ran with no decision");
    assert!(s.text("turn_1").contains("screen option, 3 turns"));
    assert_eq!(s.choices(), ["decoy", "split", "evade", "no option"]);
    assert_eq!(
        s.state.vars().get("option"),
        Some(&Value::Bool(false)),
        "the screen ended: the box is empty"
    );
}

#[test]
fn an_option_is_used_once_per_journey() {
    let mut s = Solo::new();
    s.at_turn(5);
    s.choose("decoy", &[1, 2]);
    s.at_turn(6);
    assert_eq!(s.choices(), ["split", "evade", "screen", "no option"]);
    for (o, f) in [("split", 2), ("evade", 2), ("screen", 2)] {
        let turn = s.int("turn");
        s.at_turn(turn);
        let faces = if o == "evade" {
            vec![1, 1, f]
        } else {
            vec![1, f]
        };
        s.choose(o, &faces);
    }
    // With every option used no decision is left: the journey runs to port.
    s.at_turn(9);
    assert!(s.choices().is_empty());
    assert!(s.state.result.is_some());
}

#[test]
fn decoy_raises_target_rolls_and_costs_an_interception_roll() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.at_turn(5);
    assert_eq!(s.lua("rules.interception_rolls()"), "3");
    // Duration 1; contact 6, Italian, force 2: two interception rolls only;
    // attack 6-1 = 5 destroyed, target 1+2 = 3 carrier -> cargo.
    s.choose("decoy", &[1, 6, 2, 2, 6, 6, 6, 1, 1]);
    assert!(s.logged("The escort makes 2 interception rolls: 3 (decoy -1)."));
    assert!(
        s.logged("target roll 1+2=3: Aircraft carrier (decoy +2)"),
        "{:?}",
        s.log()
    );
    assert_eq!(s.int("lost_tanker"), 0);
    assert_eq!(s.int("lost_cargo"), 1);
}

#[test]
fn decoy_target_rolls_past_six_read_as_a_destroyer() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.at_turn(5);
    // Duration 1; contact 6, German air force, force 1; two interception
    // rolls; attack 5+1 = 6 destroyed; target 6+2 = 8 reads as 6.
    s.choose("decoy", &[1, 6, 4, 1, 6, 6, 5, 6]);
    assert!(s.logged("target roll 6+2=8 (read as 6): Destroyer (decoy +2)"));
    assert_eq!(s.int("lost_destroyer"), 1);
}

#[test]
fn split_lowers_force_size_and_raises_contact() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.at_turn(5);
    // Contact 4+1 = 5: surprise contact (-1), German air force, force 4-2=2.
    s.choose("split", &[1, 4, 4, 4, 6, 6, 6, 1, 1]);
    assert!(s.logged("contact roll 4+1=5: Surprise contact (split +1)"));
    assert!(s.logged("force size 4-2=2: 2 enemies (Surprise contact -1, split -1)"));
    assert!(s.text("turn_5").contains("German air force, force 2"));
}

#[test]
fn evade_lowers_contact_and_lengthens_the_journey() {
    let mut s = Solo::new();
    s.at_turn(5);
    // Duration 1, 1D3 = 3 more turns, contact 6-2 = 4: no enemy.
    s.choose("evade", &[1, 3, 6]);
    assert_eq!(s.int("length"), 27);
    assert!(s.logged("contact roll 6-2=4: Reconnaissance plane"));
}

#[test]
fn screen_adds_interception_rolls_and_raises_attack_rolls() {
    let mut s = Solo::new();
    s.fleet([10, 3, 0, 10, 30]);
    s.at_turn(5);
    // Contact 6, Italian (-1) with screen (+1): attack 4 stays 4, damaged.
    s.choose("screen", &[1, 6, 2, 1, 6, 6, 6, 6, 6, 4, 2]);
    assert!(s.logged("The escort makes 5 interception rolls: 3 (screen +2)."));
    assert!(s.logged("attack roll 4: Ship damaged"));
    assert_eq!(s.int("damaged_cargo"), 1);
    // German air force (+1) with screen (+1): 3+2 = 5 destroyed.
    let mut t = Solo::new();
    t.fleet([10, 3, 0, 10, 30]);
    t.at_turn(5);
    t.choose("screen", &[1, 6, 4, 1, 6, 6, 6, 6, 6, 3, 2]);
    assert!(t.logged("attack roll 3+2=5: Ship destroyed"));
}

// ---------------------------------------------------------------- scoring

fn score_with(lost: [i64; 5], interceptions: i64) -> String {
    let mut s = Solo::new();
    for (t, n) in TYPES.iter().zip(lost) {
        s.set(&format!("lost_{t}"), n);
        s.set(&format!("afloat_{t}"), s.int(&format!("sailed_{t}")) - n);
    }
    s.set("interceptions", interceptions);
    s.lua("(rules.score())")
}

#[test]
fn scoring_lines() {
    assert_eq!(score_with([0; 5], 0), "100", "start");
    assert_eq!(score_with([1, 0, 0, 0, 0], 0), "98", "cargo -2");
    assert_eq!(score_with([0, 0, 0, 1, 0], 0), "99", "cruiser -1");
    assert_eq!(score_with([0, 1, 0, 0, 0], 0), "97", "tanker -3");
    assert_eq!(score_with([0, 0, 1, 0, 0], 0), "95", "carrier -5");
    assert_eq!(
        score_with([0, 0, 0, 0, 7], 0),
        "100",
        "destroyers cost nothing"
    );
    assert_eq!(score_with([0; 5], 4), "104", "+1 per interception");
    assert_eq!(
        score_with([0, 3, 0, 0, 0], 0),
        "81",
        "3 tankers -9, all lost -10"
    );
    assert_eq!(
        score_with([12, 0, 0, 0, 0], 0),
        "66",
        "12 cargo -24, all lost -10"
    );
}

#[test]
fn the_journey_ends_with_the_score() {
    let mut s = Solo::new();
    s.set("lost_cargo", 2);
    s.set("afloat_cargo", 10);
    s.set("interceptions", 3);
    s.set_bool("halfway_done", true);
    s.turn(24, &[2]);
    let outcome = s.state.result.clone().expect("the game is over");
    assert_eq!(outcome.scores, vec![99]);
    assert_eq!(outcome.reason, "the convoy reached port");
    assert!(s.logged("Final score: 99"));
}

// ------------------------------------------------- sheet, status, seeds

#[test]
fn status_and_sheet_show_the_journey() {
    let mut s = Solo::new();
    s.turn(3, &[4]);
    let status = s.engine.status_text(&s.state, "convoy").unwrap().unwrap();
    assert!(status.contains("Turn 4 of 24"), "{status}");
    assert!(status.contains("Next contact roll modifier: +2"));
    assert!(status.contains("unused: decoy, split, evade, screen"));
    let text = s.engine.sheet(&s.state, "text").unwrap().unwrap();
    assert!(
        text.contains("Turn  3  contact 4: Reconnaissance plane"),
        "{text}"
    );
    assert!(text.contains("Score"));
    let md = s.engine.sheet(&s.state, "markdown").unwrap().unwrap();
    assert!(
        md.contains("| 3 | contact 4: Reconnaissance plane |"),
        "{md}"
    );
    assert!(md.contains("| **Score** | **100** |"));
}

fn play_out(engine: &Engine, seed: u64) -> GameState {
    let mut state = engine.new_game(seed).unwrap();
    let mut legal = Vec::new();
    while engine.to_move(&state).is_some() {
        engine.legal_actions(&state, &mut legal);
        // Take the last choice but one: an option whenever one is offered.
        let pick = legal.len().saturating_sub(2);
        engine.apply(&mut state, legal[pick]).unwrap();
    }
    state
}

#[test]
fn the_same_seed_gives_the_same_journey() {
    let a = play_out(&engine("solo-convoy"), 42);
    let b = play_out(&engine("solo-convoy"), 42);
    assert_eq!(a.events, b.events);
    assert_eq!(a.vars(), b.vars());
    assert!(a.result.is_some());
    let c = play_out(&engine("solo-convoy"), 43);
    assert_ne!(a.events, c.events);
}

#[test]
fn scenarios_override_tables_and_counts() {
    let mut s = Solo::with(engine("solo-convoy/small-convoy"), &[6, 6, 3, 6, 6, 6, 1]);
    assert_eq!(s.afloat("cargo"), 12, "2D6");
    assert_eq!(s.afloat("tanker"), 3, "1D3");
    assert_eq!(s.afloat("carrier"), 1, "a constant");
    assert_eq!(s.afloat("cruiser"), 12, "1D6x2");
    assert_eq!(s.afloat("destroyer"), 30, "1D6x5");
    assert_eq!(s.int("length"), 18, "12+1D6");
    s.set("length", 18);
    s.turn(9, &[2, 4, 3]);
    assert_eq!(s.int("home_destroyer"), 4, "escort 1D3+1");

    let mut s = Solo::with(engine("solo-convoy/long-run"), &SETUP);
    assert_eq!(s.int("length"), 34, "30+1D6");
    assert_eq!(s.int("friendly"), 2, "1D3");
    s.fleet([10, 3, 0, 10, 30]);
    // Sortie is +2 here: 6+1 = 7, force 1D6=1 -> 3.
    s.set("next_turn", 1);
    s.turn(5, &engagement(6, 2, 1, &[1, 1, 1]));
    assert!(s.text("turn_5").contains("force 3"), "{}", s.text("turn_5"));
    assert_eq!(s.lua("(rules.score())"), "100");
    s.set("lost_destroyer", 3);
    assert_eq!(s.lua("(rules.score())"), "97", "destroyers cost 1 here");
}
