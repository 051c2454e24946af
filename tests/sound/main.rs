//! The sound tests in a binary of its own: each starts a private PulseAudio
//! server and records off its null sinks; the fifty starts (ignored, run by
//! `scripts/test`) must not run beside other tests' servers and tables.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test sound audio_devices::`.

// The shared helpers, each declared once; not every module uses every
// helper (they allow dead code, as they did when each file declared them).
use tactus_testkit::process as common;
use tactus_testkit::pulse;

mod audio_devices;
