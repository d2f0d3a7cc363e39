//! Playing: listing the legal actions, reading one typed by number or in
//! notation, random set-up, undo and redo. A mistake changes nothing.

use crate::kernel::action::Action;
use crate::kernel::game::PhaseKind;
use crate::kernel::notation::normalise;
use crate::repl::commands::COMMANDS;
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

/// An action typed by number or notation, by the human whose turn it is.
pub fn action(s: &mut Session, line: &str) -> Result<String, String> {
    let word = line.split_whitespace().next().unwrap_or("");
    let Some(player) = s.loaded.engine.to_move(s.state()) else {
        return Err(format!(
            "'{line}' is not a command, and the game is over ('help' lists the commands)"
        ));
    };
    if s.seats[player.0 as usize] != Seat::Human {
        return Err(format!(
            "it is a bot's turn ({}); 'seat' gives it to a human",
            s.loaded.engine.game.player_id(player)
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
            Err(_) => return Err(explain(s, &legal, line, word)),
        },
    };
    s.act(chosen)
}

/// Why a line is neither a command nor a legal action, with the closest
/// legal actions (or commands) as suggestions.
fn explain(s: &Session, legal: &[Action], line: &str, word: &str) -> String {
    let engine = &s.loaded.engine;
    let notations: Vec<String> = legal
        .iter()
        .map(|&a| engine.notation(s.state(), a))
        .collect();
    let wanted = normalise(line);
    let starting: Vec<&String> = notations
        .iter()
        .filter(|n| {
            let n = normalise(n);
            n.starts_with(&format!("{wanted} ")) || n.ends_with(&format!(" {wanted}"))
        })
        .collect();
    if starting.len() > 1 {
        let list: Vec<&str> = starting.iter().take(8).map(|n| n.as_str()).collect();
        return format!(
            "'{line}' is ambiguous: it could be {} (type the whole action or its number)",
            list.join(", ")
        );
    }
    if let [one] = starting.as_slice() {
        return format!("'{line}' is not a whole action; did you mean '{one}'?");
    }
    let looks_like_command = word.chars().all(|c| c.is_ascii_alphabetic())
        && word.len() > 2
        && !notations.iter().any(|n| n.starts_with(word));
    if looks_like_command {
        let hint = crate::data::error::suggest(word, COMMANDS.iter().map(|c| c.name));
        let hint = if hint.starts_with("did you mean") {
            format!("{hint} ")
        } else {
            String::new()
        };
        return format!("unknown command '{word}': {hint}('help' lists the commands)");
    }
    let mut near: Vec<(usize, &String)> = notations
        .iter()
        .map(|n| (distance(&wanted, &normalise(n)), n))
        .collect();
    near.sort();
    let close: Vec<&str> = near.iter().take(3).map(|(_, n)| n.as_str()).collect();
    if close.is_empty() {
        format!("'{line}' is not a legal action now")
    } else {
        format!(
            "'{line}' is not a legal action now; closest legal: {} ('moves' lists all)",
            close.join(", ")
        )
    }
}

/// Edit distance, for suggestions.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `place random`: the rest of the current player's set-up, each piece a
/// separate logged action chosen with the REPL's own random stream.
pub fn autoplace(s: &mut Session) -> Result<String, String> {
    let engine = &s.loaded.engine;
    let placing = |s: &Session| {
        s.state().stack.last().is_some_and(|f| {
            matches!(
                engine.game.phases[f.phase as usize].kind,
                PhaseKind::Placement(_)
            )
        })
    };
    let Some(player) = engine.to_move(s.state()).filter(|_| placing(s)) else {
        return Err("'place random' works during set-up, when a player places pieces".into());
    };
    if s.seats[player.0 as usize] != Seat::Human {
        return Err("it is a bot's turn; bots set up by themselves".into());
    }
    let before = s.line.position();
    let mut count = 0;
    while engine.to_move(s.state()) == Some(player) && placing(s) {
        let legal = legal(s);
        let places: Vec<Action> = legal
            .into_iter()
            .filter(|a| matches!(a, Action::Place { .. }))
            .collect();
        let Some(&pick) = s.repl_rng.pick(&places) else {
            break;
        };
        let played = s.line.play(engine, pick);
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
    format!(
        "{verb} {n} step{} to ply {}\n{}",
        if n == 1 { "" } else { "s" },
        s.state().ply,
        s.status()
    )
}
