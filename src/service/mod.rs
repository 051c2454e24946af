//! The service: start-up from configuration, the journal, access tokens.

pub mod bench;
pub mod bench_serve;
pub mod config;
pub mod i18n;
pub mod journal;
pub mod serve;
pub mod tokens;
pub mod web;
