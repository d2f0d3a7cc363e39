//! The Lua side of a loaded rules package: runs the package's scripts in
//! the sandbox, applies the optional rules' overlays, freezes the result,
//! and answers the kernel's [`Scripts`] calls by lending the game state to
//! the API for the length of each call.

use crate::data::error::{DataError, DataErrors};
use crate::data::game_file::GameFile;
use crate::data::locate::{Outline, Place};
use crate::kernel::board::SpaceId;
use crate::kernel::event::Resolved;
use crate::kernel::game::{Game, ScriptRef};
use crate::kernel::piece::{PieceId, PlayerId};
use crate::kernel::scripts::{RulesError, ScriptCounts, Scripts, Step};
use crate::kernel::state::GameState;
use crate::kernel::value::{NameHasher, VarLayout};
use crate::script::api::known::Known;
use crate::script::api::link::NameRefs;
use crate::script::api::{self, Api, Link};
use crate::script::choices::choice_list;
use crate::script::coverage::RuleCalls;
use crate::script::error::ScriptError;
use crate::script::limits::Limits;
use crate::script::package::PackageFiles;
use crate::script::sandbox::Sandbox;
use mlua::serde::SerializeOptions;
use mlua::{Function, Lua, LuaSerdeExt, LuaString, RegistryKey, Table, Value};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

/// A package's scripts, loaded and sandboxed.
pub struct LuaRules {
    sandbox: Sandbox,
    link: Rc<Link>,
    api: Api,
    /// The functions the data names, found once the package is frozen.
    named: OnceCell<Named>,
    /// The files' `prepare()` functions, run once the data is final.
    prepare: RefCell<Vec<Hook>>,
    /// Rule-function calls, when loaded to count them (coverage).
    calls: Option<RuleCalls>,
    /// The choices chosen so far as Lua strings (up to [`KNOWN_CHOICES`]),
    /// so choosing one again hands Lua the string it has instead of making
    /// it anew: a game offers the same few choices over and over.
    choice_strings: RefCell<HashMap<Box<str>, LuaString, BuildHasherDefault<NameHasher>>>,
}

/// How many choice strings the host keeps (see `LuaRules::choice_strings`).
const KNOWN_CHOICES: usize = 256;

/// A load-time hook a package file defined (`configure(data)` or
/// `prepare()`), with the file or optional rule that wrote it, for errors.
pub struct Hook {
    function: Function,
    owner: String,
}

/// The Lua functions the kernel calls, looked up once instead of per call.
struct Named {
    rules: HashMap<String, Function, BuildHasherDefault<NameHasher>>,
    /// `(run, choose)` of each scripted phase, by phase index.
    phases: Vec<Option<(Function, Option<Function>)>>,
    /// `rules.evaluate`, the optional heuristic the greedy bot asks.
    evaluate: Option<Function>,
    /// `rules.sample`, the optional sampler of secrets the kernel cannot
    /// draw (see `kernel::secrets`).
    sample: Option<Function>,
    /// The registry slots of the dice tables' rows, kept alive.
    _rows: Vec<RegistryKey>,
    /// The game's names as Lua strings: a special action's player and
    /// target go to its rule function as these (a registry read each),
    /// where text was made into a Lua string under a protected call, a
    /// fifth of what an Air Strike cost.
    names: NameKeys,
}

impl LuaRules {
    /// Runs the package's scripts, then each enabled option's overlay in
    /// rule-number order. Returns the host and the `configure(data)`
    /// functions they defined, in the order they must run. `counted`
    /// counts rule-function calls and dice-table rows (coverage).
    pub fn load(
        package: &crate::data::package::Package,
        file: &GameFile,
        enabled: &[String],
        limits: Limits,
        counted: bool,
    ) -> Result<(LuaRules, Vec<Hook>), DataErrors> {
        let mut files = PackageFiles::new(package.root.clone());
        for (path, source) in package.lua_files() {
            files.insert(path, source);
        }
        let (sandbox, link, api) = fresh_state(files, limits)?;
        let calls = match counted {
            true => Some(sandbox.call(RuleCalls::new).map_err(|e| {
                DataError::new(&package.root, format!("cannot set up coverage: {e}"))
            })?),
            false => None,
        };
        let rules = LuaRules {
            sandbox,
            link,
            api,
            named: OnceCell::new(),
            prepare: RefCell::new(Vec::new()),
            calls,
            choice_strings: RefCell::new(HashMap::default()),
        };
        let configure = rules.run_scripts(package, file, enabled)?;
        Ok((rules, configure))
    }

