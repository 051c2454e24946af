//! `tactus bench`: measurements of the whole service, outside it. Nothing in
//! the service depends on this module; it drives the service as a venue
//! would (tables in-process, or `tactus serve` as a process over loopback),
//! with the harness of `tactus-testkit` (an HTTP client, a ser2net runner,
//! the kernel's socket table). Built with the `bench` feature, on by
//! default; the organisers' package (`scripts/package`) leaves it out, so
//! the harness is not in the binary an event runs.

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
