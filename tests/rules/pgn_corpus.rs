//! PGN as the world writes it: every game of the real files in
//! `tests/pgn-corpus/` (python-chess's `data/pgn/`, see its README) is read
//! by tactus and by python-chess, an independent reader, and compared move
//! by move, tag by tag, clock by clock; then tactus's own PGN (a record
//! written back, and the server's export of each game replayed at a table)
//! is read by python-chess and must give the same moves, tags and `[%clk]`.
//!
//! python-chess (PyPI `chess`, pinned in `scripts/python-chess.sh`) is
//! installed by `scripts/test` into `target/python-chess`;
//! `TACTUS_PYTHON_CHESS` names another folder holding it, `TACTUS_PYTHON`
//! another interpreter. Without it these tests fail, saying so: they are
//! never skipped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use tactus::table::pgn::game_pgn;
use tactus::table::setup::Setup;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::game::Game;
use tactus_rules::game_announcements::announce_record;
use tactus_rules::pgn::{GameRecord, PgnError, fen_of, read_games};
use tactus_rules::variant::Variant;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(ROOT).join("tests/pgn-corpus/python-chess");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 12,
        "{}: the corpus is missing",
        dir.display()
    );
    files
}

/// What python-chess reads in `files`: per file, per game, the JSON of
/// `tests/pgn-corpus/python_chess_reads.py`.
fn python_chess(files: &[PathBuf]) -> Vec<Vec<Value>> {
    let lib = std::env::var_os("TACTUS_PYTHON_CHESS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target/python-chess"));
    let python = std::env::var("TACTUS_PYTHON").unwrap_or_else(|_| "python3".into());
    let missing = format!(
        "python-chess, the reference PGN reader these tests compare with, is \
         missing: scripts/test installs it (scripts/python-chess.sh: PyPI \
         `chess` into target/python-chess); or set TACTUS_PYTHON_CHESS to a \
         folder holding it (looked in {})",
        lib.display()
    );
    let out = Command::new(&python)
        .arg(Path::new(ROOT).join("tests/pgn-corpus/python_chess_reads.py"))
        .args(files)
        .env("PYTHONPATH", &lib)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; {missing}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("No module named 'chess'") {
        panic!("{missing}");
    }
    assert!(out.status.success(), "python-chess failed: {stderr}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["games"].as_array().unwrap().clone())
        .collect()
}

/// The moves of a record in UCI, castling as the variant writes it (as
/// python-chess does: `e1g1` in standard chess, king onto rook in Chess960).
fn uci_moves(record: &GameRecord) -> Vec<String> {
    let mode = record.variant.castling_mode();
    record
        .moves
        .iter()
        .map(|rm| UciMove::from_move(rm.m, mode).to_string())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

/// python-chess's clock comments, in seconds.
fn clocks(v: &Value) -> Vec<Option<f64>> {
    v.as_array().unwrap().iter().map(Value::as_f64).collect()
}

fn same_clock(ours: Option<Duration>, theirs: Option<f64>) -> bool {
    match (ours, theirs) {
        (None, None) => true,
        (Some(d), Some(s)) => (d.as_secs_f64() - s).abs() < 0.0005,
        _ => false,
    }
}

/// The tags both readers must agree on: tactus's as it writes them, and
/// python-chess's without the Seven Tag Roster's defaults it fills in for
/// tags the file does not have. The variant and the start position are
/// compared apart (`Variant` spellings and FEN castling notations differ).
fn tag_maps(
    record: &GameRecord,
    py: &Value,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let skip = ["Variant", "SetUp", "FEN"];
    let ours: BTreeMap<String, String> = record
        .all_tags()
        .into_iter()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .collect();
    let defaults = ["?", "????.??.??", "*"];
    let theirs: BTreeMap<String, String> = py["headers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .filter(|(k, v)| {
            !skip.contains(&k.as_str()) && (ours.contains_key(k) || !defaults.contains(&v.as_str()))
        })
        .collect();
    (ours, theirs)
}

/// Compares one game as tactus and python-chess read it; the number of
/// plies compared.
fn compare(what: &str, record: &GameRecord, py: &Value) -> usize {
    assert_eq!(py["errors"], Value::Array(vec![]), "{what}: python-chess");
    assert_eq!(
        record.variant == Variant::Chess960,
        py["chess960"] == true,
        "{what}: Chess960"
    );
    assert_eq!(
        fen_of(&record.start_position().unwrap()).to_string(),
        py["start_fen"].as_str().unwrap(),
        "{what}: start position"
    );
    let (ours, theirs) = tag_maps(record, py);
    assert_eq!(ours, theirs, "{what}: tags");
    let moves = uci_moves(record);
    let py_moves = strings(&py["moves"]);
    let py_clocks = clocks(&py["clocks"]);
    match record.null_move {
        // python-chess plays a null move on; tactus stops at it.
        Some(ply) => {
            assert_eq!(moves.len(), ply - 1, "{what}");
            assert_eq!(
                py_moves.get(ply - 1).map(String::as_str),
                Some("0000"),
                "{what}"
            );
        }
        None => assert_eq!(moves.len(), py_moves.len(), "{what}: number of plies"),
    }
    for (i, (ours, theirs)) in moves.iter().zip(&py_moves).enumerate() {
        assert_eq!(ours, theirs, "{what}: ply {}", i + 1);
        assert!(
            same_clock(record.moves[i].clock, py_clocks[i]),
            "{what}: ply {} clock {:?} / {:?}",
            i + 1,
            record.moves[i].clock,
            py_clocks[i]
        );
    }
    moves.len()
}

