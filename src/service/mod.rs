//! The service: start-up from configuration, the journal, access tokens.

pub mod access;
pub mod addresses;
pub mod blocking;
pub mod board_order;
pub mod check;
pub mod competition;
pub mod config;
pub mod data_lock;
pub mod i18n;
pub mod journal;
pub mod journaled_map;
pub mod player_display;
pub mod player_settings;
pub mod private_file;
pub mod recorder;
pub mod secret;
pub mod serve;
pub mod serve_error;
pub mod table_rates;
pub mod tls;
pub mod venue_from_trf;
pub mod web;

// The web edge's files, under `web/`; these paths stay for their users.
pub use web::{api_types, clips, headers, listener};
