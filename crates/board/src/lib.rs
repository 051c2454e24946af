//! Tactile and electronic boards over serial, local or over the network:
//! drivers, inference, simulator.

pub mod dgt;
pub mod event;
pub mod follow;
pub mod hands;
pub mod holes;
pub mod infer;
pub mod link;
pub mod millennium;
pub mod peg;
pub mod rng;
pub mod serial;
pub mod sim;
pub mod wake;
