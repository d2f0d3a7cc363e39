//! Forks: named copies of the game (state, undo and redo), to try a line
//! of play and come back. The line being played has a name too (`main`
//! at first), so `switch` can always return.

use crate::repl::session::Session;

fn valid_name(name: &str) -> Result<&str, String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(name)
    } else {
        Err("give the branch a name of letters, digits, '-', '_' or '.' (e.g. fork try-sub)".into())
    }
}

/// `fork NAME`: keeps a copy of the current line under NAME; play goes on
/// in the current line.
pub fn fork(s: &mut Session, arg: &str) -> Result<String, String> {
    let name = valid_name(arg)?;
    if name == s.branch || s.branches.contains_key(name) {
        return Err(format!(
            "there is already a branch '{name}' ('branches' lists them)"
        ));
    }
    s.branches.insert(name.to_string(), s.line.clone());
    Ok(format!(
        "forked '{name}' at ply {}; you are still on '{}' ('switch {name}' goes there)\n",
        s.state().ply,
        s.branch
    ))
}

pub fn list(s: &Session) -> String {
    let mut rows = vec![(
        s.branch.clone(),
        s.state().ply,
        true,
        s.state().result.is_some(),
    )];
    rows.extend(
        s.branches
            .iter()
            .map(|(n, l)| (n.clone(), l.state().ply, false, l.state().result.is_some())),
    );
    rows.sort();
    rows.iter()
        .map(|(name, ply, current, over)| {
            format!(
                "{} {name:<16} ply {ply}{}\n",
                if *current { "*" } else { " " },
                if *over { " (game over)" } else { "" }
            )
        })
        .collect()
}

/// `switch NAME`: the current line is kept under its own name.
pub fn switch(s: &mut Session, arg: &str) -> Result<String, String> {
    let name = valid_name(arg)?;
    if name == s.branch {
        return Err(format!("you are on '{name}' already"));
    }
    let Some(line) = s.branches.remove(name) else {
        let known: Vec<&str> = s.branches.keys().map(String::as_str).collect();
        return Err(format!(
            "no branch '{name}': {}",
            crate::data::error::suggest(name, known)
        ));
    };
    let old = std::mem::replace(&mut s.line, line);
    let old_name = std::mem::replace(&mut s.branch, name.to_string());
    s.branches.insert(old_name.clone(), old);
    s.reset_narration();
    s.dirty = true;
    let done = format!(
        "switched to '{name}' at ply {} ('{old_name}' is kept)\n",
        s.state().ply
    );
    Ok(done + &s.after_stepping())
}
