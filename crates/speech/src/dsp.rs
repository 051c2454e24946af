//! Sample processing applied to clips once, when a pack is loaded or first
//! rendered at an output rate: silence trimming, pitch-keeping time stretch
//! (WSOLA) and resampling (rubato).
//!
//! Samples are mono `f32` in -1.0..=1.0 throughout.

use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::{Fft, FixedSync, Resampler};

/// Below this peak (about -72 dBFS, a few LSB of 16-bit audio) a clip is
/// taken as silent: nothing was recorded.
pub const SILENT_PEAK: f32 = 8.0 / 32768.0;

/// A sample counts as sound when it reaches this fraction of the clip's peak
/// (-34 dB): far above a quiet room's noise, below any spoken consonant.
const TRIM_THRESHOLD: f32 = 0.02;
/// Kept before the first loud sample: the onset of a plosive or fricative
/// ("Schach", "Felix") starts quietly and must not be clipped.
const TRIM_MARGIN_BEFORE_MS: u32 = 5;
/// Kept after the last loud sample: word endings decay more slowly.
const TRIM_MARGIN_AFTER_MS: u32 = 15;

/// The peak absolute sample value (0.0 for an empty clip).
pub fn peak(samples: &[f32]) -> f32 {
    samples.iter().fold(0.0f32, |m, s| m.max(s.abs()))
}

/// The range of `samples` left after trimming leading and trailing silence,
/// with a few milliseconds of margin either side. An all-silent clip gives an
/// empty range.
pub fn trim_range(samples: &[f32], rate: u32) -> std::ops::Range<usize> {
    let Some(threshold) = sound_threshold(samples) else {
        return 0..0;
    };
    let loud = |s: &f32| s.abs() >= threshold;
    let span = samples
        .iter()
        .position(loud)
        .zip(samples.iter().rposition(loud));
    with_margins(span, samples.len(), rate)
}

/// A quiet gap at least this long sets a stray sound apart from the speech:
/// the click of the key that started or stopped a recording, a breath, the
/// tail of an earlier word. Gaps inside a spoken word (the closure before
/// the "t" of "acht") are far shorter.
const STRAY_GAP_MS: u32 = 150;
/// A part of a recording set apart by such a gap, with less than this share
/// of the loudest part's energy (-13 dB), is a stray sound, not a word.
const STRAY_ENERGY: f32 = 0.05;

/// Like [`trim_range`], for a clip just recorded from a microphone: also
/// cuts stray sounds at either end, set apart from the speech by at least
/// 150 ms of quiet and far weaker than it. Recording by keyboard puts the
/// click of the key at both ends of every clip; `trim_range` alone would
/// keep the click and the quiet between it and the word.
///
/// The parts kept run from the first strong part to the last, so a phrase
/// keeps its quieter words and its pauses.
pub fn speech_range(samples: &[f32], rate: u32) -> std::ops::Range<usize> {
    let Some(threshold) = sound_threshold(samples) else {
        return 0..0;
    };
    let gap = ms_to_samples(STRAY_GAP_MS, rate).max(1);
    // Parts: runs of sound whose loud samples are under `gap` apart, as
    // (first loud sample, last loud sample). At most one per `gap` samples.
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if s.abs() < threshold {
            continue;
        }
        match parts.last_mut() {
            Some(part) if i - part.1 < gap => part.1 = i,
            _ => parts.push((i, i)),
        }
    }
    let energies: Vec<f32> = parts
        .iter()
        .map(|&(first, last)| samples[first..=last].iter().map(|s| s * s).sum())
        .collect();
    let loudest = energies.iter().copied().fold(0.0f32, f32::max);
    let strong = |i: &usize| energies[*i] >= loudest * STRAY_ENERGY;
    let first = (0..parts.len()).find(strong);
    let last = (0..parts.len()).rfind(strong);
    let span = first.zip(last).map(|(f, l)| (parts[f].0, parts[l].1));
    with_margins(span, samples.len(), rate)
}

/// The level a sample must reach to count as sound in `samples`, or `None`
/// for a silent clip.
fn sound_threshold(samples: &[f32]) -> Option<f32> {
    let peak = peak(samples);
    (peak >= SILENT_PEAK).then_some(peak * TRIM_THRESHOLD)
}

