//! Speech: voice packs, rendering token lists to text and samples, sinks.

pub mod dsp;
