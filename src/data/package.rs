//! A rules package: `game.yaml`, its Lua files and its README, read in
//! full up front so a script's `require` never touches the file system.

use crate::data::error::{DataError, DataErrors};
use crate::data::game_file::GameFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of one package, by path relative to the package folder.
#[derive(Clone, Debug)]
pub struct Package {
    /// How errors name the package: `rules/med-convoy` or a disk path.
    pub root: String,
    pub files: BTreeMap<String, String>,
}

/// The limit on one package file; a game.yaml or script is far smaller.
const MAX_FILE_BYTES: u64 = 4 << 20;

impl Package {
    /// Reads a package folder from disk (its .yaml, .lua and .md files).
    pub fn from_dir(dir: &Path) -> Result<Package, DataErrors> {
        let root = dir.display().to_string();
        let mut files = BTreeMap::new();
        read_tree(dir, dir, &mut files)
            .map_err(|e| DataError::new(&root, format!("cannot read the package: {e}")))?;
        if !files.contains_key("game.yaml") {
            return Err(DataError::new(
                &root,
                "no game.yaml here: a rules package is a folder with a game.yaml",
            )
            .into());
        }
        Ok(Package { root, files })
    }

    /// The display path of a file in this package.
    pub fn path_of(&self, file: &str) -> String {
        format!("{}/{file}", self.root)
    }

    /// Parses game.yaml; errors carry line and column.
    pub fn game_file(&self) -> Result<GameFile, DataErrors> {
        let path = self.path_of("game.yaml");
        let text = self
            .files
            .get("game.yaml")
            .ok_or_else(|| DataError::new(&path, "missing"))?;
        crate::data::yaml::parse(&path, text)
    }

    /// The Lua sources, for the sandbox's `require`.
    pub fn lua_files(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .filter(|(k, _)| k.ends_with(".lua"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

fn read_tree(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_tree(root, &p, files)?;
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("yaml" | "lua" | "md")
        ) {
            if std::fs::metadata(&p)?.len() > MAX_FILE_BYTES {
                return Err(std::io::Error::other(format!(
                    "{} is larger than 4 MiB",
                    p.display()
                )));
            }
            let rel = p
                .strip_prefix(root)
                .expect("inside root")
                .to_string_lossy()
                .replace('\\', "/");
            files.insert(rel, std::fs::read_to_string(&p)?);
        }
    }
    Ok(())
}
