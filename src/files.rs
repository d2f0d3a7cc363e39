//! The files Portolan reads and writes for its user: saves, command files,
//! game sheets, scenarios and rules packages. Any of them may come from
//! someone else, or sit where someone else can plant things, so:
//!
//! - only regular files are read or written. A FIFO, a device or a socket
//!   is refused before it is opened: opening a FIFO waits for a writer,
//!   reading `/dev/zero` never ends, and writing over a device node as root
//!   destroys it;
//! - a read stops at a limit its caller states, checked on the size before
//!   opening and again on what is read, since a file can grow meanwhile;
//! - a file inside a folder someone else filled (a package, a scenarios
//!   folder) is read only if it really is inside: links are followed, and a
//!   file whose real place is elsewhere is refused;
//! - a write replaces the file whole or not at all (see [`write_atomic`]);
//! - every error names the file.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, FileType, Metadata};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A problem with one file: which file, and what went wrong (with what to
/// do when there is something to do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    pub problem: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for FileError {}

/// The most a read takes, and what kind of file the limit is for, so the
/// refusal can say so (`is larger than 8 MiB, the most a save may be`).
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub bytes: u64,
    /// The kind of file, with its article: `a save`.
    pub what: &'static str,
}

impl Limit {
    fn check(self, size: u64) -> Result<(), String> {
        if size <= self.bytes {
            return Ok(());
        }
        Err(format!(
            "is larger than {}, the most {} may be",
            human_size(self.bytes),
            self.what
        ))
    }
}

/// Reads a text file the user named (following links: the name is the
/// user's own choice), if it is a regular file within `limit`.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, FileError> {
    read_regular(path, path, limit)
}

/// Reads a text file of `folder` (a rules package, a game's scenarios): the
/// file's real place, every link followed, must be inside the folder's real
/// place, so a link planted in a package cannot read a file elsewhere.
pub fn read_inside(folder: &Path, path: &Path, limit: Limit) -> Result<String, FileError> {
    let fail = |problem: String| FileError {
        path: path.to_path_buf(),
        problem,
    };
    let real = fs::canonicalize(path).map_err(|e| match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fail(format!("is a symbolic link that leads nowhere ({e})"))
        }
        _ => fail(e.to_string()),
    })?;
    let real_folder = fs::canonicalize(folder).map_err(|e| FileError {
        path: folder.to_path_buf(),
        problem: e.to_string(),
    })?;
    if !real.starts_with(&real_folder) {
        return Err(fail(format!(
            "leads outside {} (to {}): only files inside it are read; copy the file in instead",
            folder.display(),
            real.display()
        )));
    }
    read_regular(&real, path, limit)
}

/// Reads `real`, naming `shown` in errors: refuses anything but a regular
/// file before opening it, then reads at most one byte over the limit.
fn read_regular(real: &Path, shown: &Path, limit: Limit) -> Result<String, FileError> {
    let fail = |problem: String| FileError {
        path: shown.to_path_buf(),
        problem,
    };
    let before = fs::metadata(real).map_err(|e| fail(e.to_string()))?;
    only_regular(&before).map_err(fail)?;
    limit.check(before.len()).map_err(fail)?;
    let file = File::open(real).map_err(|e| fail(e.to_string()))?;
    // What was opened may not be what was looked at a moment ago.
    let opened = file.metadata().map_err(|e| fail(e.to_string()))?;
    only_regular(&opened).map_err(fail)?;
    let bytes = read_limited(file, limit).map_err(fail)?;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "is not UTF-8 text (a bad byte at offset {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads to the end, or refuses at one byte over the limit: the size seen
/// before opening is no promise (a file can grow, a device never ends).
fn read_limited(reader: impl Read, limit: Limit) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    reader
        .take(limit.bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    limit.check(bytes.len() as u64)?;
    Ok(bytes)
}

fn only_regular(meta: &Metadata) -> Result<(), String> {
    if meta.file_type().is_file() {
        Ok(())
    } else {
        Err(not_regular(meta.file_type()))
    }
}

/// Why a file of this type is refused.
fn not_regular(file_type: FileType) -> String {
    format!(
        "is {}, not a regular file; Portolan reads and writes only regular files",
        kind_of(file_type)
    )
}

#[cfg(unix)]
fn kind_of(t: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO (a named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn kind_of(t: FileType) -> &'static str {
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    }
}

fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// How old a leftover temporary file must be before a save removes it: a
/// save in progress takes milliseconds, so an hour-old one was abandoned
/// (by a crash or a killed process).
const STALE_TEMP_AGE: Duration = Duration::from_secs(3600);

/// Writes a file so that it is the old one or the new one, whatever
/// happens: the bytes go to a temporary file beside it (created
/// exclusively, with an unpredictable name, so nothing planted there is
/// written through), flushed to disk, then renamed over the file.
///
/// Only a regular file is replaced (keeping its permissions), or a new one
/// made. A symbolic link is refused, neither followed nor replaced:
/// following it would let a link planted in a shared folder
/// (`/tmp/game.json -> ~/.bashrc`) aim a save at any file the user may
/// write, and replacing it would quietly break the user's own link. A
/// device, a FIFO, a socket or a folder is refused too. Temporary files
/// that an earlier, interrupted save left beside the file are removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let target = Target::of(path)?;
    remove_stale_temps(target.folder, target.name);
    let io = |e: std::io::Error| target.fail(e.to_string());
    let mut temp = target.temp_file()?;
    if let Some(p) = &target.permissions {
        temp.as_file().set_permissions(p.clone()).map_err(io)?;
    }
    temp.write_all(bytes).map_err(io)?;
    temp.as_file().sync_all().map_err(io)?;
    // On failure the temporary file is dropped, which deletes it.
    temp.persist(path).map_err(|e| io(e.error))?;
    // Make the rename itself durable, where a folder can be synced.
    if let Ok(d) = File::open(target.folder) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Checks that [`write_atomic`] could write `path` now, before a command
/// spends minutes on a run whose result goes there: the same refusals
/// (a folder, a link, a FIFO, a device), and a folder that exists and
/// takes a new file. That last is tried, not worked out from permission
/// bits: a temporary file is made beside the path and removed at once,
/// which holds for root and for read-only disks alike.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    let target = Target::of(path)?;
    target.temp_file().map(drop)
}

