//! Text from outside the program reaches the user's terminal: commands
//! typed or read from a file, names and log lines from a rules package
//! someone else wrote, script errors, save files. Every reply is passed
//! through [`for_terminal`], which escapes what could drive the terminal
//! (with [`crate::untrusted::escape`]) but lets the REPL's own colours
//! through, and text echoed back to the user is shortened by [`quote`].

use crate::untrusted::escape;

/// How much of a user's input an error message repeats.
const QUOTED_CHARS: usize = 60;

/// The longest error message shown whole (a script's error can be huge).
pub const ERROR_CHARS: usize = 2000;

/// Text made safe to print: line breaks and tabs stay, the REPL's own
/// colour codes stay when `colour` is on, every other control character
/// (and the Unicode marks that reorder text) is written as an escape such
/// as `\u001b`.
pub fn for_terminal(text: &str, colour: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        out.push_str(&escape(&rest[..at]));
        rest = &rest[at..];
        let (len, text) = match own_colour_code(rest).filter(|_| colour) {
            Some(len) => (len, &rest[..len]),
            None => (1, "\\u001b"),
        };
        out.push_str(text);
        rest = &rest[len..];
    }
    out.push_str(&escape(rest));
    out
}

/// A piece of the user's input to repeat in a message: on one line, at
/// most [`QUOTED_CHARS`] characters (then `...`).
pub fn quote(text: &str) -> String {
    clip(&text.replace('\n', " "), QUOTED_CHARS)
}

/// At most `max` characters of `text`, with `...` when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// At most about `max` characters of an error message: its start and its
/// end (where the message says what happened to the game), the middle cut.
pub fn clip_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let half = max / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(count - half).collect();
    format!("{head}... ({} characters cut) ...{tail}", count - 2 * half)
}

/// The length of the colour code at the start of `text` if it is one the
/// REPL writes itself (see `render::COLOURS`): `ESC [ params m`.
fn own_colour_code(text: &str) -> Option<usize> {
    let params = text.strip_prefix("\x1b[")?;
    let end = params.find('m')?;
    crate::repl::render::is_own_colour(&params[..end]).then_some(2 + end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_as_escapes() {
        assert_eq!(
            for_terminal("a\x1b]52;c;aGk=\x07b\r\n", false),
            "a\\u001b]52;c;aGk=\\u0007b\\r\n"
        );
        assert_eq!(
            for_terminal("x\u{202e}y\u{9b}2J", false),
            "x\\u202ey\\u009b2J"
        );
    }

    #[test]
    fn only_the_repls_own_colours_pass_and_only_in_colour() {
        let ours = "\x1b[34;1mbD\x1b[0m";
        assert_eq!(for_terminal(ours, true), ours);
        assert_eq!(for_terminal(ours, false), "\\u001b[34;1mbD\\u001b[0m");
        assert_eq!(for_terminal("\x1b[8mhidden", true), "\\u001b[8mhidden");
        assert_eq!(for_terminal("\x1b[2J", true), "\\u001b[2J");
    }

    #[test]
    fn quotes_are_one_short_line() {
        assert_eq!(quote("a\nb"), "a b");
        let long = "x".repeat(100);
        assert_eq!(quote(&long), format!("{}...", "x".repeat(60)));
        assert_eq!(clip("héllo", 2), "hé...");
    }

    #[test]
    fn a_long_error_keeps_its_start_and_its_end() {
        let error = format!("cannot load: {}; the game is unchanged", "x".repeat(5000));
        let shown = clip_middle(&error, 100);
        assert!(shown.starts_with("cannot load: xxx"), "{shown}");
        assert!(shown.ends_with("xxx; the game is unchanged"), "{shown}");
        assert!(shown.contains("(4936 characters cut)"), "{shown}");
        assert_eq!(clip_middle("short", 100), "short");
    }
}
