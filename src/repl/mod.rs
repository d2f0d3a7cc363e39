//! The REPL: a terminal loop on rustyline around a [`Session`], and a
//! non-interactive runner for command files and pipes.

pub mod commands;
pub mod narrate;
pub mod render;
pub mod session;

pub use session::{Reply, Seat, Session};

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use std::io::BufRead;

/// Plays at the terminal until the user quits.
pub fn interactive(mut session: Session) -> Result<(), String> {
    session.colour = std::env::var_os("NO_COLOR").is_none();
    print!("{}", session.welcome());
    let mut editor =
        DefaultEditor::new().map_err(|e| format!("cannot start the line editor: {e}"))?;
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    loop {
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let reply = session.execute(&line);
                print!("{}", reply.text);
                if reply.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                println!("(Ctrl-C: line cancelled; 'quit' or Ctrl-D leaves)")
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(format!("terminal error: {e}")),
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(h);
    }
    Ok(())
}

/// Runs commands from a reader (a file, or stdin when it is not a
/// terminal), printing each command and what a user would see.
pub fn scripted(mut session: Session, input: impl BufRead) -> Result<(), String> {
    print!("{}", session.welcome());
    for line in input.lines() {
        let line = line.map_err(|e| format!("cannot read commands: {e}"))?;
        if line.trim_start().starts_with('#') {
            continue;
        }
        println!("{}{line}", session.prompt());
        let reply = session.execute(&line);
        print!("{}", reply.text);
        if reply.quit {
            break;
        }
    }
    Ok(())
}

/// The history file, under the user's data directory.
fn history_file() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share"))
        })?;
    Some(base.join("portolan").join("history"))
}
