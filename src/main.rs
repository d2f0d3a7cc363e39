//! `portolan`: parses the command line and calls the library.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use portolan::data::json_schema::SchemaFile;
use portolan::load::Request;
use portolan::output;
use portolan::sim::command::{self as sim_command, Format, Simulate};
use portolan::sim::{MAX_GAMES, Shard};
use portolan::untrusted::echo;
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
        /// Also lay this balance overlay (a name the game ships, or a
        /// file) on each target, alone; repeatable.
        #[arg(long = "overlay", value_name = "NAME|FILE")]
        overlays: Vec<String>,
    },
    /// Print the JSON Schema of a kind of data file, for editors that
    /// check and complete YAML (copies are in docs/schema/).
    Schema {
        #[arg(value_enum)]
        file: SchemaArg,
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
        #[arg(long = "seat", value_name = "PLAYER=WHO", value_parser = cli::seat)]
        seats: Vec<(String, portolan::repl::Seat)>,
        /// Run REPL commands from a file instead of the terminal, printing
        /// what a user would see (commands are also read from standard
        /// input when it is not a terminal); exits with status 1 if any
        /// command failed.
        #[arg(long, value_name = "FILE")]
        commands: Option<PathBuf>,
        /// Serve a live board to a browser beside the REPL: `--board`
        /// (this machine only, a free port; the address is printed) or
        /// `--board=ADDR`.
        #[arg(long, value_name = "ADDR", num_args = 0..=1, require_equals = true,
              default_missing_value = "127.0.0.1:0")]
        board: Option<std::net::SocketAddr>,
    },
    /// Host one game for players in their own browsers: prints one address
    /// per remote seat (keep each for its player: it is the seat's key).
    /// Plain HTTP: for a trusted network, or behind a TLS proxy.
    Host {
        /// A game id, a scenario id (game/name), a package folder or a scenario file.
        #[arg(default_value = "med-convoy")]
        target: String,
        #[command(flatten)]
        game: GameArgs,
        /// Who plays a seat: PLAYER=remote (a browser) or PLAYER=BOT
        /// (random, greedy, ismcts:ITERATIONS, ismcts:MSms), repeatable;
        /// seats not named are remote.
        #[arg(long = "seat", value_name = "PLAYER=WHO", value_parser = cli::host_seat)]
        seats: Vec<(String, portolan::web::host::HostSeat)>,
        /// The address to listen on (default: this machine only, a free port).
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
        listen: std::net::SocketAddr,
        /// Save the game here, atomically, after every action.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Replay saved games under the current rules: names the first action
    /// of each that is now illegal, fails, or leads to another position;
    /// exits non-zero if any diverges.
    Replay {
        /// A save file, or a folder of saves (.json), one line each.
        save: PathBuf,
    },
    /// Play games between bots and report the results.
    Simulate {
        target: String,
        #[command(flatten)]
        game: GameArgs,
        /// How many games to play (at least 1).
        #[arg(long, default_value_t = 1000, value_parser = games)]
        games: u64,
        #[arg(long, value_enum, default_value = "table")]
        format: FormatArg,
        /// Threads to play on (default: every core; at most 64, and no
        /// more than there are games: the report says how many ran).
        #[arg(long, value_parser = threads)]
        threads: Option<usize>,
        /// Who plays each seat: by player (red=random,blue=random) or by
        /// position (random,random); default random everywhere.
        #[arg(long, value_name = "BOTS")]
        bots: Option<String>,
        /// Play only shard I of N (from 0) of the run's games and write a
        /// result file for `portolan merge`.
        #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
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
        /// NAME=SPEC: options (+id, -id), overlays (@name or @file.yaml) and
        /// at most one scenario (game/name or a file); `base=` is the target
        /// as given. Repeatable.
        #[arg(long = "variant", value_name = "NAME=SPEC", value_parser = balance::Variant::parse)]
        variants: Vec<balance::Variant>,
        /// The target, then the target with each optional rule alone.
        #[arg(long)]
        each_option: bool,
        /// The target, then the target with each overlay its game ships, alone.
        #[arg(long)]
        each_overlay: bool,
        /// How many games each variant plays (at least 1).
        #[arg(long, default_value_t = 1000, value_parser = games)]
        games: u64,
        #[arg(long, value_name = "BOTS")]
        bots: Option<String>,
        #[arg(long, value_parser = threads)]
        threads: Option<usize>,
        /// Write an SVG chart of the win rates (and scores) per variant.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "table")]
        format: BalanceFormatArg,
    },
    /// Draw a game position as SVG: a new game's start, or where a save
    /// ends; as every player sees it (hidden faces as ?), or as one seat.
    Render {
        /// A game id, a scenario id (game/name), a package folder or a scenario file.
        target: String,
        #[command(flatten)]
        game: GameArgs,
        /// Draw where this save (written by the REPL's `save`) ends,
        /// replayed under the target's rules.
        #[arg(long, value_name = "SAVE")]
        save: Option<PathBuf>,
        /// Draw what this player sees (default: what every player sees).
        #[arg(long = "as", value_name = "PLAYER")]
        player: Option<String>,
        /// The SVG file to write (replaced whole, never through a link).
        #[arg(long, value_name = "FILE.svg")]
        svg: PathBuf,
    },
    /// Merge the result files of a run's shards into the run's report.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "table")]
        format: FormatArg,
    },
}

