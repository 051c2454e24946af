//! Where announcements go: the text log and WAV files here, the sound card
//! in [`super::sink_alsa`].

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::dsp::ResampleError;
use super::render::RatePack;
use super::voice_pack::VoicePack;
use tactus_rules::token::Token;

/// Why an announcement could not be output. Each names the file or the
/// device and what failed; the cause is in the message (not a `source`),
/// so a report of the chain does not say it twice.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// The text log could not be written.
    #[error("cannot write the text log: {0}")]
    TextLog(std::io::Error),
    /// A WAV file or its folder could not be created.
    #[error("cannot create {}: {error}", path.display())]
    Create {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A WAV file could not be written or completed.
    #[error("cannot write {}: {error}", path.display())]
    Wav { path: PathBuf, error: hound::Error },
    /// The pack's clips could not be resampled to the file's rate.
    #[error("cannot render for {}: {error}", path.display())]
    Render { path: PathBuf, error: ResampleError },
    /// Something was said to a WAV file already completed.
    #[error("{} is already finished", .0.display())]
    Finished(PathBuf),
    /// The sound device did not play it.
    #[error(transparent)]
    Device(#[from] super::sink_alsa::DeviceError),
}

/// An output for announcements.
pub trait Sink {
    /// Outputs one announcement: its tokens and its text rendering.
    fn say(&mut self, tokens: &[Token], text: &str) -> Result<(), SinkError>;

    /// Completes the output (a WAV file's header). Saying more after this
    /// is an error.
    fn finish(&mut self) -> Result<(), SinkError> {
        Ok(())
    }

    /// Speaks with `voice` from now on (the same pack at another rate, as
    /// an arbiter sets a table's). An output without sound ignores it.
    fn set_voice(&mut self, _voice: &Arc<VoicePack>) -> Result<(), SinkError> {
        Ok(())
    }
}

/// The text log: each announcement's text as a line on a writer (stdout by
/// default) and as a `tracing` event, for logs, screen readers and Braille
/// displays.
pub struct TextSink<W: Write> {
    out: W,
}

impl TextSink<std::io::Stdout> {
    /// Text lines on stdout.
    pub fn stdout() -> TextSink<std::io::Stdout> {
        TextSink {
            out: std::io::stdout(),
        }
    }
}

impl<W: Write> TextSink<W> {
    /// Text lines on `out`.
    pub fn new(out: W) -> TextSink<W> {
        TextSink { out }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for TextSink<W> {
    fn say(&mut self, _tokens: &[Token], text: &str) -> Result<(), SinkError> {
        tracing::info!(target: "tactus::speech", "{text}");
        writeln!(self.out, "{text}").map_err(SinkError::TextLog)?;
        self.out.flush().map_err(SinkError::TextLog)
    }
}

/// Pause between two announcements in a WAV file, so moves stay apart.
pub const DEFAULT_PAUSE_MS: u32 = 600;

/// A WAV file (mono, 16-bit) holding every announcement one after another,
/// with a pause between two. Its header is brought up to date after every
/// announcement, so the file is valid even if the process is killed.
pub struct WavSink {
    path: PathBuf,
    pack: Arc<RatePack>,
    writer: Option<hound::WavWriter<std::io::BufWriter<std::fs::File>>>,
    pause: usize,
    said: usize,
    warned: HashSet<Token>,
    buf: Vec<f32>,
}

impl WavSink {
    /// The table's file of this server run in `dir` (made if missing):
    /// `table-<id>-<run>.wav`, `-2`, `-3` … appended should that name be
    /// taken (two runs in one second). Earlier files are never touched.
    pub fn create_in(
        dir: &Path,
        id: &str,
        run: &str,
        pack: &VoicePack,
    ) -> Result<WavSink, SinkError> {
        std::fs::create_dir_all(dir).map_err(|error| SinkError::Create {
            path: dir.to_owned(),
            error,
        })?;
        for n in 1u32.. {
            let name = if n == 1 {
                format!("table-{id}-{run}.wav")
            } else {
                format!("table-{id}-{run}-{n}.wav")
            };
            let path = dir.join(name);
            if path.exists() {
                continue;
            }
            match WavSink::create(&path, pack, None, DEFAULT_PAUSE_MS) {
                Ok(sink) => return Ok(sink),
                // Taken between the look and the creation: the next name.
                Err(_) if path.exists() => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("a free file name")
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates `path` for `pack`'s clips at `rate` (the pack's own rate if
    /// `None`), with `pause_ms` between announcements.
    pub fn create(
        path: impl AsRef<Path>,
        pack: &VoicePack,
        rate: Option<u32>,
        pause_ms: u32,
    ) -> Result<WavSink, SinkError> {
        let path = path.as_ref().to_path_buf();
        let rate = rate.unwrap_or(pack.sample_rate());
        let rate_pack = match pack.at_rate(rate) {
            Ok(p) => p,
            Err(error) => return Err(SinkError::Render { path, error }),
        };
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        // Never over an earlier file: a server's or a run's sound is kept.
        let file = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => f,
            Err(error) => return Err(SinkError::Create { path, error }),
        };
        let writer = match hound::WavWriter::new(std::io::BufWriter::new(file), spec) {
            Ok(w) => w,
            Err(error) => return Err(SinkError::Wav { path, error }),
        };
        Ok(WavSink {
            pause: super::dsp::ms_to_samples(pause_ms, rate),
            path,
            pack: rate_pack,
            writer: Some(writer),
            said: 0,
            warned: HashSet::new(),
            buf: Vec::new(),
        })
    }
}

/// A server run's start time in UTC as it appears in WAV file names:
/// `20250301T141503Z`.
pub fn run_stamp(at: std::time::SystemTime) -> String {
    let secs = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let rem = secs % 86_400;
    let (year, month, day) = tactus_rules::date::civil_from_days((secs / 86_400) as i64);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// An `f32` sample as 16-bit PCM, clipped to range.
pub fn to_i16(s: f32) -> i16 {
    (s * 32767.0).round().clamp(-32768.0, 32767.0) as i16
}

impl Sink for WavSink {
    fn set_voice(&mut self, voice: &Arc<VoicePack>) -> Result<(), SinkError> {
        self.pack = voice
            .at_rate(self.pack.rate())
            .map_err(|error| SinkError::Render {
                path: self.path.clone(),
                error,
            })?;
        Ok(())
    }

    fn say(&mut self, tokens: &[Token], _text: &str) -> Result<(), SinkError> {
        let Some(writer) = self.writer.as_mut() else {
            return Err(SinkError::Finished(self.path.clone()));
        };
        self.buf.clear();
        if self.said > 0 {
            self.buf.resize(self.pause, 0.0);
        }
        let missing = self.pack.render_into(tokens, &mut self.buf);
        for token in missing {
            // Synthesis cannot write to a file: say once what is left out.
            if self.warned.insert(token) {
                tracing::warn!("{}: no clip for `{token}`, left out", self.path.display());
            }
        }
        let failed = |error| SinkError::Wav {
            path: self.path.clone(),
            error,
        };
        for &s in &self.buf {
            writer.write_sample(to_i16(s)).map_err(failed)?;
        }
        self.said += 1;
        // The header now counts every sample written: a kill keeps them.
        writer.flush().map_err(failed)
    }

    fn finish(&mut self) -> Result<(), SinkError> {
        if let Some(writer) = self.writer.take() {
            writer.finalize().map_err(|error| SinkError::Wav {
                path: self.path.clone(),
                error,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_sink_writes_one_line_per_announcement() {
        let mut sink = TextSink::new(Vec::new());
        sink.say(&[], "Eva vier").unwrap();
        sink.say(&[], "Eva vier").unwrap();
        assert_eq!(
            String::from_utf8(sink.into_inner()).unwrap(),
            "Eva vier\nEva vier\n"
        );
    }

    #[test]
    fn wav_files_are_never_overwritten_and_valid_after_a_kill() {
        let dir = tempfile::tempdir().unwrap();
        let pack = crate::voice_pack::VoicePack::load(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../voices/de-appendix-d"),
            &crate::voice_pack::LoadOptions::default(),
        )
        .unwrap();
        let tokens = [
            Token::File(shakmaty::File::E),
            Token::Rank(shakmaty::Rank::Fourth),
        ];
        let mut first = WavSink::create_in(dir.path(), "1", "RUN", &pack).unwrap();
        first.say(&tokens, "").unwrap();
        first.say(&tokens, "").unwrap();
        let path = first.path().to_path_buf();
        // A kill -9: nothing finishes the file.
        std::mem::forget(first);
        let read = hound::WavReader::open(&path).unwrap();
        let expected = 2 * pack
            .at_rate(pack.sample_rate())
            .unwrap()
            .rendered_len(&tokens)
            + super::super::dsp::ms_to_samples(DEFAULT_PAUSE_MS, pack.sample_rate());
        assert_eq!(read.len() as usize, expected);
        // The same run again (the same second): a new file beside it.
        let second = WavSink::create_in(dir.path(), "1", "RUN", &pack).unwrap();
        assert_eq!(second.path(), dir.path().join("table-1-RUN-2.wav"));
        assert_eq!(path, dir.path().join("table-1-RUN.wav"));
    }

    #[test]
    fn run_stamps_are_utc_dates_and_times() {
        let at = |s: u64| std::time::UNIX_EPOCH + std::time::Duration::from_secs(s);
        assert_eq!(run_stamp(at(0)), "19700101T000000Z");
        assert_eq!(run_stamp(at(951_782_400)), "20000229T000000Z");
        assert_eq!(run_stamp(at(1_740_838_503)), "20250301T141503Z");
    }

    #[test]
    fn samples_convert_to_pcm_and_clip() {
        assert_eq!(to_i16(0.0), 0);
        assert_eq!(to_i16(1.0), 32767);
        assert_eq!(to_i16(-2.0), -32768);
        assert_eq!(to_i16(0.5), 16384);
    }
}
