//! Text that comes from outside the program (a package's titles and
//! messages, a script's error, a file name, a command-line argument) made
//! safe to show on a terminal.
//!
//! Game packages come from other people (DESIGN principle 8): a title or
//! an error message may hold escape sequences that clear the screen, move
//! the cursor, retitle the window or hide text behind a bidirectional
//! override, and a command line or a file may hold megabytes where a word
//! was expected. Everything the program echoes from outside goes through
//! these functions, so the terminal shows what the text *is*.
//!
//! Escapes use JSON's spelling (`\n`, `\t`, `\u001b`), so escaping JSON
//! output leaves it valid JSON with the same meaning.

use std::borrow::Cow;
use std::fmt::Write;

/// The most characters of one untrusted value a one-line message echoes.
pub const ECHO_CHARS: usize = 200;

/// The most characters of an untrusted message (a script's error, say).
pub const MESSAGE_CHARS: usize = 4000;

/// Escapes every character that could drive a terminal, except line
/// breaks and tabs: for text laid out in lines, such as a command's whole
/// output or a script's multi-line error.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c != '\n' && c != '\t' && drives_terminal(c))
}

/// One untrusted value inside a one-line message: every control character
/// escaped, line breaks included, and cut to [`ECHO_CHARS`] characters.
pub fn echo(text: &str) -> Cow<'_, str> {
    cut(escape_where(text, drives_terminal), ECHO_CHARS, text.len())
}

/// An untrusted message of several lines: escaped as [`escape`] does, and
/// cut to [`MESSAGE_CHARS`] characters.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    cut(escape(text), MESSAGE_CHARS, text.len())
}

/// Whether a character can change what a terminal shows beyond printing
/// itself: C0 and C1 controls and DEL (escape sequences, carriage return,
/// backspace, bell), line and paragraph separators, and the invisible
/// marks that reorder bidirectional text.
fn drives_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !escaped(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

/// Keeps the first `limit` characters of an escaped text and says how
/// long the original was.
fn cut(text: Cow<'_, str>, limit: usize, original_bytes: usize) -> Cow<'_, str> {
    match text.char_indices().nth(limit) {
        None => text,
        Some((end, _)) => Cow::Owned(format!("{}… ({original_bytes} bytes in all)", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(escape("Convoy: a1 → b2"), Cow::Borrowed(_)));
        assert!(matches!(echo("no-backward"), Cow::Borrowed(_)));
    }

    #[test]
    fn terminal_controls_are_escaped_in_json_spelling() {
        assert_eq!(escape("a\u{1b}[2Jb\rc\u{7}"), "a\\u001b[2Jb\\rc\\u0007");
        assert_eq!(escape("two\nlines\tkept"), "two\nlines\tkept");
        assert_eq!(echo("two\nlines"), "two\\nlines");
        assert_eq!(echo("\u{9b}31m"), "\\u009b31m", "a C1 control sequence");
        assert_eq!(echo("evil\u{202e}txt.lua"), "evil\\u202etxt.lua");
    }

    #[test]
    fn escaped_json_stays_the_same_json() {
        let json = serde_json::json!({ "title": "x\u{9b}\u{202e}y\u{1b}" }).to_string();
        let back: serde_json::Value = serde_json::from_str(&escape(&json)).unwrap();
        assert_eq!(back["title"], "x\u{9b}\u{202e}y\u{1b}");
    }

    #[test]
    fn long_values_are_cut_with_their_length() {
        let huge = "é".repeat(1_000_000);
        let shown = echo(&huge);
        assert!(shown.chars().count() < ECHO_CHARS + 40, "{}", shown.len());
        assert!(shown.ends_with("… (2000000 bytes in all)"), "{shown}");
        let short = "x".repeat(ECHO_CHARS);
        assert_eq!(echo(&short), short, "exactly the limit is kept whole");
        assert!(excerpt(&"line\n".repeat(10_000)).len() < MESSAGE_CHARS + 40);
    }
}
