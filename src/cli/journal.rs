//! `tactus journal check [DIR]` and `tactus journal backup DIR OUT`: replay
//! every table of a data folder's journal without starting anything, and a
//! consistent copy of a journal in use.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use tactus::service::journal::Journal;
use tactus::table::replay::{begun, replay};
use tactus_rules::announce::Style;

#[derive(Subcommand)]
pub enum JournalCommand {
    /// Replay every table of the journal in DIR (default: data) and report
    /// each game, or the first entry of a table that does not apply.
    Check {
        #[arg(default_value = "data")]
        dir: PathBuf,
    },
    /// Copy the journal of DIR to OUT (a new file) consistently, while a
    /// server may be writing it (SQLite's online backup).
    Backup { dir: PathBuf, out: PathBuf },
}

pub fn run(command: JournalCommand) -> ExitCode {
    match command {
        JournalCommand::Check { dir } => check(dir),
        JournalCommand::Backup { dir, out } => backup(dir, out),
    }
}

fn journal_in(dir: &std::path::Path) -> Result<Journal, String> {
    let path = dir.join("journal.sqlite");
    if !path.is_file() {
        return Err(format!("{}: no journal here", path.display()));
    }
    Journal::open_read_only(&path).map_err(|e| e.to_string())
}

fn check(dir: PathBuf) -> ExitCode {
    let journal = match journal_in(&dir) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("tactus journal check: {e}");
            return ExitCode::from(2);
        }
    };
    let tables = match journal.tables() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tactus journal check: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = 0;
    let mut games = 0;
    for id in &tables {
        let starts = match journal.game_starts(id) {
            Ok(s) => s,
            Err(e) => {
                failed += 1;
                eprintln!("table {id}: {e}");
                continue;
            }
        };
        // Every game of the table, by its number and round, each replayed
        // on its own as the server would.
        for start in &starts {
            games += 1;
            let result = journal
                .game_events(id, start.game)
                .map_err(|e| e.to_string())
                .and_then(|history| {
                    replay(id, &history, Style::default()).map_err(|e| e.to_string())
                });
            match result {
                Ok(r) => {
                    let state = match r.game.result() {
                        Some(res) => format!("finished {}", res.score()),
                        None if begun(&r.game) => "in play".to_owned(),
                        None => "not begun".to_owned(),
                    };
                    println!(
                        "table {id} game {} (round {}, {} - {}): {} events, {} plies, {state}: ok",
                        start.game,
                        r.setup.round,
                        r.setup.white,
                        r.setup.black,
                        r.events,
                        r.game.plies().len()
                    );
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("game {}: {e}", start.game);
                }
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "tactus journal check: {failed} of {games} games ({} tables) do not replay",
            tables.len()
        );
        return ExitCode::from(2);
    }
    println!(
        "{} tables, {games} games, every entry applies",
        tables.len()
    );
    ExitCode::SUCCESS
}

fn backup(dir: PathBuf, out: PathBuf) -> ExitCode {
    let result = journal_in(&dir).and_then(|j| j.backup(&out).map_err(|e| e.to_string()));
    match result {
        Ok(()) => {
            println!(
                "{} copied to {}",
                dir.join("journal.sqlite").display(),
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tactus journal backup: {e}");
            ExitCode::from(2)
        }
    }
}
