//! Command-line interface: one file per subcommand group.
//!
//! Every command returns `Result<(), Failure>`; [`run`] says a failure
//! once, on stderr, as `tactus <command> <subcommand>: <what went wrong>:
//! <its cause>` (the command as typed, then anyhow's chain: no command
//! names itself), and turns it into the exit status: 2 for what the
//! person can mend (bad input, a check that found a fault), 1 for a run
//! that failed on its own. No command exits by itself.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod audio;
#[cfg(feature = "bench")]
mod bench;
mod board;
mod check;
mod journal;
mod links;
mod record;
mod ruling;
mod say;
mod serve;
mod tls;
mod venue;
mod voices;

#[derive(Parser)]
#[command(
    name = "tactus",
    version,
    about = "Appendix D chess for blind and visually impaired players"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every token key a voice pack must record, one per line.
    Tokens,
    /// Rule on diverging boards from both scoresheets (Appendix D.2.9).
    #[command(visible_alias = "reconcile")]
    Ruling(ruling::RulingArgs),
    /// A game's record in braille (BRF or Unicode braille).
    #[command(subcommand)]
    Record(record::RecordCommand),
    /// Announce a game or a move: text, JSON, WAV, sound card.
    #[command(subcommand)]
    Say(say::SayCommand),
    /// Check voice packs; measure spoken lengths.
    #[command(subcommand)]
    Voices(voices::VoicesCommand),
    /// Run the play server: every table, the pages and the API.
    Serve(serve::ServeArgs),
    /// Tactile and electronic boards: a simulator and a watcher.
    Board {
        #[command(subcommand)]
        command: board::BoardCommand,
    },
    /// Check a data folder's journal; copy it while it is in use.
    #[command(subcommand)]
    Journal(journal::JournalCommand),
    /// Measure the whole service: tables, boards, journal, audio.
    #[cfg(feature = "bench")]
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// The hall before round 1: every table's boards, sound and braille,
    /// the voice packs, the data folder and the listen address.
    Check(check::CheckArgs),
    /// Sound outputs: the devices a table can speak on.
    #[command(subcommand)]
    Audio(audio::AudioCommand),
    /// HTTPS at a venue: a self-signed certificate.
    #[command(subcommand)]
    Tls(tls::TlsCommand),
    /// Every person's link with its token, as the running server wrote
    /// them into the data folder (never into its log).
    Links(links::LinksArgs),
    /// The venue file: entries made from the pairing program's files.
    #[command(subcommand)]
    Venue(venue::VenueCommand),
}

/// Why a command did not succeed, and so its exit status.
#[derive(Debug)]
pub enum Failure {
    /// What was given cannot be used, or a check found a fault; nothing
    /// was changed. Exit status 2.
    Refused(anyhow::Error),
    /// The command's own output has said what is wrong (a check's lines
    /// and its count of parts not ready): exit status 2, nothing more said.
    Said,
    /// The command ran and failed on its own (a benchmark whose games
    /// failed, a server that stopped on an error). Exit status 1.
    Failed(anyhow::Error),
}

/// Bad input by default: `?` on any error refuses.
impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Refused(e.into())
    }
}

impl Failure {
    /// Says the failure on stderr after `command` (the command as typed,
    /// `tactus journal check`), with its whole chain of causes, and gives
    /// its exit status.
    fn report(self, command: &str) -> ExitCode {
        match self {
            Failure::Refused(e) => {
                eprintln!("{command}: {e:#}");
                ExitCode::from(2)
            }
            Failure::Said => ExitCode::from(2),
            Failure::Failed(e) => {
                eprintln!("{command}: {e:#}");
                ExitCode::FAILURE
            }
        }
    }
}

/// What every command returns.
pub type Outcome = Result<(), Failure>;

/// Parses the arguments and runs the command. Bad input exits with status 2.
pub fn run() -> ExitCode {
    let matches = Cli::command().get_matches();
    let command = command_path(&matches);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // `check` says what is wrong in its own lines; the sound output's
    // "trying again" warnings would only repeat them.
    init_logging(if matches!(cli.command, Command::Check(_)) {
        "error"
    } else {
        "warn"
    });
    let outcome = match cli.command {
        Command::Tokens => {
            for token in tactus_rules::token::Token::all() {
                println!("{token}");
            }
            Ok(())
        }
        Command::Ruling(args) => ruling::run(&args),
        Command::Say(c) => say::run(c),
        Command::Record(c) => record::run(c),
        Command::Voices(c) => voices::run(c),
        Command::Board { command } => board::run(command),
        Command::Serve(args) => serve::run(args),
        #[cfg(feature = "bench")]
        Command::Bench(c) => bench::run(c),
        Command::Audio(c) => audio::run(c),
        Command::Journal(c) => journal::run(c),
        Command::Tls(c) => tls::run(c),
        Command::Links(args) => links::run(args),
        Command::Venue(c) => venue::run(c),
        Command::Check(args) => check::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(&command),
    }
}

/// The command as typed, without its arguments: `tactus journal check`.
fn command_path(matches: &clap::ArgMatches) -> String {
    let mut path = String::from("tactus");
    let mut m = matches;
    while let Some((name, sub)) = m.subcommand() {
        path.push(' ');
        path.push_str(name);
        m = sub;
    }
    path
}

/// Warnings and errors to stderr; `RUST_LOG` can ask for more.
fn init_logging(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // No colour codes in logs that are not a terminal.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
