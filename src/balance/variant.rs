//! The variants a balance run compares: `NAME=SPEC`, where SPEC lists,
//! separated by commas, optional rules to switch on (`+id` or `id`) or off
//! (`-id`), overlays to lay on the data (`@name` or `@file.yaml`), and at
//! most one scenario (`game/name`, or a scenario file, `path/file.yaml`)
//! that replaces the command's target. An empty SPEC (`base=`) is the
//! target as given.

use crate::data::catalog::Catalog;
use crate::data::overlay;
use crate::load::{Request, load};
use crate::untrusted::echo;

/// One rule set to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    /// A scenario (id or file) instead of the command's target.
    pub target: Option<String>,
    /// `+id` / `-id`, applied after the command's own `--option`s.
    pub options: Vec<String>,
    /// Overlays laid on top of the command's own `--overlay`s.
    pub overlays: Vec<String>,
}

impl Variant {
    /// Reads `NAME=SPEC`.
    pub fn parse(text: &str) -> Result<Variant, String> {
        let (name, spec) = text.split_once('=').ok_or_else(|| {
            format!(
                "--variant {}: write NAME=SPEC, like base= or radical=+attacker-sunk,+no-backward \
                 or stronger=@white-up",
                echo(text)
            )
        })?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!(
                "--variant {}: the variant needs a name before '='",
                echo(text)
            ));
        }
        let mut variant = Variant {
            name: name.to_string(),
            target: None,
            options: Vec::new(),
            overlays: Vec::new(),
        };
        for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if let Some(overlay) = item.strip_prefix('@') {
                variant.overlays.push(overlay.to_string());
                continue;
            }
            let is_target = item.contains('/') || item.ends_with(".yaml") || item.ends_with(".yml");
            if is_target && !item.starts_with(['+', '-']) {
                if let Some(old) = variant.target.replace(item.to_string()) {
                    return Err(format!(
                        "--variant {}: one scenario a variant ({} and {})",
                        echo(text),
                        echo(&old),
                        echo(item)
                    ));
                }
            } else if item.starts_with(['+', '-']) {
                variant.options.push(item.to_string());
            } else {
                variant.options.push(format!("+{item}"));
            }
        }
        Ok(variant)
    }

    /// The request that loads this variant, from the command's.
    pub fn request(&self, base: &Request) -> Request {
        let mut options = base.options.clone();
        options.extend(self.options.iter().cloned());
        let mut overlays = base.overlays.clone();
        overlays.extend(self.overlays.iter().cloned());
        Request {
            target: self.target.clone().unwrap_or_else(|| base.target.clone()),
            options,
            overlays,
        }
    }

    /// The variant in words: `med-convoy/radical +coin-equal`.
    pub fn describe(&self, base: &Request) -> String {
        let r = self.request(base);
        std::iter::once(r.target)
            .chain(r.options.iter().map(|o| {
                if o.starts_with(['+', '-']) {
                    o.clone()
                } else {
                    format!("+{o}")
                }
            }))
            .chain(r.overlays.iter().map(|o| format!("@{o}")))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Variant {
    /// The command's target as given.
    fn base() -> Variant {
        Variant {
            name: "base".into(),
            target: None,
            options: vec![],
            overlays: vec![],
        }
    }
}

/// A list of variants made from the command's request: the base first.
pub type Each = fn(&Catalog, &Request) -> Result<Vec<Variant>, String>;

/// `--each-option`: the target as given, then the target with each
/// optional rule it does not already play with, alone.
pub fn each_option(catalog: &Catalog, base: &Request) -> Result<Vec<Variant>, String> {
    let loaded = load(catalog, base).map_err(|e| e.to_string())?;
    let mut options: Vec<_> = loaded
        .engine
        .game
        .options
        .iter()
        .filter(|o| !o.enabled)
        .collect();
    options.sort_by_key(|o| o.number);
    let alone = options.into_iter().map(|o| Variant {
        name: o.id.clone(),
        options: vec![format!("+{}", o.id)],
        ..Variant::base()
    });
    Ok(std::iter::once(Variant::base()).chain(alone).collect())
}

/// `--each-overlay`: the target as given, then the target with each
/// overlay its game ships, alone.
pub fn each_overlay(catalog: &Catalog, base: &Request) -> Result<Vec<Variant>, String> {
    let loaded = load(catalog, base).map_err(|e| e.to_string())?;
    let alone = overlay::names(&loaded.package)
        .into_iter()
        .filter(|name| !loaded.overlays.iter().any(|o| &o.label == name))
        .map(|name| Variant {
            name: name.clone(),
            overlays: vec![name],
            ..Variant::base()
        });
    Ok(std::iter::once(Variant::base()).chain(alone).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_read_options_and_scenarios() {
        let v = Variant::parse("radical=+attacker-sunk, no-backward,-coin-equal").unwrap();
        assert_eq!(v.name, "radical");
        assert_eq!(v.target, None);
        assert_eq!(v.options, ["+attacker-sunk", "+no-backward", "-coin-equal"]);
        let v = Variant::parse("base=").unwrap();
        assert_eq!((v.target, v.options.len()), (None, 0));
        let v = Variant::parse("wolf=med-convoy/wolfpack,+coin-equal").unwrap();
        assert_eq!(v.target.as_deref(), Some("med-convoy/wolfpack"));
        let v = Variant::parse("file=scenarios/med-convoy/radical.yaml").unwrap();
        assert_eq!(
            v.target.as_deref(),
            Some("scenarios/med-convoy/radical.yaml")
        );
        assert!(Variant::parse("nothing").is_err());
        assert!(Variant::parse("=x").is_err());
        assert!(Variant::parse("two=a/b,c/d").is_err());
    }

    #[test]
    fn a_variant_adds_to_the_command() {
        let base = Request {
            target: "med-convoy".into(),
            options: vec!["land-centre".into()],
            overlays: vec![],
        };
        let v = Variant::parse("r=+coin-equal").unwrap();
        assert_eq!(v.request(&base).options, ["land-centre", "+coin-equal"]);
        assert_eq!(v.describe(&base), "med-convoy +land-centre +coin-equal");
    }
}
