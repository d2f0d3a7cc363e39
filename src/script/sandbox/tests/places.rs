//! Every script error names the package file and line it came from,
//! whatever value the script raised and whichever wrapper raised it.

use super::{exec, runtime_message, sandbox_with};

#[test]
fn an_error_raised_with_nil_names_its_line() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "local x = 1\nerror(nil)"));
    assert!(
        message.starts_with("rules/test/snippet.lua:2: error(nil)"),
        "{message}"
    );
}

#[test]
fn an_error_raised_with_a_table_or_at_level_zero_names_its_line() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "\n\nerror('broken', 0)"));
    assert_eq!(message, "rules/test/snippet.lua:3: broken");
    let message = runtime_message(exec(
        &sandbox,
        "error(setmetatable({}, {__tostring = function() return 'odd' end}))",
    ));
    assert!(
        message.starts_with("rules/test/snippet.lua:1: "),
        "{message}"
    );
}

#[test]
fn errors_of_wrapped_library_functions_blame_the_caller() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "local s\ns = string.rep('x', 2, {})"));
    assert_eq!(
        message,
        "rules/test/snippet.lua:2: bad argument #3 to 'rep' (string expected, got table)"
    );
    let message = runtime_message(exec(&sandbox, "\ntable.move({}, 1, 2, 'x')"));
    assert!(
        message.starts_with("rules/test/snippet.lua:2: bad argument"),
        "{message}"
    );
}

#[test]
fn an_error_that_names_its_place_keeps_it() {
    let sandbox = sandbox_with(&[]);
    let message = runtime_message(exec(&sandbox, "local t = nil\nlocal x = t.field"));
    assert!(
        message.starts_with("rules/test/snippet.lua:2: attempt to index"),
        "{message}"
    );
}