#[derive(clap::Args, Default)]
struct GameArgs {
    /// Switch an optional rule on (`--option ID` or `--option +ID`) or
    /// off (`--option -ID`, one a scenario switched on); repeatable.
    #[arg(long = "option", value_name = "ID", allow_hyphen_values = true)]
    options: Vec<String>,
    /// Lay a balance overlay on the data: a name the game ships
    /// (`portolan list` shows them) or a file; repeatable, applied in order.
    #[arg(long = "overlay", value_name = "NAME|FILE")]
    overlays: Vec<String>,
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
enum SchemaArg {
    /// rules/GAME/game.yaml
    Game,
    /// scenarios/GAME/NAME.yaml
    Scenario,
    /// a balance overlay (rules/GAME/overlays/NAME.yaml)
    Overlay,
}

impl From<SchemaArg> for SchemaFile {
    fn from(s: SchemaArg) -> SchemaFile {
        match s {
            SchemaArg::Game => SchemaFile::Game,
            SchemaArg::Scenario => SchemaFile::Scenario,
            SchemaArg::Overlay => SchemaFile::Overlay,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum BalanceFormatArg {
    Table,
    Json,
}

/// Every core, unless the command line says otherwise.
fn default_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|e| explain(e).exit());
    let catalog = match cli::catalog(cli.rules, cli.scenarios) {
        Ok(catalog) => catalog,
        Err(e) => return output::finish(Err(e)),
    };
    let request = |target: String, game: &GameArgs| Request {
        target,
        options: game.options.clone(),
        overlays: game.overlays.clone(),
    };
    let result = match cli.command {
        None => cli::play(
            catalog,
            request("med-convoy".into(), &GameArgs::default()),
            None,
            &[],
            None,
            None,
        )
        .map(|()| String::new()),
        Some(Command::List) => cli::list(&catalog),
        Some(Command::Check { targets, overlays }) => cli::check(&catalog, &targets, &overlays),
        Some(Command::Play {
            target,
            game,
            seats,
            commands,
            board,
        }) => cli::play(
            catalog,
            request(target, &game),
            game.seed,
            &seats,
            commands.as_deref(),
            board,
        )
        .map(|()| String::new()),
        Some(Command::Host {
            target,
            game,
            seats,
            listen,
            save,
        }) => portolan::web::host::host(
            catalog,
            &portolan::web::host::Host {
                request: request(target, &game),
                seed: game.seed,
                seats,
                listen,
                save,
            },
        )
        .map(|()| String::new()),
        Some(Command::Replay { save }) => portolan::replay::saves::replay_saves(&catalog, &save)
            .and_then(|(lines, same)| {
                if same {
                    Ok(lines)
                } else {
                    Err(format!("{lines}some saves no longer replay the same"))
                }
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
        }) => {
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
        }
        Some(Command::Balance {
            target,
            game,
            variants,
            each_option,
            each_overlay,
            games,
            bots,
            threads,
            plot,
            format,
        }) => {
            let b = balance::Balance {
                request: request(target, &game),
                variants,
                each_option,
                each_overlay,
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
        }
        Some(Command::Render {
            target,
            game,
            save,
            player,
            svg,
        }) => cli::render(
            &catalog,
            &cli::Render {
                request: request(target, &game),
                save,
                player,
                seed: game.seed,
                svg,
            },
        ),
        Some(Command::Merge { files, format }) => sim_command::merge(&files, format.into()),
        Some(Command::Schema { file }) => Ok(SchemaFile::from(file).text()),
    };
    output::finish(result)
}

fn games(value: &str) -> Result<u64, String> {
    let n = at_least_one(value, "there is nothing to play: give --games 1 or more")?;
    if n > MAX_GAMES {
        return Err(format!(
            "at most {MAX_GAMES} games in one run (each game's result is kept for the \
             report's medians and percentiles); play more as separate runs with other seeds"
        ));
    }
    Ok(n)
}

fn threads(value: &str) -> Result<usize, String> {
    let n = at_least_one(
        value,
        "no game plays on 0 threads: give --threads 1 or more",
    )?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// A count of 1 or more; `zero` says why 0 will not do.
fn at_least_one(value: &str, zero: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(0) => Err(zero.to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{e}: give a whole number")),
    }
}

/// A word like `+no-backward` or `-no-backward` on its own is what the
/// REPL's `new` command takes; on the command line it goes after
/// `--option`. Says so, instead of clap's "unexpected argument '-n'".
fn explain(e: clap::Error) -> clap::Error {
    let Some(ContextValue::String(unknown)) = e.get(ContextKind::InvalidArg) else {
        return e;
    };
    let written = std::env::args().find(|a| {
        a.starts_with(unknown.as_str())
            && a.len() > 2
            && a.starts_with(['+', '-'])
            && !a.starts_with("--")
    });
    match (e.kind(), written) {
        (ErrorKind::UnknownArgument, Some(word)) => {
            let id = echo(word.trim_start_matches(['+', '-'])).into_owned();
            let (switch, flag) = match word.starts_with('-') {
                true => ("off", format!("--option -{id}")),
                false => ("on", format!("--option {id}")),
            };
            Cli::command().error(
                ErrorKind::UnknownArgument,
                format!(
                    "unexpected argument '{}': to switch the optional rule '{id}' {switch}, write {flag}",
                    echo(&word)
                ),
            )
        }
        _ => e,
    }
}
