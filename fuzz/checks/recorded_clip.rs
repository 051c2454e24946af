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
    let n = (data.len() / 2 * 2) as u32;
    let mut out = Vec::with_capacity(44 + n as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + n).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&data[..n as usize]);
    out
}
