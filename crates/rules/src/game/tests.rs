use super::*;
use crate::clock::ClockSetting;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn game(control: &str) -> Game {
    Game::new(None, control.parse().unwrap(), Style::Standard).unwrap()
}

fn play(g: &mut Game, at: u64, uci: &str) -> Vec<Notice> {
    g.apply(
        secs(at),
        &GameEvent::MovePlayed {
            uci: uci.parse().unwrap(),
        },
    )
    .unwrap()
}

fn keys(tokens: &[Token]) -> String {
    tokens.iter().map(Token::key).collect::<Vec<_>>().join(" ")
}

#[test]
fn moves_press_the_clock_at_the_instant_they_are_made() {
    let mut g = game("90+30");
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    let n = play(&mut g, 10, "e2e4");
    assert_eq!(keys(&n[0].tokens), "file.e rank.4");
    play(&mut g, 25, "e7e5");
    assert_eq!(g.sans(), vec!["e4", "e5"]);
    // White used 10 s and got 30 s back; Black used 15 s.
    assert_eq!(g.plies()[0].left.white, secs(90 * 60 + 20));
    assert_eq!(g.plies()[1].left.black, secs(90 * 60 + 15));
    assert_eq!(g.clock().moves_completed(), 1);
}

#[test]
fn an_illegal_move_changes_nothing() {
    let mut g = game("90+30");
    let before = g.sans();
    // Text that is no UCI move never becomes an event (the event's
    // field is a `UciMove`); a move that is one is checked here.
    for bad in ["e2e5", "e7e5", "a1a1q"] {
        let err = g
            .apply(
                secs(1),
                &GameEvent::MovePlayed {
                    uci: bad.parse().unwrap(),
                },
            )
            .unwrap_err();
        assert!(matches!(err, GameError::Illegal(_)), "{err}");
    }
    assert_eq!(g.sans(), before);
    assert_eq!(g.clock().state(), ClockState::NotStarted);
}

#[test]
fn checkmate_ends_the_game_and_stops_the_clock() {
    let mut g = game("90+30");
    for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        play(&mut g, i as u64 + 1, m);
    }
    let r = g.result().unwrap();
    assert_eq!((r.score().as_str(), r.ending), ("0-1", Ending::Checkmate));
    assert_eq!(g.clock().state(), ClockState::Paused);
    let err = g
        .apply(
            secs(9),
            &GameEvent::MovePlayed {
                uci: "a2a3".parse().unwrap(),
            },
        )
        .unwrap_err();
    assert!(matches!(&err, GameError::Over(r) if r.ending == Ending::Checkmate));
    assert_eq!(err.to_string(), "the game is over (0-1, checkmate)");
}

#[test]
fn threefold_claims_are_checked_and_a_wrong_claim_costs_two_minutes() {
    let mut g = game("90+30");
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    let black_before = g.clock().remaining(Color::Black, secs(1));
    let n = g
        .apply(
            secs(1),
            &GameEvent::DrawClaimed {
                side: Color::White,
                claim: DrawClaim::Threefold,
                declared: None,
            },
        )
        .unwrap();
    assert_eq!(keys(&n[0].tokens), "game.claim_rejected clock.adjusted");
    assert_eq!(
        g.clock().remaining(Color::Black, secs(1)),
        black_before + Duration::from_secs(120)
    );
    // 9.1.2.3: the claim stands as a draw offer; Black declines it.
    assert_eq!(g.draw_offer(), Some(Color::White));
    g.apply(secs(1), &GameEvent::DrawDeclined { side: Color::Black })
        .unwrap();
    assert!(g.result().is_none());
    let mut t = 2;
    for _ in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play(&mut g, t, m);
            t += 1;
        }
    }
    assert_eq!(g.repetitions(), 3);
    g.apply(
        secs(t),
        &GameEvent::DrawClaimed {
            side: Color::White,
            claim: DrawClaim::Threefold,
            declared: None,
        },
    )
    .unwrap();
    let r = g.result().unwrap();
    assert_eq!(
        (r.score().as_str(), r.ending),
        ("1/2-1/2", Ending::ThreefoldRepetition)
    );
}

#[test]
fn fivefold_repetition_ends_the_game_by_itself() {
    let mut g = game("90+30");
    let mut t = 1;
    'outer: for _ in 0..4 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play(&mut g, t, m);
            t += 1;
            if g.result().is_some() {
                break 'outer;
            }
        }
    }
    assert_eq!(g.result().unwrap().ending, Ending::FivefoldRepetition);
    assert_eq!(g.plies().len(), 16);
}

