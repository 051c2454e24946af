//! Speech: voice packs, rendering token lists to text and samples, sinks.
//!
//! - [`voice_pack`]: loading and checking `voices/<name>/voice.toml` and its
//!   clips (trimmed and speed-adjusted once, at load); text rendering.
//! - [`render`]: a pack resampled to an output rate; token list to samples.
//! - [`dsp`]: trimming, pitch-keeping stretch, resampling.
//! - [`loudness`]: every clip brought to one loudness at load.
//! - [`sink`], [`sink_alsa`]: text log, WAV file, a sound device through
//!   ALSA (reopened when it fails); [`device`]: its status for the pages.
//! - [`synth`]: speech synthesis for free text and clip-less tokens.

pub mod device;
pub mod dsp;
pub mod loudness;
pub mod render;
pub mod sink;
pub mod sink_alsa;
pub mod synth;
pub mod voice_pack;

// The front door: what the table and the service use most (each also at
// its module's path).
pub use device::AudioState;
pub use render::RatePack;
pub use sink::Sink;
pub use voice_pack::{LoadOptions, Manifest, VoicePack};
