//! The service: everything between the tables and the command line.
//!
//! - `startup`: the venue file, `tactus serve`, the hall check;
//! - `security`: access tokens, secrets, HTTPS, private files, the data lock;
//! - `store`: the journal and what is kept in it;
//! - `competition`: rounds, pairings, standings, teams, seating (domain
//!   types only: the wire types are the web layer's);
//! - `web`: the HTTP edge (the gate, the access table, the routes, pages);
//! - `recorder`: the voice recorder, an application of its own with its
//!   own routes;
//! - `i18n`: the pages' words in each language; `blocking`: the bounded
//!   pool blocking work runs on.

pub mod blocking;
pub mod competition;
pub mod i18n;
pub mod recorder;
pub mod security;
pub mod startup;
pub mod store;
pub mod web;