#[test]
fn every_corpus_game_reads_as_python_chess_reads_it() {
    let files = corpus();
    let reference = python_chess(&files);
    let (mut games, mut compared, mut plies, mut refused) = (0, 0, 0, 0);
    for (file, py_games) in files.iter().zip(&reference) {
        let name = file.file_name().unwrap().to_string_lossy();
        let ours = read_games(&std::fs::read(file).unwrap());
        assert_eq!(ours.len(), py_games.len(), "{name}: number of games");
        for (i, (record, py)) in ours.iter().zip(py_games).enumerate() {
            let what = format!("{name} game {}", i + 1);
            games += 1;
            let py_variant = py["variant"].as_str().unwrap();
            if py_variant != "chess" {
                // A variant outside the Laws: refused, by the name the file
                // gives it.
                let named = py["headers"]["Variant"].as_str().unwrap();
                assert_eq!(record, &Err(PgnError::Variant(named.into())), "{what}");
                refused += 1;
                continue;
            }
            let record = record
                .as_ref()
                .unwrap_or_else(|e| panic!("{what}: tactus: {e}"));
            // Every move can be announced.
            assert_eq!(
                announce_record(record, Style::Standard).unwrap().len(),
                record.moves.len()
            );
            plies += compare(&what, record, py);
            compared += 1;
        }
    }
    println!(
        "{} files, {games} games: {compared} compared with python-chess ({plies} plies), \
         {refused} refused as variants outside the Laws",
        files.len(),
    );
    // 6 Kasparov–Deep Blue games, 4 Chess960 (cutechess), 2 empty games
    // after a byte-order mark, 2 antichess and 2 crazyhouse, 6 others.
    assert_eq!((games, compared, refused), (22, 18, 4));
}

/// Replays a record at a table (the clock running, a move every 2.345 s) as
/// the server plays it, until the record ends or the game does.
fn replay(record: &GameRecord) -> (Setup, Game) {
    let setup = Setup {
        id: "7".parse().unwrap(),
        blind: Color::Black,
        control: "90+30".parse().unwrap(),
        white: record.tag("White").unwrap_or("").into(),
        black: record.tag("Black").unwrap_or("").into(),
        event: record.tag("Event").unwrap_or("").into(),
        round: record.tag("Round").unwrap_or("").parse().unwrap(),
        fen: record.start.clone(),
        flag: Default::default(),
        ranks: Default::default(),
        held_for_start: false,
    };
    let mut game = Game::new(setup.fen.as_ref(), setup.control.clone(), Style::Standard).unwrap();
    for (i, rm) in record.moves.iter().enumerate() {
        let pos: Chess = game.position().clone();
        let uci = UciMove::from_move(rm.m, pos.castles().mode());
        let at = Duration::from_millis(2_345 * (i as u64 + 1));
        game.apply(at, &GameEvent::MovePlayed { uci }).unwrap();
        if game.result().is_some() {
            break;
        }
    }
    (setup, game)
}

