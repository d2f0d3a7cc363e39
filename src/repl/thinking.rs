//! A bot thinking at the terminal: a line that shows it is alive (time
//! spent, search iterations), and Ctrl-C that stops its search so it
//! plays the best move found so far. Only a terminal sees the line: a
//! transcript written to a file or a pipe stays as it was.

use crate::bots::{Bot, Sight, Watch};
use crate::kernel::action::Action;
use crate::kernel::scripts::RulesError;
use crate::repl::escape::for_terminal;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a bot thinks before the line appears (a quick bot shows
/// nothing), and how often it is redrawn.
const QUIET: Duration = Duration::from_millis(300);
const REDRAW: Duration = Duration::from_millis(100);

/// Makes Ctrl-C stop a thinking bot rather than the program. When no bot
/// thinks, Ctrl-C ends the program as it would without this (at the
/// prompt the line editor reads it as a key, so it never gets here).
pub fn stop_on_ctrl_c(watch: Arc<Watch>) -> Result<(), String> {
    ctrlc::set_handler(move || {
        if watch.thinking() {
            watch.stop();
        } else {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("Ctrl-C cannot stop a thinking bot: {e}"))
}

/// `bot` chooses among `legal`, watched by `watch`; with `shown`, a
/// progress line for `player` is drawn on the terminal while it thinks
/// and wiped when it has chosen.
pub fn choose(
    bot: &mut dyn Bot,
    sight: Sight,
    legal: &[Action],
    watch: &Watch,
    shown: Option<&str>,
) -> Result<usize, RulesError> {
    watch.begin();
    let sight = sight.watched(watch);
    let pick = match shown {
        None => bot.choose(&sight, legal),
        Some(player) => {
            let _quiet = QuietKeys::on(libc::STDIN_FILENO);
            let chosen = AtomicBool::new(false);
            std::thread::scope(|scope| {
                scope.spawn(|| show_progress(player, watch, &chosen));
                let pick = bot.choose(&sight, legal);
                chosen.store(true, Ordering::Relaxed);
                pick
            })
        }
    };
    watch.end();
    pick
}

/// Keys typed while a bot thinks are not echoed over the progress line:
/// they wait, unseen, in the terminal's buffer, and the next prompt reads
/// them. The terminal's settings come back when this is dropped.
struct QuietKeys {
    fd: libc::c_int,
    saved: Option<libc::termios>,
}

impl QuietKeys {
    /// Turns echo off on the terminal `fd` (nothing when it is no terminal).
    fn on(fd: libc::c_int) -> QuietKeys {
        // SAFETY: termios is plain data, filled by tcgetattr before use;
        // both calls only read or write the struct passed to them.
        let saved = unsafe {
            let mut settings: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(fd, &mut settings) != 0 {
                None
            } else {
                let saved = settings;
                settings.c_lflag &= !libc::ECHO;
                (libc::tcsetattr(fd, libc::TCSANOW, &settings) == 0).then_some(saved)
            }
        };
        QuietKeys { fd, saved }
    }
}

impl Drop for QuietKeys {
    fn drop(&mut self) {
        if let Some(saved) = &self.saved {
            // SAFETY: restores settings tcgetattr gave for this terminal.
            unsafe {
                libc::tcsetattr(self.fd, libc::TCSANOW, saved);
            }
        }
    }
}

/// Redraws the progress line until the bot has chosen, then wipes it.
fn show_progress(player: &str, watch: &Watch, chosen: &AtomicBool) {
    let start = Instant::now();
    let mut drawn = false;
    while !chosen.load(Ordering::Relaxed) {
        std::thread::sleep(REDRAW);
        if start.elapsed() < QUIET {
            continue;
        }
        let stopping = if watch.stopped() {
            "stopping: plays its best move so far"
        } else {
            "Ctrl-C: play the best move so far"
        };
        let line = format!(
            "\r\x1b[2K{} thinks... {:.1} s, {} iterations ({stopping})",
            for_terminal(player, false),
            start.elapsed().as_secs_f64(),
            watch.iterations()
        );
        let mut out = std::io::stdout().lock();
        drawn = out.write_all(line.as_bytes()).is_ok() && out.flush().is_ok();
    }
    if drawn {
        let mut out = std::io::stdout().lock();
        // A line that cannot be wiped leaves a stale line, no more.
        let _ = out.write_all(b"\r\x1b[2K").and_then(|()| out.flush());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echoes(fd: libc::c_int) -> bool {
        // SAFETY: as in `QuietKeys::on`.
        unsafe {
            let mut settings: libc::termios = std::mem::zeroed();
            assert_eq!(libc::tcgetattr(fd, &mut settings), 0);
            settings.c_lflag & libc::ECHO != 0
        }
    }

    #[test]
    fn keys_are_not_echoed_while_a_bot_thinks_and_echo_comes_back_after() {
        let (mut leader, mut follower) = (0, 0);
        // SAFETY: openpty fills the two descriptors of a new pseudo-terminal.
        let opened = unsafe {
            libc::openpty(
                &mut leader,
                &mut follower,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(opened, 0, "a pseudo-terminal for the test");
        assert!(echoes(follower));
        {
            let _quiet = QuietKeys::on(follower);
            assert!(!echoes(follower));
        }
        assert!(echoes(follower));
        // SAFETY: the descriptors openpty gave, closed once.
        unsafe {
            libc::close(leader);
            libc::close(follower);
        }
    }

    #[test]
    fn what_is_no_terminal_is_left_alone() {
        let quiet = QuietKeys::on(-1);
        assert!(quiet.saved.is_none());
    }
}
