//! Questions a command asks before it does what the user could regret:
//! a peek at what the holder's seat may not see (see `gate`), or
//! dropping an unsaved game.
//!
//! The command is kept with its question; `yes` runs it with the answer
//! given, `no` (or any other command) drops it. At the terminal the
//! question is asked at once; in a command file the answer is the next
//! line.

use crate::kernel::view::Viewer;
use crate::repl::commands;
use crate::repl::session::Session;

/// What a `yes` allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// A peek (god view, another player's view, `lua`): in hot-seat play
    /// until the terminal passes to the next player, against bots for the
    /// rest of the game.
    Peek,
    /// One command may replace the game, its undo history and its forks,
    /// though they are not saved.
    Discard,
}

/// A command waiting for a yes.
#[derive(Clone, Debug)]
pub struct Question {
    line: String,
    grant: Grant,
}

/// Asks before a peek: `Some(question)` when it must wait for a yes,
/// `None` to go on (no human holds the screen, one player only, or a yes
/// holds already).
pub fn before_peeking(s: &mut Session, line: &str, what: &str) -> Option<String> {
    if !s.peek_needs_yes() || s.peek_granted() {
        return None;
    }
    let own = s.own_eyes();
    let g = &s.loaded.engine.game;
    let others: Vec<&str> = (0..s.seats.len())
        .filter(|&i| own != Viewer::Player(player(i)))
        .map(|i| g.players[i].name.as_str())
        .collect();
    s.question = Some(Question {
        line: line.to_string(),
        grant: Grant::Peek,
    });
    let others = others.join(" and ");
    Some(if s.hot_seat() {
        format!(
            "{what} would show {others}'s hidden pieces on this shared screen, to whoever is looking.\n\
             Answer 'yes' to allow it until the turn passes, 'no' to keep them hidden.\n"
        )
    } else {
        format!(
            "{what} would show {others}'s hidden pieces: a peek at what your seat may not see.\n\
             Answer 'yes' to allow peeks for the rest of this game (the screen marks them), 'no' to keep them hidden.\n"
        )
    })
}

/// Asks before a command that replaces an unsaved game: `Some(question)`
/// when it must wait for a yes, `None` to go on.
pub fn before_discarding(s: &mut Session, line: &str) -> Option<String> {
    if s.discarding || !s.unsaved() {
        return None;
    }
    let (what, them) = if s.branches.is_empty() {
        (format!("This game (ply {}) is", s.state().ply), "it")
    } else {
        let names: Vec<&str> = s.branches.keys().map(String::as_str).collect();
        let what = format!(
            "This game (ply {}) and its forks ({}) are",
            s.state().ply,
            names.join(", ")
        );
        (what, "them")
    };
    let word = line.split_whitespace().next().unwrap_or(line);
    s.question = Some(Question {
        line: line.to_string(),
        grant: Grant::Discard,
    });
    Some(format!(
        "{what} not saved, and '{word}' would drop {them}.\n\
         Answer 'yes' to drop {them}, 'no' to keep playing ('save FILE' first keeps {them}).\n"
    ))
}

/// `yes` or `no`: answers the waiting question.
pub fn answer(s: &mut Session, word: &str) -> Result<String, String> {
    let Some(q) = s.question.take() else {
        return Err(format!("no question is waiting for '{word}'"));
    };
    if word == "no" {
        return Ok(format!(
            "not done: {}\n",
            crate::repl::escape::quote(&q.line)
        ));
    }
    match q.grant {
        Grant::Peek if s.hot_seat() => s.peeking = true,
        Grant::Peek => s.peeked = true,
        Grant::Discard => s.discarding = true,
    }
    let reply = commands::run(s, &q.line);
    s.discarding = false;
    reply
}

fn player(index: usize) -> crate::kernel::piece::PlayerId {
    crate::kernel::piece::PlayerId(index as u8)
}