    /// Runs the package's scripts and the enabled overlays; collects their
    /// `configure` functions (returned) and `prepare` functions (kept).
    fn run_scripts(
        &self,
        package: &crate::data::package::Package,
        file: &GameFile,
        enabled: &[String],
    ) -> Result<Vec<Hook>, DataErrors> {
        let mut options: Vec<_> = file
            .options
            .iter()
            .filter(|o| enabled.contains(&o.id))
            .collect();
        options.sort_by_key(|o| o.number);
        let outline = package.files.get("game.yaml").and_then(|t| Outline::of(t));
        let scripts = file
            .scripts
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("scripts.{i}"), s, None));
        let overlays = options.iter().map(|o| {
            let index = file.options.iter().position(|x| x.id == o.id).unwrap_or(0);
            (format!("options.{index}.script"), &o.script, Some(o))
        });
        let mut configure = Vec::new();
        for (written_at, path, option) in scripts.chain(overlays) {
            if !package.files.contains_key(path) {
                let message = format!(
                    "script '{path}' is not in the package: check the file name, relative to {}",
                    package.root
                );
                let mut e = DataError::new(&package.path_of("game.yaml"), message);
                e.at = outline.as_ref().and_then(|o| o.find(&written_at));
                return Err(e.into());
            }
            self.sandbox
                .call(|lua| clear_hooks(&lua.globals()))
                .map_err(|e| script_error(path, &e))?;
            self.sandbox
                .run_file(path)
                .map_err(|e| script_error(&package.path_of(path), &e))?;
            let owner =
                option.map_or_else(|| package.path_of(path), |o| option_owner(o.number, &o.id));
            if let Some(calls) = &self.calls {
                let file = package.path_of(path);
                self.sandbox
                    .call(|lua| calls.wrap_new(lua, self.sandbox.modules(), &file, &owner))
                    .map_err(|e| script_error(path, &e))?;
            }
            let hooks = self.sandbox.call(|lua| {
                let g = lua.globals();
                Ok((
                    g.raw_get::<Value>("configure")?,
                    g.raw_get::<Value>("prepare")?,
                ))
            });
            if let Ok((configure_fn, prepare_fn)) = hooks {
                if let Value::Function(function) = configure_fn {
                    let owner = owner.clone();
                    configure.push(Hook { function, owner });
                }
                if let Value::Function(function) = prepare_fn {
                    self.prepare.borrow_mut().push(Hook { function, owner });
                }
            }
        }
        self.sandbox
            .call(|lua| clear_hooks(&lua.globals()))
            .map_err(|e| script_error(&package.root, &e))?;
        Ok(configure)
    }

    /// Lets the overlays change the game's data (`configure(data)`), then
    /// reads it back through the same schema, so an overlay's mistake is
    /// reported like a YAML one, with the path of the bad key.
    pub fn configure(
        &self,
        file: GameFile,
        overlays: &[Hook],
        root: &str,
    ) -> Result<GameFile, DataErrors> {
        if overlays.is_empty() {
            return Ok(file);
        }
        let err = |m: String| DataErrors::from(DataError::new(root, m));
        let data = self
            .sandbox
            .call(|lua| lua.to_value(&file))
            .map_err(|e| err(e.to_string()))?;
        for c in overlays {
            self.sandbox
                .call(|_| c.function.call::<()>(data.clone()))
                .map_err(|e| err(format!("the configure() of {} failed: {e}", c.owner)))?;
        }
        let de = mlua::serde::Deserializer::new(data);
        serde_path_to_error::deserialize(de).map_err(|e| {
            err(format!(
                "an optional rule's configure() left invalid data at '{}': {}",
                e.path(),
                e.inner()
            ))
        })
    }

    /// Hands the compiled game to the API, exposes its tables to Lua,
    /// freezes the package, and finds every function the data names.
    /// `yaml` and `outline` place a missing function's name in game.yaml.
    pub fn attach(
        &self,
        game: &Rc<Game>,
        yaml: &str,
        place: &dyn Fn(&str) -> Place,
    ) -> Result<(), DataErrors> {
        let fail = |e: String| DataErrors::from(DataError::new(yaml, e));
        let rows = self
            .sandbox
            .call(|lua| {
                let options = SerializeOptions::new().set_array_metatable(false);
                let tables = lua.to_value_with(&game.tables, options)?;
                super::strict_tables::guard(lua, &tables, &game.tables, yaml)?;
                lua.globals().raw_set("tables", &tables)?;
                row_keys(lua, game, &tables)
            })
            .map_err(|e| fail(format!("cannot expose the tables to Lua: {e}")))?;
        let ids = rows
            .iter()
            .map(|table| table.iter().map(RegistryKey::id).collect())
            .collect();
        let names = self
            .sandbox
            .call(|lua| NameKeys::new(lua, game))
            .map_err(|e| fail(format!("cannot expose the game's names to Lua: {e}")))?;
        let known = self
            .sandbox
            .call(|lua| Known::new(lua, game))
            .map_err(|e| fail(format!("cannot expose the game's dice to Lua: {e}")))?;
        self.link.attach(Rc::clone(game), ids, names.refs(), known);
        if self.calls.is_some() {
            self.link.count_rows(game);
        }
        for hook in self.prepare.take() {
            self.sandbox
                .call(|_| hook.function.call::<()>(()))
                .map_err(|e| fail(format!("the prepare() of {} failed: {e}", hook.owner)))?;
        }
        self.sandbox
            .call(|lua| self.api.vars_cache.sheet().close(lua))
            .map_err(|e| fail(format!("the package cannot be frozen after loading: {e}")))?;
        self.sandbox
            .freeze(
                &self.api.tables,
                &self.api.proxies,
                std::slice::from_ref(self.api.vars_cache.sheet().table()),
            )
            .map_err(|e| fail(format!("the package cannot be frozen after loading: {e}")))?;
        let kept = (rows.into_iter().flatten().collect(), names);
        let named = self.find_named(game, place, kept)?;
        self.named.set(named).ok();
        Ok(())
    }

    /// Looks up every function the data names; every missing one is an
    /// error placed by `place` where the data names it (game.yaml, or a
    /// scenario's overrides). `kept` is what the functions keep beside
    /// them: the rows' registry slots and the names.
    fn find_named(
        &self,
        game: &Game,
        place: &dyn Fn(&str) -> Place,
        kept: (Vec<RegistryKey>, NameKeys),
    ) -> Result<Named, DataErrors> {
        let mut named = Named {
            rules: HashMap::default(),
            phases: vec![None; game.phases.len()],
            evaluate: None,
            sample: None,
            _rows: kept.0,
            names: kept.1,
        };
        let mut errors = Vec::new();
        for r in game.script_references() {
            let found = self.sandbox.call(|lua| match &r {
                ScriptRef::Rule { name, .. } => {
                    let f = lua
                        .globals()
                        .get::<Table>("rules")?
                        .raw_get::<Option<Function>>(name.as_str())?;
                    Ok(f.map(|f| named.rules.insert(name.clone(), f)).is_some())
                }
                ScriptRef::Phase { name, index, .. } => {
                    let t = lua
                        .globals()
                        .get::<Table>("phases")?
                        .raw_get::<Option<Table>>(name.as_str())?;
                    let run = t
                        .as_ref()
                        .map(|t| t.raw_get::<Option<Function>>("run"))
                        .transpose()?
                        .flatten();
                    let choose = t
                        .as_ref()
                        .map(|t| t.raw_get::<Option<Function>>("choose"))
                        .transpose()?
                        .flatten();
                    Ok(run
                        .map(|run| named.phases[*index] = Some((run, choose)))
                        .is_some())
                }
            });
            let (message, path) = match (&r, found) {
                (_, Ok(true)) => continue,
                (ScriptRef::Rule { name, path }, Ok(false)) => (
                    format!(
                        "the data names the rule function '{name}', but no script defines rules.{name}: check the spelling, or define it in a script"
                    ),
                    path,
                ),
                (ScriptRef::Phase { name, path, .. }, Ok(false)) => (
                    format!("phase '{name}' is scripted, but no script defines phases.{name}.run"),
                    path,
                ),
                (ScriptRef::Rule { path, .. } | ScriptRef::Phase { path, .. }, Err(e)) => {
                    (e.to_string(), path)
                }
            };
            let (file, at) = place(path);
            errors.push(DataError { file, at, message });
        }
        named.evaluate = self.rules_function("evaluate");
        named.sample = self.rules_function("sample");
        if errors.is_empty() {
            Ok(named)
        } else {
            Err(DataErrors(errors))
        }
    }

    fn named(&self) -> Result<&Named, RulesError> {
        self.named
            .get()
            .ok_or_else(|| RulesError("the rules are not attached to a game yet".into()))
    }

    /// Lends the state to Lua for one call (on the frame at `frame`, for a
    /// phase function) and takes it back, whatever happens in between.
    /// `what` names the call in an error; it is only built on error.
    fn lend<R>(
        &self,
        state: &mut GameState,
        frame: Option<usize>,
        what: impl FnOnce() -> String,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<R, RulesError> {
        // The Lua-side mirror of the game variables stays good across calls
        // while they keep their stamp, and goes back by the names changed
        // to a clone of the state it was loaded from (`mirror_book.rs`).
        let cache = &self.api.vars_cache;
        let stamp = state.vars_stamp();
        if !self.link.mirror().holds(stamp) {
            let back = self.link.mirror().start_over(stamp);
            let filled = !back && self.link.mirror().empty() && cache.fill_sheet(state.vars());
            if !filled {
                let empty = self
                    .sandbox
                    .call(|lua| {
                        if back {
                            let stored =
                                cache.put_back(lua, state.vars(), self.link.mirror().way_back())?;
                            Ok(self.link.mirror().empty() && !stored)
                        } else {
                            cache.load(lua, state.vars())
                        }
                    })
                    .map_err(|e| RulesError(format!("loading the game variables into Lua: {e}")))?;
                self.link.mirror().set_empty(empty);
            }
            self.link.mirror().loaded(stamp, state.vars().len());
        }
        // The sheet is taken back once the state is no longer lent, in
        // memory if it can be, and settled into the state (see `sheet.rs`);
        // if the take-back itself fails (Lua out of memory), the sheet is
        // loaded again from the state at the next call.
        let out = self.link.lend(state, frame, || self.sandbox.call(f));
        let sheet = cache.sheet();
        let taken = match sheet.take_in_memory(state.vars()) {
            Some(taken) => Some(Ok(taken)),
            None => self
                .sandbox
                .call(|lua| sheet.take_back(lua, state.vars()))
                .ok(),
        };
        let settled = cache.settle(&self.link, state, taken);
        cache.fit(state.vars());
        match (out, settled) {
            (Ok(out), Ok(())) => Ok(out),
            (Err(e), _) => Err(RulesError(format!("{}: {e}", what()))),
            (Ok(_), Err(e)) => Err(RulesError(format!("{}: {e}", what()))),
        }
    }

    /// `rules.NAME`, if the package defines that optional function.
    fn rules_function(&self, name: &str) -> Option<Function> {
        self.sandbox
            .call(|lua| {
                // Raw: a metatable of the rules' could otherwise run Lua
                // outside any call that lends a state.
                lua.globals()
                    .get::<Table>("rules")?
                    .raw_get::<Option<Function>>(name)
            })
            .ok()
            .flatten()
    }

    fn rule(&self, name: &str) -> Result<&Function, RulesError> {
        self.named()?.rules.get(name).ok_or_else(|| {
            RulesError(format!(
                "the data names rules.{name}, but no script defines it"
            ))
        })
    }

    fn phase_name(&self, phase: u16) -> String {
        self.link
            .game()
            .ok()
            .and_then(|g| g.phases.get(phase as usize))
            .map_or_else(|| format!("#{phase}"), |p| p.name.clone())
    }
}

