//! A rules package: `game.yaml`, its Lua files and its README, read in
//! full up front so a script's `require` never touches the file system.
//!
//! A package comes from someone else, so reading its folder trusts nothing
//! in it: only regular files are read, each at most [`FILE_LIMIT`] and all
//! together at most [`PACKAGE_BYTES`], in at most [`PACKAGE_ENTRIES`] files
//! and folders. A link to a file is followed only when the file it leads
//! to is inside the package folder; a link to a folder is not followed at
//! all (it could lead outside, or loop). Entries whose names start with a
//! dot (version control, an editor's lock and swap files) are not part of
//! the package and are skipped, as is every file that is not `.yaml`,
//! `.lua` or `.md`, unopened. Every problem is reported, each naming its
//! file.

use crate::data::error::{DataError, DataErrors};
use crate::data::game_file::GameFile;
use crate::files::{Limit, read_inside};
use std::collections::BTreeMap;
use std::fs::DirEntry;
use std::path::Path;

/// The files of one package, by path relative to the package folder.
#[derive(Clone, Debug)]
pub struct Package {
    /// How errors name the package: `rules/med-convoy` or a disk path.
    pub root: String,
    pub files: BTreeMap<String, String>,
}

/// The largest data or script file read, in a package or a scenarios
/// folder; a game.yaml or a script is far smaller.
pub const FILE_LIMIT: Limit = Limit {
    bytes: 4 << 20,
    what: "a rules or scenario file",
};

/// The most a whole package's files may hold together.
pub const PACKAGE_BYTES: u64 = 32 << 20;

/// The most files and folders a package folder may hold, counting the ones
/// that are skipped: a walk through a huge folder is refused, not endured.
pub const PACKAGE_ENTRIES: usize = 10_000;

impl Package {
    /// Reads a package folder from disk (its .yaml, .lua and .md files).
    pub fn from_dir(dir: &Path) -> Result<Package, DataErrors> {
        let root = dir.display().to_string();
        let mut walk = Walk {
            root: dir,
            files: BTreeMap::new(),
            bytes: 0,
            entries: 0,
            errors: Vec::new(),
            stopped: false,
        };
        walk.folder(dir);
        if !walk.errors.is_empty() {
            return Err(DataErrors(walk.errors));
        }
        if !walk.files.contains_key("game.yaml") {
            return Err(DataError::new(
                &root,
                "no game.yaml here: a rules package is a folder with a game.yaml",
            )
            .into());
        }
        Ok(Package {
            root,
            files: walk.files,
        })
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

/// Reading a package folder: what has been read so far, and every problem.
struct Walk<'a> {
    root: &'a Path,
    files: BTreeMap<String, String>,
    bytes: u64,
    entries: usize,
    errors: Vec<DataError>,
    /// A whole-package limit was passed: the walk reads nothing more.
    stopped: bool,
}

impl Walk<'_> {
    fn folder(&mut self, dir: &Path) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                let shown = dir.display().to_string();
                return self.errors.push(DataError::new(&shown, e.to_string()));
            }
        };
        let room = (PACKAGE_ENTRIES + 1).saturating_sub(self.entries);
        let mut entries: Vec<DirEntry> = entries
            .flatten()
            .take(room)
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .collect();
        self.entries += entries.len();
        if self.entries > PACKAGE_ENTRIES {
            return self.stop(format!(
                "holds more than {PACKAGE_ENTRIES} files and folders; \
                 a rules package is far smaller (is this the right folder?)"
            ));
        }
        entries.sort_by_key(DirEntry::file_name);
        for entry in entries {
            if self.stopped {
                return;
            }
            self.entry(&entry);
        }
    }

    fn entry(&mut self, entry: &DirEntry) {
        let path = entry.path();
        let shown = path.display().to_string();
        let Ok(file_type) = entry.file_type() else {
            return;
        };
        if file_type.is_dir() {
            return self.folder(&path);
        }
        if file_type.is_symlink() && path.is_dir() {
            return self.errors.push(DataError::new(
                &shown,
                "is a link to a folder, and a package's links to folders are not followed: \
                 move or copy the folder in",
            ));
        }
        if !is_package_file(&path) {
            return;
        }
        match read_inside(self.root, &path, FILE_LIMIT) {
            Ok(text) => self.add(&path, text),
            Err(e) => self.errors.push(DataError::new(&shown, e.problem)),
        }
    }

    fn add(&mut self, path: &Path, text: String) {
        self.bytes += text.len() as u64;
        if self.bytes > PACKAGE_BYTES {
            return self.stop(format!(
                "its files hold more than {} MiB together; a rules package is far smaller",
                PACKAGE_BYTES >> 20
            ));
        }
        let relative = path
            .strip_prefix(self.root)
            .expect("a walk stays under its root")
            .to_string_lossy()
            .replace('\\', "/");
        self.files.insert(relative, text);
    }

    /// Records a problem with the whole package and ends the walk.
    fn stop(&mut self, problem: String) {
        let root = self.root.display().to_string();
        self.errors.push(DataError::new(&root, problem));
        self.stopped = true;
    }
}

/// The files a package is made of: data, scripts and rule readings.
fn is_package_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|x| x.to_str()),
        Some("yaml" | "lua" | "md")
    )
}
