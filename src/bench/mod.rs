//! `tactus bench`: measurements of the whole service, outside it. A module
//! of the `tactus` binary (declared in `src/main.rs`, beside [`crate::cli`]),
//! not of the server library: nothing in the service depends on it, and it
//! reaches the server only through the library's public paths
//! (`tactus::table::…`, `tactus::service::…`), as any user of the library
//! would. It drives the service as a venue would (tables in-process, or
//! `tactus serve` as a process over loopback), with the harness of
//! `tactus-testkit` (an HTTP client, a ser2net runner, the kernel's socket
//! table, and the hands harness `tactus bench hands` runs).
//!
//! Why the binary and not a crate of its own: `tactus bench` is a command of
//! the `tactus` binary, which scripts, CI and the process tests run as
//! `target/debug/tactus`, and a `tactus-bench` crate would have to sit
//! between the binary and the library of one package, a cycle Cargo
//! refuses. The code a test shares with a benchmark (the hands suite's
//! games) is in `tactus-testkit`, where both reach it.
//!
//! Built with the `bench` feature, on by default; the organisers' package
//! (`scripts/package`) leaves it out, so neither this module nor the
//! harness is in the binary an event runs.

pub mod e2e;
pub mod error;
pub mod firmware;
pub mod gate;
pub mod idle;
pub mod readers;
pub mod serve;
pub mod sound;
pub mod startup;
pub mod voice;
