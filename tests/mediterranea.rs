//! Conformance tests of Mediterranea (`rules/mediterranea`): one test per
//! numbered rule. Each sets a position up by hand (armies placed from the
//! counter box, the turn and stamps set), starts the phase the rule lives in
//! with `begin_phase_with`, answers the decisions with forced dice
//! (`GameRng::force`) and checks the effect. The Catalaunian Plains example
//! of [8.4] is played out exactly as the rule book tells it.

// Only some of the shared helpers are needed here.
#[allow(dead_code)]
mod common;

use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::piece::{Location, PieceId, RESERVE};
use portolan::kernel::state::{GameState, set_var};
use portolan::kernel::value::{Value, Vars};

const SEED: u64 = 7;

/// A game of a scenario, and the hand-made positions built on it.
struct Med {
    engine: Engine,
    state: GameState,
    /// The order of entry given to the next army put on the map.
    seq: i64,
}

impl Med {
    /// A new game, played up to its first decision.
    fn new(target: &str) -> Med {
        Med::with(target, &[])
    }

    /// [`Med::new`] with the game's balance overlays laid on.
    fn with(target: &str, overlays: &[&str]) -> Med {
        let engine = common::stock_with(target, overlays);
        let state = engine.new_game(SEED).expect("a game starts");
        Med {
            engine,
            state,
            seq: 100,
        }
    }

    /// An empty map (every counter back in its box) on a given turn.
    fn empty(target: &str, turn: i64) -> Med {
        Med::empty_with(target, turn, &[])
    }

    /// [`Med::empty`] with the game's balance overlays laid on.
    fn empty_with(target: &str, turn: i64, overlays: &[&str]) -> Med {
        let mut m = Med::with(target, overlays);
        for id in m.state.piece_ids().collect::<Vec<_>>() {
            m.state.set_location(id, Location::Pool(RESERVE));
        }
        m.set("turn", turn);
        m.set("pulse", 1);
        m.set("nation_turn", 1);
        m
    }

    fn set(&mut self, name: &str, v: i64) {
        set_var(self.state.vars_mut(), name, Some(Value::Int(v)));
    }

    fn set_text(&mut self, name: &str, v: &str) {
        set_var(self.state.vars_mut(), name, Some(Value::Str(v.into())));
    }

    fn kind(&self, name: &str) -> u16 {
        self.engine
            .game
            .kind_index(name)
            .unwrap_or_else(|| panic!("no kind {name}"))
            .0
    }

    fn area(&self, name: &str) -> Location {
        Location::Space(
            self.engine
                .game
                .board
                .find(name)
                .unwrap_or_else(|| panic!("no area {name}")),
        )
    }

    /// Puts `n` counters of a kind (a nation or a leader) from its box on
    /// an area, each entering after the ones put before; returns their ids.
    fn put(&mut self, kind: &str, area: &str, n: usize) -> Vec<PieceId> {
        let k = self.kind(kind);
        let loc = self.area(area);
        let ids: Vec<PieceId> = self
            .state
            .piece_ids()
            .filter(|&id| {
                let p = self.state.piece(id);
                p.kind.0 == k && p.loc == Location::Pool(RESERVE)
            })
            .take(n)
            .collect();
        assert_eq!(ids.len(), n, "not enough {kind} in the box");
        for &id in &ids {
            self.state.set_location(id, loc);
            self.seq += 1;
            self.state
                .set_piece_attr(id, "seq", Some(Value::Int(self.seq)));
        }
        ids
    }

    /// Marks armies as having moved this phase from `from`, entering their
    /// area from `last`.
    fn moved(&mut self, ids: &[PieceId], from: &str, last: &str) {
        for &id in ids {
            self.state.set_piece_attr(id, "moved", Some(Value::Int(1)));
            self.state
                .set_piece_attr(id, "from", Some(Value::Str(from.into())));
            self.state
                .set_piece_attr(id, "last", Some(Value::Str(last.into())));
        }
    }

    /// How many counters of a kind stand on an area.
    fn count(&self, kind: &str, area: &str) -> usize {
        let k = self.kind(kind);
        let loc = self.area(area);
        self.state
            .piece_ids()
            .filter(|&id| {
                let p = self.state.piece(id);
                p.kind.0 == k && p.loc == loc
            })
            .count()
    }

    fn on_map(&self, kind: &str) -> usize {
        let k = self.kind(kind);
        self.state
            .piece_ids()
            .filter(|&id| {
                let p = self.state.piece(id);
                p.kind.0 == k && matches!(p.loc, Location::Space(_))
            })
            .count()
    }

    /// Starts a phase for a player with its context.
    fn begin(&mut self, phase: &str, player: &str, ctx: &[(&str, &str)]) {
        let mut vars = Vars::new();
        for (k, v) in ctx {
            let value = v
                .parse::<i64>()
                .map_or_else(|_| Value::Str(v.to_string()), Value::Int);
            vars.insert(*k, value);
        }
        let p = self.engine.game.player_index(player).expect("a player");
        self.engine
            .begin_phase_with(&mut self.state, phase, p, vars)
            .unwrap_or_else(|e| panic!("{phase} fails: {e}"));
    }

    fn choices(&self) -> Vec<String> {
        if self.state.result.is_some() {
            return vec![];
        }
        self.state
            .stack
            .last()
            .map_or(vec![], |f| f.choices.clone())
    }

    fn to_move(&self) -> String {
        let p = self.engine.to_move(&self.state).expect("someone decides");
        self.engine.game.player_id(p).to_string()
    }

    /// Answers the decision with these die faces queued; all must be used.
    #[track_caller]
    fn choose(&mut self, choice: &str, faces: &[u32]) {
        let i = self
            .choices()
            .iter()
            .position(|c| c == choice)
            .unwrap_or_else(|| panic!("'{choice}' is not offered: {:?}", self.choices()));
        self.state.rng.force(faces.iter().copied());
        self.engine
            .apply(&mut self.state, Action::Choice(i as u32))
            .unwrap_or_else(|e| panic!("'{choice}' fails: {e}"));
        assert_eq!(self.state.rng.forced_left(), 0, "faces left unused");
    }

    /// Answers every decision with its first choice (a shooter aims at the
    /// first army offered) until the die faces queued are all rolled.
    fn first_choices_until_rolled(&mut self) {
        while self.state.rng.forced_left() > 0 {
            assert!(!self.choices().is_empty(), "faces left unused");
            self.engine
                .apply(&mut self.state, Action::Choice(0))
                .expect("the first choice plays");
        }
    }

    /// Marks factions as having taken part in the game (an army of theirs
    /// on the map in a nation-turn), as a game played to here would.
    fn played(&mut self, factions: &[&str]) {
        for f in factions {
            set_var(
                self.state.vars_mut(),
                &format!("played:{f}"),
                Some(Value::Bool(true)),
            );
        }
    }

    fn lua(&self, code: &str) -> String {
        self.engine
            .lua_eval(&self.state, code)
            .unwrap_or_else(|e| panic!("{code}: {e}"))
    }

    /// What a faction's victory card gives a nation for an area (on
    /// `turn`) or for each army of a nation it kills: read from the card,
    /// which the balance calibration rescales.
    fn card(&self, faction: &str, nation: &str, key: &str, turn: Option<i64>) -> i64 {
        let turn = turn.map_or("nil".to_string(), |t| t.to_string());
        let code = format!(
            "(function() for _, a in ipairs(tables.victory.{faction}) do \
               local on = {turn} == nil or a.turn == {turn} or a.or_last == {turn}; \
               for _, t in ipairs(a.turns or {{}}) do on = on or t == {turn} end; \
               local v = (a.areas or a.kills or {{}})['{key}']; \
               if a.nation == '{nation}' and on and v then return v end \
             end end)()"
        );
        self.lua(&code)
            .parse()
            .unwrap_or_else(|_| panic!("no {nation} award for {key} on {faction}'s card"))
    }

    fn vp(&self, player: &str) -> i64 {
        self.lua(&format!("vars.get_player('{player}', 'vp') or 0"))
            .parse()
            .expect("a number")
    }
}

