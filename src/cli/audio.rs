//! `tactus audio devices`: the sound outputs a table's `audio =
//! "device:NAME"` can name.

use std::process::ExitCode;

use clap::Subcommand;

/// Sound outputs.
#[derive(Subcommand)]
pub enum AudioCommand {
    /// List every ALSA playback device (PCM) by the name a table's
    /// `audio = "device:NAME"` takes, with its description.
    Devices,
}

/// Runs `audio`.
pub fn run(command: AudioCommand) -> ExitCode {
    match command {
        AudioCommand::Devices => match tactus_speech::sink_alsa::devices() {
            Ok(list) => {
                for (name, desc) in list {
                    if desc.is_empty() {
                        println!("{name}");
                    } else {
                        println!("{name}\t{desc}");
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}
