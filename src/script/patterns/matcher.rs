//! The backtracking matcher: lstrlib.c's `MatchState` and `match`, over
//! byte slices, with a work budget.
//!
//! The recursion follows the C code call for call (captures, `?`, `*`,
//! `+` and `-` recurse; everything else loops), so the depth limit fails
//! on exactly the patterns where stock Lua says "pattern too complex".

use std::fmt;

use super::items::{ESC, at, class_end, in_set, single_match};

/// Lua's `LUA_MAXCAPTURES`.
const MAX_CAPTURES: usize = 32;

/// Lua's `MAXCCALLS`: how deep `match` may recurse. It keeps the Rust stack
/// small (a level is two or three small frames) whatever the pattern.
const MAX_DEPTH: u32 = 200;

/// How many steps one API call may take: a whole `find`, `match` or
/// `gsub`, or one iteration of `gmatch`.
///
/// A step is one pattern item tried at one subject position, one byte
/// scanned by a `*`/`+` repetition, `%b` or a back-reference, or one
/// candidate position of a plain search, each a few nanoseconds of work.
/// Ordinary patterns take one to four steps per subject byte (measured over
/// a text: `%s+` 1.2, `(%w+)` 1.9, `[%w_]+=[^;]*;` 4.1), so they can scan
/// 5 MB, more than a rules script has any use for, in one call. A
/// backtracking pattern that would run for minutes or hours in C fails
/// after 0.1 to 0.3 s (6 to 12 ns a step on the 2-core test machine), well
/// within the sandbox's time budget.
pub const STEP_LIMIT: u64 = 20_000_000;

/// Splits the `^` anchor off a `find`, `match` or `gsub` pattern
/// (`gmatch` takes `^` literally).
pub(super) fn split_anchor(pat: &[u8]) -> (bool, &[u8]) {
    match pat.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, pat),
    }
}

/// Why a match could not be carried out. The messages are stock Lua's,
/// except for the step limit, which stock Lua does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PatternError {
    EndsWithEscape,
    MissingBracket,
    MissingBalanceArguments,
    MissingFrontierBracket,
    /// A back-reference or replacement `%n` to a capture that does not
    /// exist (yet); holds `n`.
    InvalidCaptureIndex(u8),
    InvalidPatternCapture,
    UnfinishedCapture,
    TooManyCaptures,
    TooComplex,
    StepLimit,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EndsWithEscape => f.write_str("malformed pattern (ends with '%')"),
            Self::MissingBracket => f.write_str("malformed pattern (missing ']')"),
            Self::MissingBalanceArguments => {
                f.write_str("malformed pattern (missing arguments to '%b')")
            }
            Self::MissingFrontierBracket => f.write_str("missing '[' after '%f' in pattern"),
            Self::InvalidCaptureIndex(n) => write!(f, "invalid capture index %{n}"),
            Self::InvalidPatternCapture => f.write_str("invalid pattern capture"),
            Self::UnfinishedCapture => f.write_str("unfinished capture"),
            Self::TooManyCaptures => f.write_str("too many captures"),
            Self::TooComplex => f.write_str("pattern too complex"),
            Self::StepLimit => write!(
                f,
                "pattern matching exceeded its limit of {STEP_LIMIT} steps \
                 (a pattern that backtracks too much on this subject?)"
            ),
        }
    }
}

/// The work left to one API call (see [`STEP_LIMIT`]).
#[derive(Debug)]
pub(super) struct Steps(u64);

impl Steps {
    pub(super) fn new() -> Self {
        Self(STEP_LIMIT)
    }

    /// Spends `n` steps, or fails once the budget is gone.
    #[inline]
    pub(super) fn spend(&mut self, n: usize) -> Result<(), PatternError> {
        match self.0.checked_sub(n as u64) {
            Some(left) => {
                self.0 = left;
                Ok(())
            }
            None => Err(PatternError::StepLimit),
        }
    }
}

/// A capture's value, as its positions in the subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Captured {
    /// The bytes `start..end`.
    Text { start: usize, end: usize },
    /// A position capture `()`, as the 0-based offset.
    Position(usize),
}