/// Where a write goes, checked: the file's folder and name, and the
/// permissions of the regular file it replaces, if any.
struct Target<'a> {
    path: &'a Path,
    folder: &'a Path,
    name: &'a std::ffi::OsStr,
    permissions: Option<fs::Permissions>,
}

impl<'a> Target<'a> {
    /// Refuses a path that names a folder, a link or a special file.
    fn of(path: &'a Path) -> Result<Target<'a>, FileError> {
        let fail = |problem: String| FileError {
            path: path.to_path_buf(),
            problem,
        };
        let name = path
            .file_name()
            .ok_or_else(|| fail("names a folder, not a file".into()))?;
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let permissions = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_file() => Some(meta.permissions()),
            Ok(meta) if meta.file_type().is_symlink() => {
                let to =
                    fs::read_link(path).map_or_else(|_| "?".into(), |p| p.display().to_string());
                return Err(fail(format!(
                    "is a symbolic link (to {to}); Portolan does not write through links: \
                     write to {to} itself, or remove the link"
                )));
            }
            Ok(meta) => return Err(fail(not_regular(meta.file_type()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(e.to_string())),
        };
        Ok(Target {
            path,
            folder,
            name,
            permissions,
        })
    }

    fn fail(&self, problem: String) -> FileError {
        FileError {
            path: self.path.to_path_buf(),
            problem,
        }
    }

    /// A new temporary file beside the target (created exclusively, with
    /// an unpredictable name), or why none can be made there.
    fn temp_file(&self) -> Result<tempfile::NamedTempFile, FileError> {
        if !self.folder.is_dir() {
            return Err(self.fail(format!(
                "cannot be written: there is no folder {}; make it first, or write elsewhere",
                self.folder.display()
            )));
        }
        let prefix = temp_prefix(self.name);
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new file gets the usual permissions (less the umask), not a
        // temporary file's owner-only ones.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        builder.tempfile_in(self.folder).map_err(|e| {
            self.fail(format!(
                "cannot be written: no new file can be made in {} ({e})",
                self.folder.display()
            ))
        })
    }
}

/// Temporary files for `name` are `.NAME.RANDOM.tmp`, hidden beside it.
fn temp_prefix(name: &std::ffi::OsStr) -> OsString {
    let mut prefix = OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    prefix
}

/// Removes `.NAME.RANDOM.tmp` regular files older than [`STALE_TEMP_AGE`].
/// Best effort: a temp that cannot be removed is left for the next save.
fn remove_stale_temps(folder: &Path, name: &std::ffi::OsStr) {
    let Some(prefix) = temp_prefix(name).to_str().map(String::from) else {
        return;
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let is_temp = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix)?.strip_suffix(".tmp"))
            .is_some_and(|random| {
                !random.is_empty() && random.chars().all(|c| c.is_ascii_alphanumeric())
            });
        let stale = entry.metadata().is_ok_and(|m| {
            m.file_type().is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| now.duration_since(t).ok())
                    .is_some_and(|age| age > STALE_TEMP_AGE)
        });
        if is_temp && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Limit = Limit {
        bytes: 1 << 10,
        what: "a test file",
    };

    #[test]
    fn an_endless_stream_is_cut_at_one_byte_over_the_limit() {
        let err = read_limited(std::io::repeat(0), TINY).unwrap_err();
        assert_eq!(err, "is larger than 1 KiB, the most a test file may be");
        let exact = read_limited(std::io::repeat(7).take(1 << 10), TINY).unwrap();
        assert_eq!(exact.len(), 1 << 10);
    }

    #[test]
    fn sizes_are_said_in_the_largest_whole_unit() {
        assert_eq!(human_size(8 << 20), "8 MiB");
        assert_eq!(human_size(3 << 10), "3 KiB");
        assert_eq!(human_size(1000), "1000 bytes");
    }
}
