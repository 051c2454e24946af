//! Every announcement fixture, both styles, with the default pack's text;
//! and the CLI on one fixture with `--json` and `--wav`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tactus_rules::announce::Style;
use tactus_rules::game_announcements::announce_pgn;
use tactus_speech::dsp::ms_to_samples;
use tactus_speech::sink::DEFAULT_PAUSE_MS;
use tactus_speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/announcements");
    let mut pgns: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    pgns.sort();
    assert!(pgns.len() >= 5, "fixtures missing in {}", dir.display());
    pgns
}

fn expected(pgn: &Path, style: Style) -> Vec<Value> {
    let suffix = match style {
        Style::Standard => "expected.jsonl",
        Style::Long => "expected-long.jsonl",
    };
    let path = pgn.with_extension(suffix);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_fixture_in_both_styles() {
    let pack = VoicePack::load(find_pack(DEFAULT_PACK).unwrap(), &LoadOptions::default()).unwrap();
    let mut checked = 0;
    for pgn in fixtures() {
        let bytes = std::fs::read(&pgn).unwrap();
        for style in [Style::Standard, Style::Long] {
            let got: Vec<Value> = announce_pgn(&bytes, style)
                .unwrap_or_else(|e| panic!("{}: {e}", pgn.display()))
                .iter()
                .map(|p| {
                    serde_json::json!({"ply": p.ply, "san": p.san, "text": pack.text(&p.tokens)})
                })
                .collect();
            let want = expected(&pgn, style);
            assert_eq!(
                got.len(),
                want.len(),
                "{} {style:?}: ply count",
                pgn.display()
            );
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{} {style:?}", pgn.display());
            }
            checked += want.len();
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_cli_prints_json_and_writes_a_wav() {
    let pgn = fixtures()
        .into_iter()
        .find(|p| p.ends_with("special_moves.pgn"))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("game.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["say", "pgn"])
        .arg(&pgn)
        .args(["--style", "long", "--json", "--wav"])
        .arg(&wav)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got, expected(&pgn, Style::Long));

    // One file holding every announcement: longer than the moves' clips
    // alone by the pauses between them.
    let reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!((spec.channels, spec.bits_per_sample), (1, 16));
    let pack = VoicePack::load(find_pack(DEFAULT_PACK).unwrap(), &LoadOptions::default()).unwrap();
    assert_eq!(spec.sample_rate, pack.sample_rate());
    let rate_pack = pack.at_rate(spec.sample_rate).unwrap();
    let plies = announce_pgn(&std::fs::read(&pgn).unwrap(), Style::Long).unwrap();
    let speech: usize = plies
        .iter()
        .map(|p| rate_pack.rendered_len(&p.tokens))
        .sum();
    let pauses = (plies.len() - 1) * ms_to_samples(DEFAULT_PAUSE_MS, spec.sample_rate);
    assert_eq!(reader.duration() as usize, speech + pauses);
}

#[test]
fn the_cli_rejects_bad_input_with_status_2_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Ke3 *").unwrap();
    let wav = dir.path().join("bad.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["say", "pgn"])
        .arg(&bad)
        .arg("--wav")
        .arg(&wav)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(!wav.exists());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.pgn") && err.contains("ply 3"), "{err}");

    for args in [
        &["say", "move", "--fen", "8/8/8 w - - 0 1", "e4"][..],
        &[
            "say",
            "move",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "e4",
        ],
        &["say", "pgn", "/no/such/file.pgn"],
        &[
            "say",
            "move",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "Kd1",
            "--voice",
            "nope",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