/// Plays a game to its end with a fixed stream of choices; returns the
/// decisions it took.
fn play_out(m: &mut Med) -> usize {
    let mut actions = Vec::new();
    let mut x: u64 = 12345;
    let mut plies = 0;
    while m.state.result.is_none() {
        m.engine.legal_actions(&m.state, &mut actions);
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = actions[(x >> 33) as usize % actions.len()];
        m.engine.apply(&mut m.state, a).expect("the rules run");
        plies += 1;
        assert!(plies < 60_000, "the game does not end");
    }
    plies
}

// ------------------------------------------------------- map and kernel

#[test]
fn the_map_has_every_named_area_and_coordinates() {
    let m = Med::new("mediterranea");
    let board = &m.engine.game.board;
    assert!(board.len() >= 60, "{} areas", board.len());
    for name in [
        "Wessex",
        "Germany",
        "North Sea",
        "Andalusia",
        "Morocco",
        "Atlantic Ocean",
        "Western Mediterranean",
        "Central Mediterranean Sea",
        "Eastern Mediterranean",
        "Black Sea",
        "Constantinople",
        "Cyrene",
        "Barca",
        "Dalmatia",
        "Bavaria",
        "Hungary",
        "Macedon",
        "Greece",
    ] {
        let id = board.find(name).unwrap_or_else(|| panic!("no {name}"));
        assert!(board.space(id).xy.is_some(), "{name} has no xy");
    }
    // The straits are edge kinds scripts can read.
    let strait = "(function() for _, e in ipairs(board.edges('Andalusia')) do \
                  if e.to == 'Morocco' then return e.kind end end end)()";
    assert_eq!(m.lua(strait), "\"strait\"");
    assert_eq!(m.lua("pieces.kind(1)"), "\"Romans\"");
    assert_eq!(
        m.lua("pieces.where(1)"),
        "\"Provence\"",
        "the first Roman area in board order"
    );
}

// ------------------------------------------------------------- [3] setup

#[test]
fn setup_places_the_chart_and_markers_3_1() {
    let m = Med::new("mediterranea");
    assert_eq!(m.count("Romans", "Rome"), 2);
    assert_eq!(m.count("Byzantines", "Egypt"), 2);
    assert_eq!(m.count("Visigoths", "Epirus"), 2);
    // [3.1.2] every marker in its 2 box; statuses from the chart.
    assert_eq!(m.lua("vars.get('pop:Huns')"), "2");
    assert_eq!(m.lua("vars.get('status:Huns')"), "\"nomadic\"");
    assert_eq!(m.lua("vars.get('status:Romans')"), "\"settled\"");
}

#[test]
fn half_map_scenarios_keep_their_half_and_substitutes_11() {
    let m = Med::new("mediterranea/decline-and-fall");
    // Epirus lies west of Macedon and Greece: in play in the west, so
    // Alaric's Goths start there as on the whole map [11.2.1].
    assert_eq!(m.count("Visigoths", "Epirus"), 2);
    assert_eq!(m.count("Visigoths", "Dalmatia"), 0);
    assert_eq!(m.on_map("Byzantines"), 1, "only Cyrene is western");
    let j = Med::new("mediterranea/jihad");
    assert_eq!(j.lua("vars.get('turn')"), "6");
    assert_eq!(j.on_map("Romans"), 0);
    assert_eq!(j.count("Persians", "Mesopotamia"), 3);
    // ... and east of Dalmatia: in play in the east too [11.4.1].
    assert_eq!(j.lua("board.space('Epirus').tags[2]"), "\"east\"");
    let h = Med::new("mediterranea/heirs-to-the-empire");
    assert_eq!(h.count("Visigoths", "Epirus"), 2);
}

// ------------------------------------------------------ [4] turn sequence

#[test]
fn territory_is_awarded_halved_when_shared_4_2() {
    let mut m = Med::empty("mediterranea/decline-and-fall", 3);
    m.put("Romans", "Rome", 2);
    m.put("Romans", "Lombardy", 1);
    m.put("Visigoths", "Lombardy", 1);
    m.put("Gauls", "Neustria", 1);
    // Every nation-turn of turn 3 done: the award, then the scenario ends.
    m.begin("turn", "white", &[("next", "99")]);
    let result = m.state.result.as_ref().expect("the scenario is over");
    // Rome + Lombardy halved (rounded down) + Neustria.
    let expected = m.card("white", "Romans", "Rome", Some(3))
        + m.card("white", "Romans", "Lombardy", Some(3)) / 2
        + m.card("white", "Gauls", "Neustria", Some(3));
    assert_eq!(m.vp("white"), expected);
    // The result is each faction's net score: its points less its target.
    let target: i64 = m.lua("tables.scenario.targets.white").parse().unwrap();
    let white = m.engine.game.player_index("white").unwrap();
    assert_eq!(result.scores[usize::from(white.0)], expected - target);
}

#[test]
fn t_suffixed_awards_move_to_the_last_turn_10_2() {
    // "Turn 13T or 12": in The End of the World (ends after 12) on turn 12.
    let mut m = Med::empty("mediterranea/end-of-the-world", 12);
    m.put("Byzantines", "Moesia", 1);
    m.begin("turn", "white", &[("next", "99")]);
    assert_eq!(
        m.vp("white"),
        m.card("white", "Byzantines", "Moesia", Some(12))
    );
    // In Age of Darkness (ends after 13) nothing on turn 12.
    let mut m = Med::empty("mediterranea", 12);
    m.put("Byzantines", "Moesia", 1);
    m.begin("turn", "white", &[("next", "99")]);
    assert_eq!(m.vp("white"), 0);
}

// ------------------------------------------------- [5] nation-turn sequence

#[test]
fn status_changes_at_the_start_of_the_nation_turn_5_1() {
    let mut m = Med::empty("mediterranea", 3);
    m.put("Visigoths", "Aquitaine", 1);
    assert_eq!(m.lua("vars.get('status:Visigoths')"), "\"nomadic\"");
    m.begin(
        "nation_turn",
        "orange",
        &[("nation", "Visigoths"), ("pulse", "1")],
    );
    assert_eq!(m.lua("vars.get('status:Visigoths')"), "\"settled\"");
}

#[test]
fn leaders_are_placed_and_p_leaders_leave_5_5_5_7() {
    // The Huns of turn 3: three armies arrive in Hungary, Attila (P) joins.
    let mut m = Med::empty("mediterranea", 3);
    m.put("Huns", "Scythia", 1);
    m.set("pop:Huns", 0);
    m.begin(
        "nation_turn",
        "yellow",
        &[("nation", "Huns"), ("pulse", "1")],
    );
    // The arrival is automatic (one area); the first decision is movement.
    assert_eq!(m.count("Huns", "Hungary"), 3);
    assert!(
        m.choices().contains(&"end movement".to_string()),
        "{:?}",
        m.choices()
    );
    m.choose("end movement", &[]);
    // Two areas hold Huns: the Hun player places Attila.
    assert_eq!(m.to_move(), "yellow");
    m.choose("Attila to Hungary", &[]);
    // No combat, no overpopulation: the nation-turn ends; Attila is gone.
    assert!(m.state.result.is_some());
    assert_eq!(m.on_map("Attila"), 0);
    assert_eq!(
        m.lua("pieces.list{kind='Attila', at='eliminated'}[1] ~= nil"),
        "true"
    );
}

/// The bots' heuristic for a faction (`rules.evaluate`) in this position.
fn heuristic(m: &Med, faction: &str) -> f64 {
    let p = m.engine.game.player_index(faction).expect("a faction");
    let mut scratch = m.state.clone();
    m.engine
        .evaluate(&mut scratch, p)
        .expect("Mediterranea has a heuristic")
        .expect("it runs")
}

