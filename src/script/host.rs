//! The Lua side of a loaded rules package: runs the package's scripts in
//! the sandbox, applies the optional rules' overlays, and answers the
//! kernel's [`Scripts`] calls by lending the game state to Lua.

use crate::data::error::{DataError, DataErrors};
use crate::data::game_file::GameFile;
use crate::data::locate::Outline;
use crate::kernel::board::SpaceId;
use crate::kernel::event::Resolved;
use crate::kernel::game::Game;
use crate::kernel::piece::{PieceId, PlayerId};
use crate::kernel::scripts::{RulesError, Scripts, Step};
use crate::kernel::state::GameState;
use crate::script::api::{self, Definition, Lent};
use crate::script::error::ScriptError;
use crate::script::limits::Limits;
use crate::script::package::PackageFiles;
use crate::script::sandbox::Sandbox;
use mlua::{Function, Lua, LuaSerdeExt, Table, Value};
use std::rc::Rc;

/// A package's scripts, loaded and sandboxed.
pub struct LuaRules {
    sandbox: Sandbox,
}

impl LuaRules {
    /// Runs the package's scripts, then each enabled option's overlay in
    /// rule-number order. Returns the host and the `configure(data)`
    /// functions they defined, in the order they must run.
    pub fn load(
        package: &crate::data::package::Package,
        file: &GameFile,
        enabled: &[String],
        limits: Limits,
    ) -> Result<(LuaRules, Vec<Function>), DataErrors> {
        let mut files = PackageFiles::new(package.root.clone());
        for (path, source) in package.lua_files() {
            files.insert(path, source);
        }
        let sandbox = Sandbox::new(files, limits).map_err(|e| script_error(&package.root, &e))?;
        let setup = sandbox.call(|lua| {
            api::register(lua)?;
            lua.globals().set("rules", lua.create_table()?)?;
            lua.globals().set("phases", lua.create_table()?)
        });
        setup.map_err(|e| {
            DataError::new(&package.root, format!("cannot set up the Lua API: {e}"))
        })?;
        let mut configure = Vec::new();
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
            .map(|(i, s)| (format!("scripts.{i}"), s));
        let overlays = options.iter().map(|o| {
            let index = file.options.iter().position(|x| x.id == o.id).unwrap_or(0);
            (format!("options.{index}.script"), &o.script)
        });
        for (written_at, path) in scripts.chain(overlays) {
            if !package.files.contains_key(path) {
                let message = format!(
                    "script '{path}' is not in the package: check the file name, relative to {}",
                    package.root
                );
                let mut e = DataError::new(&package.path_of("game.yaml"), message);
                e.at = outline.as_ref().and_then(|o| o.find(&written_at));
                return Err(e.into());
            }
            sandbox
                .call(|lua| lua.globals().set("configure", Value::Nil))
                .map_err(|e| script_error(path, &e))?;
            sandbox
                .run_file(path)
                .map_err(|e| script_error(&package.path_of(path), &e))?;
            if let Ok(Value::Function(f)) =
                sandbox.call(|lua| lua.globals().get::<Value>("configure"))
            {
                configure.push(f);
            }
        }
        sandbox
            .call(|lua| lua.globals().set("configure", Value::Nil))
            .map_err(|e| script_error(&package.root, &e))?;
        Ok((LuaRules { sandbox }, configure))
    }

