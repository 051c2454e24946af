//! Fuzz target `firmware_inputs`: the peg board firmware's host commands
//! and debouncer. The check and its invariants are in
//! `checks/firmware_inputs.rs`, shared with the firmware's own unit tests
//! (`firmware/peg-board/src/lib.rs`), which replay this target's committed
//! corpus on every `scripts/firmware`.
#![no_main]

#[path = "../checks/firmware_inputs.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
