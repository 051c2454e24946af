//! The hands suite in a binary of its own: it plays its games on
//! `TACTUS_HANDS_JOBS` threads of its own, and beside another binary's tests
//! on this 2-core machine it would load the tables it watches twice over.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test hands board_hands::`.

mod board_hands;
