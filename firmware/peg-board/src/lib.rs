//! The peg board's logic, apart from the hardware so it is tested on the
//! host (`cargo test --lib --target x86_64-unknown-linux-gnu`): debouncing
//! the switch matrix ([`debounce`]), the peg protocol's lines
//! ([`protocol`]), and the bounded queues between them and the ports
//! ([`outbox`]). `main.rs` wires them to the RP2040.

#![cfg_attr(not(test), no_std)]

pub mod debounce;
pub mod outbox;
pub mod protocol;

// The fuzz target's check names this crate as the fuzzer sees it.
#[cfg(test)]
extern crate self as tactus_peg_board;

/// The fuzz target `firmware_inputs` (`fuzz/`): its committed corpus
/// replayed through its check, so every input the fuzzer kept is tested on
/// every `scripts/firmware`.
#[cfg(test)]
#[path = "../../../fuzz/checks/firmware_inputs.rs"]
mod fuzz_check;

#[cfg(test)]
mod fuzz_corpus {
    use super::fuzz_check as check;

    #[test]
    fn the_fuzzers_corpus_passes_its_check() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/corpus/firmware_inputs"
        );
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{dir}: empty corpus");
        for f in files {
            let data = std::fs::read(&f).unwrap();
            if std::panic::catch_unwind(|| check::check(&data)).is_err() {
                panic!("{} fails its check", f.display());
            }
        }
    }
}
