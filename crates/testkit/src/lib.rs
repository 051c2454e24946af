//! The harness that tactus's tests and `tactus bench` drive the service
//! with, from outside: a small HTTP/1.1 client ([`http`]), a real ser2net
//! started for a board's pseudo-terminal ([`ser2net`]), the kernel's table
//! of TCP sockets ([`proc_net`]), and the peg board's own firmware in an
//! RP2040 emulator ([`peg_firmware`]); whole games carried out by the
//! hands model on simulated boards and read back as a host reads them
//! ([`hands`]: the hands suite and `tactus bench hands` both play through
//! it). The real pairing engine, bbpPairings
//! ([`bbp`]), pairs the rounds of the tournaments the tests play from the
//! TRF files tactus writes. For the tests alone: a private PulseAudio with
//! null sinks ([`pulse`]), brltty with its virtual display ([`brltty`]), a
//! board driver and inference engine to wait on ([`host`]), a process's
//! log lines kept to read ([`caught`]), WAV files made in memory ([`wav`]),
//! and `tactus serve` run as a process, with the tokens it made
//! ([`process`]). Not part of the server: the organisers' package is built
//! without it.

pub mod bbp;
pub mod brltty;
pub mod caught;
pub mod hands;
pub mod host;
pub mod http;
pub mod peg_firmware;
pub mod proc_net;
pub mod process;
pub mod pulse;
pub mod ser2net;
pub mod team_engines;
pub mod wav;

use std::path::{Path, PathBuf};

/// The workspace's root directory (this crate is `crates/testkit` in it):
/// where the engines the scripts build are found.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}
