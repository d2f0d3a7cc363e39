//! `portolan`: parses the command line and calls the library.

use clap::{Parser, Subcommand, ValueEnum};
use portolan::cli::{self, Format};
use portolan::data::catalog::Catalog;
use portolan::load::Request;
use portolan::repl::Seat;
use portolan::sim::Run;
use std::path::PathBuf;
use std::process::ExitCode;

/// A rules host for board and war games. With no command, plays
/// Mediterranean Convoy against a random bot.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A folder of rules packages that overrides the stock ones
    /// (default: $PORTOLAN_RULES, else ./rules when it exists).
    #[arg(long, global = true, value_name = "DIR")]
    rules: Option<PathBuf>,
    /// A folder of scenarios (default: $PORTOLAN_SCENARIOS, else ./scenarios).
    #[arg(long, global = true, value_name = "DIR")]
    scenarios: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their optional rules and their scenarios.
    List,
    /// Validate game packages or scenarios; exits non-zero with every error.
    Check {
        #[arg(required = true)]
        targets: Vec<String>,
    },
    /// Play at the REPL.
    Play {
        /// A game id, a scenario id (game/name), a package folder or a scenario file.
        #[arg(default_value = "med-convoy")]
        target: String,
        #[command(flatten)]
        game: GameArgs,
        /// Who plays a seat: PLAYER=human or PLAYER=BOT, BOT one of random,
        /// greedy, ismcts:ITERATIONS, ismcts:MSms (repeatable).
        /// By default the first player is human and the others random;
        /// two human seats play hot-seat.
        #[arg(long = "seat", value_name = "PLAYER=WHO")]
        seats: Vec<String>,
        /// Run REPL commands from a file instead of the terminal, printing
        /// what a user would see (commands are also read from standard
        /// input when it is not a terminal).
        #[arg(long, value_name = "FILE")]
        commands: Option<PathBuf>,
    },
    /// Replay saved games under the current rules: names the first action
    /// of each that is now illegal, fails, or leads to another position;
    /// exits non-zero if any diverges.
    Replay {
        /// A save file, or a folder of saves (.json), one line each.
        save: PathBuf,
    },
    /// Play games between random bots and report the results.
    Simulate {
        target: String,
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, value_enum, default_value = "table")]
        format: FormatArg,
        /// Threads to play on (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(clap::Args)]
struct GameArgs {
    /// Switch an optional rule on (ID or +ID) or off (-ID); repeatable.
    #[arg(long = "option", value_name = "ID", allow_hyphen_values = true)]
    options: Vec<String>,
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Table,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let catalog = Catalog::new(cli.rules, cli.scenarios);
    let request = |target: String, game: &GameArgs| Request {
        target,
        options: game.options.clone(),
    };
    let result = match cli.command {
        None => cli::play(
            catalog,
            request(
                "med-convoy".into(),
                &GameArgs {
                    options: vec![],
                    seed: None,
                },
            ),
            None,
            &[],
            None,
        ),
        Some(Command::List) => cli::list(&catalog).map(|t| print!("{t}")),
        Some(Command::Check { targets }) => cli::check(&catalog, &targets).map(|t| print!("{t}")),
        Some(Command::Play {
            target,
            game,
            seats,
            commands,
        }) => parse_seats(&seats).and_then(|seats| {
            cli::play(
                catalog,
                request(target, &game),
                game.seed,
                &seats,
                commands.as_deref(),
            )
        }),
        Some(Command::Replay { save }) => portolan::replay::saves::replay_saves(&catalog, &save)
            .and_then(|(lines, same)| {
                print!("{lines}");
                same.then_some(())
                    .ok_or_else(|| "some saves no longer replay the same".to_string())
            }),
        Some(Command::Simulate {
            target,
            game,
            games,
            format,
            threads,
        }) => {
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let run = Run {
                games,
                seed: game.seed.unwrap_or(1),
                threads,
                bots: vec!["random".into()],
            };
            let format = match format {
                FormatArg::Table => Format::Table,
                FormatArg::Json => Format::Json,
            };
            cli::simulate(&catalog, &request(target, &game), &run, format).map(|t| print!("{t}"))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_seats(seats: &[String]) -> Result<Vec<(String, Seat)>, String> {
    seats
        .iter()
        .map(|s| {
            let (player, who) = s.split_once('=').ok_or_else(|| {
                format!(
                    "--seat {s}: write PLAYER=human or PLAYER=BOT (random, greedy, ismcts:1000)"
                )
            })?;
            Ok((player.to_string(), Seat::parse(who)))
        })
        .collect()
}
