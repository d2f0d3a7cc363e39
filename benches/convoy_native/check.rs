//! Keeping the baseline honest: the native Convoy hard-codes what the kernel
//! reads from game.yaml, so these checks compare its tables with the
//! compiled game, and, when a game's result differs, replay that game on
//! both sides in lock step to show the first ply where they part.

use super::native::{
    self, Act, CELLS, COUNTS, Decoded, Game, KIND_NAMES, KINDS, Legal, MAX_PLIES, PLAYERS,
    REPETITIONS, SAILING, SETUP, Tables,
};
use portolan::bots::{self, Sight};
use portolan::kernel::action::Action;
use portolan::kernel::board::SpaceId;
use portolan::kernel::engine::Engine;
use portolan::kernel::game::{CombatEntry, PhaseKind};
use portolan::kernel::piece::{PieceId, PlayerId};

/// Panics if the compiled med-convoy differs from what the native version
/// assumes (kind order, phase indices, neighbour order, zones, table).
pub fn assumptions(engine: &Engine, t: &Tables) {
    let g = &engine.game;
    assert_eq!(g.players.len(), PLAYERS, "two players");
    assert_eq!(g.board.len(), CELLS, "a 7x5 board");
    assert!(g.hidden, "hidden faces (the piece vector is shuffled)");
    let kinds: Vec<(&str, u16)> = g.kinds.iter().map(|k| (k.name.as_str(), k.count)).collect();
    let expected: Vec<(&str, u16)> = KIND_NAMES
        .iter()
        .zip(COUNTS)
        .map(|(&n, c)| (n, u16::from(c)))
        .collect();
    assert_eq!(kinds, expected, "kinds and counts, in kind order");
    assert_eq!(g.phase_index("sailing"), Some(SAILING as u16));
    assert_eq!(g.phase_index("setup"), Some(SETUP as u16));
    assert_eq!(
        g.flow,
        [SETUP as u16, SAILING as u16],
        "flow: set-up, sailing"
    );
    assert_eq!(g.max_plies, MAX_PLIES);
    assert_eq!(
        g.victory.repetition.as_ref().map(|r| usize::from(r.0)),
        Some(REPETITIONS)
    );
    assert!(
        g.options.iter().all(|o| !o.enabled),
        "base rules only: no optional rule may be on"
    );
    let PhaseKind::Movement(m) = &g.phases[SAILING as usize].kind else {
        panic!("sailing is a movement phase");
    };
    for p in 0..PLAYERS {
        for cell in 0..CELLS {
            for k in 0..KINDS {
                let reach = &m.reaches[m.kind_reach[k]];
                assert_eq!(reach.steps, 1, "one step a move");
                let steps: Vec<u8> = reach
                    .next(PlayerId(p as u8), SpaceId(cell as u16))
                    .iter()
                    .map(|s| s.0 as u8)
                    .collect();
                assert_eq!(
                    steps,
                    t.neighbours(cell),
                    "steps of player {p} from cell {cell}"
                );
            }
        }
    }
    let table = m.combat.as_ref().expect("a combat table");
    for a in 0..KINDS {
        for d in 0..KINDS {
            let CombatEntry::Fixed(r) = &table[a][d] else {
                panic!(
                    "{}-{}: a fixed result in base rules",
                    KIND_NAMES[a], KIND_NAMES[d]
                );
            };
            assert_eq!(
                format!("{r:?}").to_lowercase(),
                native::combat_result(a as u8, d as u8),
                "{} attacking {}",
                KIND_NAMES[a],
                KIND_NAMES[d]
            );
        }
    }
    assert!(m.reveal_on_attack);
    assert_eq!(m.specials.len(), 1, "one special: the Air Strike");
    let strike = &m.specials[0];
    assert!(strike.once_per_game);
    for p in 0..PLAYERS {
        let cells: Vec<u8> = g.zones[strike.zone]
            .spaces(PlayerId(p as u8))
            .iter()
            .map(|s| s.0 as u8)
            .collect();
        assert_eq!(cells, t.strike_cells(p), "Air Strike targets of player {p}");
    }
}

/// The kernel's spelling of a native action.
pub fn to_engine(a: Act) -> Action {
    match a.decode() {
        Decoded::Place { piece, to } => Action::Place {
            piece: PieceId(u16::from(piece)),
            to: SpaceId(u16::from(to)),
        },
        Decoded::Move { piece, to } => Action::Move {
            piece: PieceId(u16::from(piece)),
            to: SpaceId(u16::from(to)),
        },
        Decoded::Strike { target } => Action::Special {
            index: 0,
            target: SpaceId(u16::from(target)),
        },
        Decoded::Pass => Action::Pass,
    }
}

/// Plays one seed on both sides in lock step (the engine with the same
/// bots `sim::play_game` makes) and describes the first difference: the
/// player to move, the legal-action list, the bot's pick, the position
/// hash after an action, or the result. `None` if the games are identical.
pub fn first_divergence(engine: &Engine, t: &Tables, seed: u64) -> Option<String> {
    let mut seats: Vec<Box<dyn bots::Bot>> = (0..PLAYERS as u8)
        .map(|p| bots::make("random", bots::seat_seed(seed, PlayerId(p))).expect("random bot"))
        .collect();
    let mut native_seats = native::bots(seed);
    let mut state = engine.new_game(seed).expect("the engine starts a game");
    let mut game = Game::new(t, seed, Vec::new());
    let (mut legal, mut mine) = (Vec::new(), Legal::new());
    loop {
        let ply = state.ply;
        let to_move = engine.to_move(&state);
        if to_move.map(|p| p.0) != game.to_move() {
            return Some(format!(
                "ply {ply}: to move: engine {to_move:?}, native {:?}",
                game.to_move()
            ));
        }
        let Some(player) = to_move else { break };
        engine.legal_actions(&state, &mut legal);
        game.legal(&mut mine);
        let converted: Vec<Action> = mine.as_slice().iter().map(|&a| to_engine(a)).collect();
        if converted != legal {
            return Some(format!(
                "ply {ply} (player {}): legal actions differ\n  engine {legal:?}\n  native {converted:?}",
                player.0
            ));
        }
        let pick = seats[player.0 as usize]
            .choose(&Sight::new(engine, &state, player), &legal)
            .expect("the random bot");
        let native_pick = native_seats[player.0 as usize].below(legal.len() as u32) as usize;
        if pick != native_pick {
            return Some(format!(
                "ply {ply}: the bots picked {pick} (engine) and {native_pick} (native)"
            ));
        }
        engine
            .apply(&mut state, legal[pick])
            .expect("the engine applies a legal action");
        game.apply(mine.as_slice()[pick]);
        if state.history.last().copied() != game.last_hash() {
            return Some(format!(
                "ply {}: after {:?} the position hashes differ: engine {:x?}, native {:x?}",
                ply + 1,
                legal[pick],
                state.history.last(),
                game.last_hash()
            ));
        }
    }
    let engine_result = state.result.as_ref().expect("a finished game");
    let native_result = game.outcome().expect("a finished game");
    let winner = engine_result.winner.map(|p| p.0);
    if (winner, state.ply) != (native_result.winner, native_result.plies) {
        return Some(format!(
            "result: engine {winner:?} after {} plies ({}), native {:?} after {} plies",
            state.ply, engine_result.reason, native_result.winner, native_result.plies
        ));
    }
    None
}