#[test]
fn the_bots_heuristic_counts_armies_on_the_map_and_no_leader() {
    // The heuristic lists a faction's armies by their nations' kinds
    // (a leader is a kind of its own): a leader on the map adds nothing,
    // an army a quarter point, whichever nation of the faction's.
    let mut m = Med::empty("mediterranea", 3);
    m.put("Huns", "Scythia", 3);
    m.put("Romans", "Rome", 2);
    let (yellow, white) = (heuristic(&m, "yellow"), heuristic(&m, "white"));
    m.put("Attila", "Scythia", 1);
    m.put("Stilicho", "Rome", 1);
    assert_eq!(heuristic(&m, "yellow"), yellow, "Attila is no army");
    assert_eq!(heuristic(&m, "white"), white, "Stilicho is no army");
    m.put("Huns", "Hungary", 1);
    m.put("Gauls", "Aquitaine", 2);
    assert_eq!(heuristic(&m, "yellow"), yellow + 0.25);
    assert_eq!(heuristic(&m, "white"), white + 0.5);
}

#[test]
fn leaders_without_p_stay_until_their_next_nation_turn_5_2() {
    let mut m = Med::empty("mediterranea", 3);
    m.put("Gauls", "Austrasia", 2);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Gauls"), ("pulse", "1")],
    );
    m.choose("end movement", &[]);
    assert_eq!(m.count("Aetius", "Austrasia"), 1, "Aetius stays on the map");
    m.set("turn", 4);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Gauls"), ("pulse", "1")],
    );
    assert_eq!(
        m.on_map("Aetius"),
        0,
        "removed at the next Gaul nation-turn"
    );
}

#[test]
fn double_move_and_narses_in_the_second_pulse_5_8() {
    let mut m = Med::empty("mediterranea", 5);
    m.put("Byzantines", "Constantinople", 1);
    m.put("Byzantines", "Greece", 1);
    // No population increase this time (0 + 2 + 2 points).
    m.set("pop:Byzantines", 0);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Byzantines"), ("pulse", "1")],
    );
    // First pulse: reinforcement (2 arrive in Constantinople), movement.
    assert_eq!(m.count("Byzantines", "Constantinople"), 3);
    m.choose("end movement", &[]);
    // Narses is not placed in the first pulse. [5.8.2] The second pulse
    // brings only its own arrivals (one to Rome or Apulia), then moves.
    assert_eq!(m.on_map("Narses"), 0);
    m.choose("Apulia", &[]);
    assert!(
        m.choices().contains(&"end movement".to_string()),
        "{:?}",
        m.choices()
    );
    // [5.8.1] no population increase in the second pulse.
    let pop = m.lua("vars.get('pop:Byzantines')");
    m.choose("end movement", &[]);
    assert_eq!(m.lua("vars.get('pop:Byzantines')"), pop);
    // Narses joins an army (the Byzantine player chooses where).
    assert_eq!(
        m.choices(),
        vec![
            "Narses to Apulia",
            "Narses to Constantinople",
            "Narses to Greece"
        ]
    );
    m.choose("Narses to Greece", &[]);
    // [5.7] after the second pulse, the P leader leaves.
    assert_eq!(m.on_map("Narses"), 0);
    assert!(m.state.result.is_some());
}

// ------------------------------------------------------- [6] reinforcement

#[test]
fn the_faction_chooses_the_order_and_the_area_6_1_6_2() {
    // Franks on turn 3: 2 arrive in Frisia or Austrasia; population would
    // bring one more (2 + 2 + 2 = 6 points): the Frank player chooses.
    let mut m = Med::empty("mediterranea", 3);
    m.put("Franks", "Frisia", 1);
    m.put("Franks", "Neustria", 1);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Franks"), ("pulse", "1")],
    );
    assert_eq!(
        m.choices(),
        vec!["arrivals first", "population increase first"]
    );
    m.choose("arrivals first", &[]);
    assert_eq!(m.choices(), vec!["Frisia", "Austrasia"]);
    m.choose("Austrasia", &[]);
    m.choose("Austrasia", &[]);
    // Population: only the two areas the Franks held before... now three,
    // one army each at most: the player picks one of them.
    assert_eq!(m.choices(), vec!["Neustria", "Austrasia", "Frisia"]);
    m.choose("Neustria", &[]);
    assert_eq!(m.count("Franks", "Austrasia"), 2);
    assert_eq!(m.count("Franks", "Neustria"), 2);
    // 2 recorded + 2 for each of three areas held alone = 8: 2 are left.
    assert_eq!(m.lua("vars.get('pop:Franks')"), "2");
}

#[test]
fn precedence_decides_before_the_player_6_2() {
    // Saxons on turn 4: 2 to Wessex, Mercia or Northumbria, "coast, empty":
    // all three are coastal; only Northumbria is empty.
    let mut m = Med::empty("mediterranea", 4);
    m.put("Saxons", "Jutland", 1);
    m.put("Britons", "Wessex", 1);
    m.put("Britons", "Mercia", 1);
    m.begin(
        "nation_turn",
        "orange",
        &[("nation", "Saxons"), ("pulse", "1")],
    );
    // [6.1] 2 recorded + 2 for Jutland, and Northumbria would make 6.
    m.choose("arrivals first", &[]);
    assert_eq!(m.count("Saxons", "Northumbria"), 2);
}

#[test]
fn removals_follow_precedence_and_the_named_chooser_6_3() {
    // Bulgars on turn 13: 3 removed nearest Constantinople, Byzantine choice.
    let mut m = Med::empty("mediterranea", 13);
    m.put("Bulgars", "Thrace", 1);
    m.put("Bulgars", "Macedon", 2);
    m.put("Bulgars", "Moesia", 1);
    m.put("Bulgars", "Dacia", 2);
    m.begin(
        "nation_turn",
        "yellow",
        &[("nation", "Bulgars"), ("pulse", "1")],
    );
    // Thrace is nearest (1 step): removed without a choice; then Macedon
    // and Moesia tie at 2 steps: the Byzantine (white) player chooses.
    assert_eq!(m.count("Bulgars", "Thrace"), 0);
    assert_eq!(m.to_move(), "white");
    assert_eq!(m.choices(), vec!["Moesia", "Macedon"]);
    m.choose("Macedon", &[]);
    m.choose("Macedon", &[]);
    assert_eq!(m.count("Bulgars", "Macedon"), 0);
    assert_eq!(m.count("Bulgars", "Moesia"), 1);
}

#[test]
fn replacements_put_the_other_nation_in_the_area_6_3() {
    let mut m = Med::empty("mediterranea", 4);
    m.put("Alamanni", "Alamannia", 2);
    m.begin(
        "nation_turn",
        "orange",
        &[("nation", "Alamanni"), ("pulse", "1")],
    );
    assert_eq!(m.count("Alamanni", "Alamannia"), 0);
    assert_eq!(m.count("Franks", "Alamannia"), 2);
}

#[test]
fn removals_may_keep_armies_6_3() {
    // Visigoths on turn 8: all removed but one, farthest from Galicia first.
    let mut m = Med::empty("mediterranea", 8);
    m.put("Visigoths", "Galicia", 1);
    m.put("Visigoths", "Aquitaine", 2);
    m.put("Visigoths", "Tarraconensis", 1);
    m.set("pop:Visigoths", 0);
    m.begin(
        "nation_turn",
        "orange",
        &[("nation", "Visigoths"), ("pulse", "1")],
    );
    assert_eq!(m.on_map("Visigoths"), 1);
    assert_eq!(m.count("Visigoths", "Galicia"), 1);
}

#[test]
fn population_points_and_the_overflow_6_4_6_1() {
    // Khazars on turn 12 (nothing arrives): alone in Khazaria and Scythia,
    // shared in Armenia: 2 + 2 + 1 and 2 recorded = 7: one army, 1 left.
    let mut m = Med::empty("mediterranea", 12);
    m.put("Khazars", "Khazaria", 1);
    m.put("Khazars", "Scythia", 1);
    m.put("Khazars", "Armenia", 1);
    m.put("Arabs", "Armenia", 1);
    m.set_text("status:Khazars", "settled");
    m.begin(
        "nation_turn",
        "yellow",
        &[("nation", "Khazars"), ("pulse", "1")],
    );
    assert_eq!(m.choices(), vec!["Armenia", "Scythia", "Khazaria"]);
    m.choose("Scythia", &[]);
    assert_eq!(m.count("Khazars", "Scythia"), 2);
    assert_eq!(m.lua("vars.get('pop:Khazars')"), "1");
    // [6.1] every army on the map: the army is lost, the marker goes to 5.
    let mut m = Med::empty("mediterranea", 12);
    m.put("Khazars", "Khazaria", 4);
    m.put("Khazars", "Scythia", 2);
    m.set("pop:Khazars", 5);
    m.begin(
        "nation_turn",
        "yellow",
        &[("nation", "Khazars"), ("pulse", "1")],
    );
    assert_eq!(m.on_map("Khazars"), 6);
    assert_eq!(m.lua("vars.get('pop:Khazars')"), "5");
}

