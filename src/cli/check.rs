//! `tactus check [--config FILE]`: the hall before round 1. One line per
//! table and part, then the voice packs, the data folder, the listen
//! address and the addresses the pages will be reached on; exit status 2 if
//! anything fails (the check itself is `tactus::service::startup::check`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tactus::service::startup::check::{self, Wait};
use tactus::service::startup::serve::load_config;

use super::{Failure, Outcome};

#[derive(Args)]
pub struct CheckArgs {
    /// The venue configuration tactus serve will use.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The data folder, if not the configuration's.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Seconds each board has to send its position.
    #[arg(long, default_value_t = 3.0)]
    board_wait: f64,
    /// One line of JSON per part instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: CheckArgs) -> Outcome {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(data) = args.data {
        config.server.data = data;
    }
    config.check().map_err(anyhow::Error::msg)?;
    if !(0.1..=60.0).contains(&args.board_wait) {
        return Err(anyhow::anyhow!("--board-wait takes 0.1 to 60 seconds").into());
    }
    let wait = Wait {
        board: Duration::from_secs_f64(args.board_wait),
        ..Wait::default()
    };
    let lines = check::venue(&config, wait);
    for line in &lines {
        if args.json {
            println!("{}", serde_json::to_string(line).unwrap_or_default());
        } else {
            println!("{line}");
        }
    }
    let failed = lines.iter().filter(|l| !l.ok).count();
    if failed == 0 {
        if !args.json {
            println!("everything is ready");
        }
        Ok(())
    } else {
        if !args.json {
            println!("{failed} part(s) not ready");
        }
        Err(Failure::Said)
    }
}
