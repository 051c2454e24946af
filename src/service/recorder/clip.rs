//! One recording of a token: checked (a WAV, mono, the pack's rate, not
//! too long, not silent), its speech kept, levelled, written through a
//! temporary file and a rename.

use std::io::Cursor;
use std::path::Path;

use tactus_speech::dsp::{SILENT_PEAK, peak, speech_range};
use tactus_speech::loudness::level;

use super::MAX_CLIP_SECONDS;

/// A recording as it is kept: the speech alone, levelled.
#[derive(Debug)]
pub struct RecordedClip {
    /// Mono samples in -1.0..1.0 at the pack's rate.
    pub samples: Vec<f32>,
    /// The speech's loudness before levelling, in dB.
    pub loudness_db: f32,
}

/// Why a sent recording was refused; the words go back to the page.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClipRefused {
    #[error("not a WAV file: {0}")]
    NotWav(String),
    #[error("a clip is mono 16-bit PCM; this is {channels} channel(s) of {bits}-bit")]
    Format { channels: u16, bits: u16 },
    #[error("this pack's clips are at {pack} Hz; this one is at {sent} Hz")]
    Rate { pack: u32, sent: u32 },
    #[error("{0:.1} s: a token's clip is at most {MAX_CLIP_SECONDS} s")]
    TooLong(f64),
    #[error("the WAV file is cut short: {0}")]
    CutShort(String),
    #[error("nothing was heard: is the microphone on and not muted?")]
    Silent,
}

impl RecordedClip {
    /// Reads a WAV the page sent (mono 16-bit PCM at `rate`, at most
    /// [`MAX_CLIP_SECONDS`]), keeps its speech (`dsp::speech_range`: the
    /// quiet and the key clicks around it go) and levels it.
    pub fn from_wav(body: &[u8], rate: u32) -> Result<Self, ClipRefused> {
        let mut reader = hound::WavReader::new(Cursor::new(body))
            .map_err(|e| ClipRefused::NotWav(e.to_string()))?;
        let spec = reader.spec();
        if spec.channels != 1
            || spec.bits_per_sample != 16
            || spec.sample_format != hound::SampleFormat::Int
        {
            return Err(ClipRefused::Format {
                channels: spec.channels,
                bits: spec.bits_per_sample,
            });
        }
        if spec.sample_rate != rate {
            return Err(ClipRefused::Rate {
                pack: rate,
                sent: spec.sample_rate,
            });
        }
        let seconds = f64::from(reader.duration()) / f64::from(rate);
        if seconds > MAX_CLIP_SECONDS {
            return Err(ClipRefused::TooLong(seconds));
        }
        let samples: Vec<f32> = reader
            .samples::<i16>()
            .map(|s| s.map(|s| f32::from(s) / 32768.0))
            .collect::<Result<_, _>>()
            .map_err(|e| ClipRefused::CutShort(e.to_string()))?;
        if peak(&samples) < SILENT_PEAK {
            return Err(ClipRefused::Silent);
        }
        let mut clip = samples[speech_range(&samples, rate)].to_vec();
        let loudness_db = level(&mut clip, rate).ok_or(ClipRefused::Silent)?;
        Ok(Self {
            samples: clip,
            loudness_db,
        })
    }
}

/// Writes `samples` as a mono 16-bit WAV at `path` through a temporary
/// file and a rename: a clip is whole or absent.
pub(super) fn write_clip(path: &Path, samples: &[f32], rate: u32) -> Result<(), hound::Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Its own temporary per upload: two uploads of one word at once never
    // write into the same file; the later rename wins, whole.
    static UPLOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = UPLOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("wav.{}-{n}.part", std::process::id()));
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&tmp, spec)?;
    for s in samples {
        w.write_sample((s.clamp(-1.0, 1.0) * 32767.0).round() as i16)?;
    }
    w.finalize()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
