//! WAV files made in memory, for tests that send a recording (a voice
//! clip, a microphone's take) to the service.

use std::io::Cursor;

/// 16-bit PCM `samples` (interleaved when `channels` > 1) at `rate`, as
/// the bytes of a WAV file.
pub fn wav(rate: u32, channels: u16, samples: &[i16]) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::new(&mut out, spec).expect("a WAV header in memory");
    for s in samples {
        w.write_sample(*s).expect("a sample in memory");
    }
    w.finalize().expect("a WAV file in memory");
    out.into_inner()
}
