//! The table: one actor task per table that owns its game, clock, boards
//! and speech (layer 3 of `architecture.md`).
//!
//! The actor (`actor.rs`) holds the table's parts, each owning its state:
//! the game and its journal (`journaled_game.rs`), what is said and shown
//! (`announcing.rs`), the boards and what they conclude (`boards.rs`). The
//! web layer holds a `TableHandle` (`handle.rs`).

pub mod actions;
pub mod actor;
mod announcing;
pub mod boards;
pub mod display;
pub mod error;
pub mod handle;
pub mod id;
pub mod journal;
mod journaled_game;
pub mod parts;
pub mod pgn;
mod published;
pub mod recent;
pub mod replay;
pub mod round;
pub mod setup;
mod slide;
pub mod speaker;
pub mod timebase;
pub mod view;