/// The sound from `first` to `last` (inclusive) widened by the trimming
/// margins, within `0..len`; nothing if there is no sound.
fn with_margins(span: Option<(usize, usize)>, len: usize, rate: u32) -> std::ops::Range<usize> {
    let Some((first, last)) = span else {
        return 0..0;
    };
    let before = ms_to_samples(TRIM_MARGIN_BEFORE_MS, rate);
    let after = ms_to_samples(TRIM_MARGIN_AFTER_MS, rate);
    first.saturating_sub(before)..(last + 1 + after).min(len)
}

/// Milliseconds to a whole number of samples at `rate`.
pub fn ms_to_samples(ms: u32, rate: u32) -> usize {
    (u64::from(ms) * u64::from(rate) / 1000) as usize
}

/// The slowest and fastest speech speed a pack can be loaded at.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 0.5..=2.0;

/// Changes the speed of speech by `speed` (2.0: twice as fast, half as
/// long) while keeping its pitch: WSOLA (waveform-similarity overlap-add).
///
/// The output is built from 20 ms Hann-windowed frames at a fixed 10 ms hop;
/// each frame is read from the input near `speed` times its output time,
/// shifted by up to ±5 ms to the spot that best continues the previous frame,
/// so that periods line up and the voice neither rises nor buzzes. No
/// maintained Rust crate does pitch-keeping stretch without a C++ build, and
/// this runs once per clip at load.
pub fn stretch(samples: &[f32], rate: u32, speed: f32) -> Vec<f32> {
    if !speed.is_finite() || speed <= 0.0 || (speed - 1.0).abs() < 1e-3 || samples.is_empty() {
        return samples.to_vec();
    }
    let win = (ms_to_samples(20, rate) / 2 * 2).max(16);
    let hop = win / 2;
    let tolerance = ms_to_samples(5, rate).max(1);
    let window: Vec<f32> = (0..win)
        .map(|i| 0.5 - 0.5 * (std::f32::consts::TAU * i as f32 / win as f32).cos())
        .collect();

    // Pad so that the first frame's fade-in falls on silence (dropped
    // afterwards) and every read near the end stays in bounds.
    let mut input = vec![0.0f32; hop];
    input.extend_from_slice(samples);
    input.resize(input.len() + win + 2 * tolerance, 0.0);
    let last_start = input.len() - win;

    let out_len = (samples.len() as f64 / f64::from(speed)).round() as usize;
    let padded_len = out_len + hop;
    let mut out = vec![0.0f32; padded_len + win];
    let mut prev = 0usize;
    let mut k = 0usize;
    while k * hop < padded_len {
        let start = if k == 0 {
            0
        } else {
            let nominal = ((k * hop) as f64 * f64::from(speed)).round() as usize;
            let natural = prev + hop;
            best_match(&input, natural, nominal, tolerance, hop, last_start)
        };
        let frame = &input[start..start + win];
        for ((o, x), w) in out[k * hop..k * hop + win]
            .iter_mut()
            .zip(frame)
            .zip(&window)
        {
            *o += x * w;
        }
        prev = start;
        k += 1;
    }
    out.truncate(padded_len);
    out.drain(..hop);
    out
}

/// The frame start within `tolerance` of `nominal` whose first `overlap`
/// samples correlate best with the natural continuation at `natural`.
fn best_match(
    input: &[f32],
    natural: usize,
    nominal: usize,
    tolerance: usize,
    overlap: usize,
    last_start: usize,
) -> usize {
    let lo = nominal.saturating_sub(tolerance).min(last_start);
    let hi = (nominal + tolerance).min(last_start);
    if natural + overlap > input.len() {
        return nominal.min(last_start);
    }
    let template = &input[natural..natural + overlap];
    let mut best = (f32::NEG_INFINITY, nominal.min(last_start));
    for cand in lo..=hi {
        // Every second sample: plenty for speech, half the cost.
        let score: f32 = template
            .iter()
            .zip(&input[cand..cand + overlap])
            .step_by(2)
            .map(|(a, b)| a * b)
            .sum();
        if score > best.0 {
            best = (score, cand);
        }
    }
    best.1
}

