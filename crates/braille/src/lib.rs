//! Braille: cells and their two encodings (Unicode braille and BRF), words
//! through liblouis, the game record laid out on braille pages, and
//! braille displays through BrlAPI (brltty).
//!
//! Both C libraries are bound here directly (`louis.rs`, `brlapi.rs`): the
//! only Rust binding to liblouis has had no release since 2018, and the
//! BrlAPI crate covers less than the handful of calls tactus needs (a
//! handle per connection, `write` with a charset, keys with a timeout).

pub mod brlapi;
pub mod cells;
pub mod louis;
pub mod record;

// The front door: what the table and the service use (each also at its
// module's path).
pub use brlapi::{BrlapiError, Connection, Key};
pub use record::{Document, Options, RecordError};
