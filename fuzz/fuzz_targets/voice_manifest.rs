//! Fuzz target `voice_manifest`. The check and its invariants are in
//! `crates/fuzz-checks/src/voice_manifest.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

use tactus_fuzz_checks::voice_manifest as check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
