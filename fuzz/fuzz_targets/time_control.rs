//! Fuzz target `time_control`. The check and its invariants are in
//! `crates/fuzz-checks/src/time_control.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

use tactus_fuzz_checks::time_control as check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
