//! Tests of the sandbox as a package sees it, shared helpers first.

use std::time::Duration;

use super::Sandbox;
use crate::script::error::ScriptError;
use crate::script::limits::Limits;
use crate::script::package::PackageFiles;

mod confinement;
mod limits;
mod places;

/// Small, so the timeout tests stay fast.
const BUDGET: Duration = Duration::from_millis(50);

fn sandbox_with(files: &[(&str, &str)]) -> Sandbox {
    sandbox_limited(files, Limits::new().with_time_budget(BUDGET))
}

fn sandbox_limited(files: &[(&str, &str)], limits: Limits) -> Sandbox {
    let mut package = PackageFiles::new("rules/test");
    for (path, source) in files {
        package.insert(*path, *source);
    }
    Sandbox::new(package, limits).expect("sandbox set-up")
}

/// Runs `code` as if it were the package file `snippet.lua`.
fn exec(sandbox: &Sandbox, code: &str) -> Result<(), ScriptError> {
    sandbox.call(|lua| lua.load(code).set_name("@rules/test/snippet.lua").exec())
}

fn assert_timeout(result: Result<(), ScriptError>) {
    match result {
        Err(ScriptError::Timeout { limit, .. }) => assert_eq!(limit, BUDGET),
        other => panic!("expected a timeout, got {other:?}"),
    }
}

/// A later, ordinary call still works (and is not stopped by a stale hook).
fn assert_usable(sandbox: &Sandbox) {
    let sum: i64 = sandbox
        .call(|lua| {
            lua.load("local s = 0 for i = 1, 100000 do s = s + i end return s")
                .eval()
        })
        .expect("an ordinary call after a failure");
    assert_eq!(sum, 5_000_050_000);
}

fn runtime_message(result: Result<(), ScriptError>) -> String {
    match result {
        Err(ScriptError::Runtime { message, .. }) => message,
        other => panic!("expected a runtime error, got {other:?}"),
    }
}
