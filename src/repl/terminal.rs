//! The two ways to drive a session: the interactive line editor, and a
//! non-interactive runner that reads commands from a file or a pipe and
//! prints the transcript a user would have seen.

use crate::repl::complete::{self, ReplHelper};
use crate::repl::escape::{clip, for_terminal, quote};
use crate::repl::session::{Reply, Session};
use crate::repl::thinking;
use rustyline::config::Configurer;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{CompletionType, Config, Editor};
use std::io::{BufRead, ErrorKind, IsTerminal, Write};

type Ed = Editor<ReplHelper, FileHistory>;

/// Whether to draw in colour: a terminal, and no `NO_COLOR` (see
/// no-color.org) nor a dumb terminal.
pub fn colour_wanted() -> bool {
    std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

/// Plays at the terminal until the user quits (Ctrl-D or `quit`), offering
/// to save an unsaved game first.
pub fn interactive(session: Session) -> Result<(), String> {
    ended(play_interactive(session))
}

fn play_interactive(mut session: Session) -> Result<(), Stop> {
    session.colour = colour_wanted();
    session.show_thinking = std::io::stdout().is_terminal();
    let ctrl_c = thinking::stop_on_ctrl_c(session.watch.clone());
    let config = Config::builder()
        .history_ignore_space(true)
        .history_ignore_dups(true)
        .map_err(|e| Stop::Failed(e.to_string()))?
        .max_history_size(10_000)
        .map_err(|e| Stop::Failed(e.to_string()))?
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .build();
    let mut editor: Ed = Editor::with_config(config)
        .map_err(|e| Stop::Failed(format!("cannot start the line editor: {e}")))?;
    editor.set_helper(Some(ReplHelper::new(session.colour)));
    editor.set_color_mode(if session.colour {
        rustyline::ColorMode::Enabled
    } else {
        rustyline::ColorMode::Disabled
    });
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    say(&session.welcome())?;
    session.refresh_board();
    if let Err(e) = ctrl_c {
        say(&format!("note: {e}\n"))?;
    }
    loop {
        if let Some(h) = editor.helper_mut() {
            h.words = complete::words(&session);
        }
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let reply = session.execute(&line);
                if show(&mut editor, &mut session, reply)? {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                say("(Ctrl-C: line cancelled; 'quit' or Ctrl-D leaves)\n")?
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(Stop::Failed(format!("terminal error: {e}"))),
        }
    }
    offer_save(&mut editor, &mut session)?;
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(h);
    }
    Ok(())
}

/// Prints a reply, asks its question, handles a hot-seat pass. Returns
/// true when the user asked to leave.
fn show(editor: &mut Ed, session: &mut Session, reply: Reply) -> Result<bool, Stop> {
    say(&reply.text)?;
    let mut quit = reply.quit;
    if let Some(ask) = reply.ask {
        let answer = match editor.readline(&ask.question) {
            Ok(a) if !a.trim().is_empty() => a,
            Ok(_) | Err(ReadlineError::Interrupted | ReadlineError::Eof) => ask.default,
            Err(e) => return Err(Stop::Failed(format!("terminal error: {e}"))),
        };
        let next = session.execute(&format!("{} {}", ask.prefix, answer.trim()));
        quit |= show(editor, session, next)?;
    }
    if let Some((who, text)) = reply.pass {
        let _ = editor.readline("-- your turn is over: press Enter to hide the board --");
        let _ = editor.clear_screen();
        let _ = editor.readline(&format!("-- pass to {who}, press Enter --"));
        let _ = editor.clear_screen();
        session.refresh_board();
        say(&text)?;
    }
    Ok(quit)
}

/// Before leaving: an unsaved game can be saved under a name.
fn offer_save(editor: &mut Ed, session: &mut Session) -> Result<(), Stop> {
    while session.dirty && session.state().ply > 0 {
        let q = "save the game before leaving? a file name, or Enter to leave without saving: ";
        match editor.readline(q) {
            Ok(name) if !name.trim().is_empty() => {
                let reply = session.execute(&format!("save {}", name.trim()));
                say(&reply.text)?;
            }
            _ => break,
        }
    }
    Ok(())
}

/// Runs commands from a reader (a file, or stdin when it is not a
/// terminal), printing each command and what a user would see. Lines
/// starting with `#` are comments. Every command runs; if any failed (or a
/// bot's move failed), the result is an error naming how many and the
/// first, so the process exits with a failure status.
pub fn scripted(session: Session, input: impl BufRead) -> Result<(), String> {
    ended(run_scripted(session, input))
}

fn run_scripted(mut session: Session, input: impl BufRead) -> Result<(), Stop> {
    say(&session.welcome())?;
    session.refresh_board();
    let mut failures = Failures::default();
    if session.take_failed() {
        failures.note(0, "(the opening position)");
    }
    for (index, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Stop::Failed(format!("cannot read commands: {e}")))?;
        if line.trim_start().starts_with('#') {
            continue;
        }
        say(&format!(
            "{}{}\n",
            session.prompt(),
            for_terminal(&clip(&line, ECHOED_CHARS), false)
        ))?;
        let reply = session.execute(&line);
        say(&reply.text)?;
        if reply.failed {
            failures.note(index + 1, &line);
        }
        if let Some(ask) = &reply.ask {
            say(&format!("({}answer with the next command)\n", ask.question))?;
        }
        if let Some((who, text)) = reply.pass {
            say(&format!(
                "-- pass to {who}, press Enter (the screen is cleared) --\n{text}"
            ))?;
            session.refresh_board();
        }
        if reply.quit {
            break;
        }
    }
    failures.result().map_err(Stop::Failed)
}

/// Why a session ended before its user or its commands ended it.
enum Stop {
    /// Whoever read standard output closed it (`portolan play ... | head`):
    /// nobody wants the rest, so the session ends quietly.
    ReaderGone,
    Failed(String),
}

/// What a session's end means for the process: a closed pipe is no error.
fn ended(result: Result<(), Stop>) -> Result<(), String> {
    match result {
        Ok(()) | Err(Stop::ReaderGone) => Ok(()),
        Err(Stop::Failed(e)) => Err(e),
    }
}

/// Writes to standard output and flushes, so the user sees each reply
/// before the next prompt. Never panics, unlike `print!`.
fn say(text: &str) -> Result<(), Stop> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Stop::ReaderGone),
        Err(e) => Err(Stop::Failed(format!("cannot write the transcript: {e}"))),
    }
}

/// How much of a command line the transcript repeats.
const ECHOED_CHARS: usize = 1000;

/// The commands of a file that failed: how many, and the first.
#[derive(Default)]
struct Failures {
    count: usize,
    first: Option<String>,
}

impl Failures {
    fn note(&mut self, line: usize, command: &str) {
        self.count += 1;
        self.first
            .get_or_insert_with(|| format!("line {line}: {}", quote(command)));
    }

    fn result(self) -> Result<(), String> {
        match self.first {
            None => Ok(()),
            Some(first) => Err(for_terminal(
                &format!(
                    "{} command{} failed (the first at {first}); see the transcript above",
                    self.count,
                    if self.count == 1 { "" } else { "s" }
                ),
                false,
            )),
        }
    }
}

/// The history file, under the user's data directory.
fn history_file() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share"))
        })?;
    Some(base.join("portolan").join("history"))
}