/// How hooks and rule functions an optional rule defined are credited.
pub fn option_owner(number: u32, id: &str) -> String {
    format!("optional rule {number} ({id})")
}

/// Registry slots for the rows of every dice table, so `dice.on` returns
/// the row tables scripts know from `tables` without building new ones.
/// The game's names as Lua strings in the registry (see `NameRefs`).
struct NameKeys {
    kinds: Vec<RegistryKey>,
    players: Vec<RegistryKey>,
    spaces: Vec<RegistryKey>,
    pools: Vec<RegistryKey>,
}

impl NameKeys {
    fn new(lua: &Lua, game: &Game) -> mlua::Result<NameKeys> {
        let keys = |names: &mut dyn Iterator<Item = &str>| -> mlua::Result<Vec<RegistryKey>> {
            names
                .map(|n| lua.create_registry_value(lua.create_string(n)?))
                .collect()
        };
        Ok(NameKeys {
            kinds: keys(&mut game.kinds.iter().map(|k| k.name.as_str()))?,
            players: keys(&mut game.players.iter().map(|p| p.id.as_str()))?,
            spaces: keys(&mut game.board.ids().map(|s| game.board.name(s)))?,
            pools: keys(&mut game.pools.iter().map(String::as_str))?,
        })
    }

    fn refs(&self) -> NameRefs {
        let ids = |keys: &[RegistryKey]| keys.iter().map(RegistryKey::id).collect();
        NameRefs {
            kinds: ids(&self.kinds),
            players: ids(&self.players),
            spaces: ids(&self.spaces),
            pools: ids(&self.pools),
        }
    }
}