#[derive(Debug, Clone, Copy)]
enum Extent {
    Open,
    Position,
    Closed(usize),
}

#[derive(Debug, Clone, Copy)]
struct Capture {
    start: usize,
    extent: Extent,
}

/// Matches one pattern against one subject, at any number of start
/// positions, sharing one step budget.
#[derive(Debug)]
pub(super) struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    steps: Steps,
    /// Captures started so far, finished or not.
    level: usize,
    /// Recursion levels left.
    depth: u32,
    captures: [Capture; MAX_CAPTURES],
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` (without the `^` anchor, which the callers
    /// handle) over `src`, with a full step budget.
    pub(super) fn new(src: &'a [u8], pat: &'a [u8]) -> Self {
        Self {
            src,
            pat,
            steps: Steps::new(),
            level: 0,
            depth: MAX_DEPTH,
            captures: [Capture {
                start: 0,
                extent: Extent::Open,
            }; MAX_CAPTURES],
        }
    }

    /// Where a match of the whole pattern starting at subject offset `s`
    /// ends, if there is one. Its captures stay readable until the next call.
    pub(super) fn match_at(&mut self, s: usize) -> Result<Option<usize>, PatternError> {
        self.level = 0;
        self.depth = MAX_DEPTH;
        self.recurse(s, 0)
    }

    /// How many values the last match yields: its captures, or the whole
    /// match when it has none and `whole` is asked for.
    pub(super) fn value_count(&self, whole: bool) -> usize {
        if self.level == 0 && whole {
            1
        } else {
            self.level
        }
    }

    /// Capture `i` (0-based) of the last match, which spans `whole`; with
    /// no captures, capture 0 is the whole match.
    pub(super) fn capture(
        &self,
        i: usize,
        whole: (usize, usize),
    ) -> Result<Captured, PatternError> {
        if i >= self.level {
            return match i {
                0 => Ok(Captured::Text {
                    start: whole.0,
                    end: whole.1,
                }),
                _ => Err(PatternError::InvalidCaptureIndex(i as u8 + 1)),
            };
        }
        let Capture { start, extent } = self.captures[i];
        match extent {
            Extent::Open => Err(PatternError::UnfinishedCapture),
            Extent::Position => Ok(Captured::Position(start)),
            Extent::Closed(len) => Ok(Captured::Text {
                start,
                end: start + len,
            }),
        }
    }

    /// lstrlib.c's `match`: one level of recursion.
    fn recurse(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if self.depth == 0 {
            return Err(PatternError::TooComplex);
        }
        self.depth -= 1;
        let result = self.match_here(s, p);
        self.depth += 1;
        result
    }

    /// Matches `pat[p..]` at `src[s..]`, looping where C uses `goto init`.
    fn match_here(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, PatternError> {
        loop {
            self.steps.spend(1)?;
            let Some(&item) = self.pat.get(p) else {
                return Ok(Some(s));
            };
            match (item, at(self.pat, p + 1)) {
                (b'(', b')') => return self.start_capture(s, p + 2, Extent::Position),
                (b'(', _) => return self.start_capture(s, p + 1, Extent::Open),
                (b')', _) => return self.end_capture(s, p + 1),
                (b'$', _) if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                (ESC, b'b') => match self.match_balance(s, p + 2)? {
                    Some(end) => (s, p) = (end, p + 4),
                    None => return Ok(None),
                },
                (ESC, b'f') => {
                    p += 2;
                    if at(self.pat, p) != b'[' {
                        return Err(PatternError::MissingFrontierBracket);
                    }
                    let ep = class_end(self.pat, p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if in_set(previous, self.pat, p, ep - 1)
                        || !in_set(at(self.src, s), self.pat, p, ep - 1)
                    {
                        return Ok(None);
                    }
                    p = ep;
                }
                (ESC, digit @ b'0'..=b'9') => match self.match_back_reference(s, digit)? {
                    Some(end) => (s, p) = (end, p + 2),
                    None => return Ok(None),
                },
                _ => {
                    let ep = class_end(self.pat, p)?;
                    let suffix = at(self.pat, ep);
                    if !single_match(self.src, s, self.pat, p, ep) {
                        if !matches!(suffix, b'*' | b'?' | b'-') {
                            return Ok(None);
                        }
                        p = ep + 1; // zero repetitions
                        continue;
                    }
                    match suffix {
                        b'?' => {
                            if let Some(end) = self.recurse(s + 1, ep + 1)? {
                                return Ok(Some(end));
                            }
                            p = ep + 1;
                        }
                        b'+' => return self.max_expand(s + 1, p, ep),
                        b'*' => return self.max_expand(s, p, ep),
                        b'-' => return self.min_expand(s, p, ep),
                        _ => (s, p) = (s + 1, ep),
                    }
                }
            }
        }
    }

    /// Greedy repetition: the longest run first, then one shorter each time.
    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut run = 0;
        while single_match(self.src, s + run, self.pat, p, ep) {
            run += 1;
        }
        self.steps.spend(run)?;
        loop {
            if let Some(end) = self.recurse(s + run, ep + 1)? {
                return Ok(Some(end));
            }
            if run == 0 {
                return Ok(None);
            }
            run -= 1;
        }
    }

    /// Lazy repetition: the shortest run first, then one longer each time.
    fn min_expand(
        &mut self,
        mut s: usize,
        p: usize,
        ep: usize,
    ) -> Result<Option<usize>, PatternError> {
        loop {
            if let Some(end) = self.recurse(s, ep + 1)? {
                return Ok(Some(end));
            }
            if !single_match(self.src, s, self.pat, p, ep) {
                return Ok(None);
            }
            s += 1;
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        extent: Extent,
    ) -> Result<Option<usize>, PatternError> {
        if self.level >= MAX_CAPTURES {
            return Err(PatternError::TooManyCaptures);
        }
        self.captures[self.level] = Capture { start: s, extent };
        self.level += 1;
        let result = self.recurse(s, p)?;
        if result.is_none() {
            self.level -= 1;
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let open = (0..self.level)
            .rev()
            .find(|&l| matches!(self.captures[l].extent, Extent::Open))
            .ok_or(PatternError::InvalidPatternCapture)?;
        let capture = &mut self.captures[open];
        capture.extent = Extent::Closed(s - capture.start);
        let result = self.recurse(s, p)?;
        if result.is_none() {
            self.captures[open].extent = Extent::Open;
        }
        Ok(result)
    }

    /// `%bxy` at `s`, where `pat[p]` is `x`: where the balanced run ends.
    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if p + 1 >= self.pat.len() {
            return Err(PatternError::MissingBalanceArguments);
        }
        let (open, close) = (self.pat[p], self.pat[p + 1]);
        if self.src.get(s) != Some(&open) {
            return Ok(None);
        }
        let mut depth = 1;
        for (i, &c) in self.src.iter().enumerate().skip(s + 1) {
            if c == close {
                depth -= 1;
                if depth == 0 {
                    self.steps.spend(i - s)?;
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        self.steps.spend(self.src.len() - s)?;
        Ok(None)
    }

    /// `%1`-`%9` (`%0` is always invalid) at `s`: where the repeated text ends.
    fn match_back_reference(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let n = digit - b'0';
        let started = &self.captures[..self.level];
        let Some(&Capture { start, extent }) =
            usize::from(n).checked_sub(1).and_then(|i| started.get(i))
        else {
            return Err(PatternError::InvalidCaptureIndex(n));
        };
        match extent {
            Extent::Open => Err(PatternError::InvalidCaptureIndex(n)),
            // C compares a position capture's negative length as a huge
            // unsigned one, so it never matches.
            Extent::Position => Ok(None),
            Extent::Closed(len) => {
                self.steps.spend(len)?;
                let repeated = self.src.get(s..s + len);
                Ok((repeated == Some(&self.src[start..start + len])).then_some(s + len))
            }
        }
    }
}
