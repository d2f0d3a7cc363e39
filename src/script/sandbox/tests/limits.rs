//! The memory limit and the time budget: each runaway ends in its own
//! error, and the sandbox stays usable.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::time::Duration;

use super::{
    BUDGET, assert_timeout, assert_usable, exec, runtime_message, sandbox_limited, sandbox_with,
};
use crate::script::error::ScriptError;
use crate::script::limits::Limits;

#[test]
fn an_infinite_loop_is_stopped_where_it_loops() {
    let sandbox = sandbox_with(&[]);
    let result = exec(&sandbox, "local x = 1\nwhile true do end");
    assert!(matches!(
        &result,
        Err(ScriptError::Timeout { location: Some(l), .. }) if l == "rules/test/snippet.lua:2"
    ));
    assert!(result.unwrap_err().to_string().starts_with(
        "script exceeded its time budget of 50 ms (an infinite loop?) in rules/test/snippet.lua:2"
    ));
    assert_usable(&sandbox);
}

#[test]
fn pcall_cannot_swallow_the_stop() {
    let sandbox = sandbox_with(&[]);
    assert_timeout(exec(
        &sandbox,
        "while true do pcall(function() while true do end end) end",
    ));
    assert_usable(&sandbox);
}

#[test]
fn a_loop_inside_a_coroutine_is_stopped() {
    let sandbox = sandbox_with(&[]);
    assert_timeout(exec(
        &sandbox,
        "coroutine.wrap(function() while true do end end)()",
    ));
    assert_timeout(exec(
        &sandbox,
        "local co = coroutine.create(function() while true do end end)\n\
         while true do pcall(coroutine.resume, co) end",
    ));
    assert_timeout(exec(
        &sandbox,
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
    ));
    // A coroutine created in an earlier call carries no hook of its own.
    exec(
        &sandbox,
        "spin = coroutine.create(function() while true do end end)",
    )
    .unwrap();
    assert_timeout(exec(&sandbox, "coroutine.resume(spin)"));
    assert_usable(&sandbox);
}

#[test]
fn a_stopped_coroutine_cannot_run_close_handlers_later() {
    // The coroutine dies of the stop error with Lua's hooks off; its pending
    // __close handler must not run unhooked when it is closed afterwards.
    let sandbox = sandbox_with(&[]);
    assert_timeout(exec(
        &sandbox,
        "trap = coroutine.create(function()
           local guard <close> = setmetatable({}, { __close = function() while true do end end })
           while true do end
         end)
         wrapped = coroutine.wrap(function()
           local guard <close> = setmetatable({}, { __close = function() while true do end end })
           while true do end
         end)
         coroutine.resume(trap)",
    ));
    assert_timeout(exec(&sandbox, "wrapped()"));
    let (closed, message): (bool, String) = sandbox
        .call(|lua| lua.load("return coroutine.close(trap)").eval())
        .unwrap();
    assert!(!closed);
    assert!(message.starts_with("time budget exhausted"));
    // The error names the line that called the dead coroutine.
    let message = runtime_message(exec(&sandbox, "wrapped()"));
    assert_eq!(
        message,
        "rules/test/snippet.lua:1: time budget exhausted: the host stopped this script"
    );
    assert_usable(&sandbox);
}

#[test]
fn xpcall_with_a_looping_handler_is_stopped() {
    let sandbox = sandbox_with(&[]);
    assert_timeout(exec(
        &sandbox,
        "xpcall(function() error('boom') end, function() while true do end end)",
    ));
    assert_timeout(exec(
        &sandbox,
        "while true do xpcall(function() while true do end end, function() while true do end end) end",
    ));
    assert_usable(&sandbox);
}

#[test]
fn a_memory_bomb_hits_the_memory_limit() {
    let limits = Limits::new()
        .with_memory(8 * 1024 * 1024)
        .with_time_budget(Duration::from_secs(5));
    let sandbox = sandbox_limited(&[], limits);
    let result = exec(
        &sandbox,
        "local t = {} while true do t[#t + 1] = string.rep('x', 1e6) end",
    );
    assert_eq!(
        result,
        Err(ScriptError::Memory {
            limit: 8 * 1024 * 1024
        })
    );
    assert_usable(&sandbox);
}

#[test]
fn a_memory_bomb_caught_by_pcall_runs_into_the_time_budget() {
    let limits = Limits::new()
        .with_memory(4 * 1024 * 1024)
        .with_time_budget(BUDGET);
    let sandbox = sandbox_limited(&[], limits);
    assert_timeout(exec(
        &sandbox,
        "while true do pcall(function() local t = {} while true do t[#t + 1] = string.rep('x', 1e5) end end) end",
    ));
    assert_usable(&sandbox);
}

