//! The rules' tests: announcements, clock, D.2.9 rulings, PGN against
//! python-chess, the fuzz corpora, `tactus say clock`.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test rules announcement_fixtures::`.

mod announcement_fixtures;
mod clock_props;
mod fuzz_corpora;
mod pgn_corpus;
mod reconcile_fixtures;
mod say_clock;
