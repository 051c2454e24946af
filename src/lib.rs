//! tactus: over-the-board chess for blind and visually impaired players under
//! Appendix D of the FIDE Laws of Chess.
//!
//! Layers, inside out (see `docs/architecture.md`):
//! - [`rules`]: pure rules and records: announcements, clock, scoresheets,
//!   the D.2.9 ruling. No I/O; time is passed in.
//! - [`speech`]: voice packs, rendering token lists to samples, audio sinks.
//! - [`board`]: serial board drivers, move inference, the board simulator.
//! - [`table`]: one actor task per table: game, clock, boards and speech.
//! - [`service`]: start-up, the journal, access tokens, the web server.

pub mod backoff;
pub mod bench;
pub mod board;
pub mod braille;
pub mod rng;
pub mod rules;
pub mod service;
pub mod speech;
pub mod table;
