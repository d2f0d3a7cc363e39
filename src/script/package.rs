//! A rules package's files as its scripts see them: a `require` that finds
//! only the package's own modules, and chunk names that make every error
//! point at `rules/<package>/<file>:<line>`.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Table, Value};

use super::error::ScriptError;

/// The Lua sources of one rules package, by path relative to its folder.
///
/// The sandbox reads scripts from here rather than from the file system, so
/// a script can reach nothing outside its package (and tests need no files).
///
/// ```
/// use portolan::script::package::PackageFiles;
///
/// let package = PackageFiles::new("rules/med-convoy")
///     .with_file("combat.lua", "return {}")
///     .with_file("lib/util.lua", "return {}");
/// assert_eq!(package.source("lib/util.lua"), Some("return {}"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageFiles {
    root: String,
    files: BTreeMap<String, String>,
}

impl PackageFiles {
    /// An empty package; `root` is how messages name its folder, like
    /// `rules/med-convoy`.
    pub fn new(root: impl Into<String>) -> Self {
        Self {
            root: root.into(),
            files: BTreeMap::new(),
        }
    }

    /// Adds (or replaces) a file, builder style.
    pub fn with_file(mut self, path: impl Into<String>, source: impl Into<String>) -> Self {
        self.insert(path, source);
        self
    }

    /// Adds (or replaces) a file. `path` is relative to the package folder,
    /// with `/` between folders, like `lib/util.lua`.
    pub fn insert(&mut self, path: impl Into<String>, source: impl Into<String>) {
        self.files.insert(path.into(), source.into());
    }

    /// How messages name the package folder.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// The source of a file, if the package has it.
    pub fn source(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    /// How messages (and Lua tracebacks) name a file of the package.
    fn display_path(&self, path: &str) -> String {
        match self.root.as_str() {
            "" => path.to_owned(),
            root => format!("{}/{path}", root.trim_end_matches('/')),
        }
    }

    /// Compiles a package file as text only, with a chunk name that makes Lua
    /// say `rules/<package>/<path>:<line>:`; `None` if there is no such file.
    pub(crate) fn load(&self, lua: &Lua, path: &str) -> mlua::Result<Option<Function>> {
        let Some(source) = self.files.get(path) else {
            return Ok(None);
        };
        let shown = self.display_path(path);
        if source.starts_with('\x1b') {
            // Lua's own refusal would be a confusing syntax error.
            return Err(mlua::Error::external(ScriptError::Forbidden {
                what: "a binary (precompiled) chunk".to_owned(),
                location: Some(shown),
            }));
        }
        lua.load(source.as_str())
            .set_name(format!("@{shown}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map(Some)
    }
}

/// The modules `require` has loaded, and whether it may load more.
pub(crate) struct Modules {
    loaded: Table,
    closed: Rc<Cell<bool>>,
}

impl Modules {
    /// The cache of loaded modules, by name.
    pub(crate) fn loaded(&self) -> &Table {
        &self.loaded
    }

    /// Once the package has loaded, `require` only returns modules loaded
    /// already: a module first loaded during a game would be new state.
    pub(crate) fn close(&self) {
        self.closed.set(true);
    }
}

/// Installs the global `require`: `require("lib.util")` runs `lib/util.lua`
/// (or `lib/util/init.lua`) of the package once and caches what it returns,
/// like Lua's, but it never looks outside the package and never loads C.
pub(crate) fn install_require(lua: &Lua, package: Rc<PackageFiles>) -> mlua::Result<Modules> {
    let modules = Modules {
        loaded: lua.create_table()?,
        closed: Rc::new(Cell::new(false)),
    };
    let loaded = modules.loaded.clone();
    let closed = Rc::clone(&modules.closed);
    let loading = RefCell::new(BTreeSet::new());
    let require = lua.create_function(move |lua, module: String| {
        let cached: Value = loaded.raw_get(module.as_str())?;
        if !cached.is_nil() {
            return Ok(cached);
        }
        if closed.get() {
            return Err(mlua::Error::runtime(format!(
                "{}require(\"{module}\"): modules load while the package loads, not during a \
                 game; require it at the top of the file",
                caller_location(lua, 1)
                    .map(|l| l + ": ")
                    .unwrap_or_default()
            )));
        }
        let refuse = |searched: Vec<String>| {
            mlua::Error::external(ScriptError::Require {
                module: module.clone(),
                root: package.root.clone(),
                searched,
                location: caller_location(lua, 1),
            })
        };
        let candidates = module_paths(&module).ok_or_else(|| refuse(Vec::new()))?;
        if loading.borrow().contains(&module) {
            return Err(mlua::Error::runtime(format!(
                "{}require(\"{module}\"): circular require, the module is still loading; \
                 move the code both modules need into a third one",
                caller_location(lua, 1)
                    .map(|l| l + ": ")
                    .unwrap_or_default()
            )));
        }
        let Some((path, chunk)) = candidates.iter().find_map(|path| {
            package
                .load(lua, path)
                .transpose()
                .map(|chunk| (path, chunk))
        }) else {
            return Err(refuse(candidates.to_vec()));
        };
        loading.borrow_mut().insert(module.clone());
        let result = chunk
            .and_then(|chunk| chunk.call::<Value>((module.as_str(), package.display_path(path))));
        loading.borrow_mut().remove(&module);
        let value = match result? {
            Value::Nil => Value::Boolean(true),
            value => value,
        };
        loaded.raw_set(module.as_str(), &value)?;
        Ok(value)
    })?;
    lua.globals().raw_set("require", require)?;
    Ok(modules)
}

/// The package paths `require(module)` may load, or `None` if `module` is
/// not a plain dotted name: that refuses absolute paths, `..`, slashes and
/// anything else that could point outside the package.
fn module_paths(module: &str) -> Option<[String; 2]> {
    let plain_segment = |segment: &str| {
        !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    module.split('.').all(plain_segment).then(|| {
        let base = module.replace('.', "/");
        [format!("{base}.lua"), format!("{base}/init.lua")]
    })
}

/// `file:line` of the Lua function `level` frames up from the running Rust
/// callback (1: whoever called it).
pub(crate) fn caller_location(lua: &Lua, level: usize) -> Option<String> {
    lua.inspect_stack(level, |frame| {
        let file = frame.source().short_src?.into_owned();
        Some(match frame.current_line() {
            Some(line) => format!("{file}:{line}"),
            None => file,
        })
    })
    .flatten()
}
