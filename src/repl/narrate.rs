//! Events in plain words, for one viewer: a hidden piece is "a Red piece",
//! a visible one "Red Destroyer", a named one ("Side A Defiance") by the
//! name its `name` attribute gives it. Kinds, spaces and pools read by
//! the names the data gives them, never by their ids.

use crate::kernel::engine::Engine;
use crate::kernel::event::{Event, Outcome, Resolved};
use crate::kernel::game::Game;
use crate::kernel::piece::PieceId;
use crate::kernel::value::Value;
use crate::kernel::view::View;
use crate::render::pieces::NAME;

/// A piece as the viewer may name it: its own name where it has one the
/// viewer sees (the drawings' [`NAME`] attribute), else its kind's.
pub fn piece_name(engine: &Engine, view: &View, id: PieceId) -> String {
    let g = &engine.game;
    let p = view.piece(id);
    let owner = p.owner.map(|o| g.players[o.0 as usize].name.clone());
    let own_name = match p.attrs.get(NAME) {
        Some(Value::Str(s)) => Some(s.as_str()),
        _ => None,
    };
    let what = own_name.or_else(|| p.kind.map(|k| g.kind(k).label.as_str()));
    match (owner, what) {
        (Some(o), Some(w)) => format!("{o} {w}"),
        (Some(o), None) => format!("a {o} piece"),
        (None, Some(w)) => w.to_string(),
        (None, None) => "a piece".to_string(),
    }
}

/// Events in words, each naming its pieces' owners as they were when it
/// happened: `view` holds the owners of now, and the ownership changes in
/// `events` are wound back first, so a ship taken as a prize keeps its
/// earlier moves under its first owner.
pub fn narrate_all(engine: &Engine, view: &View, events: &[Event]) -> Vec<String> {
    let mut then = view.clone();
    for e in events.iter().rev() {
        if let Event::OwnerChanged { piece, from, .. } = e {
            then.pieces[piece.0 as usize].owner = *from;
        }
    }
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| {
            if let Event::OwnerChanged { piece, to, .. } = e {
                then.pieces[piece.0 as usize].owner = *to;
            }
            narrate(engine, &then, e)
        })
        .collect();
    counted(lines)
}

/// Lines told once each: a run of the same line (six armies lost in a
/// row, three armies moved between the same areas) is one line with its
/// count, `... (6 times)`, so a log reads as what happened, not as a tally.
fn counted(lines: Vec<String>) -> Vec<String> {
    lines
        .chunk_by(|a, b| a == b)
        .map(|run| match run.len() {
            1 => run[0].clone(),
            n => format!("{} ({n} times)", run[0]),
        })
        .collect()
}

