//! The voice packs shipped in `voices/` as `scripts/make-voice` made them:
//! every clip trimmed to its speech and levelled, measured as tactus
//! measures them (a sample is speech from 2% of the clip's peak, as
//! `tactus_speech::dsp::trim_range` trims; loudness over speech frames, as
//! `tactus_speech::loudness::loudness_db` levels), and the manifest naming
//! what made the clips.

use std::path::Path;

use tactus_speech::dsp::peak;
use tactus_speech::loudness::loudness_db;
use tactus_speech::voice_pack::Manifest;

/// The packs made by Pico (issue 35).
const PACKS: [&str; 4] = [
    "de-appendix-d",
    "en-appendix-d",
    "es-apendice-d",
    "es-nativo",
];
/// Silence before the first and after the last loud sample, at most.
const EDGE_MS: f64 = 30.0;
/// Each clip's loudness within this of the pack's median.
const LEVEL_DB: f32 = 1.0;

fn clip(path: &Path) -> (Vec<f32>, u32) {
    let mut reader =
        hound::WavReader::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.bits_per_sample),
        (1, 16),
        "{}",
        path.display()
    );
    let samples = reader
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    (samples, spec.sample_rate)
}

#[test]
fn every_clip_is_trimmed_to_its_speech_and_levelled_to_the_pack() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("voices");
    for pack in PACKS {
        let dir = root.join(pack);
        let manifest =
            Manifest::parse(&std::fs::read_to_string(dir.join("voice.toml")).unwrap()).unwrap();
        let source = manifest.source.as_ref().expect("a [source]");
        assert_eq!(source.engine, "pico", "{pack}");
        assert!(source.voice.contains("-"), "{pack}: {}", source.voice);
        let mut levels = Vec::new();
        let mut edges = Vec::new();
        for (key, token) in &manifest.tokens {
            let (samples, rate) = clip(&dir.join(&token.clip));
            assert_eq!(rate, manifest.sample_rate, "{pack} {key}");
            let ms = |n: usize| n as f64 * 1000.0 / f64::from(rate);
            // From the start to the first sample of speech, and from the
            // last to the end.
            let threshold = peak(&samples) * 0.02;
            let loud = |s: &f32| s.abs() >= threshold;
            let first = samples.iter().position(loud).unwrap_or(samples.len());
            let last = samples.iter().rposition(loud).unwrap_or(0);
            let (before, after) = (ms(first), ms(samples.len().saturating_sub(last + 1)));
            assert!(
                before < EDGE_MS && after < EDGE_MS,
                "{pack} {key}: {before:.1} ms before the speech, {after:.1} ms after"
            );
            edges.push(before.max(after));
            let db = loudness_db(&samples, rate).unwrap_or_else(|| panic!("{pack} {key}: silent"));
            levels.push((db, key.clone()));
        }
        levels.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = levels[levels.len() / 2].0;
        for (db, key) in &levels {
            assert!(
                (db - median).abs() <= LEVEL_DB,
                "{pack} {key}: {db:.2} dBFS, the pack's median {median:.2}"
            );
        }
        let widest = edges.iter().copied().fold(0.0, f64::max);
        eprintln!(
            "{pack}: {} clips, edges at most {widest:.1} ms, loudness {:.2} to {:.2} dBFS (median {median:.2})",
            levels.len(),
            levels[0].0,
            levels[levels.len() - 1].0
        );
    }
}
