//! `tactus record brf PGN`: a game's record in braille, as BRF for an
//! embosser or note-taker, or as Unicode braille for a screen or display.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use clap::builder::TypedValueParser as _;
use tactus_braille::record::{Options, render};
use tactus_rules::language::Language;
use tactus_rules::pgn::read_games;

use super::Outcome;

/// What to write.
#[derive(Subcommand)]
pub enum RecordCommand {
    /// One game of a PGN file in braille: the tags as a heading, the moves
    /// in the braille chess code, draw offers, the result (pages of 40 cells
    /// by 25 lines, a form feed between pages).
    Brf {
        /// The PGN file.
        pgn: PathBuf,
        /// Which game of the file: 1 for the first.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        game: u32,
        /// Write here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Unicode braille (U+2800–U+28FF) instead of BRF's ASCII braille.
        #[arg(long)]
        unicode: bool,
        /// The clock time after every move (from the PGN's `[%clk]`).
        #[arg(long)]
        clock: bool,
        /// The language of the words: en, de, es, fr, nl, pt, pl, cs.
        #[arg(long, default_value = "en", value_parser = clap::builder::PossibleValuesParser::new(Language::ALL.map(Language::code)).try_map(|code| code.parse::<Language>()))]
        lang: Language,
    },
}

/// Runs `record`. Bad input: a message on stderr, exit status 2, no output.
pub fn run(command: RecordCommand) -> Outcome {
    brf(command)?;
    Ok(())
}

fn brf(command: RecordCommand) -> anyhow::Result<()> {
    let RecordCommand::Brf {
        pgn,
        game,
        out,
        unicode,
        clock,
        lang,
    } = command;
    let bytes = std::fs::read(&pgn).with_context(|| pgn.display().to_string())?;
    let mut games = read_games(&bytes);
    let index = game as usize - 1;
    if index >= games.len() {
        anyhow::bail!(
            "{}: game {game} asked for, the file has {}",
            pgn.display(),
            games.len()
        );
    }
    let record = games
        .swap_remove(index)
        .with_context(|| format!("{}: game {game}", pgn.display()))?;
    if let Some(ply) = record.null_move {
        eprintln!(
            "note: game {game} stops at a null move at ply {}: the moves before it are written",
            ply + 1
        );
    }
    let doc = render(&record, &Options { lang, clock })
        .with_context(|| format!("{}: game {game}", pgn.display()))?;
    let text = if unicode { doc.unicode() } else { doc.brf() };
    match out {
        Some(path) => std::fs::write(&path, text).with_context(|| path.display().to_string())?,
        None => print!("{text}"),
    }
    Ok(())
}
