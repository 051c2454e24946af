//! The devices' tests: boards (decoders, pseudo-terminals, ser2net,
//! faults), braille (records, a display on a real brltty) and voice packs.
//! The noisy board (`tests/board_noise.rs`) is a binary of its own: it
//! counts every log line of its process.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test devices board_cli::`.

// The shared helpers, each declared once; not every module uses every
// helper (they allow dead code, as they did when each file declared them).
use tactus_testkit::brltty;
use tactus_testkit::host;
use tactus_testkit::process as common;

mod board_cli;
mod board_decoders;
mod board_net;
mod board_pty;
mod braille_display;
mod braille_record;
mod faults_board;
mod voice_packs;
