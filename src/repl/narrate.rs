//! Events in plain words, for one viewer: a hidden piece is "a Red piece",
//! a visible one "Red Destroyer".

use crate::kernel::engine::Engine;
use crate::kernel::event::{Event, Resolved};
use crate::kernel::piece::PieceId;
use crate::kernel::view::View;

/// A piece as the viewer may name it.
pub fn piece_name(engine: &Engine, view: &View, id: PieceId) -> String {
    let g = &engine.game;
    let p = view.piece(id);
    let owner = p.owner.map(|o| g.players[o.0 as usize].name.clone());
    match (owner, p.kind) {
        (Some(o), Some(k)) => format!("{o} {}", g.kind(k).name),
        (Some(o), None) => format!("a {o} piece"),
        (None, Some(k)) => g.kind(k).name.clone(),
        (None, None) => "a piece".to_string(),
    }
}

/// One event in words; `None` for events not worth a line.
pub fn narrate(engine: &Engine, view: &View, event: &Event) -> Option<String> {
    let g = &engine.game;
    let space = |s| g.board.name(s);
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
        Event::Removed { piece, from } => format!(
            "{} removed from {}",
            name(*piece),
            engine.location_name(*from)
        ),
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
        Event::Text { text, .. } => text.clone(),
        Event::Finished(o) => {
            let who = o.winner.map_or("Game over: no winner".to_string(), |w| {
                format!("{} wins", g.players[w.0 as usize].name)
            });
            format!("{who} ({})", o.reason)
        }
    })
}