/// Resamples mono `samples` from rate `from` to rate `to` with rubato's
/// FFT resampler (a fixed ratio, high quality). The result has
/// `len * to / from` samples, rounded up, with rubato's delay removed.
pub fn resample(samples: &[f32], from: u32, to: u32) -> Result<Vec<f32>, ResampleError> {
    if from == to || samples.is_empty() {
        return Ok(samples.to_vec());
    }
    let failed = |e: &dyn std::fmt::Display| ResampleError {
        from,
        to,
        reason: e.to_string(),
    };
    let mut resampler = Fft::<f32>::new(from as usize, to as usize, 1024, 1, FixedSync::Input)
        .map_err(|e| failed(&e))?;
    let input = InterleavedSlice::new(samples, 1, samples.len()).map_err(|e| failed(&e))?;
    let out = resampler
        .process_all(&input, samples.len(), None)
        .map_err(|e| failed(&e))?;
    Ok(out.take_data())
}

/// A resampling the resampler refused (a rate of 0, a ratio out of range).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot resample {from} Hz to {to} Hz: {reason}")]
pub struct ResampleError {
    pub from: u32,
    pub to: u32,
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(freq: f32, rate: u32, secs: f32, amp: f32) -> Vec<f32> {
        (0..(rate as f32 * secs) as usize)
            .map(|i| amp * (std::f32::consts::TAU * freq * i as f32 / rate as f32).sin())
            .collect()
    }

    /// Zero crossings per second over the middle of the signal (the edges
    /// are where windows fade).
    fn crossing_rate(x: &[f32], rate: u32) -> f32 {
        let mid = &x[x.len() / 10..x.len() * 9 / 10];
        let n = mid
            .windows(2)
            .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
            .count();
        n as f32 * rate as f32 / mid.len() as f32
    }

    #[test]
    fn trimming_cuts_silence_and_keeps_a_margin() {
        let rate = 10_000;
        let mut clip = vec![0.0f32; 3000];
        clip.extend(sine(200.0, rate, 0.5, 0.5));
        clip.extend(vec![0.0f32; 4000]);
        let trimmed = &clip[trim_range(&clip, rate)];
        // The tone is 5000 samples; margins are 5 ms (50) before and 15 ms
        // (150) after, less the few samples near the zero crossings that
        // are below the threshold.
        assert!(
            trimmed.len() >= 5000 && trimmed.len() <= 5000 + 50 + 150,
            "{}",
            trimmed.len()
        );
        let range = trim_range(&clip, rate);
        assert!((2950..=3000).contains(&range.start), "{range:?}");
        assert!((8000..=8150).contains(&range.end), "{range:?}");
        // The quiet onset (1% of peak, below the threshold) is within margin.
        assert!(trimmed[..50].iter().all(|s| s.abs() < 0.01));
    }

    /// A click, 300 ms of quiet, a word, 200 ms of quiet, a click: what a
    /// recording by keyboard hears.
    fn recorded_by_keyboard(rate: u32, word: &[f32]) -> (Vec<f32>, std::ops::Range<usize>) {
        let click = |clip: &mut Vec<f32>| clip.extend([0.0, 0.4, -0.3, 0.2, -0.1, 0.0]);
        let mut clip = vec![0.0f32; 100];
        click(&mut clip);
        clip.extend(vec![0.0; ms_to_samples(300, rate)]);
        let start = clip.len();
        clip.extend_from_slice(word);
        let end = clip.len();
        clip.extend(vec![0.0; ms_to_samples(200, rate)]);
        click(&mut clip);
        clip.extend(vec![0.0; 50]);
        (clip, start..end)
    }

    /// `r` is `word` with the margins: 5 ms (80 samples at 16 kHz) before,
    /// 15 ms (240) after, less the samples near the zero crossings below
    /// the threshold.
    fn assert_is_speech_with_margins(r: std::ops::Range<usize>, word: std::ops::Range<usize>) {
        assert!(
            r.start <= word.start && word.start - r.start <= 80,
            "{r:?} {word:?}"
        );
        assert!(
            r.end >= word.end - 2 && r.end <= word.end + 240,
            "{r:?} {word:?}"
        );
    }