fn row_keys(lua: &Lua, game: &Game, tables: &Value) -> mlua::Result<Vec<Vec<RegistryKey>>> {
    let Value::Table(tables) = tables else {
        return Ok(Vec::new());
    };
    game.dice_tables
        .iter()
        .map(|t| {
            let rows: Table = tables.raw_get::<Table>(t.name.as_str())?.raw_get("rows")?;
            (1..=t.rows.len())
                .map(|i| lua.create_registry_value(rows.raw_get::<Table>(i)?))
                .collect()
        })
        .collect()
}

impl Scripts for LuaRules {
    fn special(
        &self,
        state: &mut GameState,
        name: &str,
        player: PlayerId,
        target: SpaceId,
    ) -> Result<(), RulesError> {
        let f = self.rule(name)?;
        let names = &self.named()?.names;
        let p = &names.players[usize::from(player.0)];
        let t = &names.spaces[usize::from(target.0)];
        self.lend(
            state,
            None,
            || format!("rules.{name}"),
            |_| f.call::<()>((p, t)),
        )
    }

    fn combat(
        &self,
        state: &mut GameState,
        name: &str,
        attacker: PieceId,
        defender: PieceId,
    ) -> Result<Resolved, RulesError> {
        let f = self.rule(name)?;
        let ids = (i64::from(attacker.0) + 1, i64::from(defender.0) + 1);
        let result: String = self.lend(state, None, || format!("rules.{name}"), |_| f.call(ids))?;
        serde_json::from_value(serde_json::Value::String(result.clone())).map_err(|_| {
            RulesError(format!(
                "rules.{name} returned '{result}': it must return win, bounce, lose or both"
            ))
        })
    }

