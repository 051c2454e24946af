//! `tactus voices record PACK_DIR`: a page that walks a person through
//! recording every token of a voice pack from the browser's microphone.
//! What a federation values in a talking clock is a human voice: anyone can
//! record one here, token by token, in any order and across sessions, and
//! the pack passes `tactus voices check` once every token is recorded.
//!
//! The page records, makes a mono 16-bit WAV at the pack's rate and sends
//! it; the server checks it, keeps its speech (the quiet and the clicks
//! of the keys around it go: `dsp::speech_range`), levels it as tactus
//! measures clips (`loudness::level`) and writes it
//! where the manifest says, through a temporary file and a rename. A
//! clip's path comes from the manifest, never from the request, so no
//! request can write outside the pack. Listens on loopback unless told
//! otherwise: it is one person's tool, not the hall's.
//!
//! `mod.rs` the pack being recorded (its manifest, which tokens are done),
//! `clip.rs` one recording checked, trimmed, levelled and written,
//! `routes.rs` the page and its API, served on their own.

mod clip;
mod routes;

use clip::write_clip;
pub use clip::{ClipRefused, RecordedClip};
pub use routes::{router, serve};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::http::StatusCode;
use serde::Serialize;
use tactus_speech::voice_pack::{MANIFEST, Manifest, find_pack};

/// The largest clip body accepted: five seconds of 48 kHz mono 16-bit
/// and a header fit well inside.
pub const MAX_CLIP_BYTES: usize = 2 * 1024 * 1024;
/// The longest recording accepted for one token.
pub const MAX_CLIP_SECONDS: f64 = 5.0;

/// Why a pack cannot be recorded into.
#[derive(Debug, thiserror::Error)]
pub enum RecorderError {
    #[error("{0}")]
    Pack(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The pack being recorded: its folder, manifest and tokens in the
/// manifest's order.
pub struct Recording {
    dir: PathBuf,
    manifest: Manifest,
    order: Vec<String>,
}

/// Makes `dir` a pack to record into: its manifest if it has one, else a
/// copy of pack `from`'s (the same tokens and texts, no clips, `[source]`
/// saying it is recorded by `speaker`).
pub fn prepare(dir: &Path, from: &str, speaker: &str) -> Result<Recording, RecorderError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| RecorderError::Io { path, source }
    };
    let manifest_path = dir.join(MANIFEST);
    if !manifest_path.exists() {
        let source = find_pack(from).map_err(|e| RecorderError::Pack(e.to_string()))?;
        let text =
            std::fs::read_to_string(source.join(MANIFEST)).map_err(io(&source.join(MANIFEST)))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "recorded".into());
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        std::fs::write(&manifest_path, recorded_manifest(&text, &name, speaker))
            .map_err(io(&manifest_path))?;
    }
    let text = std::fs::read_to_string(&manifest_path).map_err(io(&manifest_path))?;
    let manifest = Manifest::parse(&text).map_err(|e| RecorderError::Pack(e.to_string()))?;
    // The manifest's own order (the TOML table is read sorted).
    let order = text
        .lines()
        .filter_map(|l| {
            l.strip_prefix('"')?
                .split_once('"')
                .map(|(k, _)| k.to_owned())
        })
        .filter(|k| manifest.tokens.contains_key(k))
        .collect();
    Ok(Recording {
        dir: dir.to_owned(),
        manifest,
        order,
    })
}