/// One event in words; `None` for events not worth a line.
pub fn narrate(engine: &Engine, view: &View, event: &Event) -> Option<String> {
    let g = &engine.game;
    let space = |s| g.board.label(s);
    let name = |id| piece_name(engine, view, id);
    Some(match event {
        Event::Placed { piece, to } => format!("{} set up on {}", name(*piece), space(*to)),
        Event::Moved { piece, from, to } => {
            format!("{} moved {} -> {}", name(*piece), space(*from), space(*to))
        }
        Event::Attack {
            attacker,
            defender,
            from,
            at,
            coin,
            result,
        } => {
            let coin = match coin {
                Some(true) => " (coin: the attacker's colour)",
                Some(false) => " (coin: the defender's colour)",
                None => "",
            };
            let (a, d) = (name(*attacker), name(*defender));
            let what = match result {
                Resolved::Win => format!("{d} destroyed"),
                Resolved::Bounce => format!("{a} bounces back to {}", space(*from)),
                Resolved::Lose => format!("{a} destroyed"),
                Resolved::Both => "both destroyed".to_string(),
            };
            format!(
                "{a} at {} attacked {d} at {}{coin}: {what}",
                space(*from),
                space(*at)
            )
        }
        Event::Special {
            player,
            name: n,
            target,
        } => format!(
            "{} calls {n} on {}",
            g.players[player.0 as usize].name,
            space(*target)
        ),
        Event::Removed { piece, from } => {
            format!("{} removed from {}", name(*piece), g.location_label(*from))
        }
        Event::Passed { player } => format!(
            "{} has no legal action and passes",
            g.players[player.0 as usize].name
        ),
        Event::Roll {
            expr,
            dice,
            total,
            why,
        } => {
            let label = if why.is_empty() {
                String::new()
            } else {
                format!("{why}: ")
            };
            if expr == "coin" {
                format!(
                    "{label}coin flip: {}",
                    if *total == 1 { "heads" } else { "tails" }
                )
            } else {
                let faces: Vec<String> = dice.iter().map(u32::to_string).collect();
                format!("{label}{expr} rolled {} = {total}", faces.join("+"))
            }
        }
        Event::TableRoll {
            table,
            dice,
            natural,
            modifiers,
            read,
            row,
        } => table_roll(engine, table, dice, *natural, modifiers, *read, *row),
        Event::Text { text, .. } => text.clone(),
        Event::Finished(o) => format!("Game over: {} ({})", result(g, o), o.reason),
        // The rules say in their own words how a piece changed hands.
        Event::OwnerChanged { .. } => return None,
    })
}

/// A roll on a dice table in the rule book's words:
/// `contact roll 4+2=6: Contact (Reconnaissance plane +2)`.
fn table_roll(
    engine: &Engine,
    table: &str,
    dice: &[u32],
    natural: i64,
    modifiers: &[(String, i64)],
    read: i64,
    row: Option<u16>,
) -> String {
    let t = engine.game.dice_table(table);
    let label = t.map_or(table, |t| t.label.as_str());
    let mut roll = match dice {
        [one] if i64::from(*one) == natural => natural.to_string(),
        faces => {
            let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
            format!("{}={natural}", faces.join("+"))
        }
    };
    let modifier: i64 = modifiers.iter().map(|(_, v)| v).sum();
    if modifier != 0 {
        roll = format!("{roll}{modifier:+}={}", natural + modifier);
    }
    if read != natural + modifier {
        roll = format!("{roll} (read as {read})");
    }
    let result = match row {
        Some(r) => t
            .and_then(|t| t.results.get(r as usize).cloned().flatten())
            .unwrap_or_else(|| format!("row {}", r + 1)),
        None => "no row of the table (the rules decide)".to_string(),
    };
    let sources = if modifiers.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = modifiers
            .iter()
            .map(|(s, v)| format!("{s} {v:+}"))
            .collect();
        format!(" ({})", parts.join(", "))
    };
    format!("{label} {roll}: {result}{sources}")
}

/// A game's result in words: who won; else the score of a game that scores
/// without naming a winner (a solitaire game: `score 94`); else no winner.
pub fn result(g: &Game, o: &Outcome) -> String {
    if let Some(w) = o.winner {
        return format!("{} wins", g.players[w.0 as usize].name);
    }
    match o.scores.as_slice() {
        [] => "no winner".to_string(),
        [one] => format!("score {one}"),
        all => {
            let each: Vec<String> = all
                .iter()
                .zip(&g.players)
                .map(|(score, p)| format!("{} {score}", p.name))
                .collect();
            format!("no winner; scores {}", each.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_run_of_the_same_line_is_told_once_with_its_count() {
        let lost = "Every Romans army is on the map: the army is lost.";
        let mut lines = vec!["Turn 3: the Romans.".to_string()];
        lines.extend(std::iter::repeat_n(lost.to_string(), 6));
        lines.push("Turn 3: the Franks.".to_string());
        lines.push(lost.to_string());
        assert_eq!(
            super::counted(lines),
            [
                "Turn 3: the Romans.".to_string(),
                format!("{lost} (6 times)"),
                "Turn 3: the Franks.".to_string(),
                lost.to_string(),
            ]
        );
    }
}
