//! Counting rule-function calls, for `simulate --coverage`.
//!
//! When a package is loaded to be counted, every rule function a file
//! defines (`rules.NAME`, `phases.NAME.run` and `.choose`) is wrapped,
//! right after that file runs, in a small Lua function that bumps a
//! counter and tail-calls the original. Wrapping file by file credits
//! each function to the file or optional rule that wrote it, and counts
//! a base rule that an optional rule wraps (`local strike =
//! rules.air_strike`) when the option calls it. A package loaded without
//! counting has no wrappers at all: coverage costs nothing when it is off.
//!
//! The functions of the package's modules (the tables `require` returned,
//! `lib.combat.modifier`) are counted the same way, each credited to the
//! file whose source defines it. An optional rule that keeps a module's
//! function and puts its own in its place (`local modifier =
//! combat.modifier; function combat.modifier(...) ... modifier(...) end`)
//! therefore has both counted: its wrapper, credited to the option, and
//! the kept function, wrapped for counting before the option ran.

use mlua::{Function, Lua, Table, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

/// Builds a counting wrapper: `count(i)` on every call, then `f(...)`.
const WRAPPER: &str = "local count, f, i = ... return function(...) count(i) return f(...) end";

/// The rule functions wrapped so far and their calls.
pub struct RuleCalls {
    /// (function, who defined it), by counter index.
    names: RefCell<Vec<(String, String)>>,
    calls: Rc<RefCell<Vec<u64>>>,
    /// The wrappers made, by address, so none is wrapped again.
    wrappers: RefCell<HashSet<usize>>,
    count: Function,
    make: Function,
}

impl RuleCalls {
    pub fn new(lua: &Lua) -> mlua::Result<RuleCalls> {
        let calls: Rc<RefCell<Vec<u64>>> = Rc::default();
        let counter = Rc::clone(&calls);
        let count = lua.create_function(move |_, i: usize| {
            if let Some(c) = counter.borrow_mut().get_mut(i) {
                *c += 1;
            }
            Ok(())
        })?;
        let make = lua.load(WRAPPER).set_name("=[coverage]").into_function()?;
        Ok(RuleCalls {
            names: RefCell::default(),
            calls,
            wrappers: RefCell::default(),
            count,
            make,
        })
    }

    /// Wraps every rule function and module function not wrapped yet,
    /// after the file `file` (as chunk names show it) has run: rule
    /// functions are credited to `owner`, module functions to the file
    /// that defines them (`owner` when that is `file`). `modules` is the
    /// cache of loaded modules, by name.
    pub fn wrap_new(
        &self,
        lua: &Lua,
        modules: &Table,
        file: &str,
        owner: &str,
    ) -> mlua::Result<()> {
        let globals = lua.globals();
        let to_owner = |_: &Function| owner.to_string();
        if let Ok(rules) = globals.raw_get::<Table>("rules") {
            self.wrap_in(&rules, "rules.", &to_owner)?;
        }
        if let Ok(phases) = globals.raw_get::<Table>("phases") {
            for pair in phases.pairs::<String, Value>() {
                if let (name, Value::Table(phase)) = pair? {
                    self.wrap_in(&phase, &format!("phases.{name}."), &to_owner)?;
                }
            }
        }
        let by_source = |f: &Function| match f.info().source {
            Some(source) if source.strip_prefix('@') != Some(file) => {
                source.trim_start_matches('@').to_string()
            }
            _ => owner.to_string(),
        };
        let mut loaded: Vec<(String, Table)> = Vec::new();
        for pair in modules.pairs::<String, Value>() {
            if let (name, Value::Table(module)) = pair? {
                loaded.push((name, module));
            }
        }
        loaded.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, module) in loaded {
            self.wrap_in(&module, &format!("{name}."), &by_source)?;
        }
        Ok(())
    }

    fn wrap_in(
        &self,
        table: &Table,
        prefix: &str,
        owner: &dyn Fn(&Function) -> String,
    ) -> mlua::Result<()> {
        let mut found: Vec<(String, Function)> = Vec::new();
        for pair in table.pairs::<Value, Value>() {
            if let (Value::String(key), Value::Function(f)) = pair?
                && !self.wrappers.borrow().contains(&(f.to_pointer() as usize))
            {
                found.push((key.to_str()?.to_string(), f));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, f) in found {
            let defined_by = owner(&f);
            let index = self.calls.borrow().len();
            let wrapper: Function = self.make.call((&self.count, f, index))?;
            self.wrappers
                .borrow_mut()
                .insert(wrapper.to_pointer() as usize);
            table.raw_set(key.as_str(), wrapper)?;
            self.calls.borrow_mut().push(0);
            self.names
                .borrow_mut()
                .push((format!("{prefix}{key}"), defined_by));
        }
        Ok(())
    }

    /// (function, who defined it, calls), in the order wrapped.
    pub fn counts(&self) -> Vec<(String, String, u64)> {
        self.names
            .borrow()
            .iter()
            .zip(self.calls.borrow().iter())
            .map(|((name, owner), &calls)| (name.clone(), owner.clone(), calls))
            .collect()
    }
}
