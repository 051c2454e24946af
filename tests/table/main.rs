//! The table's tests: the actor, Chess960, the opponent's board, the table
//! under human hands, one server per folder, replay refusing. The failing
//! journal (`tests/journal_failing.rs`) is a binary of its own: it counts
//! every log line of its process.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test table table_actor::`.

// The shared helpers, each declared once; not every module uses every
// helper (they allow dead code, as they did when each file declared them).
use tactus_testkit::process as common;

mod chess960_table;
mod one_owner;
mod opponent_boards;
mod replay_refuses;
mod table_actor;
mod table_hands;