#[test]
fn the_flag_falls_by_article_6_9() {
    // Black's flag falls while White has a lone king: draw (6.9).
    let fen: Fen = "4k3/8/8/8/8/8/8/4K2q w - - 0 1".parse().unwrap();
    let mut g = Game::new(Some(&fen), "1".parse().unwrap(), Style::Standard)
        .unwrap()
        .with_flag_rule(FlagRule::Auto);
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    play(&mut g, 1, "e1d2");
    // A move after the flag fell is refused and changes nothing ...
    let err = g
        .apply(
            secs(200),
            &GameEvent::MovePlayed {
                uci: "h1h2".parse().unwrap(),
            },
        )
        .unwrap_err();
    assert!(
        matches!(err, GameError::Clock(ClockError::FlagFell(_))),
        "{err}"
    );
    assert_eq!(g.plies().len(), 1);
    // ... and the fall is recorded instead.
    let n = g.apply(secs(200), &GameEvent::FlagFell).unwrap();
    assert_eq!(keys(&n[0].tokens), "clock.black clock.flag_fell game.draw");
    assert_eq!(g.result().unwrap().score(), "1/2-1/2");
    let mut g2 = game("1");
    g2.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    assert!(
        g2.apply(secs(30), &GameEvent::FlagFell).is_err(),
        "no flag yet"
    );
    g2.apply(secs(61), &GameEvent::FlagFell).unwrap();
    assert_eq!(g2.result().unwrap().score(), "0-1");
}

#[test]
fn draw_offers_lapse_and_are_marked_on_the_move() {
    let mut g = game("90+30");
    play(&mut g, 1, "e2e4");
    g.apply(secs(2), &GameEvent::DrawOffered { side: Color::Black })
        .unwrap();
    play(&mut g, 3, "e7e5");
    assert!(g.plies()[1].draw_offer);
    assert_eq!(g.draw_offer(), Some(Color::Black));
    play(&mut g, 4, "g1f3");
    assert_eq!(g.draw_offer(), None, "White moved instead of accepting");
    assert!(
        g.apply(secs(5), &GameEvent::DrawDeclined { side: Color::White })
            .is_err()
    );
    g.apply(secs(5), &GameEvent::DrawOffered { side: Color::Black })
        .unwrap();
    g.apply(secs(6), &GameEvent::DrawAgreed).unwrap();
    assert_eq!(g.result().unwrap().ending, Ending::Agreement);
}

#[test]
fn a_ruling_retracts_moves_and_restores_the_clock() {
    let mut g = game("90+30");
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        play(&mut g, i as u64 + 1, m);
    }
    let setting = ClockSetting {
        white: g.plies()[1].left.white,
        black: g.plies()[1].left.black,
        white_moves: 1,
        black_moves: 1,
        to_move: Color::White,
    };
    g.apply(
        secs(10),
        &GameEvent::Retracted {
            plies: 2,
            clock: Some(setting),
            slid: false,
        },
    )
    .unwrap();
    assert_eq!(g.sans(), vec!["e4", "e5"]);
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(g.clock().remaining(Color::White, secs(10)), setting.white);
    assert!(
        g.apply(
            secs(11),
            &GameEvent::Retracted {
                plies: 9,
                clock: None,
                slid: false,
            }
        )
        .is_err()
    );
}

#[test]
fn a_restart_pauses_the_running_clock_where_it_was_last_seen() {
    let mut g = game("90+30");
    play(&mut g, 1, "e2e4");
    g.apply(
        secs(100),
        &GameEvent::ServiceRestarted {
            paused_at_ms: 5_000,
        },
    )
    .unwrap();
    assert_eq!(g.clock().state(), ClockState::Paused);
    // Black's clock ran from 1 s to 5 s only: the downtime is not charged.
    assert_eq!(
        g.clock().remaining(Color::Black, secs(100)),
        secs(90 * 60 - 4)
    );
    g.apply(secs(100), &GameEvent::ClockResumed).unwrap();
    play(&mut g, 110, "e7e5");
    assert_eq!(g.plies()[1].left.black, secs(90 * 60 - 14 + 30));
}

#[test]
fn touches_and_illegal_attempts_are_recorded_and_said() {
    let mut g = game("90+30");
    let n = g
        .apply(
            secs(1),
            &GameEvent::Touched {
                side: Color::White,
                square: "g1".parse().unwrap(),
            },
        )
        .unwrap();
    assert_eq!(
        keys(&n[0].tokens),
        "piece.white.knight file.g rank.1 game.touched"
    );
    g.apply(
        secs(2),
        &GameEvent::IllegalAttempt {
            side: Color::White,
            text: "Ng1-g3".into(),
        },
    )
    .unwrap();
    assert_eq!(g.touched().len(), 1);
    assert_eq!(g.irregularities()[0].text, "Ng1-g3");
}