/// [6.4] Each area the population increase places an army in leaves the
/// list of areas still to choose from. An area is struck out by its name as
/// plain text, so a scenario's area named with a pattern's magic characters
/// ("Jura-Alps", "Rhaetia (upper)") is struck out too, and only that one.
#[test]
fn population_strikes_out_a_chosen_area_by_its_plain_name_6_4() {
    let m = Med::new("mediterranea");
    let remove =
        |list: &str, item: &str| m.lua(&format!("require('lib.lists').remove('{list}', '{item}')"));
    assert_eq!(remove("Alps|Jura-Alps|Gaul", "Jura-Alps"), "\"Alps|Gaul\"");
    assert_eq!(remove("Jura-Alps|Alps", "Alps"), "\"Jura-Alps\"");
    assert_eq!(
        remove("Rhaetia (upper)|Gaul", "Rhaetia (upper)"),
        "\"Gaul\""
    );
    assert_eq!(remove("Gaul|Noricum", "Noricum"), "\"Gaul\"");
    assert_eq!(remove("Gaul", "Gaul"), "\"\"");
    assert_eq!(remove("Gaul|Noricum", "Raetia"), "\"Gaul|Noricum\"");
}

// ------------------------------------------------------------ [7] movement

/// The destinations offered to the armies of one area, each once: the area
/// is chosen on a copy of the game, and its "AREA > DEST" choices read
/// (without the " via AREA" of a destination with several ways).
fn moves_from(m: &Med, area: &str) -> Vec<String> {
    let mut to: Vec<String> = moves_with_ways_from(m, area)
        .into_iter()
        .map(|c| c.split(" via ").next().unwrap_or_default().to_string())
        .collect();
    to.dedup();
    to
}

/// The "DEST" or "DEST via AREA" choices offered to the armies of one area.
fn moves_with_ways_from(m: &Med, area: &str) -> Vec<String> {
    let Some(i) = m.choices().iter().position(|c| c == area) else {
        return vec![];
    };
    let mut state = m.state.clone();
    m.engine
        .apply(&mut state, Action::Choice(i as u32))
        .expect("the area is chosen");
    let prefix = format!("{area} > ");
    state
        .stack
        .last()
        .map_or(vec![], |f| f.choices.clone())
        .into_iter()
        .filter_map(|c| c.strip_prefix(&prefix).map(String::from))
        .collect()
}

#[test]
fn entering_land_costs_one_or_everything_7_2_1() {
    // Visigoths (turn 9: nothing arrives) in Septimania. Provence holds a
    // Frank: entering it takes every point. Aquitaine holds 2 Visigoths and
    // a Frank (two thirds): one point, and the army goes on to Armorica.
    let mut m = Med::empty("mediterranea", 9);
    m.put("Visigoths", "Septimania", 2);
    m.put("Visigoths", "Aquitaine", 2);
    m.put("Franks", "Aquitaine", 1);
    m.put("Franks", "Provence", 1);
    m.set_text("status:Visigoths", "nomadic");
    m.begin("movement", "orange", &[("nation", "Visigoths")]);
    let to = moves_from(&m, "Septimania");
    assert!(to.contains(&"Provence".to_string()));
    assert!(
        to.contains(&"Armorica".to_string()),
        "through Aquitaine: {to:?}"
    );
    assert!(
        !to.iter()
            .any(|t| t.contains("Sea") || t.contains("Mediterranean")),
        "no ships"
    );
    // Two Franks in Aquitaine: one half only; Aquitaine takes every point.
    let mut m = Med::empty("mediterranea", 9);
    m.put("Visigoths", "Septimania", 2);
    m.put("Visigoths", "Aquitaine", 2);
    m.put("Franks", "Aquitaine", 2);
    m.put("Franks", "Provence", 1);
    m.begin("movement", "orange", &[("nation", "Visigoths")]);
    let to = moves_from(&m, "Septimania");
    assert!(to.contains(&"Aquitaine".to_string()));
    assert!(!to.contains(&"Armorica".to_string()), "{to:?}");
}

#[test]
fn crossing_arrows_and_seas_need_ships_7_2_1_3_7_2_2() {
    // Danes on turn 11 have ships: the North Sea, and Wessex over it.
    let mut m = Med::empty("mediterranea", 11);
    m.put("Danes", "Jutland", 2);
    m.begin("movement", "orange", &[("nation", "Danes")]);
    let to = moves_from(&m, "Jutland");
    assert!(to.contains(&"North Sea".to_string()));
    assert!(to.contains(&"Wessex".to_string()) || to.iter().any(|t| t.starts_with("Wessex")));
    // Saxons on turn 6 have none: the Wessex-Neustria arrow costs 3 points.
    let mut m = Med::empty("mediterranea", 6);
    m.put("Saxons", "Wessex", 2);
    m.begin("movement", "orange", &[("nation", "Saxons")]);
    let to = moves_from(&m, "Wessex");
    assert!(to.contains(&"Neustria".to_string()));
    assert!(
        !to.contains(&"Austrasia".to_string()),
        "nothing left after the arrow"
    );
    assert!(!to.contains(&"Channel".to_string()));
}

#[test]
fn the_constantinople_strait_is_guarded_7_2_2_1() {
    // Rus on turn 12 (ships) in the Black Sea; Constantinople Byzantine.
    // Byzantines on the land ways round (entering them takes every point).
    let guarded = |constantinople: bool| {
        let mut m = Med::empty("mediterranea", 12);
        m.put("Rus", "Black Sea", 1);
        for area in ["Thrace", "Moesia", "Bithynia"] {
            m.put("Byzantines", area, 1);
        }
        if constantinople {
            m.put("Byzantines", "Constantinople", 1);
        }
        m.begin("movement", "orange", &[("nation", "Rus")]);
        m
    };
    let m = guarded(true);
    assert!(!moves_from(&m, "Black Sea").contains(&"Eastern Mediterranean".to_string()));
    // Vacant Constantinople: the strait is open.
    let m = guarded(false);
    assert!(moves_from(&m, "Black Sea").contains(&"Eastern Mediterranean".to_string()));
    // The Morocco-Andalusia strait joins its seas always.
    let mut m = Med::empty("mediterranea", 12);
    m.put("Cordovans", "Atlantic Ocean", 1);
    m.begin("movement", "green", &[("nation", "Cordovans")]);
    assert!(moves_from(&m, "Atlantic Ocean").contains(&"Western Mediterranean".to_string()));
}

#[test]
fn external_areas_only_with_reinforcements_next_turn_7_2_3() {
    // Huns on turn 2 arrive (0 armies) in the Great Steppe on turn 3.
    let mut m = Med::empty("mediterranea", 2);
    m.put("Huns", "Khazaria", 2);
    m.begin("movement", "yellow", &[("nation", "Huns")]);
    assert!(moves_from(&m, "Khazaria").contains(&"Great Steppe".to_string()));
    // Avars on turn 9 will not.
    let mut m = Med::empty("mediterranea", 9);
    m.put("Avars", "Khazaria", 2);
    m.begin("movement", "yellow", &[("nation", "Avars")]);
    assert!(!moves_from(&m, "Khazaria").contains(&"Great Steppe".to_string()));
}

