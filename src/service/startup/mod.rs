//! From a venue file to a running server: the venue file and its checks
//! (`config`), a team event's entries from a TRF export
//! (`venue_from_trf`), the addresses links are printed with
//! (`addresses`), `tactus serve` itself and why it may not start
//! (`serve`, `serve_error`), every person's link it prints and keeps
//! (`links`), and the hall check (`check`).

pub mod addresses;
pub mod check;
pub mod config;
pub mod links;
pub mod serve;
pub mod serve_error;
pub mod venue_from_trf;
