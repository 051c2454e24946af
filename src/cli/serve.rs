//! `tactus serve`: the play server with embedded defaults (one table, the
//! blind player Black, a simulated board, 90+30, the default voice, data in
//! `./data`, web on 127.0.0.1:8080); flags override them.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use shakmaty::Color;
use tactus::service::startup::config::{AudioOut, BoardSpec, Config};
use tactus::service::startup::links::{public_startup_text, startup_text, write_links};
use tactus::service::startup::serve::{load_config, serve, shutdown_signal};

use super::{Failure, Outcome};

#[derive(Args)]
pub struct ServeArgs {
    /// A venue configuration (see config/venue.example.toml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Address to listen on (loopback by default).
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// Data folder: journal and access tokens.
    #[arg(long)]
    data: Option<PathBuf>,
    /// The blind player's board: peg:PATH[@BAUD], dgt:PATH[@BAUD], sim or none
    /// (a configuration with one table only).
    #[arg(long)]
    board: Option<BoardSpec>,
    /// The blind player's side (one table only).
    #[arg(long, value_parser = tactus_rules::side::parse)]
    blind: Option<Color>,
    /// Time control, e.g. 90+30 or 40/90+30,30+30 (one table only).
    #[arg(long)]
    control: Option<tactus_rules::time_control::TimeControl>,
    /// default (sound card, text if none), none, or wav:DIR.
    #[arg(long)]
    audio: Option<AudioOut>,
    /// Voice pack name under voices/, or a path.
    #[arg(long)]
    voice: Option<String>,
}

fn configure(args: ServeArgs) -> anyhow::Result<Config> {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(listen) = args.listen {
        config.server.listen = listen;
    }
    if let Some(data) = args.data {
        config.server.data = data;
    }
    if let Some(audio) = args.audio {
        config.speech.audio = audio;
    }
    if let Some(voice) = args.voice {
        config.speech.voice = voice;
    }
    let per_table = args.board.is_some() || args.blind.is_some() || args.control.is_some();
    if per_table {
        let [table] = config.tables.as_mut_slice() else {
            anyhow::bail!(
                "--board, --blind and --control set up a single table; with several, set them per table in the configuration"
            );
        };
        if let Some(board) = args.board {
            table.board = board;
        }
        if let Some(blind) = args.blind {
            table.blind = blind;
        }
        if let Some(control) = args.control {
            table.control = control;
        }
    }
    config.check().map_err(anyhow::Error::msg)?;
    Ok(config)
}

pub fn run(args: ServeArgs) -> Outcome {
    let config = configure(args)?;
    let data = config.server.data.clone();
    let runtime = tokio::runtime::Runtime::new()
        .context("cannot start the runtime")
        .map_err(Failure::Failed)?;
    let result = runtime.block_on(serve(
        config,
        |running| {
            use std::io::{IsTerminal, Write};
            // The links carry the tokens: on a terminal they are shown;
            // anywhere else (systemd's journal, a pipe) they go to an
            // owner-only file and the log says only where.
            if std::io::stdout().is_terminal() {
                print!("{}", startup_text(running));
            } else {
                match write_links(&data, running) {
                    Ok(path) => print!("{}", public_startup_text(running, Some(&path))),
                    Err(e) => {
                        tracing::error!("the links could not be written: {e}");
                        print!("{}", public_startup_text(running, None));
                    }
                }
            }
            let _ = std::io::stdout().flush();
        },
        shutdown_signal(),
    ));
    // The cause after each step (`cannot listen on …: …`); a server that
    // cannot start or stops on an error is the venue's to mend (status 2).
    result?;
    Ok(())
}
