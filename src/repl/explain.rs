//! Why a typed line is neither a command nor a legal action, in one line
//! with the way on: the legal actions it could mean, the closest ones, why
//! a kind of action is not offered now, or the commands it resembles.
//!
//! A line is read as an attempted action when its first word belongs to
//! the game's notation (a space, a piece kind, `place`, `pass`, a special
//! action, a word of a choice on offer): `cruiser d3` on a cell that is not
//! open is an illegal action, not an unknown command.

use crate::data::error::edit_distance as distance;
use crate::kernel::action::Action;
use crate::kernel::game::PhaseKind;
use crate::kernel::notation::normalise;
use crate::repl::commands::COMMANDS;
use crate::repl::escape::quote;
use crate::repl::session::Session;

/// The message for a line that parsed as no legal action.
pub fn not_legal(s: &Session, legal: &[Action], line: &str) -> String {
    let engine = &s.loaded.engine;
    let notations: Vec<String> = legal
        .iter()
        .map(|&a| engine.notation(s.state(), a))
        .collect();
    let shown = quote(line);
    let wanted = normalise(line);
    let word = wanted.split(' ').next().unwrap_or("");
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
            "'{shown}' is ambiguous: it could be {} (type the whole action or its number)",
            list.join(", ")
        );
    }
    if let [one] = starting.as_slice() {
        return format!("'{shown}' is not a whole action; did you mean '{one}'?");
    }
    if let Some(unknown) = misspelt(s, line) {
        return unknown;
    }
    if let Some(why) = not_now(s, word).or_else(|| set_up_hint(s, &wanted, &notations)) {
        return format!("'{shown}' is not a legal action now: {why}");
    }
    let mut near: Vec<(usize, &String)> = notations
        .iter()
        .map(|n| (distance(&wanted, &normalise(n)), n))
        .collect();
    near.sort();
    let close: Vec<&str> = near.iter().take(3).map(|(_, n)| n.as_str()).collect();
    if close.is_empty() {
        format!("'{shown}' is not a legal action now")
    } else {
        format!(
            "'{shown}' is not a legal action now; closest legal: {} ('moves' lists all)",
            close.join(", ")
        )
    }
}

/// The message for a line whose first word is neither a command nor a
/// word of the game's notation: a misspelt command, space or piece kind.
/// Asked before anything about whose turn it is, so a typo is answered
/// as a typo on a bot's turn or after the game.
pub fn misspelt(s: &Session, line: &str) -> Option<String> {
    let wanted = normalise(line);
    let word = wanted.split(' ').next().unwrap_or("");
    let plain = word.len() > 2 && word.chars().all(|c| c.is_ascii_alphabetic());
    (plain && !in_notation(s, word)).then(|| unknown_word(s, line.split_whitespace().next()?))?
}

/// A word that is no command and no part of the game's notation, with the
/// command, space or piece kind it is closest to.
fn unknown_word(s: &Session, word: &str) -> Option<String> {
    let g = &s.loaded.engine.game;
    let names = COMMANDS
        .iter()
        .map(|c| c.name)
        .chain(g.board.ids().map(|id| g.board.name(id)))
        .chain(g.kinds.iter().map(|k| k.name.as_str()));
    let hint = crate::data::error::suggest(word, names);
    let hint = match hint.strip_prefix("did you mean '") {
        Some(rest) if !rest.starts_with(&format!("{word}'")) => format!(": {hint}"),
        _ => String::new(),
    };
    Some(format!(
        "unknown command '{}'{hint} ('help' lists the commands, 'moves' the actions)",
        quote(word)
    ))
}

/// Whether a (lower-case) word belongs to the game's notation.
fn in_notation(s: &Session, word: &str) -> bool {
    let g = &s.loaded.engine.game;
    let choices = s.state().stack.last().map_or(&[][..], |f| &f.choices[..]);
    matches!(word, "place" | "pass")
        || g.board.find(word).is_some()
        || g.kinds.iter().any(|k| k.name.eq_ignore_ascii_case(word))
        || special_names(s).any(|n| n.eq_ignore_ascii_case(word))
        || choices
            .iter()
            .any(|c| normalise(c).split(' ').next() == Some(word))
}

/// Why a kind of action (by its first word) is not offered at all now.
fn not_now(s: &Session, word: &str) -> Option<String> {
    let g = &s.loaded.engine.game;
    let frame = s.state().stack.last()?;
    let phase = &g.phases[frame.phase as usize];
    let placing = matches!(phase.kind, PhaseKind::Placement(_));
    let sets_up = word == "place" || g.kinds.iter().any(|k| k.name.eq_ignore_ascii_case(word));
    if sets_up && !placing {
        return Some(format!(
            "pieces are set up only during set-up (now: {})",
            phase.label
        ));
    }
    let special = special_names(s).find(|n| n.eq_ignore_ascii_case(word))?;
    let offered = match &phase.kind {
        PhaseKind::Movement(m) => m.specials.iter().any(|sp| sp.name == special),
        _ => false,
    };
    match (offered, offered && !legal_has_special(s)) {
        (false, _) => Some(format!("'{special}' is not offered in {}", phase.label)),
        (true, true) => Some(format!(
            "'{special}' is not available to {} now (used already, or no target)",
            g.players[frame.player.0 as usize].name
        )),
        (true, false) => None,
    }
}

/// During set-up: what a placement is missing (its piece kind), or where
/// the piece it names may go.
fn set_up_hint(s: &Session, wanted: &str, notations: &[String]) -> Option<String> {
    let g = &s.loaded.engine.game;
    let words: Vec<&str> = wanted.split(' ').collect();
    let words = words.strip_prefix(&["place"]).unwrap_or(&words);
    let placements = notations.iter().filter(|n| n.starts_with("place "));
    let kinds_left: Vec<&str> = {
        let mut kinds: Vec<&str> = placements
            .clone()
            .filter_map(|n| n.split(' ').nth(1))
            .collect();
        kinds.dedup();
        kinds
    };
    let first = *words.first()?;
    if kinds_left.is_empty() {
        return None;
    }
    let Some(kind) = g.kinds.iter().find(|k| k.name.eq_ignore_ascii_case(first)) else {
        return g.board.find(first).map(|_| {
            format!(
                "name the piece too, e.g. 'place {} {first}' (pieces left: {})",
                kinds_left[0],
                kinds_left.join(", ")
            )
        });
    };
    if !kinds_left.contains(&kind.name.as_str()) {
        return Some(format!(
            "no {} is left to set up (pieces left: {})",
            kind.name,
            kinds_left.join(", ")
        ));
    }
    let cells: Vec<&str> = placements
        .filter(|n| n.split(' ').nth(1) == Some(kind.name.as_str()))
        .filter_map(|n| n.split(' ').nth(2))
        .collect();
    Some(format!(
        "a {} may be set up on {}",
        kind.name,
        cells.join(", ")
    ))
}

/// Whether a special action is among the legal actions now.
fn legal_has_special(s: &Session) -> bool {
    crate::repl::play::legal(s)
        .iter()
        .any(|a| matches!(a, Action::Special { .. }))
}

/// The words of every special action in the game's movement phases.
fn special_names(s: &Session) -> impl Iterator<Item = &str> {
    s.loaded
        .engine
        .game
        .phases
        .iter()
        .filter_map(|p| match &p.kind {
            PhaseKind::Movement(m) => Some(m.specials.iter().map(|sp| sp.name.as_str())),
            _ => None,
        })
        .flatten()
}
