//! The engine on scripted events: every move kind, captures in either
//! order, castling, promotion, differences and following.

use super::*;
use shakmaty::Color;
use shakmaty::fen::Fen;

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

pub(super) fn peg_events(script: &str) -> Vec<BoardEvent> {
    script
        .split(',')
        .map(|s| {
            let s = s.trim();
            let sq: Square = s[2..].parse().unwrap();
            match &s[..1] {
                "L" => BoardEvent::Lifted(sq),
                "P" => BoardEvent::Put(sq),
                other => panic!("{other}"),
            }
        })
        .collect()
}

/// Feeds a script with settle zero, one event per millisecond.
fn run(inf: &mut Inference, script: &str) -> Vec<Inferred> {
    let mut out = Vec::new();
    for (i, e) in peg_events(script).iter().enumerate() {
        out.extend(inf.event(e, ms(i as u64)));
    }
    out
}

fn zero() -> Settings {
    Settings {
        settle: Duration::ZERO,
        auto_correct: false,
    }
}

pub(super) fn sans(out: &[Inferred]) -> Vec<String> {
    out.iter()
        .filter_map(|i| match i {
            Inferred::Moved { san, .. } | Inferred::Confirmed { san, .. } => Some(san.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_game_with_every_move_kind_on_a_peg_board() {
    let mut inf = Inference::new(Chess::default(), Protocol::Peg, zero());
    let out = run(&mut inf, "L e2,P e4, L d7,P d5, L d5,L e4,P d5, L g8,P f6");
    assert_eq!(sans(&out), ["e4", "d5", "exd5", "Nf6"]);
    let out = run(
        &mut inf,
        "L b1,P c3, L f6,L d5,P d5, L g1,P f3, L e7,P e6, L f1,P c4, L f8,P e7, L e1,P g1,L h1,P f1, L e8,P g8,L h8,P f8",
    );
    assert_eq!(
        sans(&out),
        ["Nc3", "Nxd5", "Nf3", "e6", "Bc4", "Be7", "O-O", "O-O"]
    );
}

#[test]
fn captures_in_both_orders_and_the_put_square_decides() {
    // White queen d1 can take on f3 or on d6.
    let start = pos("4k3/8/3p4/8/8/5p2/8/3QK3 w - - 0 1");
    for script in ["L f3,L d1,P f3", "L d1,L f3,P f3"] {
        let mut inf = Inference::new(start.clone(), Protocol::Peg, zero());
        assert_eq!(sans(&run(&mut inf, script)), ["Qxf3"], "{script}");
    }
    let mut inf = Inference::new(start.clone(), Protocol::Peg, zero());
    assert_eq!(sans(&run(&mut inf, "L d1,L d6,P d6")), ["Qxd6"]);
    // Touch f3 and put it back, then take on d6: the last put decides.
    let mut inf = Inference::new(start, Protocol::Peg, zero());
    let out = run(&mut inf, "L f3,P f3");
    assert_eq!(
        out,
        vec![Inferred::Touched {
            square: Square::F3,
            piece: Some(Color::Black.pawn())
        }]
    );
    assert_eq!(sans(&run(&mut inf, "L d1,L d6,P d6")), ["Qxd6"]);
}

#[test]
fn castling_en_passant_and_promotion() {
    let mut inf = Inference::new(
        pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
        Protocol::Peg,
        zero(),
    );
    assert_eq!(sans(&run(&mut inf, "L e1,P g1,L h1,P f1")), ["O-O"]);
    assert_eq!(sans(&run(&mut inf, "L e8,P c8,L a8,P d8")), ["O-O-O"]);

    let mut inf = Inference::new(
        pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        Protocol::Peg,
        zero(),
    );
    assert_eq!(sans(&run(&mut inf, "L e5,P d6,L d5")), ["exd6"]);
    let mut inf = Inference::new(
        pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        Protocol::Peg,
        zero(),
    );
    assert_eq!(sans(&run(&mut inf, "L d5,L e5,P d6")), ["exd6"]);

    let mut inf = Inference::new(
        pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"),
        Protocol::Peg,
        zero(),
    );
    let out = run(&mut inf, "L d8,L e7,P d8");
    assert_eq!(
        out,
        vec![Inferred::PromotionPending {
            from: Square::E7,
            to: Square::D8
        }]
    );
    assert_eq!(inf.position().turn(), Color::White, "not made until named");
    let out = inf.event(&BoardEvent::Button(4), ms(100));
    assert_eq!(sans(&out), ["exd8=N"]);
    assert_eq!(
        inf.name_promotion(Role::Queen),
        Err(InferError::NoPromotionPending)
    );
}

#[test]
fn rook_first_castling_within_the_settling_time() {
    let start = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let settings = Settings {
        settle: ms(300),
        auto_correct: false,
    };
    let mut inf = Inference::new(start.clone(), Protocol::Peg, settings);
    for (t, e) in peg_events("L h1,P f1,L e1,P g1").iter().enumerate() {
        assert!(inf.event(e, ms(t as u64 * 100)).is_empty());
    }
    assert!(inf.tick(ms(400)).is_empty(), "not yet settled");
    assert_eq!(sans(&inf.tick(ms(600))), ["O-O"]);
    // A rook left alone for the castling wait is a rook move.
    let mut inf = Inference::new(start.clone(), Protocol::Peg, settings);
    for (t, e) in peg_events("L h1,P f1").iter().enumerate() {
        inf.event(e, ms(t as u64 * 10));
    }
    assert!(inf.tick(ms(400)).is_empty(), "the king may follow");
    assert_eq!(inf.deadline(), Some(ms(10) + CASTLE_WAIT));
    assert_eq!(sans(&inf.tick(ms(10) + CASTLE_WAIT)), ["Rf1"]);
    // King after a long pause: still castling.
    let mut inf = Inference::new(start.clone(), Protocol::Peg, settings);
    inf.event(&BoardEvent::Lifted(Square::H1), ms(0));
    inf.event(&BoardEvent::Put(Square::F1), ms(100));
    inf.event(&BoardEvent::Lifted(Square::E1), ms(1000));
    assert!(inf.tick(ms(2000)).is_empty());
    inf.event(&BoardEvent::Put(Square::G1), ms(3000));
    assert_eq!(sans(&inf.tick(ms(3300))), ["O-O"]);
    // The other side lifting one of its pieces ends the wait at once.
    let mut inf = Inference::new(start, Protocol::Peg, settings);
    inf.event(&BoardEvent::Lifted(Square::H1), ms(0));
    inf.event(&BoardEvent::Put(Square::F1), ms(100));
    let out = inf.event(&BoardEvent::Lifted(Square::E8), ms(150));
    assert_eq!(sans(&out), ["Rf1"]);
}

/// A board that debounces is read without settling
/// (`DEBOUNCED_SETTLE`), yet a rook put on its castling square still waits
/// for its king: rook first is castling, a rook left alone a rook move.
#[test]
fn rook_first_castling_without_a_settling_time() {
    let start = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let settings = Settings {
        settle: DEBOUNCED_SETTLE,
        auto_correct: false,
    };
    let mut inf = Inference::new(start.clone(), Protocol::Peg, settings);
    assert!(inf.event(&BoardEvent::Lifted(Square::H1), ms(0)).is_empty());
    assert!(inf.event(&BoardEvent::Put(Square::F1), ms(300)).is_empty());
    assert_eq!(inf.deadline(), Some(ms(300) + CASTLE_WAIT));
    assert!(
        inf.event(&BoardEvent::Lifted(Square::E1), ms(600))
            .is_empty()
    );
    assert_eq!(
        sans(&inf.event(&BoardEvent::Put(Square::G1), ms(900))),
        ["O-O"]
    );
    let mut inf = Inference::new(start, Protocol::Peg, settings);
    inf.event(&BoardEvent::Lifted(Square::H1), ms(0));
    inf.event(&BoardEvent::Put(Square::F1), ms(300));
    assert!(inf.tick(ms(400)).is_empty(), "the king may follow");
    assert_eq!(sans(&inf.tick(ms(300) + CASTLE_WAIT)), ["Rf1"]);
    // Any other move is made at its last peg.
    let mut inf = Inference::new(Chess::default(), Protocol::Peg, settings);
    inf.event(&BoardEvent::Lifted(Square::G1), ms(0));
    assert_eq!(
        sans(&inf.event(&BoardEvent::Put(Square::F3), ms(200))),
        ["Nf3"]
    );
}

#[test]
fn bounces_are_absorbed_and_a_piece_put_back_is_a_touch() {
    let settings = Settings {
        settle: ms(100),
        auto_correct: false,
    };
    let mut inf = Inference::new(Chess::default(), Protocol::Peg, settings);
    // Slide over e3, bounce on e4.
    let script = "L e2,P e3,L e3,P e4,L e4,P e4,L e4,P e4";
    for (t, e) in peg_events(script).iter().enumerate() {
        assert!(inf.event(e, ms(t as u64 * 5)).is_empty());
    }
    assert_eq!(inf.deadline(), Some(ms(135)));
    assert_eq!(sans(&inf.tick(ms(135))), ["e4"]);
    // A quick bounce on g8 is no touch; a real lift-and-return is.
    inf.event(&BoardEvent::Lifted(Square::G8), ms(1000));
    inf.event(&BoardEvent::Put(Square::G8), ms(1010));
    assert!(inf.tick(ms(2000)).is_empty());
    inf.event(&BoardEvent::Lifted(Square::G8), ms(3000));
    assert_eq!(
        inf.event(&BoardEvent::Put(Square::G8), ms(3500)),
        vec![Inferred::Touched {
            square: Square::G8,
            piece: Some(Color::Black.knight())
        }]
    );
    assert_eq!(inf.position().turn(), Color::Black);
    assert_eq!(
        inf.touches(),
        [Touch {
            ply: 1,
            square: Square::G8,
            piece: Some(Color::Black.knight())
        }]
    );
}

#[test]
fn an_illegal_result_differs_and_following_confirms_or_corrects() {
    let settings = Settings {
        settle: Duration::ZERO,
        auto_correct: true,
    };
    let mut inf = Inference::new(Chess::default(), Protocol::Peg, settings);
    let out = run(&mut inf, "L e2,P e5");
    assert!(matches!(&out[0], Inferred::Differs(f) if f.squares() == [Square::E2, Square::E5]));
    let keys: Vec<String> = match &out[1] {
        Inferred::Correction(t) => t.iter().map(|t| t.key()).collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(keys[0], "board.remove");
    let out = run(&mut inf, "L e5,P e2");
    assert!(out.contains(&Inferred::Agrees));

    // Following the opponent's move: black Nf6 announced, player puts it on h6.
    let mut p = Chess::default();
    p.play_unchecked(Move::Normal {
        role: Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E4,
        promotion: None,
    });
    let mut inf = Inference::new(p.clone(), Protocol::Peg, zero());
    let nf6 = "g8f6".parse::<UciMove>().unwrap().to_move(&p).unwrap();
    inf.expect(nf6, ms(0)).unwrap();
    assert!(run(&mut inf, "L g8").is_empty(), "in progress");
    let out = run(&mut inf, "P h6");
    let Inferred::Differs(fixes) = &out[0] else {
        panic!("{out:?}")
    };
    assert_eq!(fixes.squares(), [Square::F6, Square::H6]);
    let keys: Vec<String> = fixes.tokens().iter().map(|t| t.key()).collect();
    assert_eq!(
        keys.join(" "),
        "board.remove file.h rank.6 board.put piece.black.knight board.on file.f rank.6"
    );
    let out = run(&mut inf, "L h6,P f6");
    assert_eq!(sans(&out), ["Nf6"]);
    assert!(matches!(out.last(), Some(Inferred::Confirmed { .. })));
    assert_eq!(inf.following(), None);
}

#[test]
fn following_a_capture_done_on_the_wrong_square_is_caught() {
    let start = pos("4k3/8/3p4/8/8/5p2/8/3QK3 w - - 0 1");
    let qxd6 = "d1d6".parse::<UciMove>().unwrap().to_move(&start).unwrap();
    let mut inf = Inference::new(start, Protocol::Peg, zero());
    inf.expect(qxd6, ms(0)).unwrap();
    // Same holes filled as Qxd6, but the queen went to f3.
    let out = run(&mut inf, "L f3,L d1,P f3");
    let Inferred::Differs(fixes) = &out[0] else {
        panic!("{out:?}")
    };
    assert_eq!(fixes.squares(), [Square::F3, Square::D6]);
    let e2e4 = Move::Normal {
        role: Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E4,
        promotion: None,
    };
    assert!(matches!(inf.expect(e2e4, ms(1)), Err(InferError::IllegalMove(m)) if m == "e2e4"));
    // Put right: the queen to d6, the pawn back on f3.
    let out = run(&mut inf, "L d6,L f3,P d6,P f3");
    assert_eq!(sans(&out), ["Qxd6"]);
}

#[test]
fn a_dgt_board_identifies_the_promoted_piece() {
    let start = pos("7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let mut inf = Inference::new(start, Protocol::Dgt, zero());
    let field = |sq, piece| BoardEvent::Field { square: sq, piece };
    assert!(inf.event(&field(Square::E7, None), ms(0)).is_empty());
    let out = inf.event(&field(Square::E8, Some(Color::White.rook())), ms(1));
    assert_eq!(sans(&out), ["e8=R+"]);
    // A dump showing the next move.
    let mut board = inf.position().board().clone();
    board.discard_piece_at(Square::H8);
    board.set_piece_at(Square::H7, Color::Black.king());
    let out = inf.event(&BoardEvent::Dump(board), ms(2));
    assert_eq!(sans(&out), ["Kh7"]);
}
