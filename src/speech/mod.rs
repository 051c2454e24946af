//! Speech: voice packs, rendering token lists to text and samples, sinks.

pub mod dsp;
pub mod render;
pub mod sink;
pub mod sink_card;
pub mod synth;
pub mod voice_pack;
