//! Writing a command's result to the terminal, a pipe or a file.
//!
//! `print!` panics when a write fails: `portolan list | head -1` closes
//! the pipe after one line, `portolan list > /dev/full` finds the disk
//! full. Here every write is checked: a reader that went away ends the
//! command quietly (it asked for no more), any other failure is an error
//! that says what happened, and neither is ever a panic. Everything
//! written passes through [`untrusted::escape`], so no text from a
//! package can drive the terminal.

use crate::untrusted;
use std::io::{self, ErrorKind, Write};
use std::process::ExitCode;

/// What became of a command's output.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery {
    /// All of it was written.
    Written,
    /// The reader closed the pipe first: nobody wants the rest.
    ReaderGone,
}

/// Writes text, escaped, and flushes it.
pub fn deliver(out: &mut impl Write, text: &str) -> io::Result<Delivery> {
    let written = out
        .write_all(untrusted::escape(text).as_bytes())
        .and_then(|()| out.flush());
    match written {
        Ok(()) => Ok(Delivery::Written),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(Delivery::ReaderGone),
        Err(e) => Err(e),
    }
}

/// Ends a command: its text on standard output, or its error on standard
/// error; the exit code says which (and whether the output could be
/// written at all).
pub fn finish(result: Result<String, String>) -> ExitCode {
    finish_to(result, &mut io::stdout().lock(), &mut io::stderr().lock())
}

fn finish_to(
    result: Result<String, String>,
    out: &mut impl Write,
    err: &mut impl Write,
) -> ExitCode {
    match result.map(|text| deliver(out, &text)) {
        Ok(Ok(_)) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            complain(err, &format!("portolan: cannot write the output: {e}"));
            ExitCode::FAILURE
        }
        Err(message) => {
            complain(err, &message);
            ExitCode::FAILURE
        }
    }
}

/// Writes an error line; if even that fails there is nobody to tell.
fn complain(err: &mut impl Write, message: &str) {
    let _ = deliver(err, &format!("{message}\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose every write fails with the given error.
    struct Failing(ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn a_closed_pipe_ends_quietly() {
        let mut err = Vec::new();
        let code = finish_to(
            Ok("one\ntwo\n".into()),
            &mut Failing(ErrorKind::BrokenPipe),
            &mut err,
        );
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    }

    #[test]
    fn a_full_disk_is_an_error_that_says_so() {
        let mut err = Vec::new();
        let code = finish_to(
            Ok("report\n".into()),
            &mut Failing(ErrorKind::StorageFull),
            &mut err,
        );
        assert_eq!(code, ExitCode::FAILURE);
        let said = String::from_utf8(err).unwrap();
        assert!(
            said.starts_with("portolan: cannot write the output: "),
            "{said}"
        );
    }

    #[test]
    fn a_failing_error_stream_is_no_panic_either() {
        let code = finish_to(
            Err("bad".into()),
            &mut Vec::new(),
            &mut Failing(ErrorKind::BrokenPipe),
        );
        assert_eq!(code, ExitCode::FAILURE);
    }

    #[test]
    fn output_is_escaped() {
        let mut out = Vec::new();
        deliver(&mut out, "title\u{1b}]0;pwned\u{7}\n").unwrap();
        assert_eq!(out, b"title\\u001b]0;pwned\\u0007\n");
    }
}
