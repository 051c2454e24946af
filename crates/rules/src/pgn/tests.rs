use super::*;
use crate::language::Language;
use crate::sheet::read_sheet;
use proptest::prelude::*;
use shakmaty::CastlingMode;

/// A legal game from `start` chosen by `picks` (each pick indexes the
/// legal moves), ending early only at mate or stalemate.
fn game(start: &Chess, picks: &[usize]) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &p in picks {
        let legal = pos.legal_moves();
        let Some(&m) = legal.get(p % legal.len().max(1)) else {
            break;
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn record(moves: &[Move], clocks: &[u64], offers: &[bool], result: u8) -> GameRecord {
    let mut r = GameRecord::new();
    r.tags
        .push(("Annotator".into(), "tactus \"D.2.9\" \\ test".into()));
    r.time_control = Some(TimeControl::from_pgn("40/5400+30:1800+30").unwrap());
    r.moves = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| RecordedMove {
            m,
            clock: clocks.get(i).map(|&ms| Duration::from_millis(ms)),
            draw_offer: offers.get(i).copied().unwrap_or(false),
        })
        .collect();
    r.result = match result % 4 {
        0 => Outcome::Unknown,
        1 => Outcome::Known(KnownOutcome::Draw),
        2 => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::White,
        }),
        _ => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
    };
    r
}

/// Found by the `pgn` fuzz target: a tag value carried over a line
/// break by a backslash was read with the line break in it and written
/// back as two broken tags.
#[test]
fn tag_values_with_line_breaks_round_trip() {
    let text = "[Event \"E\"]\n[Date \"??\\\n[Black \"?\"]\n\n1. e4 *\n";
    let record = read_pgn(text).unwrap();
    assert!(
        record.tags.iter().all(|(_, v)| !v.contains('\n')),
        "{record:?}"
    );
    let written = record.to_pgn().unwrap();
    assert_eq!(read_pgn(&written), Ok(record), "{written}");
    let mut by_app = GameRecord::new();
    by_app.tags[0].1 = "Club\nchampionship\t2026".into();
    let back = read_pgn(&by_app.to_pgn().unwrap()).unwrap();
    assert_eq!(back.tag("Event"), Some("Club championship 2026"));
}

#[test]
fn a_written_game_reads_back_the_same() {
    let moves = game(&Chess::default(), &[3, 7, 1, 12, 5, 9, 2, 4, 8, 6]);
    let r = record(
        &moves,
        &[5_399_000, 5_398_500, 5_300_250],
        &[false, true],
        1,
    );
    let pgn = r.to_pgn().unwrap();
    assert!(
        pgn.contains("[TimeControl \"40/5400+30:1800+30\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("{[%clk 1:29:59]}"), "{pgn}");
    assert!(pgn.contains("{[%clk 1:29:58.5] (=)}"), "{pgn}");
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with("1/2-1/2"), "{pgn}");
    assert_eq!(read_pgn(&pgn).unwrap(), r);
}

#[test]
fn games_from_another_start_keep_it() {
    let start: Chess = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut r = record(&game(&start, &[0, 1, 2]), &[], &[], 0);
    r.start = Some(fen_of(&start));
    let pgn = r.to_pgn().unwrap();
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains("40... "),
        "{pgn}"
    );
    assert_eq!(read_pgn(&pgn).unwrap(), r);
    let sheet = r.to_sheet_text(Lang::Of(Language::En)).unwrap();
    assert!(sheet.starts_with(" 40. ..."), "{sheet}");
    assert_eq!(
        read_sheet(&start, &sheet, Lang::Of(Language::En))
            .moves
            .len(),
        3
    );
}

#[test]
fn other_writers_draw_marks_and_clocks_are_read() {
    let r = read_pgn(
        "[Event \"x\"]\n\n1. e4 {[%clk 0:05:00]} e5 {[%draw offer] [%clk 4:59]} 2. Nf3 (2. f4) *",
    )
    .unwrap();
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.moves[0].clock, Some(Duration::from_secs(300)));
    assert_eq!(r.moves[1].clock, Some(Duration::from_secs(299)));
    assert!(r.moves[1].draw_offer && !r.moves[0].draw_offer);
    assert_eq!(r.tag("Event"), Some("x"));
}