/// Pack `from`'s manifest text for a new pack `name` recorded by
/// `speaker`: its comments and the maker's directives dropped, `[source]`
/// replaced.
fn recorded_manifest(text: &str, name: &str, speaker: &str) -> String {
    let mut out = String::from(
        "# Recorded with `tactus voices record` (docs/recording.md): one clip\n\
         # per token, trimmed and levelled as it was sent.\n\n",
    );
    let mut skipping_source = false;
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.trim() == "[source]" {
            skipping_source = true;
            continue;
        }
        if skipping_source {
            if line.starts_with('[') {
                skipping_source = false;
            } else {
                continue;
            }
        }
        if line.starts_with("name =") {
            out.push_str(&format!("name = {}\n", toml_string(name)));
            continue;
        }
        if line.trim() == "[tokens]" {
            out.push_str(&format!(
                "[source]\nengine = \"recorded\"\nvoice = {}\n\n",
                toml_string(speaker)
            ));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// One token as the page lists it.
#[derive(Serialize)]
struct TokenState {
    key: String,
    text: String,
    recorded: bool,
}

/// `GET /api/record`.
#[derive(Serialize)]
struct PackState {
    name: String,
    language: String,
    sample_rate: u32,
    tokens: Vec<TokenState>,
}

/// A clip stored: its length after trimming and its loudness before
/// levelling.
#[derive(Serialize)]
struct Stored {
    key: String,
    seconds: f64,
    loudness_db: f32,
}

type Shared = Arc<Recording>;

impl Recording {
    fn clip_path(&self, key: &str) -> Option<PathBuf> {
        Some(self.dir.join(&self.manifest.tokens.get(key)?.clip))
    }

    fn state(&self) -> PackState {
        PackState {
            name: self.manifest.name.clone(),
            language: self.manifest.language.clone(),
            sample_rate: self.manifest.sample_rate,
            tokens: self
                .order
                .iter()
                .filter_map(|k| {
                    let t = self.manifest.tokens.get(k)?;
                    Some(TokenState {
                        key: k.clone(),
                        text: t.text.clone(),
                        recorded: self.dir.join(&t.clip).is_file(),
                    })
                })
                .collect(),
        }
    }

    /// Checks a sent WAV, trims and levels it, and writes it as `key`'s
    /// clip. Nothing is written unless all of it succeeds.
    fn store(&self, key: &str, body: &[u8]) -> Result<Stored, (StatusCode, String)> {
        let unprocessable = |m: String| (StatusCode::UNPROCESSABLE_ENTITY, m);
        let path = self.clip_path(key).ok_or_else(|| {
            (
                StatusCode::NOT_FOUND,
                format!("no token `{key}` in this pack"),
            )
        })?;
        let rate = self.manifest.sample_rate;
        let RecordedClip {
            samples: clip,
            loudness_db,
        } = RecordedClip::from_wav(body, rate).map_err(|e| unprocessable(e.to_string()))?;
        write_clip(&path, &clip, rate)
            .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        Ok(Stored {
            key: key.to_owned(),
            seconds: clip.len() as f64 / f64::from(rate),
            loudness_db,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactus_testkit::wav::wav;

    fn pack() -> (tempfile::TempDir, Recording) {
        let dir = tempfile::tempdir().unwrap();
        let r = prepare(&dir.path().join("mine"), "de-appendix-d", "Ana").unwrap();
        (dir, r)
    }

    /// Half a second of a 200 Hz tone between two quarter seconds of quiet.
    fn word(rate: u32) -> Vec<i16> {
        let n = rate as usize;
        (0..n)
            .map(|i| {
                if (n / 4..3 * n / 4).contains(&i) {
                    (8000.0 * (i as f32 * 200.0 * std::f32::consts::TAU / rate as f32).sin()) as i16
                } else {
                    0
                }
            })
            .collect()
    }

    #[test]
    fn a_new_pack_copies_the_tokens_and_says_it_is_recorded() {
        let (dir, r) = pack();
        assert_eq!(r.manifest.name, "mine");
        let source = r.manifest.source.as_ref().unwrap();
        assert_eq!(
            (source.engine.as_str(), source.voice.as_str()),
            ("recorded", "Ana")
        );
        assert_eq!(r.order.first().map(String::as_str), Some("file.a"));
        assert_eq!(r.order.len(), r.manifest.tokens.len());
        assert!(r.state().tokens.iter().all(|t| !t.recorded));
        drop(dir);
    }

    #[test]
    fn a_clip_is_trimmed_levelled_and_written_where_the_manifest_says() {
        let (_dir, r) = pack();
        let rate = r.manifest.sample_rate;
        let stored = r.store("file.e", &wav(rate, 1, &word(rate))).unwrap();
        assert!((stored.seconds - 0.52).abs() < 0.03, "{}", stored.seconds);
        let path = r.clip_path("file.e").unwrap();
        let back = hound::WavReader::open(&path).unwrap();
        assert_eq!(back.spec().sample_rate, rate);
        assert!(
            r.state()
                .tokens
                .iter()
                .any(|t| t.key == "file.e" && t.recorded)
        );
    }

    #[test]
    fn the_clicks_of_the_keys_around_a_word_are_not_kept() {
        let (_dir, r) = pack();
        let rate = r.manifest.sample_rate;
        // The click of R, the word (between its quarter seconds of quiet),
        // the click of R again: what recording by keyboard hears.
        let click = [0, 12000, -9000, 6000, -3000, 0];
        let samples: Vec<i16> = click
            .iter()
            .chain(&word(rate))
            .chain(&click)
            .copied()
            .collect();
        let stored = r.store("file.e", &wav(rate, 1, &samples)).unwrap();
        assert!((stored.seconds - 0.52).abs() < 0.03, "{}", stored.seconds);
    }

    /// Every window the recorder page can cut from a microphone that loops
    /// three words of the default pack with a quarter second of quiet
    /// between them (the Chromium test's fake microphone) is kept with
    /// under 30 ms of quiet, below 2% of its peak, at either end, measured
    /// on the clip as written in 16 bits. A window may begin in the faint
    /// tail of a word: that tail is a stray sound, not the word.
    #[test]
    fn any_window_of_looped_speech_is_kept_without_quiet_at_its_ends() {
        let rate = 16_000;
        let clips =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("voices/de-appendix-d/clips");
        let mut speech: Vec<i16> = Vec::new();
        for key in ["file.e", "rank.5", "piece.knight"] {
            speech.extend(vec![0; rate as usize / 4]);
            let mut clip = hound::WavReader::open(clips.join(format!("{key}.wav"))).unwrap();
            assert_eq!(clip.spec().sample_rate, rate);
            speech.extend(clip.samples::<i16>().map(Result::unwrap));
        }
        let looped: Vec<i16> = speech.iter().chain(&speech).copied().collect();
        let mut windows = 0;
        for length in [9_600, 12_000] {
            for start in (0..speech.len()).step_by(61) {
                let window = &looped[start..start + length];
                let kept = RecordedClip::from_wav(&wav(rate, 1, window), rate).unwrap();
                let written: Vec<i32> = kept
                    .samples
                    .iter()
                    .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i32)
                    .collect();
                let peak = written.iter().map(|s| s.abs()).max().unwrap();
                let loud = |s: &i32| f64::from(s.abs()) >= f64::from(peak) * 0.02;
                let lead = written.iter().position(loud).unwrap();
                let trail = written.len() - 1 - written.iter().rposition(loud).unwrap();
                assert!(
                    lead < 480 && trail < 480,
                    "window {start}+{length}: {lead} and {trail} samples of quiet"
                );
                windows += 1;
            }
        }
        assert!(windows > 500, "{windows}");
    }

    #[test]
    fn a_bad_clip_is_refused_and_nothing_is_written() {
        let (_dir, r) = pack();
        let rate = r.manifest.sample_rate;
        let cases: [(&str, Vec<u8>, StatusCode, &str); 6] = [
            (
                "file.e",
                b"RIFF nonsense".to_vec(),
                StatusCode::UNPROCESSABLE_ENTITY,
                "not a WAV",
            ),
            (
                "file.e",
                wav(rate * 3, 1, &word(rate * 3)),
                StatusCode::UNPROCESSABLE_ENTITY,
                "Hz",
            ),
            (
                "file.e",
                wav(rate, 2, &word(rate)),
                StatusCode::UNPROCESSABLE_ENTITY,
                "mono",
            ),
            (
                "file.e",
                wav(rate, 1, &vec![0; rate as usize]),
                StatusCode::UNPROCESSABLE_ENTITY,
                "nothing was heard",
            ),
            (
                "file.e",
                wav(rate, 1, &vec![100; rate as usize * 6]),
                StatusCode::UNPROCESSABLE_ENTITY,
                "at most",
            ),
            (
                "../../etc/passwd",
                wav(rate, 1, &word(rate)),
                StatusCode::NOT_FOUND,
                "no token",
            ),
        ];
        for (key, body, status, says) in cases {
            let (got, message) = r.store(key, &body).map(|_| ()).unwrap_err();
            assert_eq!(got, status, "{key}: {message}");
            assert!(message.contains(says), "{key}: {message}");
        }
        assert!(!r.clip_path("file.e").unwrap().exists());
    }
}