#[test]
fn nested_calls_share_the_outer_budget() {
    let sandbox = Rc::new(sandbox_with(&[]));
    let weak = Rc::downgrade(&sandbox);
    sandbox
        .call(|lua| {
            let inner = lua.create_function(move |_, code: String| {
                let sandbox = weak.upgrade().expect("sandbox alive");
                sandbox
                    .call(|lua| lua.load(code).exec())
                    .map_err(mlua::Error::external)
            })?;
            lua.globals().set("inner", inner)
        })
        .unwrap();
    // A finished nested call must not disarm the outer one...
    assert_timeout(exec(&sandbox, "inner('return 1') while true do end"));
    // ...and a loop in a nested call stops the whole call.
    assert_timeout(exec(&sandbox, "inner('while true do end')"));
    assert_timeout(exec(
        &sandbox,
        "pcall(inner, 'while true do end') while true do end",
    ));
    assert_usable(&sandbox);
}

#[test]
fn a_panicking_host_closure_leaves_the_sandbox_usable() {
    let sandbox = sandbox_with(&[]);
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        sandbox.call(|_| -> mlua::Result<()> { panic!("host bug") })
    }));
    assert!(panicked.is_err());
    assert_usable(&sandbox);
    assert_timeout(exec(&sandbox, "while true do end"));
}

#[test]
fn default_limits_are_documented_ones() {
    let limits = Limits::default();
    assert_eq!(limits, Limits::new());
    assert_eq!(limits.memory(), 64 * 1024 * 1024);
    assert_eq!(limits.time_budget(), Duration::from_secs(1));
}

// The C loops of the standard library that the hook cannot reach: each is
// bounded, and a script that tries one ends within the budget.

#[test]
fn a_pattern_bomb_ends_with_the_step_limit() {
    let sandbox = sandbox_with(&[]);
    for code in [
        "string.find(string.rep('a', 30000), string.rep('.-', 7) .. 'b')",
        "local s = string.rep('a', 5000) s:match(string.rep('(.-)', 5) .. 'x')",
        "string.gsub(string.rep('a', 20000), string.rep('a*', 10) .. 'b', '')",
    ] {
        // The matcher's step limit ends it, or the budget right after.
        match exec(&sandbox, code) {
            Err(ScriptError::Timeout { .. }) => {}
            Err(ScriptError::Runtime { message, .. }) if message.contains("steps") => {}
            other => panic!("{code}: {other:?}"),
        }
    }
    assert_usable(&sandbox);
}

#[test]
fn rep_of_nothing_returns_at_once() {
    let sandbox = sandbox_with(&[]);
    exec(
        &sandbox,
        "assert(string.rep('', 1e15) == '') assert(('').rep('', math.maxinteger, '') == '')",
    )
    .expect("an empty string repeated is empty");
    // Non-empty text is bounded by memory: the allocation fails at once.
    let result = exec(&sandbox, "string.rep('x', 1e15)");
    assert!(result.is_err(), "{result:?}");
    assert_usable(&sandbox);
}

#[test]
fn a_huge_table_move_is_refused() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "table.move({}, 1, 1e15, 2)"));
    assert!(message.contains("table.move"), "{message}");
    exec(&sandbox, "assert(table.move({1, 2, 3}, 1, 3, 2)[4] == 3)").expect("ordinary moves work");
    assert_usable(&sandbox);
}

#[test]
fn table_create_makes_room_within_bounds() {
    let sandbox = sandbox_with(&[]);
    exec(
        &sandbox,
        "local t = table.create(4, 2) assert(next(t) == nil and #t == 0) \
         t[#t + 1] = 'a' t.x = 1 assert(t[1] == 'a' and #t == 1) \
         assert(#table.create(0) == 0)",
    )
    .expect("an ordinary table.create works");
    for (call, says) in [
        ("table.create(-1)", "out of range"),
        ("table.create(1 << 40)", "out of range"),
        ("table.create(1, -5)", "out of range"),
        ("table.create(1.5)", "number has no integer representation"),
        ("table.create(0/0)", "number has no integer representation"),
        ("table.create('many')", "number expected"),
        ("table.create()", "number expected"),
    ] {
        let message = runtime_message(exec(&sandbox, call));
        assert!(
            message.contains("bad argument") && message.contains(says),
            "{call}: {message}"
        );
    }
    // Within its bound, a big request meets the memory limit, not the host's.
    let limits = Limits::new()
        .with_memory(4 * 1024 * 1024)
        .with_time_budget(BUDGET);
    let small = sandbox_limited(&[], limits);
    let result = exec(&small, "table.create(1 << 24)");
    assert!(
        matches!(result, Err(ScriptError::Memory { .. })),
        "{result:?}"
    );
    assert_usable(&small);
}

#[test]
fn a_looping_close_handler_run_by_coroutine_close_is_stopped() {
    let sandbox = sandbox_with(&[]);
    // A suspended coroutine with a pending to-be-closed variable.
    assert_timeout(exec(
        &sandbox,
        "local co = coroutine.create(function()\n\
           local x <close> = setmetatable({}, { __close = function() while true do end end })\n\
           coroutine.yield()\n\
         end)\n\
         coroutine.resume(co)\n\
         coroutine.close(co)",
    ));
    // A coroutine that failed with a pending one.
    assert_timeout(exec(
        &sandbox,
        "local co = coroutine.create(function()\n\
           local x <close> = setmetatable({}, { __close = function() while true do end end })\n\
           error('boom')\n\
         end)\n\
         coroutine.resume(co)\n\
         coroutine.close(co)",
    ));
    assert_usable(&sandbox);
}
