//! `--bots`: which bot plays each seat of a simulation.
//!
//! Either by player id (`red=ismcts:500,blue=greedy`; a seat not named
//! plays `random`) or by position (`random,greedy`: seat 1, seat 2, the
//! last one repeating for any seat after). Each spec is handed to
//! [`bots::make`] as written, so what a spec means is the bots' business.

use crate::bots;
use crate::untrusted::echo;

/// The bot spec of each seat, by player index, from `--bots` (`None`:
/// random everywhere). `players` are the game's player ids.
pub fn resolve(spec: Option<&str>, players: &[String]) -> Result<Vec<String>, String> {
    let items: Vec<&str> = spec
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|i| !i.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let named = items.iter().filter(|i| i.contains('=')).count();
    let seats = if named == 0 {
        positional(&items, players.len())?
    } else if named == items.len() {
        by_player(&items, players)?
    } else {
        return Err(format!(
            "--bots {}: name every seat (blue=random,red=random) or none (random,random)",
            echo(spec.unwrap_or_default())
        ));
    };
    for s in &seats {
        if let Err(e) = bots::make(s, 0) {
            return Err(format!("--bots: {e}"));
        }
    }
    Ok(seats)
}

fn positional(items: &[&str], seats: usize) -> Result<Vec<String>, String> {
    if items.len() > seats {
        return Err(format!(
            "--bots lists {} bots for a game of {seats} player{}",
            items.len(),
            if seats == 1 { "" } else { "s" }
        ));
    }
    Ok((0..seats)
        .map(|p| {
            items
                .get(p)
                .or(items.last())
                .map_or("random", |s| s)
                .to_string()
        })
        .collect())
}

fn by_player(items: &[&str], players: &[String]) -> Result<Vec<String>, String> {
    let mut seats: Vec<Option<String>> = vec![None; players.len()];
    for item in items {
        let (player, bot) = item.split_once('=').expect("a named seat");
        let p = players
            .iter()
            .position(|id| id.eq_ignore_ascii_case(player.trim()))
            .ok_or_else(|| {
                format!(
                    "--bots {}: no player '{}'; the players are {}",
                    echo(item),
                    echo(player),
                    players.join(", ")
                )
            })?;
        if seats[p].replace(bot.trim().to_string()).is_some() {
            return Err(format!("--bots names {} twice", players[p]));
        }
    }
    Ok(seats
        .into_iter()
        .map(|s| s.unwrap_or_else(|| "random".into()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Vec<String> {
        vec!["blue".into(), "red".into()]
    }

    #[test]
    fn seats_by_player_by_position_or_default() {
        assert_eq!(resolve(None, &players()).unwrap(), ["random", "random"]);
        assert_eq!(
            resolve(Some("Red=random"), &players()).unwrap(),
            ["random", "random"]
        );
        assert_eq!(
            resolve(Some("random"), &players()).unwrap(),
            ["random", "random"]
        );
    }

    #[test]
    fn mistakes_are_named() {
        let e = resolve(Some("green=random"), &players()).unwrap_err();
        assert!(
            e.contains("no player 'green'") && e.contains("blue, red"),
            "{e}"
        );
        let e = resolve(Some("blue=random,random"), &players()).unwrap_err();
        assert!(e.contains("name every seat"), "{e}");
        let e = resolve(Some("blue=random,blue=random"), &players()).unwrap_err();
        assert!(e.contains("twice"), "{e}");
        let e = resolve(Some("random,random,random"), &players()).unwrap_err();
        assert!(e.contains("3 bots"), "{e}");
        let e = resolve(Some("blue=genius"), &players()).unwrap_err();
        assert!(
            e.contains("bad bot 'genius'") && e.contains("greedy"),
            "{e}"
        );
    }
}
