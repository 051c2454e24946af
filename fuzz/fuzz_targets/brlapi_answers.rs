//! Fuzz target `brlapi_answers`. The check and its invariants are in
//! `checks/brlapi_answers.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite.
#![no_main]

#[path = "../checks/brlapi_answers.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
