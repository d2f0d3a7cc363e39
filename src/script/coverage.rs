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

    /// Wraps every rule function not wrapped yet, crediting it to `owner`.
    pub fn wrap_new(&self, lua: &Lua, owner: &str) -> mlua::Result<()> {
        let globals = lua.globals();
        if let Ok(rules) = globals.raw_get::<Table>("rules") {
            self.wrap_in(&rules, "rules.", owner)?;
        }
        if let Ok(phases) = globals.raw_get::<Table>("phases") {
            for pair in phases.pairs::<String, Value>() {
                if let (name, Value::Table(phase)) = pair? {
                    self.wrap_in(&phase, &format!("phases.{name}."), owner)?;
                }
            }
        }
        Ok(())
    }

    fn wrap_in(&self, table: &Table, prefix: &str, owner: &str) -> mlua::Result<()> {
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
            let index = self.calls.borrow().len();
            let wrapper: Function = self.make.call((&self.count, f, index))?;
            self.wrappers
                .borrow_mut()
                .insert(wrapper.to_pointer() as usize);
            table.raw_set(key.as_str(), wrapper)?;
            self.calls.borrow_mut().push(0);
            self.names
                .borrow_mut()
                .push((format!("{prefix}{key}"), owner.to_string()));
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
