//! Levelling clips by loudness, not by peak: a word recorded quietly and
//! one recorded loudly sound alike once loaded.
//!
//! Loudness here is the mean power of a clip's speech frames (20 ms frames,
//! half overlapping, gated like EBU R128's relative gate: frames more than
//! 30 dB below the loudest frame, and anything under -70 dBFS, are pauses
//! and do not count), in dB relative to full scale. Each clip is brought to
//! [`TARGET_DB`]; a clip whose peaks would then pass [`KNEE`] has only those
//! peaks softly limited, so nothing clips.

/// The level every clip is brought to, in dBFS over its speech frames.
pub const TARGET_DB: f32 = -20.0;
/// Above this magnitude peaks are bent softly towards full scale.
pub const KNEE: f32 = 0.8;
/// Further off the pack's median than this before levelling, a clip is
/// reported by `tactus voices check` (a wrong or damaged recording).
pub const FAR_OFF_DB: f32 = 6.0;

const FRAME_MS: u32 = 20;
const RELATIVE_GATE_DB: f32 = -30.0;
const ABSOLUTE_GATE_DB: f32 = -70.0;

/// The loudness of `samples` at `rate` in dBFS over speech frames; `None`
/// for silence.
pub fn loudness_db(samples: &[f32], rate: u32) -> Option<f32> {
    let n = (rate * FRAME_MS / 1000).max(1) as usize;
    let hop = (n / 2).max(1);
    let mut powers = Vec::new();
    if samples.len() < n {
        powers.push(power(samples));
    } else {
        let mut i = 0;
        while i + n <= samples.len() {
            powers.push(power(&samples[i..i + n]));
            i += hop;
        }
    }
    let loudest = powers.iter().copied().fold(0.0f64, f64::max);
    if loudest <= 0.0 {
        return None;
    }
    let relative = loudest * db_to_power(RELATIVE_GATE_DB);
    let absolute = db_to_power(ABSOLUTE_GATE_DB);
    let gated: Vec<f64> = powers
        .into_iter()
        .filter(|&p| p >= relative && p >= absolute)
        .collect();
    if gated.is_empty() {
        return None;
    }
    let mean = gated.iter().sum::<f64>() / gated.len() as f64;
    Some((10.0 * mean.log10()) as f32)
}

fn power(frame: &[f32]) -> f64 {
    if frame.is_empty() {
        return 0.0;
    }
    frame
        .iter()
        .map(|&s| f64::from(s) * f64::from(s))
        .sum::<f64>()
        / frame.len() as f64
}

fn db_to_power(db: f32) -> f64 {
    10f64.powf(f64::from(db) / 10.0)
}

/// Brings `samples` to [`TARGET_DB`], softly limiting peaks above
/// [`KNEE`]. Returns the loudness before, or `None` for silence (left as
/// it is).
pub fn level(samples: &mut [f32], rate: u32) -> Option<f32> {
    let before = loudness_db(samples, rate)?;
    let gain = 10f32.powf((TARGET_DB - before) / 20.0);
    for s in samples.iter_mut() {
        *s = soft_limit(*s * gain);
    }
    Some(before)
}

/// Identity up to [`KNEE`], then bent towards (never reaching) full scale.
fn soft_limit(x: f32) -> f32 {
    let a = x.abs();
    if a <= KNEE {
        return x;
    }
    let room = 1.0 - KNEE;
    let bent = KNEE + room * ((a - KNEE) / room).tanh();
    bent.min(0.999).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(amplitude: f32, rate: u32, ms: u32) -> Vec<f32> {
        let n = (rate * ms / 1000) as usize;
        (0..n)
            .map(|i| amplitude * (i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin())
            .collect()
    }

    #[test]
    fn a_sine_at_half_scale_is_minus_nine_dbfs() {
        let l = loudness_db(&tone(0.5, 22050, 500), 22050).unwrap();
        assert!((l - (-9.03)).abs() < 0.1, "{l}");
    }

    #[test]
    fn pauses_do_not_lower_the_loudness() {
        let mut x = tone(0.5, 22050, 300);
        x.extend(vec![0.0; 22050]);
        x.extend(tone(0.5, 22050, 300));
        let l = loudness_db(&x, 22050).unwrap();
        assert!((l - (-9.03)).abs() < 0.3, "{l}");
    }

    #[test]
    fn quiet_and_loud_words_end_level_and_unclipped() {
        let mut quiet = tone(0.02, 22050, 400);
        let mut loud = tone(0.9, 22050, 400);
        level(&mut quiet, 22050).unwrap();
        level(&mut loud, 22050).unwrap();
        let (a, b) = (
            loudness_db(&quiet, 22050).unwrap(),
            loudness_db(&loud, 22050).unwrap(),
        );
        assert!(
            (a - TARGET_DB).abs() < 0.2 && (b - TARGET_DB).abs() < 0.2,
            "{a} {b}"
        );
        let mut spiky = tone(0.01, 22050, 400);
        spiky[100] = 0.9;
        level(&mut spiky, 22050).unwrap();
        assert!(spiky.iter().all(|s| s.abs() < 1.0));
        assert!(level(&mut [0.0; 100], 22050).is_none());
    }
}
