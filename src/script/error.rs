//! What can go wrong when the host runs a rules package's Lua, said so that
//! a game designer knows where to look and what to change.

use std::time::Duration;

/// An error from running a rules package's scripts.
///
/// Every variant names where the problem is (a package file and line, as Lua
/// reports it, when one is known) and its message suggests what to do. The
/// host's state is never harmed by any of them: the [`Sandbox`] stays usable.
///
/// [`Sandbox`]: super::sandbox::Sandbox
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// A package file, or a chunk given to `load`, is not valid Lua.
    /// `message` is Lua's own, starting with `file:line:`.
    #[error("syntax error at {message}")]
    Syntax {
        /// Lua's message, like `rules/x/combat.lua:12: 'end' expected near <eof>`.
        message: String,
    },
    /// A script raised an error while running. `message` is Lua's own (with
    /// `file:line:` when the error came from Lua code); `traceback` is the
    /// Lua call stack at the point of the error, when Lua produced one.
    #[error("script error: {message}{}", on_next_line(.traceback))]
    Runtime {
        /// The error value, converted to text.
        message: String,
        /// Lua's `stack traceback:` listing.
        traceback: Option<String>,
    },
    /// A host call into the package ran past its time budget and was
    /// stopped. `location` is where the script was when the budget ran out.
    #[error(
        "script exceeded its time budget of {} ms (an infinite loop?){}; \
         look there for a loop whose exit condition is never met",
        .limit.as_millis(),
        in_location(.location)
    )]
    Timeout {
        /// The budget of one call ([`Limits::time_budget`](super::limits::Limits::time_budget)).
        limit: Duration,
        /// `file:line` where the script was stopped.
        location: Option<String>,
    },
    /// The package's Lua state ran out of its memory allowance. Lua does not
    /// say where the failing allocation was, so neither can this.
    #[error(
        "script exceeded its memory limit of {} (a table or string growing without bound?)",
        human_bytes(*.limit)
    )]
    Memory {
        /// The limit ([`Limits::memory`](super::limits::Limits::memory)) in bytes.
        limit: usize,
    },
    /// A script tried something the sandbox refuses outright, such as
    /// loading precompiled bytecode (which can crash the host) or setting a
    /// `__gc` finalizer (which the time budget cannot interrupt).
    #[error(
        "{}{what} is not allowed in a rules package: packages run as Lua source \
         text with the sandboxed libraries only",
        at_location(.location)
    )]
    Forbidden {
        /// What was refused, like `a binary (precompiled) chunk`.
        what: String,
        /// `file:line` of the offending call, or the offending file.
        location: Option<String>,
    },
    /// `require` was given a name that is not a module of this package, or
    /// no package file matches it. `searched` lists the package paths tried;
    /// it is empty when the name itself is refused (a path, `..`, ...).
    #[error("{}{}", at_location(.location), describe_require(.module, .root, .searched))]
    Require {
        /// The name given to `require`.
        module: String,
        /// The package's display root, like `rules/med-convoy`.
        root: String,
        /// Package-relative paths that were tried.
        searched: Vec<String>,
        /// `file:line` of the `require` call.
        location: Option<String>,
    },
    /// The host asked to run a file the package does not contain.
    #[error(
        "package {root} has no file {path}: file paths are relative to the package \
         folder, like \"combat.lua\" or \"lib/util.lua\""
    )]
    MissingFile {
        /// The package's display root.
        root: String,
        /// The path that was asked for.
        path: String,
    },
    /// The Lua state or the watchdog thread could not be created.
    #[error("could not set up the Lua sandbox: {0}")]
    Setup(String),
}

impl ScriptError {
    /// Converts an error from mlua into the variant a person needs to see,
    /// digging through the wrappers mlua adds when an error crosses a Rust
    /// callback (such as `require` loading a module that fails).
    pub(crate) fn from_lua(err: &mlua::Error, memory_limit: usize) -> Self {
        match Self::converted(err, memory_limit) {
            Self::Runtime { message, traceback } => Self::Runtime {
                message: placed(message, traceback.as_deref()),
                traceback,
            },
            other => other,
        }
    }

