//! Looking at the game: one piece or space in detail, the event log in
//! words, the rules' game sheet, the board drawn as SVG.

use crate::files::write_atomic;
use crate::kernel::piece::{Location, PieceId};
use crate::repl::narrate::{narrate_all, piece_name};
use crate::repl::session::Session;
use std::fmt::Write;

/// `show PIECE|SPACE`: a piece by `#ID`, or a space by name.
pub fn show(s: &Session, arg: &str) -> Result<String, String> {
    let engine = &s.loaded.engine;
    let g = &engine.game;
    let view = s.view();
    if let Some(n) = arg.strip_prefix('#') {
        let id = n
            .parse::<usize>()
            .ok()
            .filter(|&i| (1..=view.pieces.len()).contains(&i))
            .ok_or_else(|| format!("no piece {arg}: pieces are #1 to #{}", view.pieces.len()))?;
        return Ok(piece(s, PieceId((id - 1) as u16)));
    }
    let space = g.board.find(arg).ok_or_else(|| {
        let names: Vec<&str> = g.board.ids().map(|i| g.board.name(i)).collect();
        format!(
            "'{arg}' is neither a piece (#ID) nor a space: {}",
            crate::data::error::suggest(arg, names)
        )
    })?;
    let sp = g.board.space(space);
    let mut out = format!(
        "{} ({})",
        g.board.label(space),
        g.board.space_kind_label(space)
    );
    if let Some(r) = &sp.region {
        let _ = write!(out, ", region {r}");
    }
    if !sp.tags.is_empty() {
        let _ = write!(out, ", tags: {}", sp.tags.join(", "));
    }
    out.push('\n');
    for (k, v) in &sp.attrs {
        let _ = writeln!(out, "  {k} = {v}");
    }
    let near: Vec<String> = g
        .board
        .neighbours(space)
        .map(|n| g.board.label(n))
        .collect();
    let _ = writeln!(out, "  next to: {}", near.join(", "));
    let here: Vec<String> = view
        .pieces
        .iter()
        .filter(|p| p.loc == Location::Space(space))
        .map(|p| format!("#{} {}", p.id.0 + 1, piece_name(engine, &view, p.id)))
        .collect();
    let _ = writeln!(
        out,
        "  here: {}",
        if here.is_empty() {
            "nothing".to_string()
        } else {
            here.join(", ")
        }
    );
    Ok(out)
}

fn piece(s: &Session, id: PieceId) -> String {
    let engine = &s.loaded.engine;
    let view = s.view();
    let p = view.piece(id);
    let mut out = format!("#{} {}", id.0 + 1, piece_name(engine, &view, id));
    let face = match (p.kind, p.public) {
        (None, _) => "face hidden from you",
        (Some(_), true) => "revealed to everyone",
        (Some(_), false) => "face known to its owner",
    };
    let _ = writeln!(out, " at {} ({face})", engine.game.location_label(p.loc));
    for (attr, label) in &engine.game.shown_attrs {
        if let Some(v) = p.attrs.get(attr) {
            let _ = writeln!(out, "  {label}: {v}");
        }
    }
    let moves: Vec<String> = crate::repl::play::legal(s)
        .into_iter()
        .filter(|a| matches!(a, crate::kernel::action::Action::Move { piece, .. } if *piece == id))
        .map(|a| engine.notation(s.state(), a))
        .collect();
    if !moves.is_empty() {
        let _ = writeln!(out, "  can now: {}", moves.join(", "));
    }
    out
}

/// `log [N]`: the last N events the viewer may see, in words.
pub fn log(s: &Session, arg: &str) -> Result<String, String> {
    let n: usize = if arg.is_empty() {
        10
    } else {
        arg.parse()
            .map_err(|_| format!("'log {arg}': give a number of events"))?
    };
    let view = s.view();
    let lines = narrate_all(&s.loaded.engine, &view, &view.events);
    if lines.is_empty() {
        return Ok("nothing has happened yet\n".into());
    }
    Ok(lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| format!("  {l}\n"))
        .collect())
}

/// `sheet [FILE]`: the rules' sheet as text, or written as Markdown.
pub fn sheet(s: &Session, arg: &str) -> Result<String, String> {
    let engine = &s.loaded.engine;
    let format = if arg.is_empty() { "text" } else { "markdown" };
    let text = match engine.sheet(s.state(), format) {
        None => {
            return Err(format!(
                "{} has no game sheet (its rules define no rules.sheet)",
                engine.game.title
            ));
        }
        Some(r) => r.map_err(|e| format!("rules.sheet failed: {e}"))?,
    };
    if arg.is_empty() {
        let mut t = text;
        if !t.ends_with('\n') {
            t.push('\n');
        }
        return Ok(t);
    }
    write_atomic(&crate::repl::save::typed_path(arg), text.as_bytes())
        .map_err(|e| format!("cannot write {arg}: {}", e.problem))?;
    Ok(format!("wrote the game sheet to {arg} (Markdown)\n"))
}

/// `map FILE.svg`: the board drawn as the screen shows it, through the
/// same eyes (a seat's view, or the god view where `view all` chose it).
/// A failing `rules.map_notes` still writes the drawing, without notes.
pub fn map(s: &Session, arg: &str) -> Result<String, String> {
    if arg.is_empty() {
        return Err("usage: map FILE.svg (e.g. map board.svg)".into());
    }
    let drawing = crate::render::draw(&s.loaded, s.state(), s.shown_viewer());
    write_atomic(&crate::repl::save::typed_path(arg), drawing.svg.as_bytes())
        .map_err(|e| format!("cannot write {arg}: {}", e.problem))?;
    let wrote = format!(
        "wrote the map to {arg} ({})",
        crate::repl::setup::seen_by(s)
    );
    match drawing.problems.as_slice() {
        [] => Ok(format!("{wrote}\n")),
        problems => Err(format!(
            "{wrote}, without the rules' notes: {}",
            problems.join("; ")
        )),
    }
}
