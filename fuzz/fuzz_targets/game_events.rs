//! Fuzz target `game_events`. The check and its invariants are in
//! `checks/game_events.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

#[path = "../checks/game_events.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