#[test]
fn bad_pgn_is_an_error_naming_what() {
    assert_eq!(
        read_pgn("1. e4 e5 2. Ke3 *"),
        Err(PgnError::Illegal {
            ply: 3,
            san: "Ke3".into(),
            reason: "not a legal move in the position".into(),
        })
    );
    assert!(matches!(
        read_pgn("[FEN \"nonsense\"]\n\n*"),
        Err(PgnError::Fen(..))
    ));
    assert!(matches!(
        read_pgn("1. e4 {[%clk 1:99:00]} *"),
        Err(PgnError::Clock(_))
    ));
    assert_eq!(read_pgn(""), Err(PgnError::Empty));
    for tc in ["5400+30", "40/7200:3600", "300"] {
        let pgn = format!("[TimeControl \"{tc}\"]\n\n1. e4 *");
        let record = read_pgn(&pgn).unwrap();
        assert_eq!(record.time_control.as_ref().unwrap().to_pgn(), tc);
    }
    for raw in ["?", "-"] {
        let pgn = format!("[TimeControl \"{raw}\"]\n\n1. e4 *");
        let record = read_pgn(&pgn).unwrap();
        assert_eq!(record.time_control, None);
        assert_eq!(record.tag("TimeControl"), Some(raw));
        assert!(
            record
                .to_pgn()
                .unwrap()
                .contains(&format!("[TimeControl \"{raw}\"]"))
        );
    }
    // A control the clock cannot run is kept as written.
    for odd in ["+5", "40/", "a:b", "40/abc", "10+0.05"] {
        let pgn = format!("[TimeControl \"{odd}\"]\n\n1. e4 *");
        let record = read_pgn(&pgn).unwrap();
        assert_eq!(record.time_control, None, "{odd}");
        assert_eq!(record.tag("TimeControl"), Some(odd));
        assert_eq!(read_pgn(&record.to_pgn().unwrap()), Ok(record));
    }
}

fn sans(r: &GameRecord) -> Vec<String> {
    let mut pos = r.start_position().unwrap();
    r.moves
        .iter()
        .map(|rm| SanPlus::from_move_and_play_unchecked(&mut pos, rm.m).to_string())
        .collect()
}

#[test]
fn pgn_as_other_programs_write_it() {
    // A byte-order mark, CR/LF, a blank line in the tags, comments,
    // NAGs, marks, nested variations, an escape line, several games.
    let text = "\u{feff}[Event \"A\"]\r\n\r\n[White \"W\"]\r\n\r\n1. e4 $1 {c} (1. d4 (1. c4) d5) 1... e5!? 2.Nf3\r\n% escape\r\n2... Nc6 1-0\r\n\r\n\u{feff}[Event \"B\"]\n\n1. d4 *\n\n1. c4 *\n";
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 3, "{games:?}");
    let a = games[0].as_ref().unwrap();
    assert_eq!(sans(a), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!((a.tag("Event"), a.tag("White")), (Some("A"), Some("W")));
    assert_eq!(sans(games[1].as_ref().unwrap()), ["d4"]);
    assert_eq!(sans(games[2].as_ref().unwrap()), ["c4"]);
}

