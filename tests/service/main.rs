//! The service's tests: `tactus serve` end to end and in process, the API's
//! JSON against its docs, roles, rounds, hostile peers and shedding, HTTPS,
//! the hall check, `tactus bench e2e`, a system time step, and the crash
//! test (ignored; `scripts/test` runs it by name: `crash::`).
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test service api_contract::`.

// The shared helpers, each declared once; not every module uses every
// helper (they allow dead code, as they did when each file declared them).
use tactus_fuzz_checks::inprocess;
use tactus_testkit::brltty;
use tactus_testkit::process as common;
use tactus_testkit::pulse;

mod access_walk;
mod api_contract;
mod bench_e2e;
mod championship;
mod crash;
mod faults_api;
mod gate_bombs;
mod gate_floods;
mod gate_people;
mod hall_check;
mod hostile_peers;
mod http_fuzz;
mod recorder;
mod roles;
mod rounds;
mod serve_e2e;
mod shed;
mod streams_flood;
mod table_rate;
mod team_event;
mod team_tiebreaks;
mod time_steps;
mod tls;
mod trf_corpus;
mod web_inprocess;
