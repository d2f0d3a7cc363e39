//! The names a game file declares (piece kinds, zones, phases, pools),
//! looked up in constant time: a file may declare tens of thousands of
//! them and refer to them as often, and a scan per reference would make
//! compiling quadratic.

use std::collections::HashMap;

/// Declared names by their index in declaration order; the first
/// declaration of a name wins.
pub struct Names {
    exact: HashMap<String, usize>,
    /// By ASCII-lowercased name, for names that may be written in any case.
    folded: Option<HashMap<String, usize>>,
}

impl Names {
    /// Names that must be written exactly as declared.
    pub fn exact<'a>(names: impl Iterator<Item = &'a str>) -> Names {
        Names {
            exact: first_wins(names.map(String::from)),
            folded: None,
        }
    }

    /// Names found in any case (`cruiser` finds `Cruiser`); an exact match
    /// comes first.
    pub fn any_case<'a>(names: impl Iterator<Item = &'a str> + Clone) -> Names {
        Names {
            exact: first_wins(names.clone().map(String::from)),
            folded: Some(first_wins(names.map(str::to_ascii_lowercase))),
        }
    }

    pub fn get(&self, name: &str) -> Option<usize> {
        self.exact.get(name).copied().or_else(|| {
            let folded = self.folded.as_ref()?;
            folded.get(&name.to_ascii_lowercase()).copied()
        })
    }
}

fn first_wins(names: impl Iterator<Item = String>) -> HashMap<String, usize> {
    let mut map = HashMap::new();
    for (i, name) in names.enumerate() {
        map.entry(name).or_insert(i);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_names_first_then_any_case() {
        let kinds = Names::any_case(["Cruiser", "cruiser", "Destroyer"].into_iter());
        assert_eq!(kinds.get("cruiser"), Some(1));
        assert_eq!(kinds.get("CRUISER"), Some(0));
        assert_eq!(kinds.get("destroyer"), Some(2));
        let zones = Names::exact(["far_row"].into_iter());
        assert_eq!(zones.get("far_row"), Some(0));
        assert_eq!(zones.get("FAR_ROW"), None);
    }
}