#[test]
fn coordinates_and_promotions_without_equals_are_moves() {
    let r = read_pgn("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 *").unwrap();
    assert_eq!(sans(&r), ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"]);
    let start = "[FEN \"8/P6k/8/8/8/8/p6K/8 w - - 0 1\"]\n\n";
    for (moves, want) in [
        ("1. a8Q a1N", ["a8=Q", "a1=N"]),
        ("1. a7a8q a2a1n", ["a8=Q", "a1=N"]),
        ("1. a8=Q a1=N", ["a8=Q", "a1=N"]),
    ] {
        let r = read_pgn(&format!("{start}{moves} *")).unwrap();
        assert_eq!(sans(&r), want, "{moves}");
    }
}

#[test]
fn a_null_move_ends_what_is_read() {
    for null in ["--", "Z0", "0000", "@@@@", "--+"] {
        let r = read_pgn(&format!(
            "[Result \"1-0\"]\n\n1. e4 e5 2. {null} Nf6 3. Nf3 1-0"
        ))
        .unwrap();
        assert_eq!(sans(&r), ["e4", "e5"], "{null}");
        assert_eq!(r.null_move, Some(3), "{null}");
        assert_eq!(r.tag("Result"), None);
        assert_eq!(r.result.to_string(), "1-0");
        let written = r.to_pgn().unwrap();
        assert!(written.contains("2. -- 1-0"), "{written}");
        assert_eq!(read_pgn(&written), Ok(r));
    }
    // The game after it is read as usual.
    let games = read_games(b"1. -- e5 *\n\n1. d4 *\n");
    assert_eq!(games[0].as_ref().unwrap().null_move, Some(1));
    assert_eq!(sans(games[1].as_ref().unwrap()), ["d4"]);
}

#[test]
fn what_is_no_move_is_named_not_skipped() {
    for (text, ply, token) in [
        ("1. e4 e5 2. Qxe9 *", 3, "Qxe9"),
        ("1. e4 Sf6 *", 2, "Sf6"),
        ("1. e4 e5 2.Nf3x *", 3, "Nf3x"),
        ("Qxe9 *", 1, "Qxe9"),
    ] {
        assert_eq!(
            read_pgn(text),
            Err(PgnError::NotAMove {
                ply,
                token: token.into()
            }),
            "{text}"
        );
    }
    // Remarks and evaluation marks are none: no error.
    let r = read_pgn("1. e4 Nf6 2. e5 d5 3. exd6 e.p. +- Nc6 *").unwrap();
    assert_eq!(sans(&r)[4..], ["exd6", "Nc6"]);
    assert_eq!(read_pgn("1. e4 +- e5 = *").unwrap().moves.len(), 2);
    // In a variation or a comment nothing is checked.
    assert_eq!(
        read_pgn("1. e4 (1. Qxe9 zz) {Qxe9} e5 *")
            .unwrap()
            .moves
            .len(),
        2
    );
}

#[test]
fn variants_outside_the_laws_are_refused_by_name() {
    for v in [
        "Crazyhouse",
        "Antichess",
        "Atomic",
        "King of the Hill",
        "Horde",
    ] {
        let err = read_pgn(&format!("[Variant \"{v}\"]\n\n1. e4 *")).unwrap_err();
        assert_eq!(err, PgnError::Variant(v.into()));
        assert!(err.to_string().contains(&format!("`{v}`")), "{err}");
    }
    let r = read_pgn("[Variant \"Standard\"]\n\n1. e4 *").unwrap();
    assert_eq!(r.variant, Variant::Standard);
}

#[test]
fn chess960_games_read_and_write_back() {
    // cutechess writes X-FEN (`KQkq` for the outer rooks), others
    // Shredder-FEN (`GDgd`).
    for (variant, fen) in [
        (
            "fischerandom",
            "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1",
        ),
        (
            "Chess960",
            "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1",
        ),
    ] {
        let text = format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. d4 d5 2. c3 Nb6 3. e4 dxe4 4. Bxe4 g6 5. g4 c6 6. Qf3 Ne6 7. Nb3 Qf6 8. Qxf6 exf6 9. h4 O-O *"
        );
        let r = read_pgn(&text).unwrap();
        assert_eq!(r.variant, Variant::Chess960);
        assert_eq!(sans(&r).last().map(String::as_str), Some("O-O"));
        assert_eq!(r.moves.len(), 18);
        let written = r.to_pgn().unwrap();
        assert!(written.contains("[Variant \"Chess960\"]"), "{written}");
        assert_eq!(read_pgn(&written), Ok(r));
    }
    // Without the Variant tag, such castling rights are no standard
    // position.
    let err =
        read_pgn("[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1\"]\n\n1. d4 *")
            .unwrap_err();
    assert!(matches!(err, PgnError::Fen(..)), "{err}");
}

#[test]
fn the_sheet_text_is_two_numbered_columns() {
    let moves = game(&Chess::default(), &[0; 5]);
    let mut r = record(&moves, &[], &[false, false, true], 2);
    r.moves.truncate(5);
    let text = r.to_sheet_text(Lang::Of(Language::De)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("  1. "), "{text}");
    assert!(lines[1].contains("(=)"), "{text}");
    assert_eq!(lines[3], "1-0");
    let back = read_sheet(&Chess::default(), &text, Lang::Of(Language::De));
    assert_eq!(back.moves, moves[..5]);
    assert_eq!(back.draw_offers, [3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pgn_round_trips(
        picks in prop::collection::vec(0usize..64, 0..120),
        clocks in prop::collection::vec(0u64..36_000_000, 0..120),
        offers in prop::collection::vec(any::<bool>(), 0..120),
        result in 0u8..4,
    ) {
        let moves = game(&Chess::default(), &picks);
        let r = record(&moves, &clocks, &offers, result);
        let pgn = r.to_pgn().unwrap();
        prop_assert_eq!(read_pgn(&pgn).unwrap(), r);
    }

    #[test]
    fn sheet_text_reads_back_in_every_language(
        picks in prop::collection::vec(0usize..64, 0..80),
        lang in prop::sample::select(Lang::AUTO_ORDER.to_vec()),
    ) {
        let moves = game(&Chess::default(), &picks);
        let r = record(&moves, &[], &[], 0);
        let text = r.to_sheet_text(lang).unwrap();
        let back = read_sheet(&Chess::default(), &text, lang);
        prop_assert!(back.complete(), "{:?} in {}", back.stop, text);
        prop_assert_eq!(back.moves, moves);
    }
}
