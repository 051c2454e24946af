//! Replays every fuzz target's committed corpus (`fuzz/corpus/<target>/`)
//! through the same check the fuzzer runs (`tactus_fuzz_checks::<target>`,
//! `crates/fuzz-checks/src/<target>.rs`), so
//! the normal test suite, on stable Rust, keeps every input the fuzzers were
//! seeded with or found free of panics and broken invariants.

use std::path::Path;

use tactus_fuzz_checks::{
    braille_record, brlapi_answers, dgt_decoder, game_events, http_router, millennium_decoder,
    parse_move, peg_decoder, pgn, recorded_clip, rfc2217_negotiation, sheet_reader, time_control,
    tokens_file, trf, venue_config, voice_manifest,
};

/// Runs `check` on every file of the target's corpus; the corpus must exist
/// and hold something, or the test would pass on nothing.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    for file in files {
        let data = std::fs::read(&file).unwrap();
        // Name the input if its check panics.
        let name = file.display().to_string();
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let why = e
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| e.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            panic!("{name}: {why}");
        }
    }
}

macro_rules! corpus_tests {
    ($($target:ident),* $(,)?) => {
        $(
            #[test]
            fn $target() {
                replay(stringify!($target), $target::check);
            }
        )*
    };
}

corpus_tests!(
    braille_record,
    brlapi_answers,
    dgt_decoder,
    game_events,
    http_router,
    millennium_decoder,
    parse_move,
    peg_decoder,
    pgn,
    recorded_clip,
    rfc2217_negotiation,
    sheet_reader,
    time_control,
    tokens_file,
    trf,
    venue_config,
    voice_manifest,
);

/// Every fuzz target has a check replayed here and a corpus; the peg
/// board firmware's (`firmware_inputs`) is replayed by the firmware's own
/// unit tests (`firmware/peg-board/src/lib.rs`, run by `scripts/firmware`),
/// as the firmware is not part of this workspace.
#[test]
fn every_target_is_replayed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap();
    let firmware = std::fs::read_to_string(root.join("firmware/peg-board/src/lib.rs")).unwrap();
    // The targets this file replays: the list given to `corpus_tests!`.
    let here = include_str!("fuzz_corpora.rs");
    let replayed = here
        .split_once("corpus_tests!(")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(list, _)| list)
        .expect("the corpus_tests! list");
    let mut targets = 0;
    for line in manifest.lines() {
        if let Some(name) = line
            .strip_prefix("name = \"")
            .and_then(|l| l.strip_suffix('"'))
        {
            if name == "tactus-fuzz" {
                continue;
            }
            targets += 1;
            assert!(
                replayed.lines().any(|l| l.trim() == format!("{name},"))
                    || firmware.contains(&format!("/fuzz/checks/{name}.rs")),
                "fuzz target {name} is not replayed here"
            );
        }
    }
    assert!(targets >= 10, "{targets} targets");
}
