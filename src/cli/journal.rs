//! `tactus journal check [DIR]` and `tactus journal backup DIR OUT`: replay
//! every table of a data folder's journal without starting anything, and a
//! consistent copy of a journal in use.

use std::path::PathBuf;

use clap::Subcommand;
use tactus::service::store::journal::Journal;
use tactus::table::replay::{begun, replay};
use tactus_rules::announce::Style;

use super::Outcome;

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

pub fn run(command: JournalCommand) -> Outcome {
    match command {
        JournalCommand::Check { dir } => check(dir),
        JournalCommand::Backup { dir, out } => {
            backup(&dir, &out)?;
            Ok(())
        }
    }
}

fn journal_in(dir: &std::path::Path) -> anyhow::Result<Journal> {
    let path = dir.join("journal.sqlite");
    if !path.is_file() {
        anyhow::bail!("{}: no journal here", path.display());
    }
    Ok(Journal::open_read_only(&path)?)
}

fn check(dir: PathBuf) -> Outcome {
    let journal = journal_in(&dir)?;
    let tables = journal.tables()?;
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
        return Err(anyhow::anyhow!(
            "{failed} of {games} games ({} tables) do not replay",
            tables.len()
        )
        .into());
    }
    println!(
        "{} tables, {games} games, every entry applies",
        tables.len()
    );
    Ok(())
}

fn backup(dir: &std::path::Path, out: &std::path::Path) -> anyhow::Result<()> {
    journal_in(dir)?.backup(out)?;
    println!(
        "{} copied to {}",
        dir.join("journal.sqlite").display(),
        out.display()
    );
    Ok(())
}
