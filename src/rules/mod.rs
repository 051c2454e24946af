//! Pure rules and records: no I/O, no reading of the system clock.

pub mod announce;
pub mod correction;
pub mod game_announcements;
pub mod token;
