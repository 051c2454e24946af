//! Fuzz target `recorded_clip`. The check and its invariants are in
//! `checks/recorded_clip.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

#[path = "../checks/recorded_clip.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