    /// Lets the overlays change the game's data (`configure(data)`), then
    /// reads it back through the same schema, so an overlay's mistake is
    /// reported like a YAML one, with the path of the bad key.
    pub fn configure(
        &self,
        file: GameFile,
        functions: &[Function],
        root: &str,
    ) -> Result<GameFile, DataErrors> {
        if functions.is_empty() {
            return Ok(file);
        }
        let err = |m: String| DataErrors::from(DataError::new(root, m));
        let data = self
            .sandbox
            .call(|lua| lua.to_value(&file))
            .map_err(|e| err(e.to_string()))?;
        for f in functions {
            self.sandbox
                .call(|_| f.call::<()>(data.clone()))
                .map_err(|e| err(format!("an optional rule's configure() failed: {e}")))?;
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

    /// Hands the compiled game to the API and exposes its tables to Lua.
    pub fn attach(&self, game: &Rc<Game>) -> Result<(), DataErrors> {
        let tables = self.sandbox.call(|lua| {
            lua.set_app_data(Definition(game.clone()));
            lua.globals().set("tables", lua.to_value(&game.tables)?)
        });
        tables.map_err(|e| {
            DataError::new(&game.id, format!("cannot expose the tables to Lua: {e}")).into()
        })
    }

    /// Lends the state to Lua for one call and takes it back, whatever
    /// happens in between.
    fn lend<R>(
        &self,
        state: &mut GameState,
        what: &str,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<R, RulesError> {
        let placeholder = GameState::new(Vec::new(), 0, 0, crate::kernel::rng::GameRng::new(0));
        // The slot holds the state whenever Lua does not, so it comes back
        // even if the sandbox refuses the call before running it.
        let mut slot = Some(std::mem::replace(state, placeholder));
        let result = self.sandbox.call(|lua| {
            lua.set_app_data(Lent(slot.take()));
            let out = f(lua);
            slot = lua.app_data_mut::<Lent>().and_then(|mut l| l.0.take());
            out
        });
        if let Some(s) = slot {
            *state = s;
        }
        result.map_err(|e| RulesError(format!("{what}: {e}")))
    }

    fn rule(&self, lua: &Lua, name: &str) -> mlua::Result<Function> {
        let rules: Table = lua.globals().get("rules")?;
        rules.get::<Option<Function>>(name)?.ok_or_else(|| {
            mlua::Error::runtime(format!(
                "the data names rules.{name}, but no script defines it"
            ))
        })
    }

    fn phase_fn(&self, lua: &Lua, phase: &str, f: &str) -> mlua::Result<Function> {
        let phases: Table = lua.globals().get("phases")?;
        let t: Option<Table> = phases.get(phase)?;
        let t = t.ok_or_else(|| {
            mlua::Error::runtime(format!(
                "phase '{phase}' is scripted, but no script defines phases.{phase}"
            ))
        })?;
        t.get::<Option<Function>>(f)?
            .ok_or_else(|| mlua::Error::runtime(format!("phases.{phase}.{f} is not defined")))
    }

    /// Calls a scripted phase's function with the top frame as a table
    /// `{player, step, ctx}` and writes what the script changed back.
    fn frame_call(
        &self,
        state: &mut GameState,
        phase: &str,
        f: &str,
        choice: Option<&str>,
    ) -> Result<(Value, bool), RulesError> {
        let depth = state.stack.len() - 1;
        self.lend(state, &format!("phases.{phase}.{f}"), |lua| {
            let func = self.phase_fn(lua, phase, f)?;
            let frame = api::with_frame(lua, depth, |g, fr| {
                let t = lua.create_table()?;
                t.set("player", g.player_id(fr.player))?;
                t.set("step", fr.step)?;
                t.set("ctx", api::vars_to_table(lua, &fr.ctx)?)?;
                Ok(t)
            })?;
            let out: Value = func.call((frame.clone(), choice))?;
            api::with_frame(lua, depth, |g, fr| {
                let player: String = frame.get("player")?;
                fr.player = g.player_index(&player).ok_or_else(|| {
                    mlua::Error::runtime(format!("frame.player: no player '{player}'"))
                })?;
                fr.step = frame.get("step")?;
                fr.ctx = api::table_to_vars(&frame.get::<Table>("ctx")?)?;
                Ok(())
            })?;
            let grew = api::stack_len(lua)? > depth + 1;
            Ok((out, grew))
        })
    }
}

impl Scripts for LuaRules {
    fn special(
        &self,
        state: &mut GameState,
        name: &str,
        player: PlayerId,
        target: SpaceId,
    ) -> Result<(), RulesError> {
        self.lend(state, &format!("rules.{name}"), |lua| {
            let (p, t) = api::names(lua, player, target)?;
            self.rule(lua, name)?.call::<()>((p, t))
        })
    }

    fn combat(
        &self,
        state: &mut GameState,
        name: &str,
        attacker: PieceId,
        defender: PieceId,
    ) -> Result<Resolved, RulesError> {
        let result: String = self.lend(state, &format!("rules.{name}"), |lua| {
            self.rule(lua, name)?
                .call((i64::from(attacker.0) + 1, i64::from(defender.0) + 1))
        })?;
        serde_json::from_value(serde_json::Value::String(result.clone())).map_err(|_| {
            RulesError(format!(
                "rules.{name} returned '{result}': it must return win, bounce, lose or both"
            ))
        })
    }

    fn repetition(&self, state: &mut GameState, name: &str) -> Result<(), RulesError> {
        self.lend(state, &format!("rules.{name}"), |lua| {
            self.rule(lua, name)?.call::<()>(())
        })
    }

    fn describe(
        &self,
        state: &GameState,
        function: &str,
        arg: &str,
    ) -> Option<Result<String, RulesError>> {
        let defined = self.sandbox.call(|lua| {
            Ok(lua
                .globals()
                .get::<Table>("rules")?
                .get::<Option<Function>>(function)?
                .is_some())
        });
        if !matches!(defined, Ok(true)) {
            return None;
        }
        let mut copy = state.clone();
        Some(self.lend(&mut copy, &format!("rules.{function}"), |lua| {
            self.rule(lua, function)?.call::<String>(arg)
        }))
    }

    fn run_phase(&self, state: &mut GameState, phase: &str) -> Result<Step, RulesError> {
        let (out, grew) = self.frame_call(state, phase, "run", None)?;
        match out {
            Value::Table(t) => {
                let choices = t
                    .sequence_values::<String>()
                    .collect::<mlua::Result<Vec<_>>>();
                let choices = choices.map_err(|e| {
                    RulesError(format!(
                        "phases.{phase}.run must return a list of choice strings: {e}"
                    ))
                })?;
                Ok(Step::Decide(choices))
            }
            _ if grew => Ok(Step::Continue),
            Value::Boolean(true) => Ok(Step::Continue),
            Value::Nil | Value::Boolean(false) => Ok(Step::Done),
            other => Err(RulesError(format!(
                "phases.{phase}.run returned a {}: return a list of choices, true to run again, or nil when done",
                other.type_name()
            ))),
        }
    }

    fn choose(&self, state: &mut GameState, phase: &str, choice: &str) -> Result<(), RulesError> {
        self.frame_call(state, phase, "choose", Some(choice))
            .map(|_| ())
    }

    /// Evaluates a Lua expression (or chunk) against a copy of the state:
    /// the REPL's `lua` command. Changes the script makes are discarded.
    fn eval(&self, state: &GameState, code: &str) -> Result<String, RulesError> {
        let mut copy = state.clone();
        self.lend(&mut copy, "the lua command", |lua| {
            let chunk = lua.load(format!("return {code}")).set_name("=repl");
            let value: Value = match chunk.eval() {
                Ok(v) => v,
                Err(_) => lua.load(code).set_name("=repl").eval()?,
            };
            Ok(render(&value, 0))
        })
    }
}

fn script_error(file: &str, e: &ScriptError) -> DataErrors {
    DataError::new(file, e.to_string()).into()
}

/// A Lua value in words, for the REPL.
fn render(v: &Value, depth: usize) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        Value::Table(t) if depth < 3 => {
            let mut parts = Vec::new();
            for pair in t.pairs::<Value, Value>().flatten() {
                let key = match &pair.0 {
                    Value::String(s) => s.to_string_lossy(),
                    k => format!("[{}]", render(k, depth + 1)),
                };
                parts.push(format!("{key} = {}", render(&pair.1, depth + 1)));
            }
            parts.sort();
            format!("{{ {} }}", parts.join(", "))
        }
        other => format!("<{}>", other.type_name()),
    }
}
