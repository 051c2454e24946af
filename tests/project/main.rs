//! The project's own checks: the layers, the documents' links and the
//! names they use, the fixtures
//! an exact copy of the shared ones.
//!
//! One binary per area, each former `tests/<file>.rs` a module of it, so a
//! test build links the crate a few times instead of once per file. Run one
//! file's tests alone with a filter: `cargo test --test project docs_links::`.

mod docs_links;
mod docs_names;
mod fixtures_are_copies;
mod function_length;
mod hardware_docs;
mod layers;
mod voice_packs;