fn claim(side: Color, claim: DrawClaim, declared: Option<&str>) -> GameEvent {
    GameEvent::DrawClaimed {
        side,
        claim,
        declared: declared.map(|d| d.parse().unwrap()),
    }
}

fn from_fen(fen: &str, control: &str) -> Game {
    let fen: Fen = fen.parse().unwrap();
    Game::new(Some(&fen), control.parse().unwrap(), Style::Standard).unwrap()
}

/// A.3 / B.3: in rapid and blitz an incorrect claim costs one minute.
#[test]
fn penalties_follow_the_kind_of_game() {
    for (control, kind, penalty) in [
        ("90+30", GameKind::Standard, 120),
        ("15+10", GameKind::Rapid, 60),
        ("3+2", GameKind::Blitz, 60),
    ] {
        let mut g = game(control);
        assert_eq!(g.kind(), kind);
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        let before = g.clock().remaining(Color::Black, secs(1));
        g.apply(secs(1), &claim(Color::White, DrawClaim::FiftyMoves, None))
            .unwrap();
        assert_eq!(
            g.clock().remaining(Color::Black, secs(1)),
            before + secs(penalty),
            "{control}"
        );
    }
}

/// 9.2, 9.3: only the player on move claims; 9.4: a touched piece
/// loses the right to claim on that move.
#[test]
fn only_the_player_on_move_claims_and_a_touch_loses_the_right() {
    let mut g = game("90+30");
    play(&mut g, 1, "e2e4");
    let err = g
        .apply(secs(2), &claim(Color::White, DrawClaim::Threefold, None))
        .unwrap_err();
    assert_eq!(
        err,
        GameError::ClaimNotOnMove {
            on_move: Color::Black
        }
    );
    g.apply(
        secs(3),
        &GameEvent::Touched {
            side: Color::Black,
            square: "g8".parse().unwrap(),
        },
    )
    .unwrap();
    let err = g
        .apply(secs(4), &claim(Color::Black, DrawClaim::Threefold, None))
        .unwrap_err();
    assert_eq!(err, GameError::ClaimAfterTouch { side: Color::Black });
    // A touch by the opponent does not count, and on the next move the
    // right is back.
    play(&mut g, 5, "g8f6");
    g.apply(
        secs(6),
        &GameEvent::Touched {
            side: Color::Black,
            square: "f6".parse().unwrap(),
        },
    )
    .unwrap();
    g.apply(secs(7), &claim(Color::White, DrawClaim::Threefold, None))
        .unwrap();
    assert!(g.result().is_none());
}

/// 9.2.1.1: a claim on a declared move that brings the third repetition
/// draws; the move is written, not played.
#[test]
fn a_declared_move_that_repeats_a_third_time_draws() {
    let mut g = game("90+30");
    let mut t = 1;
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        play(&mut g, t, m);
        t += 1;
    }
    // This position (Black to move) stood after ply 3 too; the start
    // position stood twice.
    assert_eq!(g.repetitions(), 2);
    // Black declares Nf6-g8: the start position for the third time.
    let plies = g.plies().len();
    g.apply(
        secs(t),
        &claim(Color::Black, DrawClaim::Threefold, Some("f6g8")),
    )
    .unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.ending, Ending::ThreefoldRepetition);
    assert!(
        r.reason().contains("Ng8 written, not played"),
        "{}",
        r.reason()
    );
    assert_eq!(g.plies().len(), plies, "the declared move is not played");
}

/// 9.5.3: an incorrect claim on a declared move: the opponent gets the
/// penalty and the declared move is then made.
#[test]
fn an_incorrect_claim_on_a_declared_move_makes_the_move() {
    let mut g = game("15+10");
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    play(&mut g, 5, "e2e4");
    let white_before = g.clock().remaining(Color::White, secs(9));
    let n = g
        .apply(
            secs(9),
            &claim(Color::Black, DrawClaim::Threefold, Some("e7e5")),
        )
        .unwrap();
    assert_eq!(g.sans(), vec!["e4", "e5"]);
    // White got one minute (rapid), and Black's move pressed the clock.
    assert_eq!(
        g.clock().remaining(Color::White, secs(9)),
        white_before + secs(60)
    );
    assert_eq!(g.clock().to_move(), Color::White);
    let all: Vec<String> = n.iter().map(|n| keys(&n.tokens)).collect();
    assert_eq!(all, ["game.claim_rejected clock.adjusted", "file.e rank.5"]);
    // The claim was also an offer, marked on the move (9.1.2.3, 8.1.4).
    assert!(g.plies()[1].draw_offer);
    // An illegal declared move is refused and changes nothing.
    let before = g.clone().sans();
    let err = g
        .apply(
            secs(10),
            &claim(Color::White, DrawClaim::FiftyMoves, Some("e4e6")),
        )
        .unwrap_err();
    assert!(matches!(err, GameError::Illegal(_)), "{err}");
    assert_eq!(g.sans(), before);
}

