//! `tactus audio devices`: the sound outputs a table's `audio =
//! "device:NAME"` can name.

use clap::Subcommand;

use super::Outcome;

/// Sound outputs.
#[derive(Subcommand)]
pub enum AudioCommand {
    /// List every ALSA playback device (PCM) by the name a table's
    /// `audio = "device:NAME"` takes, with its description.
    Devices,
}

/// Runs `audio`.
pub fn run(command: AudioCommand) -> Outcome {
    match command {
        AudioCommand::Devices => {
            let list = tactus_speech::sink_alsa::devices()?;
            for (name, desc) in list {
                if desc.is_empty() {
                    println!("{name}");
                } else {
                    println!("{name}\t{desc}");
                }
            }
        }
    }
    Ok(())
}