#[test]
fn a_settled_sole_occupier_may_not_leave_7_2_4() {
    let mut m = Med::empty("mediterranea", 9);
    m.put("Franks", "Neustria", 1);
    m.put("Franks", "Austrasia", 2);
    m.set_text("status:Franks", "settled");
    m.begin("movement", "white", &[("nation", "Franks")]);
    assert!(moves_from(&m, "Neustria").is_empty());
    assert!(!moves_from(&m, "Austrasia").is_empty());
    // Once one leaves, the other is alone and stays.
    m.choose("Austrasia", &[]);
    m.choose("Austrasia > Frisia", &[]);
    assert!(moves_from(&m, "Austrasia").is_empty());
    // Each army moves once [7.1].
    assert!(moves_from(&m, "Frisia").is_empty());
}

// -------------------------------------------------------------- [8] combat

#[test]
fn the_mover_names_a_nation_and_it_picks_its_combat_8_1() {
    let mut m = Med::empty("mediterranea", 9);
    m.put("Franks", "Lombardy", 1);
    m.put("Franks", "Bavaria", 1);
    m.put("Franks", "Saxony", 1);
    m.put("Lombards", "Lombardy", 2);
    m.put("Avars", "Bavaria", 2);
    m.put("Lombards", "Saxony", 2);
    m.begin("combat_order", "white", &[("nation", "Franks")]);
    assert_eq!(m.to_move(), "white");
    assert_eq!(m.choices(), vec!["Lombards", "Avars"]);
    m.choose("Lombards", &[]);
    assert_eq!(m.to_move(), "orange", "the Lombard player picks");
    assert_eq!(m.choices(), vec!["Lombardy", "Saxony"]);
}

#[test]
fn coexistence_needs_both_unless_the_mover_was_there_first_8_2_2() {
    let mut m = Med::empty("mediterranea", 3);
    let v = m.put("Visigoths", "Austrasia", 1);
    m.moved(&v, "Aquitaine", "Neustria");
    m.put("Gauls", "Austrasia", 1);
    m.begin(
        "battle",
        "orange",
        &[("area", "Austrasia"), ("nation", "Visigoths")],
    );
    assert_eq!(m.choices(), vec!["offer to coexist", "fight"]);
    m.choose("offer to coexist", &[]);
    assert_eq!(m.to_move(), "white", "the Gaul player answers");
    m.choose("coexist", &[]);
    assert_eq!(m.count("Visigoths", "Austrasia"), 1);
    assert_eq!(m.count("Gauls", "Austrasia"), 1);
    assert_eq!(m.lua("vars.get('coexist:Austrasia')"), "1");
    // The mover's army began there: the other must offer; the mover decides.
    let mut m = Med::empty("mediterranea", 3);
    m.put("Visigoths", "Austrasia", 1);
    m.put("Gauls", "Austrasia", 1);
    m.begin(
        "battle",
        "orange",
        &[("area", "Austrasia"), ("nation", "Visigoths")],
    );
    assert_eq!(m.to_move(), "orange");
    assert_eq!(m.choices(), vec!["coexist", "fight"]);
}

#[test]
fn the_catalaunian_plains_8_4() {
    let mut m = Med::empty("mediterranea", 3);
    // A Gaul army with Aetius; a Visigoth army entered later (it coexisted
    // on its own turn); three Huns enter, and Attila joins them.
    m.put("Gauls", "Austrasia", 1);
    m.put("Aetius", "Austrasia", 1);
    m.put("Visigoths", "Austrasia", 1);
    let huns = m.put("Huns", "Austrasia", 3);
    m.moved(&huns, "Thuringia", "Thuringia");
    m.put("Attila", "Austrasia", 1);
    m.begin(
        "battle",
        "yellow",
        &[("area", "Austrasia"), ("nation", "Huns")],
    );
    // Three nations: no coexistence. The order: Hun, Hun, Hun, Visigoth, Gaul.
    // The first Hun chooses the Visigoth and misses (1 + 2 for Attila).
    assert_eq!(m.to_move(), "yellow");
    assert_eq!(m.choices(), vec!["Gauls", "Visigoths"]);
    m.choose("Visigoths", &[1]);
    // The second kills it (3 + 2); the third has only the Gaul to shoot at,
    // and misses (1 + 2).
    assert_eq!(m.choices(), vec!["Gauls", "Visigoths"]);
    m.choose("Visigoths", &[3, 1]);
    assert_eq!(m.count("Visigoths", "Austrasia"), 0);
    // The eliminated Visigoth still fires: at a Hun (the shooter picks
    // which), and kills (5).
    assert_eq!(m.to_move(), "orange");
    assert_eq!(
        m.choices(),
        vec![
            "Gauls",
            "Huns army 1 from Thuringia",
            "Huns army 2 from Thuringia",
            "Huns army 3 from Thuringia"
        ]
    );
    m.choose("Huns army 3 from Thuringia", &[5]);
    // The Gaul may shoot at a Hun or at the eliminated Visigoth: a Hun,
    // killed (4 + 2 for Aetius).
    assert_eq!(m.to_move(), "white");
    assert_eq!(
        m.choices(),
        vec![
            "Visigoths",
            "Huns army 1 from Thuringia",
            "Huns army 2 from Thuringia"
        ]
    );
    m.choose("Huns army 1 from Thuringia", &[4]);
    assert_eq!(m.count("Huns", "Austrasia"), 1);
    // The Huns killed the Visigoths' last army: the kill award.
    assert_eq!(m.vp("yellow"), m.card("yellow", "Huns", "Visigoths", None));
    // The Hun player retreats his army, carrying Attila; the combat ends.
    assert_eq!(m.to_move(), "yellow");
    assert_eq!(m.choices(), vec!["retreat to Thuringia", "hold"]);
    m.choose("retreat to Thuringia", &[]);
    assert_eq!(m.count("Huns", "Thuringia"), 1);
    assert_eq!(m.count("Attila", "Thuringia"), 1);
    assert_eq!(m.count("Gauls", "Austrasia"), 1);
    assert_eq!(m.count("Aetius", "Austrasia"), 1);
    assert_eq!(m.count("Huns", "Austrasia"), 0);
    assert!(m.state.result.is_some(), "no decision is left");
}

#[test]
fn leaders_add_two_here_one_next_door_8_2_3_1_8_2_3_2() {
    // Attila with the Huns in Neustria (+2); Aetius next door (+1).
    let mut m = Med::empty("mediterranea", 3);
    m.put("Gauls", "Neustria", 1);
    m.put("Aetius", "Austrasia", 1);
    let h = m.put("Huns", "Neustria", 1);
    m.moved(&h, "Burgundy", "Burgundy");
    m.put("Attila", "Neustria", 1);
    // The Hun (entered last) rolls 3 + 2: a kill; the Gaul 4 + 1: a kill.
    m.begin(
        "battle",
        "yellow",
        &[("area", "Neustria"), ("nation", "Huns")],
    );
    m.choose("fight", &[3, 4]);
    assert_eq!(m.count("Gauls", "Neustria"), 0);
    assert_eq!(m.count("Huns", "Neustria"), 0);
    // [8.2.8] Attila falls with the Huns' last army there.
    assert_eq!(m.on_map("Attila"), 0);
    assert_eq!(
        m.vp("yellow"),
        m.card("yellow", "Huns", "Gauls", None),
        "the Hun card's kill award for a Gaul army"
    );
}

#[test]
fn constantinople_protects_byzantines_8_2_3_3() {
    let mut m = Med::empty("mediterranea", 10);
    m.put("Byzantines", "Constantinople", 2);
    let b = m.put("Bulgars", "Constantinople", 1);
    m.moved(&b, "Thrace", "Thrace");
    // The Bulgar shoots first (entered last): 5 - 1 misses; the Byzantines
    // shoot back: a 1, then a 5 kills.
    m.begin(
        "battle",
        "yellow",
        &[("area", "Constantinople"), ("nation", "Bulgars")],
    );
    m.choose("Byzantines army 1", &[5, 1, 5]);
    assert_eq!(
        m.count("Byzantines", "Constantinople"),
        2,
        "the Bulgar missed"
    );
    assert_eq!(m.count("Bulgars", "Constantinople"), 0);
    // The Bulgars' last army there fell: the Byzantines' kill award.
    assert_eq!(
        m.vp("white"),
        m.card("white", "Byzantines", "Bulgars", None)
    );
}

