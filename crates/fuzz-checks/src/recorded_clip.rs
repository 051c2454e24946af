//! A recording sent by the recorder page: never a panic. The bytes are
//! tried twice, as a whole body (hound's WAV reader and the checks on it)
//! and as the samples of a well-formed 16 kHz mono WAV (the speech finder
//! and the levelling). A clip kept is speech: not empty, at most
//! `MAX_CLIP_SECONDS` long, every sample finite and within full scale.

use tactus::service::recorder::{MAX_CLIP_SECONDS, RecordedClip};

const RATE: u32 = 16_000;

pub fn check(data: &[u8]) {
    kept_well(RecordedClip::from_wav(data, RATE));
    kept_well(RecordedClip::from_wav(&wav_of(data), RATE));
}

fn kept_well(clip: Result<RecordedClip, tactus::service::recorder::ClipRefused>) {
    let Ok(clip) = clip else {
        return;
    };
    assert!(!clip.samples.is_empty());
    assert!(clip.samples.len() as f64 <= MAX_CLIP_SECONDS * f64::from(RATE));
    assert!(clip.samples.iter().all(|s| s.is_finite() && s.abs() < 1.0));
    assert!(clip.loudness_db.is_finite());
}

/// `data` (an even number of its bytes) as the little-endian samples of a
/// mono 16-bit WAV at `RATE`.
fn wav_of(data: &[u8]) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = std::io::Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut out, spec).expect("a WAV header in memory");
    for pair in data.chunks_exact(2) {
        w.write_sample(i16::from_le_bytes([pair[0], pair[1]]))
            .expect("a sample in memory");
    }
    w.finalize().expect("a WAV file in memory");
    out.into_inner()
}
