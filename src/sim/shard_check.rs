//! What `merge` checks in a shard result file before it trusts a number
//! in it. A result file comes from another machine, a shared folder or an
//! editor, so every index, count and size is held to what `simulate`
//! writes: no number read can index past a list, divide by zero, or size
//! an allocation (a run of 10^12 games must not reserve 8 TB).

use crate::kernel::game::MAX_PLIES;
use crate::kernel::piece::MAX_PLAYERS;
use crate::sim::shard::ShardFile;
use crate::sim::{GameResult, MAX_GAMES, MAX_THREADS, Shard};

/// Every problem is said in words about the file; the caller names it.
pub fn check(file: &ShardFile) -> Result<(), String> {
    let run = &file.run;
    let players = run.players.len();
    if players == 0 || players > MAX_PLAYERS {
        return Err(format!(
            "its run names {players} players; a game has 1 to {MAX_PLAYERS}"
        ));
    }
    if run.bots.len() != players {
        return Err(format!(
            "its run names {} bots for {players} players",
            run.bots.len()
        ));
    }
    if run.games == 0 || run.games > MAX_GAMES {
        return Err(format!(
            "its run plays {}; a run plays 1 to {MAX_GAMES}",
            games(run.games)
        ));
    }
    let Shard { index, count } = file.shard;
    if count == 0 || index >= count {
        return Err(format!(
            "it calls itself shard {index}/{count}; a shard is I/N with I from 0 to N-1"
        ));
    }
    let expected = file.shard.game_count(run.games);
    if file.results.len() as u64 != expected {
        return Err(format!(
            "it holds {}, but shard {index}/{count} of a run of {} plays {expected}",
            games(file.results.len() as u64),
            games(run.games)
        ));
    }
    if file.threads == 0 || file.threads > MAX_THREADS {
        return Err(format!(
            "it was played on {} threads; a run plays on 1 to {MAX_THREADS}",
            file.threads
        ));
    }
    if !(file.seconds.is_finite() && file.seconds >= 0.0) {
        return Err(format!("it took {} seconds", file.seconds));
    }
    if let Some(c) = &file.coverage
        && c.games != expected
    {
        return Err(format!(
            "its coverage counts {} games, its results {expected}",
            c.games
        ));
    }
    file.results
        .iter()
        .try_for_each(|r| check_result(r, players))
}

/// `1 game`, `2 games`.
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// One game's record: its players are the run's, its length within the
/// cap every game plays under.
fn check_result(r: &GameResult, players: usize) -> Result<(), String> {
    let game = r.index;
    if let Some(w) = r.outcome.winner
        && usize::from(w.0) >= players
    {
        return Err(format!(
            "game {game} is won by player number {} of a game of {players}",
            w.0
        ));
    }
    if usize::from(r.first) >= players {
        return Err(format!(
            "game {game} is started by player number {} of a game of {players}",
            r.first
        ));
    }
    if r.outcome.scores.len() > players {
        return Err(format!(
            "game {game} has {} scores for {players} players",
            r.outcome.scores.len()
        ));
    }
    if r.plies > MAX_PLIES || r.turns > r.plies {
        return Err(format!(
            "game {game} lasts {} plies and {} turns; a game lasts at most {MAX_PLIES} plies, \
             and no more turns than plies",
            r.plies, r.turns
        ));
    }
    Ok(())
}