    #[test]
    fn speech_range_cuts_the_clicks_of_the_keys_that_started_and_stopped_it() {
        let rate = 16_000;
        let (clip, word) = recorded_by_keyboard(rate, &sine(200.0, rate, 0.4, 0.5));
        // trim_range keeps the clicks and the quiet between them and the word.
        let trimmed = trim_range(&clip, rate);
        assert!(
            trimmed.start <= 101 && trimmed.end >= clip.len() - 60,
            "{trimmed:?}"
        );
        let r = speech_range(&clip, rate);
        assert_is_speech_with_margins(r, word);
    }

    #[test]
    fn speech_range_keeps_a_phrase_with_its_pauses_and_quieter_words() {
        let rate = 16_000;
        // Two words 300 ms apart, the second 10 dB quieter than the first.
        let mut phrase = sine(200.0, rate, 0.3, 0.6);
        phrase.extend(vec![0.0; ms_to_samples(300, rate)]);
        phrase.extend(sine(300.0, rate, 0.3, 0.19));
        let (clip, word) = recorded_by_keyboard(rate, &phrase);
        let r = speech_range(&clip, rate);
        assert_is_speech_with_margins(r, word);
    }

    #[test]
    fn speech_range_of_a_clip_without_stray_sounds_is_its_trim_range() {
        let rate = 16_000;
        let mut clip = vec![0.0f32; 2000];
        clip.extend(sine(200.0, rate, 0.4, 0.5));
        clip.extend(vec![0.0f32; 2000]);
        assert_eq!(speech_range(&clip, rate), trim_range(&clip, rate));
        let loud = sine(300.0, 8000, 0.2, 0.8);
        assert_eq!(speech_range(&loud, 8000), trim_range(&loud, 8000));
        assert!(speech_range(&[0.0; 500], 8000).is_empty());
        assert!(speech_range(&[], 8000).is_empty());
    }

    #[test]
    fn trimming_an_all_silent_clip_leaves_nothing() {
        assert!(trim_range(&[0.0; 500], 8000).is_empty());
        assert!(trim_range(&[1e-5; 500], 8000).is_empty());
        assert!(trim_range(&[], 8000).is_empty());
    }

    #[test]
    fn trimming_keeps_a_clip_that_is_sound_to_the_edges() {
        let clip = sine(300.0, 8000, 0.2, 0.8);
        let r = trim_range(&clip, 8000);
        assert!(r.start <= 1 && r.end >= clip.len() - 1, "{r:?}");
    }

    #[test]
    fn stretch_scales_length_and_keeps_pitch() {
        let rate = 22_050;
        let tone = sine(220.0, rate, 1.0, 0.5);
        let base = crossing_rate(&tone, rate);
        for speed in [0.5f32, 0.8, 1.25, 2.0] {
            let out = stretch(&tone, rate, speed);
            let expected = (tone.len() as f64 / f64::from(speed)).round() as usize;
            assert_eq!(out.len(), expected, "speed {speed}");
            let zcr = crossing_rate(&out, rate);
            assert!(
                (zcr - base).abs() / base < 0.03,
                "speed {speed}: {zcr} crossings/s vs {base}"
            );
            // The level stays: windows at 50% overlap sum to one.
            let p = peak(&out[out.len() / 10..out.len() * 9 / 10]);
            assert!((0.4..=0.6).contains(&p), "speed {speed}: peak {p}");
        }
    }

    #[test]
    fn stretch_at_normal_speed_is_the_identity() {
        let tone = sine(220.0, 8000, 0.1, 0.5);
        assert_eq!(stretch(&tone, 8000, 1.0), tone);
        assert!(stretch(&[], 8000, 2.0).is_empty());
    }

    #[test]
    fn resampling_scales_length_and_keeps_frequency() {
        let tone = sine(440.0, 22_050, 0.5, 0.5);
        let out = resample(&tone, 22_050, 48_000).unwrap();
        let expected = (tone.len() as f64 * 48_000.0 / 22_050.0).ceil() as usize;
        assert!(
            out.len().abs_diff(expected) <= 1,
            "{} vs {expected}",
            out.len()
        );
        let zcr = crossing_rate(&out, 48_000);
        assert!((zcr - 880.0).abs() < 880.0 * 0.02, "{zcr}");
        let down = resample(&tone, 22_050, 16_000).unwrap();
        assert!(down.len().abs_diff(tone.len() * 16_000 / 22_050) <= 1);
        assert_eq!(resample(&tone, 22_050, 22_050).unwrap(), tone);
    }
}
