//! Fuzz target `http_router`. The check and its invariants are in
//! `checks/http_router.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite, and
//! with `tests/service/http_fuzz.rs`, the property test of the same surface.
#![no_main]

// The web edge in process, as the crate's tests build it.
#[path = "../../tests/common/inprocess.rs"]
mod inprocess;

#[path = "../checks/http_router.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
