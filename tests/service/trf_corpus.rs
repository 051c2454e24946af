//! TRF-16 files that a pairing engine ships in its own test suite
//! (bbpPairings' `test/tests/*.input`, Apache-2.0, copied unchanged into
//! `tests/trf-corpus/bbpPairings/` with its licence) read and written back
//! byte for byte; results written into them change only their own bytes;
//! and each file's last round, with its results taken out as a pairing
//! program writes a round before it is played, is read as pairings and
//! becomes the original file again when its results are written back.

use std::path::PathBuf;

use tactus_rules::trf::{ResultChar, RoundEntry, Trf};

/// Round 1's result column (0-based); each round is 10 columns further.
const FIRST_RESULT_COLUMN: usize = 98;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/trf-corpus/bbpPairings");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "input"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "the corpus is missing: {files:?}");
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// The byte positions where `a` and `b` (of one length) differ.
fn differences(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// Each line's start offset and its text (without the ending), for lines
/// ended by CR LF, LF or CR.
fn lines(bytes: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' || bytes[i] == b'\n' {
            out.push((start, &bytes[start..i]));
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push((start, &bytes[start..]));
    }
    out
}

#[test]
fn every_file_is_written_back_byte_for_byte() {
    for (name, bytes) in corpus() {
        let trf = Trf::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(trf.to_bytes(), bytes, "{name}");
        assert!(trf.players().count() >= 5, "{name}");
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(Trf::parse(text).unwrap(), trf, "{name}");
        assert_eq!(trf.to_string(), text, "{name}");
    }
}

#[test]
fn the_rounds_read_are_the_files_games_both_ways() {
    for (name, bytes) in corpus() {
        let trf = Trf::from_bytes(&bytes).unwrap();
        let rounds = trf.players().map(|p| p.rounds.len()).max().unwrap() as u16;
        assert!(rounds >= 1, "{name}: no round");
        for round in 1..=rounds {
            let pairings = trf.pairings(round);
            assert_eq!(pairings.len(), trf.players().count());
            for p in &pairings {
                if let RoundEntry::Game {
                    opponent, colour, ..
                } = p.entry
                {
                    let RoundEntry::Game {
                        opponent: back,
                        colour: theirs,
                        ..
                    } = trf.player(opponent).unwrap().round(round)
                    else {
                        panic!("{name} round {round}: {} has no game back", p.rank);
                    };
                    assert_eq!(back, p.rank);
                    if let (Some(a), Some(b)) = (colour, theirs) {
                        assert_ne!(a, b);
                    }
                }
            }
        }
    }
    // Spot checks against the files as printed (dutch_2025_C5.input).
    let (_, c5) = corpus()
        .into_iter()
        .find(|(n, _)| n == "dutch_2025_C5.input")
        .unwrap();
    let trf = Trf::from_bytes(&c5).unwrap();
    let one = trf.player(1).unwrap();
    assert_eq!(one.name, "Test0001 Player0001");
    assert_eq!(one.rating, Some(2720));
    assert_eq!(one.points_tenths, Some(20));
    assert_eq!(
        one.round(2),
        RoundEntry::Game {
            opponent: 2,
            colour: Some(shakmaty::Color::Black),
            result: Some(ResultChar::Win)
        }
    );
    assert_eq!(
        trf.player(4).unwrap().round(3),
        RoundEntry::Bye {
            result: Some(ResultChar::ZeroPointBye)
        }
    );
    assert_eq!(trf.player(1).unwrap().round(3), RoundEntry::NotPaired);
    assert_eq!(trf.planned_rounds(), Some(3));
}

