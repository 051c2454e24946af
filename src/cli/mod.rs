//! Command-line interface: one file per subcommand group.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod board;

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
    /// Tactile and electronic boards: a simulator and a watcher.
    Board {
        #[command(subcommand)]
        command: board::BoardCommand,
    },
}

/// Parses the arguments and runs the command. Bad input exits with status 2.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Tokens => {
            for token in tactus::rules::token::Token::all() {
                println!("{token}");
            }
            ExitCode::SUCCESS
        }
        Command::Board { command } => board::run(command),
    }
}
