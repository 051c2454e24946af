//! Fuzz target `parse_move`. The check and its invariants are in
//! `crates/fuzz-checks/src/parse_move.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

use tactus_fuzz_checks::parse_move as check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