#[test]
fn a_result_written_changes_only_its_two_bytes() {
    for (name, bytes) in corpus() {
        let trf = Trf::from_bytes(&bytes).unwrap();
        let round = 1;
        let game = trf
            .pairings(round)
            .into_iter()
            .find_map(|p| match p.entry {
                RoundEntry::Game {
                    opponent,
                    result: Some(r),
                    ..
                } if r != ResultChar::Draw => Some((p.rank, opponent)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name}: no decided game in round 1"));
        let written = trf
            .with_result(round, game.0, ResultChar::Draw)
            .unwrap()
            .with_result(round, game.1, ResultChar::Draw)
            .unwrap();
        let out = written.to_bytes();
        let changed = differences(&bytes, &out);
        // The two result letters, and the two players' points (columns
        // 81-84), which a pairing engine checks against the results.
        let mut lines_changed = Vec::new();
        let mut letters = 0;
        for at in changed {
            let (number, (start, _)) = lines(&bytes)
                .into_iter()
                .enumerate()
                .find(|(_, (s, t))| *s <= at && at < s + t.len())
                .unwrap();
            if at - start == FIRST_RESULT_COLUMN {
                assert_eq!(out[at], b'=');
                letters += 1;
            } else {
                assert!((80..84).contains(&(at - start)), "{name}: byte {at}");
            }
            lines_changed.push(number + 1);
        }
        assert_eq!(letters, 2, "{name}");
        lines_changed.sort();
        lines_changed.dedup();
        let mut want = [game.0, game.1].map(|r| trf.player(r).unwrap().line);
        want.sort();
        assert_eq!(lines_changed, want, "{name}");
        // A win and a loss became two draws: the points still add up, as
        // the pairing engine checks them (where the corpus file's do).
        if trf.check_points().is_ok() {
            written
                .check_points()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(Trf::from_bytes(&out).unwrap(), written, "{name}");
    }
}

#[test]
fn a_last_round_without_results_is_read_as_pairings_and_its_results_restore_the_file() {
    for (name, bytes) in corpus() {
        let trf = Trf::from_bytes(&bytes).unwrap();
        let round = trf.players().map(|p| p.rounds.len()).max().unwrap() as u16;
        let column = FIRST_RESULT_COLUMN + 10 * usize::from(round - 1);
        // The file as a pairing program writes the round before it is
        // played: a line ending at the round's result loses it (a line cut
        // after the colour), any other has it blanked.
        let mut paired = Vec::new();
        let mut last = 0;
        let mut cut = 0;
        for (start, text) in lines(&bytes) {
            if text.starts_with(b"001") && text.len() > column && text[column] != b' ' {
                paired.extend_from_slice(&bytes[last..start + column]);
                if text.len() == column + 1 {
                    cut += 1;
                } else {
                    paired.push(b' ');
                }
                last = start + column + 1;
            }
        }
        paired.extend_from_slice(&bytes[last..]);
        assert!(cut > 0, "{name}: no line ends at round {round}'s result");
        // ... and each player's points without that round's result, as
        // the pairing program counts them before it is played.
        let ps = trf.point_system();
        for p in trf.players() {
            let result = match p.round(round) {
                RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
                RoundEntry::NotPaired => None,
            };
            let (Some(r), Some(points)) = (result, p.points_tenths) else {
                continue;
            };
            let before = points - ps.of(r);
            let field = format!("{:>4}", format!("{}.{}", before / 10, before % 10));
            let (start, _) = lines(&paired)[p.line - 1];
            paired[start + 80..start + 84].copy_from_slice(field.as_bytes());
        }
        let unplayed = Trf::from_bytes(&paired).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(unplayed.to_bytes(), paired);
        let mut restored = unplayed.clone();
        for p in unplayed.pairings(round) {
            let (RoundEntry::Game { result, .. } | RoundEntry::Bye { result }) = p.entry else {
                continue;
            };
            assert_eq!(result, None, "{name}: {} round {round}", p.rank);
            let played = match trf.player(p.rank).unwrap().round(round) {
                RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
                RoundEntry::NotPaired => None,
            };
            if let Some(r) = played {
                restored = restored.with_result(round, p.rank, r).unwrap();
            }
        }
        assert_eq!(restored.to_bytes(), bytes, "{name}");
        assert_eq!(restored, trf, "{name}");
    }
}
