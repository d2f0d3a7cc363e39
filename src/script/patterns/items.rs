//! Single-character pattern items: `.`, `%a`-style classes, sets `[...]`
//! and literal bytes, as lstrlib.c's `classend`, `singlematch`,
//! `match_class` and `matchbracketclass` read them.
//!
//! Lua scans patterns as C strings, so a read one past the end sees the
//! terminating `\0`; [`at`] reproduces that, which keeps the edge cases
//! (`%` at the end, an unclosed `[`) exactly as stock Lua handles them.

use super::matcher::PatternError;

/// Lua's escape character.
pub(super) const ESC: u8 = b'%';

/// The byte at `i`, or the C string terminator `\0` past the end.
#[inline]
pub(super) fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// Where the single-character class starting at `p` ends, that is, where
/// its optional repetition suffix would be.
pub(super) fn class_end(pat: &[u8], p: usize) -> Result<usize, PatternError> {
    let first = pat[p];
    let mut p = p + 1;
    match first {
        ESC if p == pat.len() => Err(PatternError::EndsWithEscape),
        ESC => Ok(p + 1),
        b'[' => {
            if at(pat, p) == b'^' {
                p += 1;
            }
            // The first member is taken as is, so `[]]` and `[^]]` hold `]`.
            loop {
                if p == pat.len() {
                    return Err(PatternError::MissingBracket);
                }
                let c = pat[p];
                p += 1;
                if c == ESC && p < pat.len() {
                    p += 1; // an escaped member, such as `%]`
                }
                if at(pat, p) == b']' {
                    return Ok(p + 1);
                }
            }
        }
        _ => Ok(p),
    }
}

/// Whether subject byte `src[s]` matches the class `pat[p..ep]` (false at
/// the end of the subject).
#[inline]
pub(super) fn single_match(src: &[u8], s: usize, pat: &[u8], p: usize, ep: usize) -> bool {
    let Some(&c) = src.get(s) else {
        return false;
    };
    match pat[p] {
        b'.' => true,
        ESC => in_class(c, pat[p + 1]),
        b'[' => in_set(c, pat, p, ep - 1),
        literal => literal == c,
    }
}

/// Whether `c` is in the `%`-class named by `class` (`a`, `D`, ...), in the
/// C locale; any other byte after `%` stands for itself.
pub(super) fn in_class(c: u8, class: u8) -> bool {
    let found = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace also counts \v, which Rust's is_ascii_whitespace omits.
        b's' => matches!(c, b'\t'..=b'\r' | b' '),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0, // deprecated, but still in 5.4
        _ => return class == c,
    };
    found == class.is_ascii_lowercase()
}

/// Whether `c` is in the set `pat[p..=close]`, where `pat[p]` is its `[`
/// and `pat[close]` its `]`.
pub(super) fn in_set(c: u8, pat: &[u8], p: usize, close: usize) -> bool {
    let mut p = p + 1;
    let negated = pat[p] == b'^';
    if negated {
        p += 1;
    }
    while p < close {
        if pat[p] == ESC {
            p += 1;
            if in_class(c, pat[p]) {
                return !negated;
            }
        } else if pat[p + 1] == b'-' && p + 2 < close {
            if (pat[p]..=pat[p + 2]).contains(&c) {
                return !negated;
            }
            p += 2;
        } else if pat[p] == c {
            return !negated;
        }
        p += 1;
    }
    negated
}