#[test]
fn raiders_go_home_after_one_round_8_2_5() {
    // Norsemen raid (turn 10) from the North Sea into Frisia.
    let mut m = Med::empty("mediterranea", 10);
    m.put("Franks", "Frisia", 2);
    let n = m.put("Norsemen", "Frisia", 2);
    m.moved(&n, "North Sea", "North Sea");
    // Norse 6, 1; Franks 1, 1: one Frank dies, the raiders sail home.
    m.state.rng.force([6, 1, 1, 1]);
    m.begin(
        "battle",
        "orange",
        &[("area", "Frisia"), ("nation", "Norsemen")],
    );
    m.first_choices_until_rolled();
    assert_eq!(m.count("Franks", "Frisia"), 1);
    assert_eq!(m.count("Norsemen", "North Sea"), 2);
    assert_eq!(m.count("Norsemen", "Frisia"), 0);
}

#[test]
fn raiders_who_wiped_out_the_defender_choose_army_by_army_8_2_4() {
    // Two Norse raiders in Frisia, one from the North Sea, one from Saxony.
    let mut m = Med::empty("mediterranea", 10);
    m.put("Franks", "Frisia", 1);
    let sea = m.put("Norsemen", "Frisia", 1);
    m.moved(&sea, "North Sea", "North Sea");
    let land = m.put("Norsemen", "Frisia", 1);
    m.moved(&land, "Saxony", "Saxony");
    // The Franks' army dies to the first Norse shot (the one from Saxony,
    // entered last); the other Norse has no one left to shoot at; the dead
    // Frank still fires at the Norse army its player picks, and misses.
    m.state.rng.force([6]);
    m.begin(
        "battle",
        "orange",
        &[("area", "Frisia"), ("nation", "Norsemen")],
    );
    assert_eq!(m.count("Franks", "Frisia"), 0);
    assert_eq!(m.to_move(), "white");
    assert_eq!(
        m.choices(),
        vec![
            "Norsemen army 1 from North Sea",
            "Norsemen army 2 from Saxony"
        ]
    );
    m.choose("Norsemen army 2 from Saxony", &[1]);
    // The combat is over; each raider may go home or stay, one at a time.
    assert_eq!(m.to_move(), "orange");
    assert_eq!(
        m.choices(),
        vec!["raid home to Saxony", "raid home to North Sea", "stay"]
    );
    m.choose("raid home to North Sea", &[]);
    assert_eq!(m.choices(), vec!["raid home to Saxony", "stay"]);
    m.choose("stay", &[]);
    assert_eq!(m.count("Norsemen", "North Sea"), 1);
    assert_eq!(m.count("Norsemen", "Frisia"), 1);
    assert_eq!(m.count("Norsemen", "Saxony"), 0);
    assert!(m.state.result.is_some(), "the combat is over");
    // [8.2.8] the Norse card scores each Frank army killed.
    assert_eq!(m.vp("orange"), m.card("orange", "Norsemen", "Franks", None));
}

#[test]
fn retreats_only_to_legal_areas_8_3() {
    // A Frank attacker in Lombardy came from Provence; a defender Lombard
    // may go to adjacent land areas free of other nations' armies.
    let mut m = Med::empty("mediterranea", 9);
    let f = m.put("Franks", "Lombardy", 2);
    m.moved(&f, "Burgundy", "Provence");
    m.put("Lombards", "Lombardy", 2);
    m.put("Avars", "Carinthia", 1);
    m.put("Slavs", "Tuscany", 1);
    // Nobody hits in the first round.
    m.state.rng.force([1, 1, 1, 1]);
    m.begin(
        "battle",
        "white",
        &[("area", "Lombardy"), ("nation", "Franks")],
    );
    m.first_choices_until_rolled();
    assert_eq!(m.to_move(), "white");
    assert_eq!(m.choices(), vec!["retreat to Provence", "hold"]);
    m.choose("hold", &[]);
    assert_eq!(m.to_move(), "orange");
    // Burgundy, Provence and Alamannia are free; Carinthia and Tuscany not.
    assert_eq!(
        m.choices(),
        vec![
            "retreat to Burgundy",
            "retreat to Provence",
            "retreat to Alamannia",
            "hold"
        ]
    );
    m.choose("retreat to Alamannia", &[]);
    m.choose("retreat to Alamannia", &[]);
    assert_eq!(m.count("Lombards", "Alamannia"), 2);
    assert_eq!(m.count("Franks", "Lombardy"), 2);
    assert!(
        m.state.result.is_some(),
        "every defender left: the combat is over"
    );
}

// -------------------------------------------------------- [9] overpopulation

#[test]
fn overpopulation_removes_what_is_not_supported_9() {
    // Slavs: 5 in Sarmatia (alone: 2), 1 in Dacia shared with Avars (1):
    // support 3, so 3 of the 5 in Sarmatia go; Dacia's only army stays.
    let mut m = Med::empty("mediterranea", 9);
    m.put("Slavs", "Sarmatia", 5);
    m.put("Slavs", "Dacia", 1);
    m.put("Avars", "Dacia", 1);
    m.begin("overpopulation", "yellow", &[("nation", "Slavs")]);
    assert_eq!(m.count("Slavs", "Sarmatia"), 2);
    assert_eq!(m.count("Slavs", "Dacia"), 1);
}

#[test]
fn raiders_at_sea_need_no_support_9_3() {
    // Five Norse at sea after a raid and one in Frisia: support 2 + 2; only
    // the army in Frisia needs it.
    let setup = |raided: bool| {
        let mut m = Med::empty("mediterranea", 10);
        let sea = m.put("Norsemen", "North Sea", 5);
        if raided {
            for id in sea {
                m.state.set_piece_attr(id, "raided", Some(Value::Int(1)));
            }
        }
        m.put("Norsemen", "Frisia", 1);
        m.begin("overpopulation", "orange", &[("nation", "Norsemen")]);
        m
    };
    assert_eq!(setup(true).count("Norsemen", "North Sea"), 5);
    // Without the raid, 6 armies need support for 4: two leave the sea.
    assert_eq!(setup(false).count("Norsemen", "North Sea"), 3);
}

#[test]
fn an_army_may_hold_and_each_moves_once_7_1() {
    let mut m = Med::empty("mediterranea", 9);
    m.put("Avars", "Hungary", 2);
    m.begin("movement", "yellow", &[("nation", "Avars")]);
    assert_eq!(m.choices(), vec!["Hungary", "end movement"]);
    m.choose("Hungary", &[]);
    m.choose("Hungary holds", &[]);
    m.choose("Hungary", &[]);
    m.choose("Hungary > Dacia", &[]);
    // Both armies have had their move: the phase is over.
    assert_eq!(m.count("Avars", "Dacia"), 1);
    assert_eq!(m.count("Avars", "Hungary"), 1);
    assert!(m.state.result.is_some());
}

// ------------------------------------------------------ [10], [11] victory

#[test]
fn every_scenario_plays_to_its_end_11() {
    for scenario in [
        "age-of-darkness",
        "decline-and-fall",
        "heirs-to-the-empire",
        "jihad",
        "end-of-the-world",
    ] {
        let mut m = Med::new(&format!("mediterranea/{scenario}"));
        let plies = play_out(&mut m);
        let result = m.state.result.as_ref().unwrap();
        assert!(!result.by_limit, "{scenario}: {}", result.reason);
        assert!(plies > 10, "{scenario} took {plies} decisions");
        assert_eq!(result.scores.len(), 4, "{scenario}: every faction scored");
    }
}

#[test]
fn net_scores_subtract_the_targets_10_3() {
    // The last turn of Age of Darkness: Constantinople scores for White,
    // whose target is 147; Green holds nothing against 194.
    let mut m = Med::empty("mediterranea", 13);
    m.put("Byzantines", "Constantinople", 1);
    m.played(&["white", "yellow", "green", "orange"]);
    m.begin("turn", "white", &[("next", "99")]);
    let result = m.state.result.as_ref().expect("the scenario is over");
    let score = |p: &str| {
        let id = m.engine.game.player_index(p).unwrap();
        result.scores.get(id.0 as usize).copied()
    };
    let constantinople = m.card("white", "Byzantines", "Constantinople", Some(13));
    assert_eq!(score("white"), Some(constantinople - 147));
    assert_eq!(score("green"), Some(-194));
    assert_eq!(
        m.engine.game.player_id(result.winner.unwrap()),
        "orange",
        "-118 is best"
    );
}

