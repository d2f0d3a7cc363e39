//! A small XML reader for the SVG tests: it checks that a document is
//! well-formed (one root, tags nested and matched, attributes quoted and
//! not repeated, every `&` an entity, no character XML forbids) and gives
//! its elements as a tree. No XML crate is in the build, and the drawing
//! uses only this much of XML.

/// One element: its name, its attributes (unescaped), its child elements
/// and its text (unescaped, children's text excluded).
#[derive(Debug)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
}

impl Element {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// This element and every one inside it, in document order.
    pub fn all(&self) -> Vec<&Element> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.all());
        }
        out
    }

    /// Every element with `class` among its classes.
    pub fn with_class(&self, class: &str) -> Vec<&Element> {
        self.all()
            .into_iter()
            .filter(|e| {
                e.attr("class")
                    .is_some_and(|c| c.split(' ').any(|w| w == class))
            })
            .collect()
    }

    /// All the text inside, children's included.
    pub fn all_text(&self) -> String {
        self.all().iter().map(|e| e.text.as_str()).collect()
    }
}

/// Parses a document, or says where it is not well-formed.
pub fn parse(doc: &str) -> Result<Element, String> {
    if let Some(c) = doc.chars().find(|&c| !allowed(c)) {
        return Err(format!("a character XML forbids: {:?}", c));
    }
    let mut p = Parser { rest: doc };
    p.skip_space();
    let root = p.element()?;
    p.skip_space();
    if !p.rest.is_empty() {
        return Err(format!("content after the root: {:.40}", p.rest));
    }
    Ok(root)
}

fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}')
}

struct Parser<'a> {
    rest: &'a str,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, s: &str) -> Result<(), String> {
        match self.rest.strip_prefix(s) {
            Some(r) => {
                self.rest = r;
                Ok(())
            }
            None => Err(format!("expected {s:?} at {:.40}", self.rest)),
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let end = self
            .rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')))
            .unwrap_or(self.rest.len());
        let first_ok = self
            .rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if end == 0 || !first_ok {
            return Err(format!("expected a name at {:.40}", self.rest));
        }
        let name = self.rest[..end].to_string();
        self.rest = &self.rest[end..];
        Ok(name)
    }

    fn element(&mut self) -> Result<Element, String> {
        self.eat("<")?;
        let name = self.name()?;
        let mut attrs: Vec<(String, String)> = Vec::new();
        loop {
            let before = self.rest.len();
            self.skip_space();
            if self.rest.starts_with("/>") {
                self.rest = &self.rest[2..];
                return Ok(Element {
                    name,
                    attrs,
                    children: Vec::new(),
                    text: String::new(),
                });
            }
            if self.rest.starts_with('>') {
                self.rest = &self.rest[1..];
                break;
            }
            if self.rest.len() == before {
                return Err(format!(
                    "expected a space before an attribute at {:.40}",
                    self.rest
                ));
            }
            let key = self.name()?;
            self.eat("=\"")?;
            let end = self.rest.find('"').ok_or("an attribute value never ends")?;
            let raw = &self.rest[..end];
            if raw.contains('<') {
                return Err(format!("'<' in the value of {key}"));
            }
            let value = unescape(raw)?;
            self.rest = &self.rest[end + 1..];
            if attrs.iter().any(|(k, _)| *k == key) {
                return Err(format!("attribute {key} repeated on <{name}>"));
            }
            attrs.push((key, value));
        }
        let mut children = Vec::new();
        let mut text = String::new();
        loop {
            let lt = self
                .rest
                .find('<')
                .ok_or_else(|| format!("<{name}> never closes"))?;
            text += &unescape(&self.rest[..lt])?;
            self.rest = &self.rest[lt..];
            if self.rest.starts_with("</") {
                self.rest = &self.rest[2..];
                let closing = self.name()?;
                if closing != name {
                    return Err(format!("<{name}> closed by </{closing}>"));
                }
                self.skip_space();
                self.eat(">")?;
                return Ok(Element {
                    name,
                    attrs,
                    children,
                    text,
                });
            }
            children.push(self.element()?);
        }
    }
}

/// Text with XML's entities replaced; a bare `&` or an unknown entity is
/// not well-formed.
fn unescape(raw: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out += &rest[..amp];
        let semi = rest[amp..]
            .find(';')
            .ok_or_else(|| format!("a bare '&' in {raw:.40}"))?;
        let entity = &rest[amp + 1..amp + semi];
        out.push(match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("bad entity &{e};"))?,
            e if e.starts_with('#') => e[1..]
                .parse()
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("bad entity &{e};"))?,
            e => return Err(format!("unknown entity &{e};")),
        });
        rest = &rest[amp + semi + 1..];
    }
    out += rest;
    Ok(out)
}

#[test]
fn the_reader_refuses_what_is_not_well_formed() {
    assert!(parse("<a x=\"1\"><b/>t &amp; u</a>").is_ok());
    for bad in [
        "<a><b></a>",
        "<a x=\"1\" x=\"2\"/>",
        "<a>&</a>",
        "<a>&bogus;</a>",
        "<a x=1/>",
        "<a/><b/>",
        "<a>\u{1}</a>",
        "<a x=\"<\"/>",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}