#[test]
fn tactus_pgn_reads_back_in_python_chess() {
    let records: Vec<GameRecord> = corpus()
        .iter()
        .flat_map(|f| read_games(&std::fs::read(f).unwrap()))
        .filter_map(Result::ok)
        .collect();
    let dir = tempfile::tempdir().unwrap();

    // A record written back: the same game.
    let written: String = records.iter().map(|r| r.to_pgn().unwrap()).collect();
    let path = dir.path().join("records.pgn");
    std::fs::write(&path, written).unwrap();
    let back = python_chess(std::slice::from_ref(&path)).remove(0);
    assert_eq!(back.len(), records.len());
    let mut plies = 0;
    for (i, (record, py)) in records.iter().zip(&back).enumerate() {
        let what = format!("written record {}", i + 1);
        // python-chess plays on after a written null move; nothing follows.
        plies += compare(&what, record, py);
    }

    // The server's export of each game played at a table.
    let tables: Vec<(Setup, Game)> = records.iter().map(replay).collect();
    let exported: String = tables.iter().map(|(s, g)| game_pgn(s, g)).collect();
    let path = dir.path().join("exported.pgn");
    std::fs::write(&path, &exported).unwrap();
    let back = python_chess(std::slice::from_ref(&path)).remove(0);
    assert_eq!(back.len(), tables.len());
    let mut exported_plies = 0;
    for (i, ((setup, game), py)) in tables.iter().zip(&back).enumerate() {
        let what = format!("exported game {}", i + 1);
        assert_eq!(py["errors"], Value::Array(vec![]), "{what}");
        let h = &py["headers"];
        for (tag, want) in [
            ("White", setup.white.as_str()),
            ("Black", setup.black.as_str()),
            ("Event", setup.event.as_str()),
            ("Board", "7"),
            ("Mode", "OTB"),
            ("TimeControl", "5400+30"),
        ] {
            if !want.is_empty() {
                assert_eq!(h[tag].as_str(), Some(want), "{what}: {tag}");
            }
        }
        if let Some(r) = game.result() {
            assert_eq!(h["Result"].as_str(), Some(r.score().as_str()), "{what}");
        }
        assert_eq!(
            py["chess960"] == true,
            game.start().castles().mode().is_chess960(),
            "{what}: Variant"
        );
        assert_eq!(
            py["start_fen"].as_str().unwrap(),
            fen_of(game.start()).to_string(),
            "{what}: FEN"
        );
        let ucis: Vec<String> = game.plies().iter().map(|p| p.uci.to_string()).collect();
        assert_eq!(strings(&py["moves"]), ucis, "{what}: moves");
        let py_clocks = clocks(&py["clocks"]);
        let mut pos = game.start().clone();
        for (j, ply) in game.plies().iter().enumerate() {
            let left = *ply.left.get(pos.turn());
            assert!(
                same_clock(Some(left), py_clocks[j]),
                "{what}: ply {} [%clk] {left:?} / {:?}",
                j + 1,
                py_clocks[j]
            );
            let m = ply.uci.to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        exported_plies += ucis.len();
    }
    println!(
        "tactus's PGN read back by python-chess: {} records ({plies} plies), {} table exports \
         ({exported_plies} plies, each with its [%clk])",
        records.len(),
        tables.len()
    );
}

/// `tactus say pgn` on the corpus: the games python-chess reads are
/// announced, one by `--game`, listed by `--list`; a null move is announced
/// up to the ply before it; a variant outside the Laws and a token that is
/// no move are refused with exit status 2, naming the file, game and ply.
#[test]
fn say_pgn_on_real_files() {
    let dir = Path::new(ROOT).join("tests/pgn-corpus/python-chess");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .args(["say", "pgn"])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };

    let (code, out, _) = run(&["utf8-bom.pgn", "--list"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.starts_with("game 1: White vs 1...c5 - ? (A, 2024.04.25), *, 0 plies"),
        "{out}"
    );

    let (code, out, _) = run(&["kasparov-deep-blue-1997.pgn", "--list", "--json"]);
    assert_eq!(code, Some(0));
    let sixth: Value = serde_json::from_str(out.lines().nth(5).unwrap()).unwrap();
    assert_eq!(sixth["tags"]["Site"], "06");
    assert_eq!(sixth["plies"], 37);

    let (code, out, _) = run(&["kasparov-deep-blue-1997.pgn", "--game", "6", "--json"]);
    assert_eq!(code, Some(0));
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["ply"].as_u64(), last["san"].as_str()),
        (Some(37), Some("c4"))
    );

    let (code, out, err) = run(&["kasparov-deep-blue-1997.pgn", "--game", "7"]);
    assert_eq!(code, Some(2));
    assert!(
        out.is_empty() && err.contains("--game 7") && err.contains("6 games"),
        "{err}"
    );

    let (code, out, _) = run(&["uci-moves.pgn"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("1. Nf3: Springer Felix drei\n"), "{out}");

    let (code, out, _) = run(&["cutechess-fischerrandom.pgn"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("9... O-O: Kurze Rochade\n"), "{out}");
    assert!(out.contains("21. O-O-O: Lange Rochade\n"), "{out}");

    let (code, out, err) = run(&["anastasian-lewis.pgn"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 81);
    assert!(
        err.contains("anastasian-lewis.pgn: game 1: ply 82 is a null move"),
        "{err}"
    );

    for file in ["saturs-jannlee-zh-lichess.pgn", "antichess-programfox.pgn"] {
        let (code, out, err) = run(&[file]);
        assert_eq!(code, Some(2), "{file}");
        assert!(out.is_empty(), "{file}: {out}");
        assert!(err.contains(&format!("{file}: game 1: variant `")), "{err}");
    }

    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.pgn");
    std::fs::write(&bad, "[Event \"ok\"]\n\n1. e4 *\n\n1. e4 e5 2. Qxe9 *\n").unwrap();
    let (code, out, err) = run(&[bad.to_str().unwrap(), "--game", "2"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("bad.pgn: game 2: ply 3 (`Qxe9`): not a move"),
        "{err}"
    );
    let (code, out, _) = run(&[bad.to_str().unwrap(), "--list"]);
    assert_eq!(code, Some(2));
    assert!(out.contains("game 2: cannot be read: ply 3"), "{out}");
}
