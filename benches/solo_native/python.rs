//! The yardstick a designer would otherwise write: the plain Python script
//! (`benches/solo_convoy.py`), timed in the same run as the engine so the
//! ratio between them holds for the load the machine had then.
//!
//! The script prints its own speed by CPU time ("... (CPU 2.06 s:
//! 9712/s) ..."), which a busy machine changes least; the ratio uses the
//! engine's CPU figure beside it. Without `python3` on the PATH the bench
//! says so and prints no ratio.

use std::path::Path;
use std::process::Command;

/// Journeys the script plays (`SOLO_PYTHON_JOURNEYS`, default 20000).
pub fn journeys() -> u64 {
    std::env::var("SOLO_PYTHON_JOURNEYS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

/// The script's journeys per CPU second over `journeys` journeys, or why
/// there is none.
pub fn speed(journeys: u64) -> Result<f64, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/solo_convoy.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(journeys.to_string())
        .arg("1")
        .output()
        .map_err(|e| format!("python3 could not be run ({e})"))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    cpu_speed(&text).ok_or_else(|| format!("no CPU speed in the script's output: {text}"))
}

/// The figure after "(CPU x s: " and before "/s)".
fn cpu_speed(text: &str) -> Option<f64> {
    let after = &text[text.find("(CPU ")?..];
    let figure = &after[after.find(": ")? + 2..];
    figure[..figure.find("/s")?].parse().ok()
}

/// Prints the engine's CPU speed against the script's.
pub fn report(engine_per_cpu_second: Option<f64>) {
    let journeys = journeys();
    match (speed(journeys), engine_per_cpu_second) {
        (Ok(python), Some(engine)) => println!(
            "engine vs the Python script (cpu, {journeys} journeys of benches/solo_convoy.py): \
             {python:.0} journeys/s, the engine {:.2}x",
            engine / python
        ),
        (Ok(python), None) => println!(
            "the Python script: {python:.0} journeys/s (cpu); the engine's CPU time is unknown \
             here, so no ratio"
        ),
        (Err(why), _) => println!("no ratio to the Python script: {why}"),
    }
}
