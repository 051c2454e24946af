//! Replays every fuzz target's committed corpus (`fuzz/corpus/<target>/`)
//! through the same check the fuzzer runs (`fuzz/checks/<target>.rs`), so
//! the normal test suite, on stable Rust, keeps every input the fuzzers were
//! seeded with or found free of panics and broken invariants.

use std::path::Path;

#[path = "../../fuzz/checks/braille_record.rs"]
mod braille_record;
#[path = "../../fuzz/checks/brlapi_answers.rs"]
mod brlapi_answers;
#[path = "../../fuzz/checks/dgt_decoder.rs"]
mod dgt_decoder;
#[path = "../../fuzz/checks/game_events.rs"]
mod game_events;
#[path = "../../fuzz/checks/http_router.rs"]
mod http_router;
#[path = "../../fuzz/checks/millennium_decoder.rs"]
mod millennium_decoder;
#[path = "../../fuzz/checks/parse_move.rs"]
mod parse_move;
#[path = "../../fuzz/checks/peg_decoder.rs"]
mod peg_decoder;
#[path = "../../fuzz/checks/pgn.rs"]
mod pgn;
#[path = "../../fuzz/checks/recorded_clip.rs"]
mod recorded_clip;
#[path = "../../fuzz/checks/rfc2217_negotiation.rs"]
mod rfc2217_negotiation;
#[path = "../../fuzz/checks/sheet_reader.rs"]
mod sheet_reader;
#[path = "../../fuzz/checks/time_control.rs"]
mod time_control;
#[path = "../../fuzz/checks/tokens_file.rs"]
mod tokens_file;
#[path = "../../fuzz/checks/trf.rs"]
mod trf;
#[path = "../../fuzz/checks/venue_config.rs"]
mod venue_config;
#[path = "../../fuzz/checks/voice_manifest.rs"]
mod voice_manifest;

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
    let here = format!("{}{firmware}", include_str!("fuzz_corpora.rs"));
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
                here.contains(&format!("/fuzz/checks/{name}.rs")),
                "fuzz target {name} is not replayed here"
            );
        }
    }
    assert!(targets >= 10, "{targets} targets");
}
