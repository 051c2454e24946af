//! The service: start-up from configuration, the journal, access tokens.

pub mod addresses;
pub mod api_types;
pub mod blocking;
pub mod board_order;
pub mod check;
pub mod clips;
pub mod competition;
pub mod config;
pub mod data_lock;
pub mod headers;
pub mod i18n;
pub mod journal;
pub mod listener;
pub mod player_display;
pub mod player_settings;
pub mod private_file;
pub mod recorder;
pub mod secret;
pub mod serve;
pub mod serve_error;
pub mod table_rates;
pub mod tls;
pub mod tokens;
pub mod web;