// ------------------------------------------- readings of the second audit

#[test]
fn p_leaders_serve_both_pulses_of_a_double_move_5_2_5_7() {
    // The Visigoths of turn 2: a double move, Alaric (P) joins in the first.
    let mut m = Med::empty("mediterranea", 2);
    m.put("Visigoths", "Epirus", 1);
    m.set("pop:Visigoths", 0);
    m.begin(
        "nation_turn",
        "orange",
        &[("nation", "Visigoths"), ("pulse", "1")],
    );
    m.choose("Epirus", &[]);
    m.choose("end movement", &[]);
    // Alaric is placed with the army; [5.7] spares him after the first pulse.
    assert_eq!(m.count("Alaric", "Epirus"), 1);
    // [5.2] does not send him away at the start of the second pulse: he is
    // there while the Visigoths move again.
    assert!(
        m.choices().contains(&"end movement".to_string()),
        "{:?}",
        m.choices()
    );
    assert_eq!(
        m.count("Alaric", "Epirus"),
        1,
        "Alaric serves the 2nd pulse"
    );
    m.choose("end movement", &[]);
    // After the second pulse he leaves for good.
    assert_eq!(m.on_map("Alaric"), 0);
    assert!(m.state.result.is_some());
}

#[test]
fn a_faction_that_never_played_cannot_win_10_4() {
    // The last turn of Age of Darkness: only White played; Orange's target
    // (118) is the lowest, but Orange never had an army on the map.
    let mut m = Med::empty("mediterranea", 13);
    m.put("Byzantines", "Constantinople", 1);
    m.played(&["white", "yellow", "green"]);
    m.begin("turn", "white", &[("next", "99")]);
    let result = m.state.result.as_ref().expect("the scenario is over");
    assert_eq!(
        result.winner.map(|w| m.engine.game.player_id(w)),
        Some("white"),
        "White's few points less 147 beat Yellow's -195 and Green's -194; \
         Orange's -118 does not count"
    );
}

#[test]
fn every_faction_plays_jihad_11_4() {
    // Jihad (turns 6-9): the Khazars, Orange's, arrive in Khazaria on turn 7.
    let mut m = Med::new("mediterranea/jihad");
    let orange = m.engine.game.player_index("orange").unwrap();
    let khazars = m.kind("Khazars");
    let owner = m
        .state
        .piece_ids()
        .map(|id| m.state.piece(id))
        .find(|p| p.kind.0 == khazars)
        .map(|p| p.owner);
    assert_eq!(owner, Some(Some(orange)));
    play_out(&mut m);
    for faction in ["white", "yellow", "green", "orange"] {
        assert_eq!(
            m.lua(&format!("vars.get('played:{faction}')")),
            "true",
            "{faction} took part"
        );
    }
}

#[test]
fn arrivals_that_could_make_six_points_ask_the_order_6_1() {
    // Franks on turn 3 with 2 recorded points and one area (2 more): 4 now,
    // but the 2 armies arriving in Frisia or Austrasia can make it 6.
    let mut m = Med::empty("mediterranea", 3);
    m.put("Franks", "Frisia", 1);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Franks"), ("pulse", "1")],
    );
    assert_eq!(
        m.choices(),
        vec!["arrivals first", "population increase first"]
    );
    m.choose("arrivals first", &[]);
    m.choose("Austrasia", &[]);
    m.choose("Frisia", &[]);
    // 2 + 2 + 2 = 6: one army, to one of the two areas held.
    assert_eq!(m.choices(), vec!["Austrasia", "Frisia"]);
    m.choose("Austrasia", &[]);
    assert_eq!(m.on_map("Franks"), 4);
    // Population first would have brought none (4 points).
    let mut m = Med::empty("mediterranea", 3);
    m.put("Franks", "Frisia", 1);
    m.begin(
        "nation_turn",
        "white",
        &[("nation", "Franks"), ("pulse", "1")],
    );
    m.choose("population increase first", &[]);
    m.choose("Austrasia", &[]);
    m.choose("Frisia", &[]);
    assert_eq!(m.on_map("Franks"), 3);
}

#[test]
fn the_player_picks_the_way_and_so_the_retreat_7_2_8_3_5() {
    // Avars in Hungary attack the Franks in Bavaria, by Bohemia or by
    // Carinthia: the player says which.
    let way = |via: &str| {
        let mut m = Med::empty("mediterranea", 7);
        m.put("Avars", "Hungary", 1);
        m.put("Franks", "Bavaria", 1);
        m.begin("movement", "yellow", &[("nation", "Avars")]);
        let ways = moves_with_ways_from(&m, "Hungary");
        assert!(
            ways.contains(&"Bavaria via Bohemia".to_string())
                && ways.contains(&"Bavaria via Carinthia".to_string()),
            "{ways:?}"
        );
        m.choose("Hungary", &[]);
        m.choose(&format!("Hungary > Bavaria via {via}"), &[]);
        // Nobody hits; the attacker may go back to the way it came.
        m.begin(
            "battle",
            "yellow",
            &[("area", "Bavaria"), ("nation", "Avars")],
        );
        m.choose("fight", &[1, 1]);
        m.choices()
    };
    assert_eq!(way("Bohemia"), vec!["retreat to Bohemia", "hold"]);
    assert_eq!(way("Carinthia"), vec!["retreat to Carinthia", "hold"]);
}

#[test]
fn the_shooter_picks_the_army_it_eliminates_8_2_3() {
    // Two Gaul armies in Neustria; a Visigoth army attacks. The Visigoth
    // shoots first and picks the Gaul army that entered first.
    let mut m = Med::empty("mediterranea", 3);
    let gauls = m.put("Gauls", "Neustria", 2);
    let v = m.put("Visigoths", "Neustria", 1);
    m.moved(&v, "Aquitaine", "Aquitaine");
    m.begin(
        "battle",
        "orange",
        &[("area", "Neustria"), ("nation", "Visigoths")],
    );
    assert_eq!(m.choices(), vec!["Gauls army 1", "Gauls army 2"]);
    // A kill; both Gauls still fire (the dead one too), and miss.
    m.choose("Gauls army 1", &[6, 1, 1]);
    assert_eq!(m.state.piece(gauls[0]).loc, Location::Pool(RESERVE));
    assert_eq!(m.state.piece(gauls[1]).loc, m.area("Neustria"));
}

#[test]
fn an_army_that_moves_in_entered_after_those_there_and_fires_first_8_2_3() {
    // Two Frank armies stand in Bavaria (put there late in the game's
    // order of entry); an Avar army moves in. It entered last, so it fires
    // first, before any die is rolled for the Franks.
    let mut m = Med::empty("mediterranea", 7);
    m.put("Avars", "Hungary", 1);
    let franks = m.put("Franks", "Bavaria", 2);
    m.begin("movement", "yellow", &[("nation", "Avars")]);
    m.choose("Hungary", &[]);
    m.choose("Hungary > Bavaria via Carinthia", &[]);
    m.state.rng.force([6, 1, 1]);
    m.begin(
        "battle",
        "yellow",
        &[("area", "Bavaria"), ("nation", "Avars")],
    );
    assert_eq!(m.choices(), vec!["Franks army 1", "Franks army 2"]);
    assert_eq!(m.state.rng.forced_left(), 3, "nobody has fired yet");
    // The Avar kills the first Frank; both Franks fire back and miss.
    m.choose("Franks army 1", &[]);
    assert_eq!(m.state.piece(franks[0]).loc, Location::Pool(RESERVE));
    assert_eq!(m.count("Avars", "Bavaria"), 1);
}

