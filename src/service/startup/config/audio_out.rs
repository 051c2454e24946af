//! Where a table's announcements are heard, as the venue file writes it
//! (`default`, `none`, `device:NAME`, `wav:DIR`), read and written back.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where spoken announcements go (text always goes to the log and pages).
/// `[speech] audio` is the venue's default; a table's own `audio` key
/// overrides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioOut {
    /// The ALSA `default` device, falling back to text if there is none.
    Default,
    /// Text only.
    None,
    /// One ALSA PCM (a name `tactus audio devices` lists, or any PCM name:
    /// `plughw:CARD=Headset,DEV=0`, a PCM of `~/.asoundrc`): reopened with
    /// backoff whenever it fails, never given up.
    Device(String),
    /// WAV files in this folder: one per table per server run, named by
    /// the table and the run's start time, never overwritten.
    Wav(PathBuf),
}

/// An audio output that is none of the four forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown audio output `{0}`: expected `default`, `none`, `device:NAME` or `wav:DIR`")]
pub struct UnknownAudioOut(pub String);

impl FromStr for AudioOut {
    type Err = UnknownAudioOut;
    fn from_str(s: &str) -> Result<AudioOut, UnknownAudioOut> {
        match s {
            "default" => Ok(AudioOut::Default),
            "none" => Ok(AudioOut::None),
            _ => match s.split_once(':') {
                Some(("wav", dir)) if !dir.is_empty() => Ok(AudioOut::Wav(dir.into())),
                Some(("device", name)) if !name.trim().is_empty() => {
                    Ok(AudioOut::Device(name.trim().to_owned()))
                }
                _ => Err(UnknownAudioOut(s.to_owned())),
            },
        }
    }
}

impl fmt::Display for AudioOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioOut::Default => f.write_str("default"),
            AudioOut::None => f.write_str("none"),
            AudioOut::Device(name) => write!(f, "device:{name}"),
            AudioOut::Wav(dir) => write!(f, "wav:{}", dir.display()),
        }
    }
}
