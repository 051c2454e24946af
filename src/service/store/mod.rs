//! What the service keeps across a restart: the journal (SQLite, every
//! table's events and the competition's documents: `journal`), a map kept
//! in it (`journaled_map`), and what is kept through it: each table's
//! request rate state (`table_rates`) and the players' own settings
//! (`player_settings`).

pub mod journal;
pub mod journaled_map;
pub mod player_settings;
pub mod table_rates;
