//! tactus: over-the-board chess for blind and visually impaired players under
//! Appendix D of the FIDE Laws of Chess.
//!
//! The layers are crates, so the compiler refuses an import that points up
//! (see `docs/architecture.md`):
//! - `tactus-rules`: pure rules and records: announcements, clock,
//!   scoresheets, the D.2.9 ruling. No I/O; time is passed in.
//! - the devices, side by side: `tactus-speech` (voice packs, rendering
//!   token lists to samples, audio sinks), `tactus-board` (serial board
//!   drivers, move inference, the board simulator) and `tactus-braille`
//!   (cells, liblouis, BrlAPI displays); `tactus-backoff` is the one retry
//!   schedule they and the table share.
//! - this crate, the server: [`table`] (one actor task per table: game,
//!   clock, boards and speech; its stub is [`TableHandle`]) and
//!   [`service`] (by concern: `startup` from the venue file ([`Config`])
//!   to a running server, `security`, `store` (the journal), `competition`,
//!   `web`, the voice `recorder`).
//!
//! Above it, the `tactus` binary (`src/main.rs`) holds the command line and,
//! with the `bench` feature, `tactus bench`, which drives this library
//! from outside as a venue would, with the harness of `tactus-testkit`: no
//! module of the server is there only for the benchmarks.

pub mod service;
pub mod table;

// The front door: the two types a user of this crate starts from.
pub use service::startup::config::Config;
pub use table::handle::TableHandle;