    fn repetition(&self, state: &mut GameState, name: &str) -> Result<(), RulesError> {
        let f = self.rule(name)?;
        self.lend(
            state,
            None,
            || format!("rules.{name}"),
            |_| f.call::<()>(()),
        )
    }

    fn describe(
        &self,
        state: &GameState,
        function: &str,
        arg: &str,
    ) -> Option<Result<String, RulesError>> {
        let f = self.rules_function(function)?;
        let mut copy = state.clone();
        Some(self.lend(
            &mut copy,
            None,
            || format!("rules.{function}"),
            |_| f.call::<String>(arg),
        ))
    }

    fn map_notes(
        &self,
        state: &GameState,
        player: &str,
    ) -> Option<Result<Vec<String>, RulesError>> {
        let f = self.rules_function("map_notes")?;
        let mut copy = state.clone();
        Some(self.lend(
            &mut copy,
            None,
            || "rules.map_notes".to_string(),
            |_| {
                match f.call::<Value>(player)? {
                    Value::Table(t) => t
                        .sequence_values::<Value>()
                        .map(|v| match v? {
                            Value::String(s) => Ok(s.to_string_lossy()),
                            other => Err(mlua::Error::runtime(format!(
                                "returned a list holding a {}: return a list of strings",
                                other.type_name()
                            ))),
                        })
                        .collect(),
                    other => Err(mlua::Error::runtime(format!(
                        "returned a {}: return a list of strings",
                        other.type_name()
                    ))),
                }
            },
        ))
    }

