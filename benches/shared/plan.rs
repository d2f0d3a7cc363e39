//! How much work a native-baseline bench does: the full amounts under
//! `cargo bench`, changed by environment variables, or a short smoke run
//! under `cargo test --all-targets`, so the test suite stays quick but
//! still checks that the engine and the native version agree.

/// Games to verify, games to time, and timed rounds (the best is kept).
pub struct Plan {
    pub verify: u64,
    pub timed: u64,
    pub rounds: u32,
}

/// The smoke run's amounts: enough games to catch a disagreement.
const SMOKE: Plan = Plan {
    verify: 100,
    timed: 100,
    rounds: 1,
};

impl Plan {
    /// `default` under `cargo bench`, each amount overridden by
    /// `{PREFIX}_VERIFY_GAMES`, `{PREFIX}_TIMED_GAMES` and `{PREFIX}_ROUNDS`;
    /// the smoke run otherwise. (`cargo bench` passes `--bench` to a bench
    /// without the libtest harness; `cargo test` does not.)
    pub fn from_env(prefix: &str, default: Plan) -> Plan {
        if !std::env::args().any(|a| a == "--bench") {
            println!(
                "smoke run (no --bench): a few games, figures not meaningful; use `cargo bench`"
            );
            return SMOKE;
        }
        let var = |name: &str, default: u64| {
            std::env::var(format!("{prefix}_{name}"))
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        Plan {
            verify: var("VERIFY_GAMES", default.verify),
            timed: var("TIMED_GAMES", default.timed),
            rounds: var("ROUNDS", default.rounds.into()) as u32,
        }
    }
}
