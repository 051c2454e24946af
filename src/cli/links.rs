//! `tactus links`: every person's link with its token, as `tactus serve`
//! last wrote them into the data folder's `links.txt` (owner-only). The
//! service's log never holds a token: when its output is not a terminal
//! (systemd's journal, a pipe, a file), `serve` writes the links there and
//! logs only where they are.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tactus::service::startup::links::LINKS_FILE;
use tactus::service::startup::serve::load_config;

use super::Outcome;

#[derive(Args)]
pub struct LinksArgs {
    /// The venue configuration whose data folder to read.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The data folder (overrides the configuration's).
    #[arg(long)]
    data: Option<PathBuf>,
}

pub fn run(args: LinksArgs) -> Outcome {
    let data = match args.data {
        Some(d) => d,
        None => load_config(args.config.as_deref())?.server.data,
    };
    let path = data.join(LINKS_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "{}: no links yet (tactus serve writes them when it starts) or not readable by you \
             (run as the server's user: sudo -u tactus tactus links)",
            path.display()
        )
    })?;
    print!("{text}");
    Ok(())
}
