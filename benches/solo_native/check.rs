//! Keeping the baseline honest: what the native journey assumes about the
//! compiled game, what must be equal after a journey on both sides, and,
//! when something differs, a lock-step replay that finds the first
//! decision where the two part and says how.

use super::journey::{self, Journey};
use super::tables::Tables;
use portolan::bots::{self, Sight};
use portolan::kernel::action::Action;
use portolan::kernel::engine::Engine;
use portolan::kernel::event::Event;
use portolan::kernel::game::{FirstPlayer, PhaseKind};
use portolan::kernel::piece::PlayerId;
use portolan::kernel::state::GameState;
use portolan::kernel::value::Value;

/// The choice after the offered options (rules.lua's `phases.journey`).
const NO_OPTION: &str = "no option";

/// Panics if the compiled game is not one the native journey plays the
/// same way: one seat that always decides, no pieces (so `new_game` draws
/// nothing before the rules do), the two scripted phases in order, no end
/// but the rules' own, and a ply limit no journey can reach.
pub fn assumptions(engine: &Engine, t: &Tables) {
    let g = &engine.game;
    assert_eq!(g.players.len(), 1, "one player");
    assert_eq!(g.first_player, FirstPlayer::Fixed(PlayerId(0)));
    assert!(g.start.is_empty(), "no pieces");
    let phase = |name: &str| {
        let index = g
            .phase_index(name)
            .unwrap_or_else(|| panic!("a phase '{name}'"));
        assert!(
            matches!(g.phases[index as usize].kind, PhaseKind::Script),
            "'{name}' is a scripted phase"
        );
        index
    };
    assert_eq!(
        g.flow,
        [phase("setup"), phase("journey")],
        "flow: setup, journey"
    );
    let v = &g.victory;
    assert!(
        v.reach.is_none() && v.last_with.is_none() && v.repetition.is_none(),
        "only the rules end a journey"
    );
    assert!(g.enabled_options().is_empty(), "no optional rule is on");
    // At most one decision a turn.
    let longest = t.length.max()
        + t.options
            .iter()
            .filter_map(|o| o.journey)
            .map(|d| d.max())
            .sum::<i64>();
    assert!(
        i64::from(g.max_plies) > longest,
        "max_plies ({}) above the longest journey ({longest} turns)",
        g.max_plies
    );
}

/// What differs between a journey the engine played and the native one:
/// the score, the plies, the action log (the bot's picks) and the random
/// stream's position (every draw matched). Empty when they are identical.
pub fn differences(state: &GameState, ours: &Journey, picks: &[u32]) -> Vec<String> {
    let mut out = Vec::new();
    let scores = state.result.as_ref().map(|r| r.scores.as_slice());
    let our_scores = ours.score.map(|s| vec![s]);
    if scores != our_scores.as_deref() {
        out.push(format!("scores: engine {scores:?}, native {our_scores:?}"));
    }
    if state.ply != ours.plies {
        out.push(format!(
            "plies: engine {}, native {}",
            state.ply, ours.plies
        ));
    }
    let our_log: Vec<Action> = picks.iter().map(|&p| Action::Choice(p)).collect();
    if state.log != our_log {
        out.push(format!(
            "action log: engine {:?}, native {our_log:?}",
            state.log
        ));
    }
    if state.rng != ours.rng {
        out.push(format!(
            "random stream: engine {:?}, native {:?}",
            state.rng, ours.rng
        ));
    }
    out
}

