//! Helpers of the hostile-input battery (tests/hostile_files.rs,
//! tests/hostile_fuzz.rs): special files built inside temporary folders
//! only (the tests run as root on some machines, so they never point at a
//! real system path), a REPL session, and a seeded generator.
#![allow(dead_code)] // each test file uses its own subset

use portolan::data::catalog::Catalog;
use portolan::load::Request;
use portolan::repl::Session;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Makes a FIFO at `path`, with a guard against hangs: a thread opens its
/// writing end and closes it at once, so code that wrongly opens the FIFO
/// to read gets an empty file instead of waiting forever. Code that
/// rightly refuses it leaves the guard waiting, harmlessly, until the test
/// process ends.
pub fn fifo(path: &Path) -> PathBuf {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
    let writer = path.to_path_buf();
    std::thread::spawn(move || drop(std::fs::OpenOptions::new().write(true).open(writer)));
    path.to_path_buf()
}

/// Makes a character device node at `path` that behaves like /dev/zero
/// (an endless file). Needs root; false where the machine does not allow
/// it, and the test then skips that case.
pub fn endless_device(path: &Path) -> bool {
    device(path, "5")
}

/// Makes a character device node at `path` that behaves like /dev/null.
pub fn null_device(path: &Path) -> bool {
    device(path, "3")
}

fn device(path: &Path, minor: &str) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", "1", minor])
        .output()
        .is_ok_and(|o| o.status.success());
    if !made {
        eprintln!("skipped: cannot make a device node here");
    }
    made
}

pub fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

pub fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

pub fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("a symbolic link");
}

/// Writes a file, making its folders.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().expect("a parent")).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A sparse file of `len` bytes (zeros): large on paper, free on disk.
pub fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// A REPL session on a stock game, its first player human, any other a
/// random bot.
pub fn session(target: &str) -> Session {
    session_with(&Request {
        target: target.into(),
        ..Request::default()
    })
}

/// A REPL session on what `request` asks for, seated as [`session`].
pub fn session_with(request: &Request) -> Session {
    let mut s = Session::start(Catalog::embedded(), request.clone(), Some(7), &[]).unwrap();
    s.welcome();
    s
}

/// The board as the session shows it, to check that a refused command
/// changed nothing.
pub fn board(s: &mut Session) -> String {
    s.execute("board").text
}

/// A seeded generator (SplitMix64): the same inputs on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A file's bytes damaged as a disk or a careless edit damages them: a
    /// few bytes flipped, or the end cut off.
    pub fn damage(&mut self, mut bytes: Vec<u8>) -> Vec<u8> {
        if self.below(2) == 0 {
            for _ in 0..=self.below(4) {
                let i = self.below(bytes.len());
                bytes[i] = self.next() as u8;
            }
        } else {
            bytes.truncate(self.below(bytes.len()));
        }
        bytes
    }

    /// Up to `most` random bytes.
    pub fn bytes(&mut self, most: usize) -> Vec<u8> {
        let n = self.below(most + 1);
        (0..n).map(|_| self.next() as u8).collect()
    }
}