    fn converted(err: &mlua::Error, memory_limit: usize) -> Self {
        use mlua::Error as E;
        match err {
            E::CallbackError { traceback, cause } => match Self::converted(cause, memory_limit) {
                Self::Runtime {
                    message,
                    traceback: None,
                } => Self::Runtime {
                    message,
                    traceback: Some(traceback.clone()).filter(|t| !t.is_empty()),
                },
                other => other,
            },
            E::WithContext { context, cause } => match Self::converted(cause, memory_limit) {
                Self::Runtime { message, traceback } => Self::Runtime {
                    message: format!("{context}: {message}"),
                    traceback,
                },
                other => other,
            },
            E::RuntimeError(text) => match text.split_once("\nstack traceback:") {
                Some((message, rest)) => Self::Runtime {
                    message: message.to_owned(),
                    traceback: Some(format!("stack traceback:{rest}")),
                },
                None => Self::Runtime {
                    message: text.clone(),
                    traceback: None,
                },
            },
            E::SyntaxError { message, .. } => Self::Syntax {
                message: message.clone(),
            },
            E::MemoryError(_) => Self::Memory {
                limit: memory_limit,
            },
            E::ExternalError(inner) => match inner.downcast_ref::<Self>() {
                Some(script_error) => script_error.clone(),
                None => Self::Runtime {
                    message: inner.to_string(),
                    traceback: None,
                },
            },
            other => Self::Runtime {
                message: other.to_string(),
                traceback: None,
            },
        }
    }
}

/// The chunk name of the sandbox's own Lua: never where a package's
/// mistake is.
const PRELUDE: &str = "[sandbox prelude]";

/// `message` with the package file and line the error came from in front.
///
/// Lua places an error only when its value is a string raised at a level
/// that names a Lua function: `error(nil)`, `error({})` or `error(s, 0)`
/// have no place, and an error raised by a C function the sandbox wraps
/// (`string.rep`, `table.move`) is placed in the wrapper. The traceback
/// still holds the place: its first line in a package file.
fn placed(message: String, traceback: Option<&str>) -> String {
    if location_prefix(&message).is_some_and(|chunk| chunk != PRELUDE) {
        return message;
    }
    let Some(place) = traceback.and_then(first_package_line) else {
        return message;
    };
    let message = match location_prefix(&message) {
        Some(_) => message.split_once(": ").map_or("", |(_, rest)| rest),
        None if message == "nil" => {
            "error(nil): the script raised an error with no message; \
             give error() a text that says what went wrong"
        }
        None => &message,
    };
    format!("{place}: {message}")
}

/// The chunk name of a `chunk:line:` at the start of a message.
fn location_prefix(message: &str) -> Option<&str> {
    let (chunk, rest) = message.split_once(':')?;
    let (line, _) = rest.split_once(':')?;
    (!chunk.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .then_some(chunk)
}

/// The first `file:line` of a traceback that is in a package file, not in
/// a C function or the sandbox's prelude.
fn first_package_line(traceback: &str) -> Option<&str> {
    traceback.lines().find_map(|line| {
        let line = line.trim_start();
        let chunk = location_prefix(line)?;
        if chunk.starts_with('[') {
            return None;
        }
        let end = line.find(": ")?;
        Some(&line[..end])
    })
}

fn on_next_line(text: &Option<String>) -> String {
    text.as_ref().map(|t| format!("\n{t}")).unwrap_or_default()
}

fn in_location(location: &Option<String>) -> String {
    location
        .as_ref()
        .map(|l| format!(" in {l}"))
        .unwrap_or_default()
}

fn at_location(location: &Option<String>) -> String {
    location
        .as_ref()
        .map(|l| format!("{l}: "))
        .unwrap_or_default()
}

fn human_bytes(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

fn describe_require(module: &str, root: &str, searched: &[String]) -> String {
    if searched.is_empty() {
        format!(
            "require(\"{module}\"): not a module name; modules are files of the package \
             {root} named with dots for folders, like require(\"lib.util\") for lib/util.lua \
             (no slashes, no \"..\", no .lua suffix)"
        )
    } else {
        format!(
            "require(\"{module}\"): no such module in package {root} (searched {}); \
             modules are the package's own .lua files, like require(\"lib.util\") for lib/util.lua",
            searched.join(", ")
        )
    }
}