    fn evaluate(&self, state: &mut GameState, player: &str) -> Option<Result<f64, RulesError>> {
        let f = self.named().ok()?.evaluate.as_ref()?;
        let value = self.lend(
            state,
            None,
            || "rules.evaluate".to_string(),
            |_| f.call::<f64>(player),
        );
        // Bots compare values: NaN compares with nothing, and infinities
        // make every other difference vanish.
        Some(value.and_then(|v| {
            if v.is_finite() {
                Ok(v)
            } else {
                Err(RulesError(format!(
                    "rules.evaluate returned {v} for {player}: return a finite number"
                )))
            }
        }))
    }

    fn has_sampler(&self) -> bool {
        self.named().is_ok_and(|n| n.sample.is_some())
    }

    fn sample(&self, state: &mut GameState, player: &str) -> Result<(), RulesError> {
        let Some(f) = self.named()?.sample.as_ref() else {
            return Ok(());
        };
        self.lend(
            state,
            None,
            || format!("rules.sample (for {player})"),
            |_| f.call::<()>(player),
        )
    }

    fn run_phase(&self, state: &mut GameState, phase: u16) -> Result<Step, RulesError> {
        let (run, _) = self.phase_functions(phase)?;
        let depth = state.stack.len() - 1;
        let what = || format!("phases.{}.run", self.phase_name(phase));
        let out = self.lend(state, Some(depth), what, |lua| {
            match run.call::<Value>(self.api.frame.value())? {
                Value::Table(t) => choice_list(lua, &t).map(Some),
                Value::Boolean(true) => Ok(None),
                Value::Nil | Value::Boolean(false) => Ok(Some(Vec::new())),
                other => Err(mlua::Error::runtime(format!(
                    "run returned a {}: return a list of choices, true to run again, or nil when done",
                    other.type_name()
                ))),
            }
        })?;
        let grew = state.stack.len() > depth + 1;
        Ok(match out {
            Some(choices) if !choices.is_empty() => Step::Decide(choices),
            _ if grew => Step::Continue,
            None => Step::Continue,
            Some(_) => Step::Done,
        })
    }

    fn choose(&self, state: &mut GameState, phase: u16, choice: &str) -> Result<(), RulesError> {
        let (_, choose) = self.phase_functions(phase)?;
        let choose = choose.ok_or_else(|| {
            RulesError(format!(
                "phase '{}' offered a choice, but no script defines phases.{0}.choose",
                self.phase_name(phase)
            ))
        })?;
        let depth = state.stack.len() - 1;
        let what = || format!("phases.{}.choose", self.phase_name(phase));
        self.lend(state, Some(depth), what, |lua| {
            let choice = self.choice_string(lua, choice)?;
            choose.call::<()>((self.api.frame.value(), choice))
        })
    }

    /// Evaluates a Lua expression (or chunk) against a copy of the state:
    /// the REPL's `lua` command. The package is frozen, so the code cannot
    /// change the rules; changes to the copied state are discarded.
    fn eval(&self, state: &GameState, code: &str) -> Result<String, RulesError> {
        let mut copy = state.clone();
        self.lend(
            &mut copy,
            None,
            || "the lua command".into(),
            |lua| {
                let chunk = lua.load(format!("return {code}")).set_name("=repl");
                let value: Value = match chunk.eval() {
                    Ok(v) => v,
                    Err(_) => lua.load(code).set_name("=repl").eval()?,
                };
                render(lua, &value, 0)
            },
        )
    }

    fn counts(&self) -> Option<ScriptCounts> {
        Some(ScriptCounts {
            functions: self.calls.as_ref()?.counts(),
            rows: self.link.rows_read().unwrap_or_default(),
        })
    }

