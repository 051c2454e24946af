//! Fuzz target `http_router`. The check and its invariants are in
//! `crates/fuzz-checks/src/http_router.rs`, shared with the crate's `tests/rules/fuzz_corpora.rs`, which
//! replays this target's committed corpus in the normal test suite, and
//! with `tests/service/http_fuzz.rs`, the property test of the same surface.
#![no_main]

use tactus_fuzz_checks::http_router as check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
