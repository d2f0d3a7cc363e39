//! Copies of a stock package (Mediterranean Convoy unless another is
//! named) in a temporary folder, for tests that break or subvert it on
//! purpose.

use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// A copy of a stock package at `<tempdir>/<game>`. The folder is
/// deleted when the returned guard drops.
pub struct PackageCopy {
    _dir: TempDir,
    pub root: PathBuf,
}

impl PackageCopy {
    pub fn new() -> PackageCopy {
        PackageCopy::of("med-convoy")
    }

    /// A copy of `rules/<game>` at `<tempdir>/<game>`.
    pub fn of(game: &str) -> PackageCopy {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let root = dir.path().join(game);
        let stock = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rules")
            .join(game);
        copy_tree(&stock, &root);
        PackageCopy { _dir: dir, root }
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.root.join(file)
    }

    pub fn read(&self, file: &str) -> String {
        fs::read_to_string(self.path(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    pub fn write(&self, file: &str, text: &str) {
        let path = self.path(file);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, text).unwrap_or_else(|e| panic!("{file}: {e}"));
    }

    /// Replaces the one occurrence of `from` in a file by `to`.
    pub fn replace(&self, file: &str, from: &str, to: &str) {
        let text = self.read(file);
        assert_eq!(text.matches(from).count(), 1, "'{from}' once in {file}");
        self.write(file, &text.replacen(from, to, 1));
    }

    /// Line and column (from 1) where `needle` first occurs in a file.
    pub fn position_of(&self, file: &str, needle: &str) -> (usize, usize) {
        let text = self.read(file);
        text.lines()
            .enumerate()
            .find_map(|(i, line)| line.find(needle).map(|c| (i + 1, c + 1)))
            .unwrap_or_else(|| panic!("'{needle}' not in {file}"))
    }
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}
