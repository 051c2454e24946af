//! Tactile and electronic boards over serial, local or over the network:
//! drivers, inference, simulator.
//!
//! - the protocols, each a decoder of a board's bytes into [`event`]s:
//!   [`peg`] (the project's own peg board), [`dgt`], [`millennium`];
//! - the drivers: [`serial`] (a port, bytes to events, reconnecting) over
//!   a [`link`] (a device here or a port served by ser2net), blocking on
//!   the port and a wake-up descriptor ([`wake`]) so an idle board costs
//!   nothing;
//! - what the events mean: [`infer`] (the moves made, from the events'
//!   sequence, time passed in), [`follow`] (which holes differ from the
//!   position and how to say the fix), [`holes`] (a new board's wiring
//!   check);
//! - for tests and benchmarks: [`sim`] (a board on a pseudo-terminal),
//!   [`hands`] (a seeded model of a player's hands), [`rng`].

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

// The front door: what the table and the tests use most (each also at its
// module's path).
pub use event::{BoardEvent, Protocol};
pub use infer::{Inference, Inferred, Settings};
pub use link::Port;
pub use serial::Driver;
pub use sim::Simulator;
