//! The peg board's logic, apart from the hardware so it is tested on the
//! host (`cargo test --lib --target x86_64-unknown-linux-gnu`): debouncing
//! the switch matrix ([`debounce`]), the peg protocol's lines
//! ([`protocol`]), and the bounded queues between them and the ports
//! ([`outbox`]). `main.rs` wires them to the RP2040.

#![cfg_attr(not(test), no_std)]

pub mod debounce;
pub mod outbox;
pub mod protocol;
