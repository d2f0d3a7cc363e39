//! Playing: listing the legal actions, reading one typed by number or in
//! notation, random set-up, undo and redo. A mistake changes nothing.

use crate::kernel::action::Action;
use crate::kernel::game::PhaseKind;
use crate::repl::escape::quote;
use crate::repl::explain;
use crate::repl::session::{Seat, Session};

/// The legal actions as the REPL numbers them: in board order (moves by
/// the cell they leave, then the cell they reach), because the kernel's
/// order follows piece ids, which are shuffled when faces are hidden.
pub fn legal(s: &Session) -> Vec<Action> {
    let mut legal = Vec::new();
    s.loaded.engine.legal_actions(s.state(), &mut legal);
    let state = s.state();
    legal.sort_by_key(|&a| match a {
        Action::Move { piece, to } => (0, state.piece(piece).loc.space().map_or(0, |f| f.0), to.0),
        Action::Place { piece, to } => (1, state.piece(piece).kind.0, to.0),
        Action::Special { index, target } => (2, u16::from(index), target.0),
        Action::Choice(i) => (3, i as u16, 0),
        Action::Pass => (4, 0, 0),
    });
    legal
}

/// One legal action of each sort (a move, a placement, a special, a
/// choice) in notation: examples for `help` that the game accepts now.
pub fn examples(s: &Session) -> Vec<String> {
    let mut sorts = Vec::new();
    let mut out = Vec::new();
    for a in legal(s) {
        let sort = std::mem::discriminant(&a);
        if !sorts.contains(&sort) {
            sorts.push(sort);
            out.push(s.loaded.engine.notation(s.state(), a));
        }
    }
    out
}

pub fn moves(s: &Session) -> String {
    if s.state().result.is_some() {
        return "the game is over: 'new' starts another, 'undo' steps back\n".into();
    }
    legal(s)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            format!(
                "  {:>3}. {}\n",
                i + 1,
                s.loaded.engine.notation(s.state(), a)
            )
        })
        .collect()
}

/// The legal action whose notation, as `moves` lists it, is `line`
/// (ignoring case and the spaces around it).
pub fn listed(s: &Session, line: &str) -> Option<Action> {
    let line = line.trim();
    let engine = &s.loaded.engine;
    let mut legal = Vec::new();
    engine.legal_actions(s.state(), &mut legal);
    legal
        .into_iter()
        .find(|&a| engine.notation(s.state(), a).eq_ignore_ascii_case(line))
}

/// An action typed by number or notation, by the human whose turn it is.
pub fn action(s: &mut Session, line: &str) -> Result<String, String> {
    if let Some(unknown) = explain::misspelt(s, line) {
        return Err(unknown);
    }
    let Some(player) = s.loaded.engine.to_move(s.state()) else {
        return Err(format!(
            "'{}' is not a command, and the game is over ('help' lists the commands)",
            quote(line)
        ));
    };
    if s.seats[player.0 as usize] != Seat::Human {
        let g = &s.loaded.engine.game;
        return Err(format!(
            "it is a bot's turn ({}); 'seat {} human' gives it to you",
            g.players[player.0 as usize].name,
            g.player_id(player)
        ));
    }
    let legal = legal(s);
    let chosen = match line.parse::<usize>() {
        Ok(n) if (1..=legal.len()).contains(&n) => legal[n - 1],
        Ok(n) => {
            return Err(format!(
                "there is no action {n}: 'moves' lists 1 to {}",
                legal.len()
            ));
        }
        Err(_) => match s.loaded.engine.parse_action(s.state(), line) {
            Ok(a) => a,
            Err(_) => return Err(explain::not_legal(s, &legal, line)),
        },
    };
    s.act(chosen)
}

/// `place random`: the rest of the current player's set-up, each piece a
/// separate logged action chosen with the REPL's own random stream.
pub fn autoplace(s: &mut Session) -> Result<String, String> {
    let placing = |s: &Session| {
        s.state().stack.last().is_some_and(|f| {
            matches!(
                s.loaded.engine.game.phases[f.phase as usize].kind,
                PhaseKind::Placement(_)
            )
        })
    };
    let to_move = |s: &Session| s.loaded.engine.to_move(s.state());
    let Some(player) = to_move(s).filter(|_| placing(s)) else {
        return Err("'place random' works during set-up, when a player places pieces".into());
    };
    if s.seats[player.0 as usize] != Seat::Human {
        return Err("it is a bot's turn; bots set up by themselves".into());
    }
    let before = s.line.position();
    let mut count = 0;
    while to_move(s) == Some(player) && placing(s) {
        let legal = legal(s);
        let places: Vec<Action> = legal
            .into_iter()
            .filter(|a| matches!(a, Action::Place { .. }))
            .collect();
        let Some(&pick) = s.repl_rng.pick(&places) else {
            break;
        };
        let fresh = s.fresh_dice();
        let played = s.line.play(&s.loaded.engine, pick, fresh);
        if let Err(e) = played {
            s.line.close_step(before);
            return Err(e.to_string());
        }
        count += 1;
    }
    // One undo step takes back the whole random set-up.
    s.line.close_step(before);
    s.dirty = true;
    Ok(format!(
        "placed {count} piece{} at random\n{}",
        if count == 1 { "" } else { "s" },
        s.after_change()
    ))
}

fn count(arg: &str, what: &str) -> Result<usize, String> {
    if arg.is_empty() {
        return Ok(1);
    }
    arg.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{what} {arg}': give a positive number of steps"))
}

pub fn undo(s: &mut Session, arg: &str) -> Result<String, String> {
    let n = count(arg, "undo")?;
    let n = s
        .line
        .undo(&s.loaded.engine, n)
        .map_err(|e| e.to_string())?
        .ok_or("nothing to undo")?;
    Ok(after_shift(s, "took back", n))
}

pub fn redo(s: &mut Session, arg: &str) -> Result<String, String> {
    let n = count(arg, "redo")?;
    let n = s
        .line
        .redo(&s.loaded.engine, n)
        .map_err(|e| e.to_string())?
        .ok_or("nothing to redo")?;
    Ok(after_shift(s, "replayed", n))
}

fn after_shift(s: &mut Session, verb: &str, n: usize) -> String {
    s.reset_narration();
    s.dirty = true;
    let done = format!(
        "{verb} {n} step{} to ply {}\n",
        if n == 1 { "" } else { "s" },
        s.state().ply
    );
    done + &s.after_stepping()
}
