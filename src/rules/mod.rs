//! Pure rules and records: no I/O, no reading of the system clock.

pub mod announce;
pub mod braille_chess;
pub mod clock;
pub mod clock_announce;
pub mod correction;
pub mod date;
pub mod event;
pub mod game;
pub mod game_announcements;
pub mod game_kind;
pub mod grammar;
pub mod notation;
pub mod pgn;
pub mod result;
pub mod ruling;
pub mod sheet;
pub mod side;
pub mod time_control;
pub mod token;
pub mod variant;
