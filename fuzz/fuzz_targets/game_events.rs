//! Fuzz target `game_events`. The check and its invariants are in
//! `crates/fuzz-checks/src/game_events.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

use tactus_fuzz_checks::game_events as check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
