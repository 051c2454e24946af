//! The peg board's firmware under tactus: the UF2 file in the RP2040
//! emulator (`emulator.mjs` beside this file), followed by `tactus serve`
//! and checked by `tactus board holes`.
//!
//! A binary of its own: each test runs an emulator, which keeps a third of
//! a core busy, and the device tests beside which it ran before include
//! one that reads a board late on purpose (`board_cli`), which the extra
//! load disturbed once in CI.

use tactus_testkit::process as common;

mod peg_firmware;