#[test]
fn a_crossing_arrow_into_an_external_area_costs_three_7_2_1_3() {
    // Norsemen on turn 9 (no ships) will receive armies in Scandinavia on
    // turn 10: from Jutland they may cross the arrow; from Saxony, with two
    // points left in Jutland, they may not.
    let mut m = Med::empty("mediterranea", 9);
    m.put("Norsemen", "Jutland", 1);
    m.put("Norsemen", "Saxony", 1);
    m.begin("movement", "orange", &[("nation", "Norsemen")]);
    assert!(moves_from(&m, "Jutland").contains(&"Scandinavia".to_string()));
    let from_saxony = moves_from(&m, "Saxony");
    assert!(from_saxony.contains(&"Jutland".to_string()));
    assert!(
        !from_saxony.contains(&"Scandinavia".to_string()),
        "{from_saxony:?}"
    );
}

#[test]
fn thrace_and_bithynia_touch_the_eastern_mediterranean_1_4() {
    // Arabs with ships on turn 9 in the Eastern Mediterranean; the
    // Byzantines hold Constantinople, so the Black Sea is shut: Thrace and
    // Bithynia are reached from their own coasts.
    // Byzantines in Macedon and Asia close the ways round by land (and the
    // Black Sea is reached only by landing in Thrace first).
    let mut m = Med::empty("mediterranea", 9);
    m.put("Arabs", "Eastern Mediterranean", 1);
    for area in ["Constantinople", "Macedon", "Asia"] {
        m.put("Byzantines", area, 1);
    }
    m.begin("movement", "green", &[("nation", "Arabs")]);
    let to = moves_from(&m, "Eastern Mediterranean");
    assert!(to.contains(&"Thrace".to_string()), "{to:?}");
    assert!(to.contains(&"Bithynia".to_string()), "{to:?}");
}

#[test]
fn the_chart_follows_the_dates_of_the_vandals_and_normans_10_1() {
    // Carthage fell to the Vandals in 439: they score it at the end of
    // turn 2 (400-449).
    let mut m = Med::empty("mediterranea", 2);
    m.put("Vandals", "Carthage", 1);
    m.begin("turn", "green", &[("next", "99")]);
    assert_eq!(
        m.vp("green"),
        m.card("green", "Vandals", "Carthage", Some(2))
    );
    // Their kingdom ended in 534: on turn 4 (500-549) they leave the map.
    let mut m = Med::empty("mediterranea", 4);
    m.put("Vandals", "Carthage", 2);
    m.begin(
        "nation_turn",
        "green",
        &[("nation", "Vandals"), ("pulse", "1")],
    );
    assert_eq!(m.on_map("Vandals"), 0);
    // The Normans hold Normandy by 950-999, not yet England (1066).
    let mut m = Med::empty("mediterranea", 13);
    m.put("Normans", "Wessex", 1);
    m.put("Normans", "Neustria", 1);
    m.begin("turn", "orange", &[("next", "99")]);
    assert_eq!(
        m.vp("orange"),
        m.card("orange", "Normans", "Neustria", Some(13)),
        "Neustria only"
    );
}

// ------------------------------------------------------- balance overlays

/// One nation-turn of `nation` on an empty map in `turn`, under the
/// overlays: population is taken first (nothing is held, so it brings
/// nothing) and every other decision takes its first choice, movement
/// ending at once. Also returns the nation's armies on the map when
/// movement began (or at the end, if nothing could move): what arrived.
fn nation_turn_under(overlays: &[&str], faction: &str, nation: &str, turn: i64) -> (Med, usize) {
    let mut m = Med::empty_with("mediterranea", turn, overlays);
    m.set(&format!("pop:{nation}"), 0);
    m.begin(
        "nation_turn",
        faction,
        &[("nation", nation), ("pulse", "1")],
    );
    let mut decisions = 0;
    let mut arrived = None;
    while m.state.result.is_none() {
        let choices = m.choices();
        if choices.iter().any(|c| c == "end movement") {
            arrived.get_or_insert(m.on_map(nation));
        }
        let pick = ["population increase first", "end movement"]
            .iter()
            .find_map(|c| choices.iter().position(|x| x == c))
            .unwrap_or(0);
        m.engine
            .apply(&mut m.state, Action::Choice(pick as u32))
            .expect("the rules run");
        decisions += 1;
        assert!(decisions < 200, "the nation-turn does not end");
    }
    let arrived = arrived.unwrap_or_else(|| m.on_map(nation));
    (m, arrived)
}

/// Whether a leader was placed this nation-turn and has left (P).
fn leader_served(m: &Med, leader: &str) -> bool {
    m.lua(&format!(
        "pieces.list{{kind='{leader}', at='eliminated'}}[1] ~= nil"
    )) == "true"
}

#[test]
fn overlays_change_the_armies_that_arrive() {
    for (overlay, faction, nation, turn, change) in [
        ("white-up", "white", "Gauls", 2, 1),
        ("yellow-up", "yellow", "Huns", 3, 1),
        ("green-up", "green", "Vandals", 2, 1),
        ("orange-down", "orange", "Saxons", 3, -1),
    ] {
        let (_, base) = nation_turn_under(&[], faction, nation, turn);
        let (_, tuned) = nation_turn_under(&[overlay], faction, nation, turn);
        assert!(base > 0, "{nation} arrive in turn {turn}");
        assert_eq!(
            tuned as i64 - base as i64,
            change,
            "{overlay}: {nation} on the map"
        );
    }
}

#[test]
fn overlays_give_and_take_leaders() {
    for (overlay, faction, nation, turn, leader) in [
        ("white-down", "white", "Romans", 2, "Stilicho"),
        ("yellow-down", "yellow", "Huns", 3, "Attila"),
        ("green-down", "green", "Vandals", 2, "Gaiseric"),
    ] {
        let (base, _) = nation_turn_under(&[], faction, nation, turn);
        assert!(
            leader_served(&base, leader),
            "{leader} serves without {overlay}"
        );
        let (tuned, _) = nation_turn_under(&[overlay], faction, nation, turn);
        assert!(
            !leader_served(&tuned, leader),
            "{overlay}: {leader} still serves"
        );
        assert_eq!(tuned.on_map(leader), 0, "{overlay}: {leader} on the map");
    }
}

#[test]
fn an_overlay_swaps_two_nations_in_the_turn_order() {
    let order = |overlays: &[&str]| {
        let m = Med::with("mediterranea", overlays);
        (m.lua("tables.turn_order[2]"), m.lua("tables.turn_order[9]"))
    };
    let quoted = |a: &str, b: &str| (format!("{a:?}"), format!("{b:?}"));
    assert_eq!(order(&[]), quoted("Gauls", "Visigoths"));
    assert_eq!(order(&["orange-up"]), quoted("Visigoths", "Gauls"));
}

/// Britannia's "double increase points for one nation in one round" as an
/// overlay (tests/overlay_fixtures/saxons-double-increase.yaml appends to
/// `tables.increase_multipliers`): in turn 12 the Saxons' three areas held
/// alone earn 12 points, not 6, and with the 2 on their marker make two
/// armies, not one [6.4]; in turn 13 they earn 6 again.
#[test]
fn an_overlay_doubles_one_nations_increase_in_one_turn_6_4() {
    const DOUBLE: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/overlay_fixtures/saxons-double-increase.yaml"
    );
    let armies_after_increase = |overlays: &[&str], turn: i64| {
        let mut m = Med::empty_with("mediterranea", turn, overlays);
        for area in ["Wessex", "Mercia", "Northumbria"] {
            m.put("Saxons", area, 1);
        }
        m.set("pop:Saxons", 2);
        m.begin(
            "nation_turn",
            "orange",
            &[("nation", "Saxons"), ("pulse", "1")],
        );
        while !m.choices().iter().any(|c| c == "end movement") {
            m.engine
                .apply(&mut m.state, Action::Choice(0))
                .expect("an area for the army");
        }
        (m.on_map("Saxons"), m.lua("vars.get('pop:Saxons')"))
    };
    assert_eq!(armies_after_increase(&[], 12), (4, "2".to_string()));
    assert_eq!(armies_after_increase(&[DOUBLE], 12), (5, "2".to_string()));
    assert_eq!(armies_after_increase(&[DOUBLE], 13), (4, "2".to_string()));
}
