//! Where announcements go: the text log and WAV files here, the sound card
//! in [`super::sink_card`].

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use super::render::RatePack;
use super::voice_pack::VoicePack;
use crate::rules::token::Token;

/// An output for announcements.
pub trait Sink {
    /// Outputs one announcement: its tokens and its text rendering.
    fn say(&mut self, tokens: &[Token], text: &str) -> anyhow::Result<()>;

    /// Completes the output (a WAV file's header). Saying more after this
    /// is an error.
    fn finish(&mut self) -> anyhow::Result<()> {
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
    fn say(&mut self, _tokens: &[Token], text: &str) -> anyhow::Result<()> {
        tracing::info!(target: "tactus::speech", "{text}");
        writeln!(self.out, "{text}").context("cannot write the text log")?;
        self.out.flush().context("cannot write the text log")
    }
}

/// Pause between two announcements in a WAV file, so moves stay apart.
pub const DEFAULT_PAUSE_MS: u32 = 600;

/// A WAV file (mono, 16-bit) holding every announcement one after another,
/// with a pause between two.
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
    /// Creates `path` for `pack`'s clips at `rate` (the pack's own rate if
    /// `None`), with `pause_ms` between announcements.
    pub fn create(
        path: impl AsRef<Path>,
        pack: &VoicePack,
        rate: Option<u32>,
        pause_ms: u32,
    ) -> anyhow::Result<WavSink> {
        let path = path.as_ref().to_path_buf();
        let rate = rate.unwrap_or(pack.sample_rate());
        let rate_pack = pack
            .at_rate(rate)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("cannot render for {}", path.display()))?;
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let writer = hound::WavWriter::create(&path, spec)
            .with_context(|| format!("cannot create {}", path.display()))?;
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

/// An `f32` sample as 16-bit PCM, clipped to range.
pub fn to_i16(s: f32) -> i16 {
    (s * 32767.0).round().clamp(-32768.0, 32767.0) as i16
}

impl Sink for WavSink {
    fn say(&mut self, tokens: &[Token], _text: &str) -> anyhow::Result<()> {
        let Some(writer) = self.writer.as_mut() else {
            anyhow::bail!("{} is already finished", self.path.display());
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
        for &s in &self.buf {
            writer
                .write_sample(to_i16(s))
                .with_context(|| format!("cannot write {}", self.path.display()))?;
        }
        self.said += 1;
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        if let Some(writer) = self.writer.take() {
            writer
                .finalize()
                .with_context(|| format!("cannot write {}", self.path.display()))?;
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
    fn samples_convert_to_pcm_and_clip() {
        assert_eq!(to_i16(0.0), 0);
        assert_eq!(to_i16(1.0), 32767);
        assert_eq!(to_i16(-2.0), -32768);
        assert_eq!(to_i16(0.5), 16384);
    }
}
