//! `tactus bench`: measurements of the whole service, outside it. Nothing in
//! the service depends on this module; it drives the service as a venue
//! would (tables in-process, or `tactus serve` as a process over loopback).

pub mod e2e;
pub mod error;
pub mod hands;
pub mod http;
pub mod proc_net;
pub mod ser2net;
pub mod serve;
pub mod startup;
