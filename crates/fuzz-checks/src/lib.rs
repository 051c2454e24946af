//! The fuzz targets' checks: one module per target of `fuzz/`, each a
//! `check(data: &[u8])` that panics when an input breaks an invariant.
//! The fuzzers (`fuzz/fuzz_targets/<target>.rs`) run them on what they
//! make up; the test suite (`tests/rules/fuzz_corpora.rs`) replays every
//! target's committed corpus through the same check on stable Rust, and
//! `tests/service/http_fuzz.rs` drives [`http_router`] from a property
//! test. [`inprocess`] is the web edge in process that [`http_router`] and
//! the service's tests build.
//!
//! Above the server (it depends on `tactus`) and beside the layers: only
//! the fuzzers and the tests use it. The firmware's own check
//! (`fuzz/checks/firmware_inputs.rs`) stays with the firmware, which is a
//! workspace of its own.

pub mod braille_record;
pub mod brlapi_answers;
pub mod dgt_decoder;
pub mod game_events;
pub mod http_router;
pub mod inprocess;
pub mod millennium_decoder;
pub mod parse_move;
pub mod peg_decoder;
pub mod pgn;
pub mod recorded_clip;
pub mod rfc2217_negotiation;
pub mod sheet_reader;
pub mod time_control;
pub mod tokens_file;
pub mod trf;
pub mod venue_config;
pub mod voice_manifest;
