//! `portolan`: parses the command line and calls the library.

use clap::{Parser, Subcommand, ValueEnum};
use portolan::data::catalog::Catalog;
use portolan::load::Request;
use portolan::repl::Seat;
use portolan::sim::Shard;
use portolan::sim::command::{self as sim_command, Format, Simulate};
use portolan::{balance, cli};
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
        /// Who plays a seat: PLAYER=human or PLAYER=random (repeatable).
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
    /// Play games between bots and report the results.
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
        /// Who plays each seat: by player (red=random,blue=random) or by
        /// position (random,random); default random everywhere.
        #[arg(long, value_name = "BOTS")]
        bots: Option<String>,
        /// Play only shard I of N (from 0) of the run's games and write a
        /// result file for `portolan merge`.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Where --shard writes its result file
        /// (default: portolan-shard-I-of-N.json).
        #[arg(long, value_name = "FILE", requires = "shard")]
        out: Option<PathBuf>,
        /// Count how often each rule function ran, each dice-table row and
        /// combat cell was read, and each optional rule changed a game.
        #[arg(long)]
        coverage: bool,
    },
    /// Compare rule sets: every variant plays the same seeded games, and one
    /// table shows each measure, its difference from the first variant and
    /// whether it is significant.
    Balance {
        target: String,
        #[command(flatten)]
        game: GameArgs,
        /// NAME=SPEC: options (+id, -id) and at most one scenario (game/name
        /// or a file); `base=` is the target as given. Repeatable.
        #[arg(long = "variant", value_name = "NAME=SPEC")]
        variants: Vec<String>,
        /// The target, then the target with each optional rule alone.
        #[arg(long)]
        each_option: bool,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, value_name = "BOTS")]
        bots: Option<String>,
        #[arg(long)]
        threads: Option<usize>,
        /// Write an SVG chart of the win rates (and scores) per variant.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "table")]
        format: BalanceFormatArg,
    },
    /// Merge the result files of a run's shards into the run's report.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "table")]
        format: FormatArg,
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
    Csv,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Table => Format::Table,
            FormatArg::Json => Format::Json,
            FormatArg::Csv => Format::Csv,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum BalanceFormatArg {
    Table,
    Json,
}

fn default_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
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
        Some(Command::Simulate {
            target,
            game,
            games,
            format,
            threads,
            bots,
            shard,
            out,
            coverage,
        }) => shard
            .as_deref()
            .map(Shard::parse)
            .transpose()
            .and_then(|shard| {
                let simulate = Simulate {
                    request: request(target, &game),
                    games,
                    seed: game.seed.unwrap_or(1),
                    threads: default_threads(threads),
                    bots,
                    format: format.into(),
                    shard,
                    out,
                    coverage,
                };
                sim_command::simulate(&catalog, &simulate)
            })
            .map(|t| print!("{t}")),
        Some(Command::Balance {
            target,
            game,
            variants,
            each_option,
            games,
            bots,
            threads,
            plot,
            format,
        }) => variants
            .iter()
            .map(|v| balance::Variant::parse(v))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|variants| {
                let b = balance::Balance {
                    request: request(target, &game),
                    variants,
                    each_option,
                    games,
                    seed: game.seed.unwrap_or(1),
                    threads: default_threads(threads),
                    bots,
                    format: match format {
                        BalanceFormatArg::Table => balance::Format::Table,
                        BalanceFormatArg::Json => balance::Format::Json,
                    },
                    plot,
                };
                balance::balance(&catalog, &b)
            })
            .map(|t| print!("{t}")),
        Some(Command::Merge { files, format }) => {
            sim_command::merge(&files, format.into()).map(|t| print!("{t}"))
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
            let (player, who) = s
                .split_once('=')
                .ok_or_else(|| format!("--seat {s}: write PLAYER=human or PLAYER=random"))?;
            Ok((player.to_string(), Seat::parse(who)))
        })
        .collect()
}
