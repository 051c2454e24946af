//! Every case in `tests/fixtures/reconcile/` gives its expected ruling, both
//! from the library and from `tactus reconcile --json`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::{Board, ByColor, CastlingMode, Chess};
use tactus_rules::notation::Lang;
use tactus_rules::ruling::reconcile;

fn cases() -> Vec<(PathBuf, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reconcile");
    let mut out: Vec<(PathBuf, Value)> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let v = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
            (p, v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 4, "reconcile fixtures missing");
    out
}

/// `position`: placement and side to move only.
fn placement_and_turn(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Every field of `expected` must be in `actual` with the same value
/// (objects may hold more fields; arrays and scalars must be equal).
fn check(name: &str, path: &str, expected: &Value, actual: &Value) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let av = a
                    .get(k)
                    .unwrap_or_else(|| panic!("{name}: {path}.{k} missing in {actual}"));
                if path.is_empty() && k == "position" {
                    assert_eq!(
                        placement_and_turn(av.as_str().unwrap()),
                        placement_and_turn(ev.as_str().unwrap()),
                        "{name}: position"
                    );
                } else {
                    check(name, &format!("{path}.{k}"), ev, av);
                }
            }
        }
        (e, a) => assert_eq!(a, e, "{name}: {path}"),
    }
}

#[test]
fn library_rulings_match_the_fixtures() {
    for (path, case) in cases() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let start: Chess = case["start"]
            .as_str()
            .unwrap()
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let board = |k: &str| case[k].as_str().map(|s| s.parse::<Board>().unwrap());
        let (wb, bb) = (board("white_board"), board("black_board"));
        let ruling = reconcile(
            &start,
            case["white_sheet"].as_str().unwrap(),
            case["black_sheet"].as_str().unwrap(),
            Lang::Auto,
            ByColor {
                white: wb.as_ref(),
                black: bb.as_ref(),
            },
            None,
        );
        let actual = serde_json::to_value(&ruling).unwrap();
        check(&name, "", &case["expected"], &actual);
        // The first difference names each sheet's entry there.
        if let Some(d) = ruling.first_difference {
            assert_ne!(d.entries.white, d.entries.black, "{name}");
        }
    }
}

#[test]
fn cli_json_rulings_match_the_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    for (path, case) in cases() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let ws = dir.path().join(format!("{name}.white.txt"));
        let bs = dir.path().join(format!("{name}.black.txt"));
        // Sheets as files: one move a line for White, as written for Black.
        let white_lines = case["white_sheet"]
            .as_str()
            .unwrap()
            .split(' ')
            .collect::<Vec<_>>()
            .join("\n");
        fs::write(&ws, white_lines).unwrap();
        fs::write(&bs, case["black_sheet"].as_str().unwrap()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .arg("ruling")
            .arg("--white-sheet")
            .arg(&ws)
            .arg("--black-sheet")
            .arg(&bs)
            .args(["--white-board", case["white_board"].as_str().unwrap()])
            .args(["--black-board", case["black_board"].as_str().unwrap()])
            .args(["--start", case["start"].as_str().unwrap()])
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let actual: Value = serde_json::from_slice(&out.stdout).unwrap();
        check(&name, "", &case["expected"], &actual);
        for side in ["white", "black"] {
            let sheet = &actual["sheets"][side];
            assert!(
                sheet["language"].is_string() && sheet["plies_read"].is_u64(),
                "{name}"
            );
            assert!(actual["boards"][side]["spoken"].is_array(), "{name}");
            // The same corrections in the default pack's words.
            let said = actual["boards"][side]["spoken_text"].as_str().unwrap();
            if actual["boards"][side]["matches"] == true {
                assert_eq!(said, "Brett stimmt", "{name}");
            } else {
                assert!(said.starts_with("Brett weicht ab "), "{name}: {said}");
                let fixes = actual["boards"][side]["fixes"].as_array().unwrap();
                let words = said.matches("Setze").count() + said.matches("Entferne").count();
                assert!(words >= fixes.len(), "{name}: {said}");
            }
        }

        // The text ruling names the case and the position.
        let text = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .arg("ruling")
            .arg("--white-sheet")
            .arg(&ws)
            .arg("--black-sheet")
            .arg(&bs)
            .output()
            .unwrap();
        assert!(text.status.success());
        let text = String::from_utf8(text.stdout).unwrap();
        let case_word = case["expected"]["case"].as_str().unwrap().to_uppercase();
        assert!(text.contains(&case_word), "{name}: {text}");
        assert!(
            text.contains(
                case["expected"]["position"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
            ),
            "{name}: {text}"
        );
    }
}

#[test]
fn unreadable_fixture_reports_the_entry() {
    let case = cases()
        .into_iter()
        .find(|(p, _)| p.ends_with("unreadable_entry.json"))
        .unwrap()
        .1;
    let start = Chess::default();
    let r = reconcile(
        &start,
        case["white_sheet"].as_str().unwrap(),
        case["black_sheet"].as_str().unwrap(),
        Lang::Auto,
        ByColor {
            white: None,
            black: None,
        },
        None,
    );
    let stop = r.sheets.white.unreadable.unwrap();
    assert_eq!(
        (stop.ply, stop.text.as_str(), stop.reason.code()),
        (7, "Qd9", "unreadable")
    );
    let d = r.first_difference.unwrap();
    assert_eq!(
        (d.entries.white.as_deref(), d.entries.black.as_deref()),
        (Some("Qd9"), Some("e3"))
    );
    assert!(r.sheets.black.unreadable.is_none());
}

#[test]
fn bad_cli_input_exits_2_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("ok.txt");
    fs::write(&ok, "1. e4 e5").unwrap();
    let missing = dir.path().join("missing.txt");
    let ok_s = ok.to_str().unwrap();
    for args in [
        vec![
            "--white-sheet",
            missing.to_str().unwrap(),
            "--black-sheet",
            ok_s,
        ],
        vec![
            "--white-sheet",
            ok_s,
            "--black-sheet",
            ok_s,
            "--white-board",
            "rnbqkbnr/pppp/8",
        ],
        vec![
            "--white-sheet",
            ok_s,
            "--black-sheet",
            ok_s,
            "--start",
            "not a fen",
        ],
        vec!["--white-sheet", ok_s, "--black-sheet", ok_s, "--lang", "xx"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .arg("reconcile")
            .args(&args)
            .arg("--json")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
