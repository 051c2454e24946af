//! A table's sound output: the voice pack loaded as the server will, and
//! the table's test phrase played on the output (or its WAV folder
//! written in).

use std::sync::Arc;
use std::time::Duration;

use tactus_rules::token::{Token, Word};
use tactus_speech::device::AudioState;
use tactus_speech::sink::Sink;
use tactus_speech::sink_alsa::{DeviceSink, Persistence};
use tactus_speech::voice_pack::{LoadOptions, VoicePack, find_pack};

use crate::service::startup::config::AudioOut;

use super::faults::{SoundFault, VoiceFault};
use super::folders::{creatable, probe_dir};

/// The table's test phrase: its number in the pack's words ("eins" for
/// table 1), or "board connected" for a table whose id is not a number.
pub fn test_phrase(id: &str) -> Vec<Token> {
    match id.parse::<u32>() {
        Ok(n) if n <= 999 => Token::number(n),
        _ => vec![Token::Word(Word::BoardConnected)],
    }
}

/// Plays the table's test phrase on its sound output and reads the
/// output's state afterwards: `playing` passes.
pub fn sound(
    out: &AudioOut,
    voice: &Arc<VoicePack>,
    id: &str,
    wait: Duration,
) -> Result<String, SoundFault> {
    let pcm = match out {
        AudioOut::None => return Ok("none: text only, nothing is heard".into()),
        AudioOut::Wav(dir) => {
            // `tactus serve` makes the folder (and any parents): one it
            // would make is no failure.
            let made = if dir.exists() {
                probe_dir(dir).map(|()| "")
            } else {
                creatable(dir).map(|()| ", created at start")
            };
            return made
                .map(|note| {
                    format!(
                        "wav: announcements are written to WAV files in {}{note} (nothing is heard)",
                        dir.display()
                    )
                })
                .map_err(|fault| SoundFault::Wav {
                    dir: dir.clone(),
                    fault,
                });
        }
        AudioOut::Default => "default",
        AudioOut::Device(name) => name.as_str(),
    };
    let shown = out.to_string();
    let mut sink = match DeviceSink::open(Arc::clone(voice), pcm, &shown, Persistence::GiveUp, wait)
    {
        Ok(sink) => sink,
        Err(source) => return Err(SoundFault::Open { shown, source }),
    };
    let tokens = test_phrase(id);
    let text = voice.text(&tokens);
    if let Err(source) = sink.say(&tokens, &text) {
        return Err(SoundFault::Say { shown, source });
    }
    let state = sink.status().get();
    let _ = sink.finish();
    match state.state {
        AudioState::Playing => Ok(format!(
            "{shown}: played \u{201c}{text}\u{201d}, audio.state playing"
        )),
        other => Err(SoundFault::NotPlaying {
            shown,
            state: other,
            error: state.error,
        }),
    }
}

/// Loads a voice pack as the server will; any problem fails.
pub fn voice(name: &str) -> Result<Arc<VoicePack>, VoiceFault> {
    let dir = find_pack(name)?;
    VoicePack::load(&dir, &LoadOptions::default())
        .map(Arc::new)
        .map_err(|pack| VoiceFault::Problems {
            name: name.to_owned(),
            pack,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_phrase_is_the_tables_number() {
        assert_eq!(test_phrase("1"), Token::number(1));
        assert_eq!(
            test_phrase("board-7"),
            vec![Token::Word(Word::BoardConnected)]
        );
    }
}
