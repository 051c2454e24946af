//! `tactus venue from-trf FILE`: the venue file's `[[player]]` and
//! `[[team]]` entries from an organiser's TRF-26 export, on stdout, to add
//! under the venue's `[[table]]`s (the conversion is
//! `tactus::service::startup::venue_from_trf`).

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tactus::service::startup::venue_from_trf::venue_entries;
use tactus_rules::trf::Trf;

use super::Outcome;

#[derive(Subcommand)]
pub enum VenueCommand {
    /// Print `[[player]]` and `[[team]]` entries from a TRF-26 file
    /// (`001` players, `310` or `013` teams).
    FromTrf {
        /// The pairing program's TRF-26 export.
        file: PathBuf,
    },
}

pub fn run(command: VenueCommand) -> Outcome {
    match command {
        VenueCommand::FromTrf { file } => {
            let bytes = std::fs::read(&file)
                .with_context(|| format!("{}: not readable", file.display()))?;
            let trf = Trf::from_bytes(&bytes).with_context(|| file.display().to_string())?;
            let entries = venue_entries(&trf).with_context(|| file.display().to_string())?;
            print!("{entries}");
            Ok(())
        }
    }
}
