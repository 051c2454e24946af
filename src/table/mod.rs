//! The table: one actor task per table that owns its game, clock, boards
//! and speech (layer 4 of `architecture.md`).

pub mod actions;
pub mod actor;
mod announcing;
pub mod boards;
pub mod display;
pub mod error;
pub mod id;
pub mod journal;
pub mod pgn;
mod published;
pub mod recent;
pub mod replay;
pub mod speaker;
pub mod timebase;
pub mod view;