/// Replays one seed on both sides in lock step, with the bots
/// `sim::play_game` seats, comparing at every decision the choices offered,
/// the random stream's position and the pick, then the result. Describes
/// the first difference with the counters that differ (by the Lua's
/// variable names) and the engine's narration since the last decision
/// that matched; `None` if the journeys are identical.
pub fn first_divergence(engine: &Engine, t: &Tables, seed: u64) -> Option<String> {
    // The narration is what tells a reader where the journeys parted.
    engine.set_narration(true);
    let seat = PlayerId(0);
    let mut bot = bots::make("random", bots::seat_seed(seed, seat)).expect("the random bot");
    let mut our_bot = journey::bot(seed);
    let mut state = engine.new_game(seed).expect("the engine starts a journey");
    let mut ours = Journey::new(t, seed);
    let (mut legal, mut picks) = (Vec::new(), Vec::new());
    // Where the engine's narration of the current stretch begins.
    let mut since = 0;
    loop {
        let engine_choices = engine
            .to_move(&state)
            .and_then(|_| state.stack.last())
            .map(|f| f.choices.clone());
        let our_choices = ours.choices().map(|_| choice_names(t, &ours));
        let mut what = Vec::new();
        if engine_choices != our_choices {
            what.push(format!(
                "choices: engine {engine_choices:?}, native {our_choices:?}"
            ));
        }
        if state.rng != ours.rng {
            what.push(format!(
                "random stream: engine {:?}, native {:?}",
                state.rng, ours.rng
            ));
        }
        if !what.is_empty() {
            return Some(describe(t, &state, &ours, since, &what));
        }
        let Some(choices) = our_choices else { break };
        engine.legal_actions(&state, &mut legal);
        let pick = bot
            .choose(&Sight::new(engine, &state, seat), &legal)
            .expect("the random bot");
        let our_pick = our_bot.below(choices.len() as u32);
        if pick != our_pick as usize {
            let what = [format!("picks: engine {pick}, native {our_pick}")];
            return Some(describe(t, &state, &ours, since, &what));
        }
        since = state.events.len();
        engine
            .apply(&mut state, legal[pick])
            .expect("the engine applies a legal action");
        picks.push(our_pick);
        ours.choose(pick);
    }
    let what = differences(&state, &ours, &picks);
    (!what.is_empty()).then(|| describe(t, &state, &ours, since, &what))
}

/// The native decision's choices in the engine's words.
fn choice_names(t: &Tables, ours: &Journey) -> Vec<String> {
    let offered = ours.offered().iter().map(|&o| t.options[o].id.clone());
    offered.chain([NO_OPTION.to_string()]).collect()
}

fn describe(
    t: &Tables,
    state: &GameState,
    ours: &Journey,
    since: usize,
    what: &[String],
) -> String {
    let mut text = format!(
        "ply {} (native turn {}): {}",
        state.ply,
        ours.turn,
        what.join("; ")
    );
    let counters = counter_differences(t, state, ours);
    if !counters.is_empty() {
        text += &format!("\n  counters (engine vs native): {}", counters.join(", "));
    }
    text += "\n  the engine's narration since the last decision that matched:";
    for event in &state.events[since..] {
        match event {
            Event::Text { text: line, .. } => text += &format!("\n    {line}"),
            Event::Roll {
                why, dice, total, ..
            } => text += &format!("\n    roll, {why}: {dice:?} = {total}"),
            _ => {}
        }
    }
    text
}

/// The native journey's counters under the names rules.lua keeps them in
/// the kernel's variables, with what the engine holds where they differ.
/// (A diagnosis only: a rewritten Lua may keep its counters otherwise.)
fn counter_differences(t: &Tables, state: &GameState, ours: &Journey) -> Vec<String> {
    let int = |n: i64| Some(Value::Int(n));
    let mut expected: Vec<(String, Option<Value>)> = vec![
        ("turn".into(), int(ours.turn)),
        ("length".into(), int(ours.length)),
        ("friendly".into(), int(ours.friendly)),
        ("next_turn".into(), int(ours.next_turn)),
        ("interceptions".into(), int(ours.interceptions)),
        (
            "halfway_done".into(),
            ours.halfway_done.then_some(Value::Bool(true)),
        ),
        ("option_until".into(), ours.option_until.and_then(int)),
    ];
    let active = ours
        .active
        .map(|a| Value::Str(t.options[a.option].id.clone()));
    expected.push(("option".into(), active));
    for (option, used) in t.options.iter().zip(ours.used_on) {
        expected.push((format!("used_{}", option.id), used.and_then(int)));
    }
    for (id, fleet) in t.ship_ids.iter().zip(ours.fleets) {
        for (counter, n) in [
            ("sailed", fleet.sailed),
            ("afloat", fleet.afloat),
            ("damaged", fleet.damaged),
            ("lost", fleet.lost),
            ("home", fleet.home),
        ] {
            expected.push((format!("{counter}_{id}"), int(n)));
        }
    }
    let show = |v: Option<&Value>| v.map_or("-".to_string(), Value::to_string);
    expected
        .into_iter()
        .filter(|(name, value)| state.vars().get(name) != value.as_ref())
        .map(|(name, value)| {
            let engine = show(state.vars().get(&name));
            format!("{name} {engine} vs {}", show(value.as_ref()))
        })
        .collect()
}