    fn set_narration(&self, on: bool) {
        self.link.set_narration(on);
        // The switch cannot fail: it assigns a boolean.
        self.sandbox.call(|_| self.api.narrate.call::<()>(on)).ok();
    }

    fn var_layout(&self) -> Option<Rc<VarLayout>> {
        Some(self.api.vars_cache.sheet().layout()).filter(|layout| !layout.is_empty())
    }

    fn reset(&self) -> Result<(), RulesError> {
        match self.sandbox.check_frozen() {
            Ok(None) => Ok(()),
            Ok(Some(change)) => Err(RulesError(format!(
                "{change}: the tables a rules package builds while loading are read-only, so that \
                 no rule keeps state from one call or game to the next (saves, undo and bots see \
                 only the game state); the \
                 change has been undone. Keep what a rule must remember in the game state \
                 (vars.set, pieces.set_attr, frame.ctx)"
            ))),
            Err(e) => Err(RulesError(format!("checking the rules' tables: {e}"))),
        }
    }
}

impl LuaRules {
    /// `choice` as a Lua string: the one made when it was chosen before.
    fn choice_string(&self, lua: &Lua, choice: &str) -> mlua::Result<LuaString> {
        let mut known = self.choice_strings.borrow_mut();
        if let Some(text) = known.get(choice) {
            return Ok(text.clone());
        }
        let text = lua.create_string(choice)?;
        if known.len() < KNOWN_CHOICES {
            known.insert(choice.into(), text.clone());
        }
        Ok(text)
    }

    fn phase_functions(&self, phase: u16) -> Result<(&Function, Option<&Function>), RulesError> {
        match self.named()?.phases.get(phase as usize) {
            Some(Some((run, choose))) => Ok((run, choose.as_ref())),
            _ => Err(RulesError(format!(
                "phase '{}' is scripted, but no script defines phases.{0}.run",
                self.phase_name(phase)
            ))),
        }
    }
}

/// Clears the globals through which a file hands its hooks over, so each
/// file's are its own and none survives loading.
/// A package's Lua state before any of its scripts runs: the sandbox
/// with the API and the package's own tables (`rules`, `phases`). The
/// static check of scripts reads the globals it holds.
pub(crate) fn fresh_state(
    files: PackageFiles,
    limits: Limits,
) -> Result<(Sandbox, Rc<Link>, Api), DataErrors> {
    let root = files.root().to_owned();
    let sandbox = Sandbox::new(files, limits).map_err(|e| script_error(&root, &e))?;
    let link = Rc::new(Link::new(limits.host_data()));
    let api = sandbox
        .call(|lua| {
            let api = api::register(lua, &link)?;
            lua.globals().raw_set("rules", lua.create_table()?)?;
            lua.globals().raw_set("phases", lua.create_table()?)?;
            Ok(api)
        })
        .map_err(|e| DataError::new(&root, format!("cannot set up the Lua API: {e}")))?;
    Ok((sandbox, link, api))
}

fn clear_hooks(globals: &Table) -> mlua::Result<()> {
    globals.raw_set("configure", Value::Nil)?;
    globals.raw_set("prepare", Value::Nil)
}

fn script_error(file: &str, e: &ScriptError) -> DataErrors {
    DataError::new(file, e.to_string()).into()
}

/// A Lua value in words, for the REPL. Tables are walked with the
/// sandbox's `next`, which sees through frozen tables.
fn render(lua: &Lua, v: &Value, depth: usize) -> mlua::Result<String> {
    Ok(match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        Value::Table(t) if depth < 3 => {
            let next: Function = lua.globals().get("next")?;
            let mut parts = Vec::new();
            let mut key = Value::Nil;
            loop {
                let (k, value): (Value, Value) = next.call((t, &key))?;
                if k.is_nil() {
                    break;
                }
                let name = match &k {
                    Value::String(s) => s.to_string_lossy(),
                    other => format!("[{}]", render(lua, other, depth + 1)?),
                };
                parts.push(format!("{name} = {}", render(lua, &value, depth + 1)?));
                if parts.len() > 200 {
                    parts.push("...".into());
                    break;
                }
                key = k;
            }
            parts.sort();
            format!("{{ {} }}", parts.join(", "))
        }
        other => format!("<{}>", other.type_name()),
    })
}
