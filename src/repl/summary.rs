//! A board too long for a screen (an area map of a hundred areas, a
//! reserve of hundreds of pieces) summed up in a few lines: each player's
//! pieces counted by kind on the map and in each pool, then the spaces
//! whose pieces changed since the last screen. `board full` draws the
//! whole board. Any game with a large board gets it; nothing here names a
//! game.

use crate::kernel::engine::Engine;
use crate::kernel::piece::{Location, PlayerId};
use crate::kernel::view::View;
use crate::repl::render::space_line;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The most lines the board takes on the screen drawn after each choice:
/// with the rules' status block, the question and the narration, the
/// screen fits a 50-line terminal. A longer board is summed up.
pub const BOARD_LINES: usize = 24;

/// The most narrated lines a summed-up screen shows: the last ones, with a
/// pointer to `log` for the rest.
pub const LOG_LINES: usize = 12;

/// The most changed spaces listed; the rest are counted.
const CHANGED_LINES: usize = 8;

/// Whether a board drawn in full is too long for the screen.
pub fn too_long(full: &str) -> bool {
    full.lines().count() > BOARD_LINES
}

/// The summary: per player, pieces by kind on the map and the count in
/// each pool; then the spaces that changed since `before` (each piece's
/// location at the last screen, `None` before the first).
pub fn summary(engine: &Engine, view: &View, before: Option<&[Location]>, colour: bool) -> String {
    let g = &engine.game;
    let mut out = String::new();
    let owners: Vec<Option<PlayerId>> = (0..g.players.len())
        .map(|p| Some(PlayerId(p as u8)))
        .chain([None])
        .collect();
    for owner in owners {
        let mine: Vec<_> = view.pieces.iter().filter(|p| p.owner == owner).collect();
        if mine.is_empty() {
            continue;
        }
        let mut on_map: BTreeMap<&str, usize> = BTreeMap::new();
        let mut pools = vec![0usize; g.pools.len()];
        for p in &mine {
            match p.loc {
                Location::Space(_) => {
                    let kind = p.kind.map_or("unknown", |k| g.kind(k).label.as_str());
                    *on_map.entry(kind).or_default() += 1;
                }
                Location::Pool(pool) => pools[usize::from(pool.0)] += 1,
            }
        }
        let mut kinds: Vec<(&str, usize)> = on_map.into_iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let on_map_total: usize = mine.len() - pools.iter().sum::<usize>();
        let pools: Vec<String> = pools
            .iter()
            .zip(&g.pool_labels)
            .filter(|(n, _)| **n > 0)
            .map(|(n, label)| format!("{n} {label}"))
            .collect();
        let who = owner.map_or("neutral", |o| g.players[usize::from(o.0)].name.as_str());
        let _ = writeln!(
            out,
            "  {who}: {on_map_total} on the map{}{}",
            if kinds.is_empty() {
                String::new()
            } else {
                format!(" ({})", kinds.join(", "))
            },
            if pools.is_empty() {
                String::new()
            } else {
                format!("; {}", pools.join(", "))
            }
        );
    }
    if let Some(before) = before {
        changed(engine, view, before, colour, &mut out);
    }
    out += "  ('board full' draws the whole board)\n";
    out
}

/// The spaces a piece entered or left since `before`, with what is there
/// now (an emptied space reads `(empty)`).
fn changed(engine: &Engine, view: &View, before: &[Location], colour: bool, out: &mut String) {
    let g = &engine.game;
    let mut spaces = Vec::new();
    for (p, was) in view.pieces.iter().zip(before) {
        for loc in [*was, p.loc] {
            if let Location::Space(s) = loc
                && *was != p.loc
                && !spaces.contains(&s)
            {
                spaces.push(s);
            }
        }
    }
    if spaces.is_empty() {
        return;
    }
    spaces.sort();
    let _ = writeln!(out, "  changed since the last screen:");
    for &s in spaces.iter().take(CHANGED_LINES) {
        let line = space_line(engine, view, s, colour)
            .unwrap_or_else(|| format!("{:<18} (empty)", g.board.label(s)));
        let _ = writeln!(out, "    {line}");
    }
    if spaces.len() > CHANGED_LINES {
        let _ = writeln!(out, "    and {} more spaces", spaces.len() - CHANGED_LINES);
    }
}

/// The last [`LOG_LINES`] of a screen's narration (lines of text), with a
/// first line saying how many came before and how to read them.
pub fn last_lines(narration: &str) -> String {
    let lines: Vec<&str> = narration.lines().collect();
    if lines.len() <= LOG_LINES {
        return narration.to_string();
    }
    let skipped = lines.len() - LOG_LINES;
    let mut out = format!(
        "  ({skipped} earlier lines: 'log {}' shows them all)\n",
        lines.len()
    );
    for l in &lines[skipped..] {
        out += l;
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_narration_keeps_its_last_lines_and_says_how_to_read_the_rest() {
        let narration: String = (1..=20).map(|i| format!("  line {i}\n")).collect();
        let kept = super::last_lines(&narration);
        assert_eq!(kept.lines().count(), super::LOG_LINES + 1);
        assert!(kept.starts_with("  (8 earlier lines: 'log 20' shows them all)\n  line 9\n"));
        assert_eq!(super::last_lines("  one\n"), "  one\n");
    }
}
