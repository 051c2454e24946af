//! Tactile and electronic boards over serial: drivers, inference, simulator.

pub mod dgt;
pub mod event;
pub mod follow;
pub mod infer;
pub mod peg;
pub mod serial;
pub mod sim;