/// 9.3: fifty moves by each side without pawn move or capture, as the
/// position stands or with the move that completes them.
#[test]
fn the_fifty_move_claim_counts_the_declared_move() {
    let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "90+30");
    g.apply(secs(1), &claim(Color::White, DrawClaim::FiftyMoves, None))
        .unwrap();
    assert!(g.result().is_none(), "99 plies are not fifty moves each");
    let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "90+30");
    g.apply(
        secs(1),
        &claim(Color::White, DrawClaim::FiftyMoves, Some("a1a2")),
    )
    .unwrap();
    assert_eq!(g.result().unwrap().ending, Ending::FiftyMoves);
    // A pawn move or capture as the declared move resets the count.
    let mut g = from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80", "90+30");
    g.apply(
        secs(1),
        &claim(Color::White, DrawClaim::FiftyMoves, Some("a2a3")),
    )
    .unwrap();
    assert!(g.result().is_none());
    assert_eq!(g.sans(), vec!["a3"]);
}

/// 6.8: under the default rule the fall is shown and said at once, the
/// game goes on on a stopped clock until the fall is claimed, and a mate
/// before the claim stands (6.9).
#[test]
fn a_flag_falls_when_it_is_claimed() {
    let mut g = game("1");
    assert_eq!(g.flag_rule(), FlagRule::Claim);
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    assert!(
        g.apply(secs(30), &GameEvent::TimeExpired).is_err(),
        "not yet"
    );
    let n = g.apply(secs(61), &GameEvent::TimeExpired).unwrap();
    assert_eq!(keys(&n[0].tokens), "clock.white clock.flag_fell");
    assert!(g.result().is_none());
    assert!(
        g.apply(secs(62), &GameEvent::TimeExpired).is_err(),
        "said once"
    );
    // Play goes on; the clock stays stopped at the fall.
    play(&mut g, 70, "e2e4");
    assert_eq!(g.clock().remaining(Color::White, secs(80)), Duration::ZERO);
    assert_eq!(g.clock().remaining(Color::Black, secs(80)), secs(60));
    let n = g.apply(secs(90), &GameEvent::FlagFell).unwrap();
    assert_eq!(
        keys(&n[0].tokens),
        "clock.white clock.flag_fell game.black_wins"
    );
    assert_eq!(g.result().unwrap().ending, Ending::FlagFell);

    // A mate delivered before anyone claims ends the game by itself.
    let mut g = game("1");
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    play(&mut g, 1, "f2f3");
    play(&mut g, 2, "e7e5");
    g.apply(secs(100), &GameEvent::TimeExpired).unwrap();
    play(&mut g, 101, "g2g4");
    play(&mut g, 102, "d8h4");
    assert_eq!(g.result().unwrap().ending, Ending::Checkmate);
}

/// 7.5.5: the first completed illegal move gives the opponent the
/// penalty; the second loses, unless the opponent cannot mate.
#[test]
fn completed_illegal_moves_by_article_7_5_5() {
    let mut g = game("3+2");
    g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
    play(&mut g, 1, "e2e4");
    let black = g.clock().remaining(Color::Black, secs(2));
    g.apply(
        secs(2),
        &GameEvent::IllegalMoveCompleted { side: Color::White },
    )
    .unwrap();
    assert_eq!(g.clock().remaining(Color::Black, secs(2)), black + secs(60));
    assert_eq!(g.completed_illegal(Color::White), 1);
    g.apply(
        secs(3),
        &GameEvent::IllegalMoveCompleted { side: Color::White },
    )
    .unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.score(), "0-1");
    assert!(r.reason().contains("7.5.5"), "{}", r.reason());
    // Against a lone king the second is a draw.
    let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "90+30");
    for t in 1..=2 {
        g.apply(
            secs(t),
            &GameEvent::IllegalMoveCompleted { side: Color::White },
        )
        .unwrap();
    }
    assert_eq!(g.result().unwrap().score(), "1/2-1/2");
}

#[test]
fn an_arbiters_result_ends_the_game_as_their_decision() {
    let mut g = game("90+30");
    g.apply(
        secs(2),
        &GameEvent::ResultSet {
            result: KnownOutcome::Decisive {
                winner: Color::White,
            },
            reason: "flag fell".into(),
        },
    )
    .unwrap();
    // An arbiter who types "flag fell" sets an arbiter's decision.
    assert_eq!(g.result().unwrap().ending, Ending::Arbiter);
    assert_eq!(g.result().unwrap().score(), "1-0");
}
