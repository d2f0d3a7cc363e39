//! Writing SVG as text: elements with attributes, every value escaped.
//!
//! Names in a drawing come from other people's packages and rule scripts
//! (DESIGN principle 8), so no text reaches the file unescaped: markup
//! characters become entities, and characters XML 1.0 forbids (most
//! control characters) become U+FFFD, so the file stays well-formed
//! whatever a package calls its spaces.

use std::fmt::Write;

/// An SVG document being written, element by element.
#[derive(Default)]
pub struct Svg {
    out: String,
    open: Vec<&'static str>,
}

/// An attribute value: numbers are written as they are, text escaped.
#[derive(Clone, Copy)]
pub enum Attr<'a> {
    Text(&'a str),
    Number(f32),
}

impl<'a> From<&'a str> for Attr<'a> {
    fn from(text: &'a str) -> Attr<'a> {
        Attr::Text(text)
    }
}

impl<'a> From<&'a String> for Attr<'a> {
    fn from(text: &'a String) -> Attr<'a> {
        Attr::Text(text)
    }
}

impl From<f32> for Attr<'_> {
    fn from(n: f32) -> Attr<'static> {
        Attr::Number(n)
    }
}

impl Svg {
    /// Opens an element that holds others; close it with [`Svg::close`].
    pub fn open(&mut self, name: &'static str, attrs: &[(&str, Attr)]) {
        self.start_tag(name, attrs);
        self.out.push_str(">\n");
        self.open.push(name);
    }

    /// Closes the innermost open element.
    pub fn close(&mut self) {
        let name = self.open.pop().expect("an open element to close");
        let _ = writeln!(self.out, "{}</{name}>", "  ".repeat(self.open.len()));
    }

    /// An element with no content.
    pub fn empty(&mut self, name: &'static str, attrs: &[(&str, Attr)]) {
        self.start_tag(name, attrs);
        self.out.push_str("/>\n");
    }

    /// An element holding text only.
    pub fn text(&mut self, name: &'static str, attrs: &[(&str, Attr)], text: &str) {
        self.start_tag(name, attrs);
        self.out.push('>');
        escape_into(&mut self.out, text);
        let _ = writeln!(self.out, "</{name}>");
    }

    /// Raw markup this module's caller wrote itself (a `<style>` sheet, a
    /// marker definition): never text from a package.
    pub fn raw(&mut self, markup: &'static str) {
        self.out.push_str(markup);
    }

    /// Appends a part written on its own (every element of it closed).
    pub fn append(&mut self, part: Svg) {
        self.out.push_str(&part.finish());
    }

    /// The document, every element closed.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out
    }

    fn start_tag(&mut self, name: &str, attrs: &[(&str, Attr)]) {
        let _ = write!(self.out, "{}<{name}", "  ".repeat(self.open.len()));
        for (key, value) in attrs {
            let _ = write!(self.out, " {key}=\"");
            match value {
                Attr::Text(t) => escape_into(&mut self.out, t),
                Attr::Number(n) => {
                    let n = if n.is_finite() { *n } else { 0.0 };
                    let _ = write!(self.out, "{}", (n * 10.0).round() / 10.0);
                }
            }
            self.out.push('"');
        }
    }
}

/// Appends text escaped for XML content or a quoted attribute value.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if allowed_in_xml(c) => out.push(c),
            _ => out.push('\u{fffd}'),
        }
    }
}

/// The characters XML 1.0 allows in a document (its `Char` production):
/// tab, line feed, carriage return, and everything from U+0020 except
/// U+FFFE and U+FFFF (Rust strings hold no surrogates).
fn allowed_in_xml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}')
}

/// A name made safe for a CSS class: lower-case letters, digits and `-`,
/// everything else `-` (the exact name is kept in a `data-*` attribute).
pub fn class_word(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_forbidden_characters_never_reach_the_file() {
        let mut svg = Svg::default();
        svg.open("g", &[("data-space", "a\"b<c>&'d".into())]);
        svg.text("text", &[("x", 1.25.into())], "</text><script>\u{0}\u{1b}");
        let out = svg.finish();
        assert_eq!(
            out,
            "<g data-space=\"a&quot;b&lt;c&gt;&amp;&apos;d\">\n  <text x=\"1.3\">&lt;/text&gt;&lt;script&gt;\u{fffd}\u{fffd}</text>\n</g>\n"
        );
    }

    #[test]
    fn numbers_that_are_not_finite_are_written_as_zero() {
        let mut svg = Svg::default();
        svg.empty(
            "rect",
            &[("width", f32::NAN.into()), ("x", f32::INFINITY.into())],
        );
        assert_eq!(svg.finish(), "<rect width=\"0\" x=\"0\"/>\n");
    }

    #[test]
    fn class_words_keep_letters_and_digits_only() {
        assert_eq!(class_word("Strait of Otranto!"), "strait-of-otranto-");
    }
}
