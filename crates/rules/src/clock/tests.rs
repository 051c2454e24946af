use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::*;

fn s(n: u64) -> Duration {
    Duration::from_secs(n)
}
fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}
fn m(n: u64) -> Duration {
    Duration::from_secs(n * 60)
}
fn started(control: &str) -> Clock {
    let tc = control.parse().unwrap_or_else(|e| panic!("{control}: {e}"));
    let mut c = Clock::new(tc);
    assert_eq!(c.start(Duration::ZERO), Ok(()));
    c
}
fn press(c: &mut Clock, at: Duration) {
    assert_eq!(c.press(at), Ok(()), "press at {at:?}");
}
/// Plays `n` moves of each side, `each` apart, from `t`; returns the end.
fn play(c: &mut Clock, mut t: Duration, n: u32, each: Duration) -> Duration {
    for _ in 0..2 * n {
        t += each;
        press(c, t);
    }
    t
}
fn pos(fen: &str) -> Chess {
    let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn sudden_death_charges_only_the_side_to_move() {
    let mut c = started("5");
    assert_eq!(c.to_move(), Color::White);
    assert_eq!(c.remaining(Color::White, s(10)), m(5) - s(10));
    assert_eq!(c.remaining(Color::Black, s(10)), m(5));
    press(&mut c, s(10));
    assert_eq!(c.to_move(), Color::Black);
    assert_eq!(c.remaining(Color::White, s(50)), m(5) - s(10));
    assert_eq!(c.remaining(Color::Black, s(50)), m(5) - s(40));
    assert_eq!(c.used(Color::Black, s(50)), s(40));
    press(&mut c, s(50));
    assert_eq!((c.moves(Color::White), c.moves(Color::Black)), (1, 1));
    assert_eq!(c.moves_completed(), 1);
    assert_eq!(c.period(Color::White), 1);
    assert_eq!(c.moves_to_control(Color::White), None);
}

#[test]
fn fischer_increment_is_added_after_the_move() {
    let mut c = started("3+2");
    press(&mut c, s(5));
    assert_eq!(c.remaining(Color::White, s(5)), m(3) - s(5) + s(2));
    assert_eq!(c.used(Color::White, s(5)), s(5));
    // Before the move, the increment is not there yet.
    assert_eq!(c.remaining(Color::Black, s(5)), m(3));
}

#[test]
fn bronstein_gives_back_the_time_used_up_to_the_delay() {
    let mut c = started("1b5");
    // Inside the delay: all of it given back.
    press(&mut c, s(3));
    assert_eq!(c.remaining(Color::White, s(3)), m(1));
    // While running the main time runs from the start of the move.
    assert_eq!(c.remaining(Color::Black, s(5)), m(1) - s(2));
    // Beyond the delay: only the delay given back.
    press(&mut c, s(11));
    assert_eq!(c.remaining(Color::Black, s(11)), m(1) - s(8) + s(5));
    // Exactly the delay.
    press(&mut c, s(16));
    assert_eq!(c.remaining(Color::White, s(16)), m(1));
}

#[test]
fn simple_delay_holds_the_main_time_during_the_delay() {
    let mut c = started("1d5");
    assert_eq!(c.remaining(Color::White, s(4)), m(1));
    press(&mut c, s(4));
    assert_eq!(c.remaining(Color::White, s(4)), m(1));
    assert_eq!(c.remaining(Color::Black, s(9)), m(1));
    assert_eq!(c.remaining(Color::Black, s(10)), m(1) - s(1));
    press(&mut c, s(12));
    assert_eq!(c.remaining(Color::Black, s(12)), m(1) - s(3));
    // The flag falls only after the delay and the whole main time.
    assert_eq!(c.deadline(), Some(s(12) + s(5) + m(1)));
    assert_eq!(c.flag(s(77) - ms(1)), None);
    assert_eq!(
        c.flag(s(77)),
        Some(Flag {
            side: Color::White,
            at: s(77)
        })
    );
}

#[test]
fn simple_delay_survives_a_pause_inside_it() {
    let mut c = started("1d5");
    assert_eq!(c.pause(s(3)), Ok(()));
    assert_eq!(c.resume(s(100)), Ok(()));
    // 3 s of the delay spent before the pause, 2 after: main untouched.
    assert_eq!(c.remaining(Color::White, s(102)), m(1));
    assert_eq!(c.remaining(Color::White, s(104)), m(1) - s(2));
    press(&mut c, s(104));
    assert_eq!(c.used(Color::White, s(104)), s(7));
    assert_eq!(c.remaining(Color::White, s(104)), m(1) - s(2));
}

#[test]
fn fide_classical_carries_unused_time_into_the_second_period() {
    let mut c = started("40/90+30, 30+30");
    assert_eq!(c.moves_to_control(Color::White), Some(40));
    // 39 moves each at one minute: still in the first period.
    let t = play(&mut c, Duration::ZERO, 39, m(1));
    assert_eq!(c.period(Color::White), 1);
    assert_eq!(c.moves_to_control(Color::White), Some(1));
    // White's 40th move completes the period: 30 minutes more.
    press(&mut c, t + m(1));
    assert_eq!(c.period(Color::White), 2);
    assert_eq!(c.period(Color::Black), 1);
    assert_eq!(c.moves_to_control(Color::White), None);
    let carried = m(90) - m(40) + s(30) * 40;
    assert_eq!(c.remaining(Color::White, t + m(1)), carried + m(30));
}

#[test]
fn a_period_ended_with_almost_nothing_left_carries_almost_nothing() {
    let mut c = started("2/1, 1");
    press(&mut c, s(30));
    press(&mut c, s(30));
    // White's second move with 1 ms to spare: the new period adds 1 min.
    press(&mut c, s(60) - ms(1));
    assert_eq!(c.period(Color::White), 2);
    assert_eq!(c.remaining(Color::White, s(60)), m(1) + ms(1));
    // Black lets the first period's time run out: no carry, a flag.
    assert_eq!(
        c.press(s(130)),
        Err(ClockError::FlagFell(Flag {
            side: Color::Black,
            at: s(60) - ms(1) + s(60)
        }))
    );
    assert_eq!(c.period(Color::Black), 1);
}

#[test]
fn a_last_period_with_moves_repeats() {
    let mut c = started("2/2, 1/1");
    let t = play(&mut c, Duration::ZERO, 2, s(10));
    assert_eq!(c.period(Color::White), 2);
    assert_eq!(c.remaining(Color::White, t), m(2) - s(20) + m(1));
    let t = play(&mut c, t, 1, s(10));
    assert_eq!(c.period(Color::White), 3);
    assert_eq!(c.remaining(Color::White, t), m(3) - s(30) + m(1));
    assert_eq!(c.moves_to_control(Color::White), Some(1));
}

#[test]
fn flag_falls_in_the_first_period() {
    let mut c = started("40/1, 30");
    press(&mut c, s(10));
    let fall = s(10) + m(1);
    assert_eq!(c.flag(fall - ms(1)), None);
    let flag = Flag {
        side: Color::Black,
        at: fall,
    };
    assert_eq!(c.flag(fall), Some(flag));
    // The fall is found later at its true instant; the clock stops there.
    assert_eq!(c.remaining(Color::Black, fall + s(30)), Duration::ZERO);
    assert_eq!(c.used(Color::Black, fall + s(30)), m(1));
    assert_eq!(c.press(fall + s(30)), Err(ClockError::FlagFell(flag)));
    assert_eq!(c.state(), ClockState::Flagged(flag));
    assert_eq!(c.press(fall + s(31)), Err(ClockError::FlagFell(flag)));
    assert_eq!(c.pause(fall + s(31)), Err(ClockError::FlagFell(flag)));
    assert_eq!(c.remaining(Color::White, fall + s(40)), m(1) - s(10));
    assert_eq!(c.used(Color::Black, fall + s(40)), m(1));
}

#[test]
fn flag_falls_in_the_second_period_and_a_press_at_zero_is_too_late() {
    let mut c = started("1/1, 1");
    press(&mut c, s(30));
    press(&mut c, s(60));
    assert_eq!(c.period(Color::White), 2);
    // White has 30 s + 1 min; pressing exactly at zero is a fall.
    let fall = s(60) + s(90);
    assert_eq!(
        c.press(fall),
        Err(ClockError::FlagFell(Flag {
            side: Color::White,
            at: fall
        }))
    );
}

#[test]
fn flag_falls_in_a_repeated_period() {
    let mut c = started("1/1, 1/30s");
    // White enters period 2 at move 1 and period 3 at move 2.
    let t = play(&mut c, Duration::ZERO, 2, s(10));
    assert_eq!(c.period(Color::White), 3);
    assert_eq!(c.remaining(Color::White, t), m(2) - s(20));
    assert_eq!(c.deadline(), Some(t + m(2) - s(20)));
    let flag = Flag {
        side: Color::White,
        at: t + m(2) - s(20),
    };
    assert_eq!(c.press(t + m(5)), Err(ClockError::FlagFell(flag)));
}

#[test]
fn flag_result_follows_article_6_9() {
    // White flags; Black has a rook: Black wins.
    let p = pos("8/8/4k3/8/8/4K3/8/r7 w - - 0 1");
    assert_eq!(
        flag_result(Color::White, &p),
        KnownOutcome::Decisive {
            winner: Color::Black
        }
    );
    // Black has a lone king: draw.
    let p = pos("8/8/4k3/8/8/4K3/8/Q7 w - - 0 1");
    assert_eq!(flag_result(Color::White, &p), KnownOutcome::Draw);
    // Black has king and bishop against a lone king: no mate, draw.
    let p = pos("8/8/4k3/8/8/4K3/8/b7 w - - 0 1");
    assert_eq!(flag_result(Color::White, &p), KnownOutcome::Draw);
    // Black has a knight but White a pawn that could block: mate is
    // possible by some legal sequence, so Black wins.
    let p = pos("8/8/4k3/8/8/4K3/P7/n7 w - - 0 1");
    assert_eq!(
        flag_result(Color::White, &p),
        KnownOutcome::Decisive {
            winner: Color::Black
        }
    );
    // From the start position, White wins when Black flags.
    assert_eq!(
        flag_result(Color::Black, &Chess::default()),
        KnownOutcome::Decisive {
            winner: Color::White
        }
    );
}

#[test]
fn adjustments_by_the_arbiter() {
    let mut c = started("5");
    press(&mut c, s(10));
    // Black's illegal move: White gets two minutes (7.5.5).
    assert_eq!(c.adjust(Color::White, Adjustment::Add(m(2)), s(20)), Ok(()));
    assert_eq!(c.remaining(Color::White, s(20)), m(7) - s(10));
    // Taking time from the running side counts from now.
    assert_eq!(
        c.adjust(Color::Black, Adjustment::Subtract(m(1)), s(30)),
        Ok(())
    );
    assert_eq!(c.remaining(Color::Black, s(30)), m(4) - s(20));
    assert_eq!(c.used(Color::Black, s(30)), s(20));
    // Taking all of it makes the flag fall at the adjustment.
    assert_eq!(
        c.adjust(Color::Black, Adjustment::Subtract(m(10)), s(40)),
        Ok(())
    );
    let flag = Flag {
        side: Color::Black,
        at: s(40),
    };
    assert_eq!(c.state(), ClockState::Flagged(flag));
    assert_eq!(c.remaining(Color::Black, s(40)), Duration::ZERO);
    // Giving the flagged side time back (a clock error) lifts the flag,
    // paused until the arbiter resumes.
    assert_eq!(c.adjust(Color::Black, Adjustment::Add(m(1)), s(50)), Ok(()));
    assert_eq!(c.state(), ClockState::Paused);
    assert_eq!(c.remaining(Color::Black, s(60)), m(1));
    assert_eq!(c.resume(s(60)), Ok(()));
    assert_eq!(c.remaining(Color::Black, s(70)), s(50));
}

#[test]
fn time_given_after_a_fall_under_delay_keeps_the_delay_spent() {
    let mut c = started("1d5");
    let fall = m(1) + s(5);
    assert_eq!(c.flag(fall).map(|f| f.at), Some(fall));
    // Taking time from a fallen side changes nothing; giving 10 s gives
    // exactly 10 s: the move's delay was used before the fall.
    assert_eq!(
        c.adjust(Color::White, Adjustment::Subtract(s(3)), fall + s(1)),
        Ok(())
    );
    assert_eq!(
        c.adjust(Color::White, Adjustment::Add(s(10)), fall + s(2)),
        Ok(())
    );
    assert_eq!(c.remaining(Color::White, fall + s(2)), s(10));
    assert_eq!(c.resume(fall + s(3)), Ok(()));
    assert_eq!(c.deadline(), Some(fall + s(13)));
    // Absurd additions saturate instead of overflowing.
    assert_eq!(
        c.adjust(Color::Black, Adjustment::Add(Duration::MAX), fall + s(4)),
        Ok(())
    );
    assert_eq!(c.remaining(Color::Black, fall + s(4)), Duration::MAX);
    press(&mut c, fall + s(5));
    assert_eq!(c.deadline(), Some(Duration::MAX));
}

#[test]
fn pause_and_resume_stop_the_running_clock() {
    let mut c = started("10+5");
    assert_eq!(c.pause(s(20)), Ok(()));
    assert_eq!(c.pause(s(21)), Err(ClockError::Paused));
    assert_eq!(c.press(s(21)), Err(ClockError::Paused));
    assert_eq!(c.remaining(Color::White, s(500)), m(10) - s(20));
    assert_eq!(c.deadline(), None);
    assert_eq!(c.resume(s(500)), Ok(()));
    assert_eq!(c.resume(s(500)), Err(ClockError::NotPaused));
    press(&mut c, s(510));
    assert_eq!(c.used(Color::White, s(510)), s(30));
    assert_eq!(c.remaining(Color::White, s(510)), m(10) - s(30) + s(5));
}

#[test]
fn refused_operations_change_nothing() {
    let mut c = Clock::new("5".parse().unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(c.press(s(1)), Err(ClockError::NotStarted));
    assert_eq!(c.pause(s(1)), Err(ClockError::NotStarted));
    assert_eq!(c.start(s(10)), Ok(()));
    assert_eq!(c.start(s(11)), Err(ClockError::AlreadyStarted));
    press(&mut c, s(20));
    let before = c.clone();
    assert_eq!(
        c.press(s(19)),
        Err(ClockError::TimeWentBack {
            now: s(19),
            last: s(20)
        })
    );
    assert!(c.adjust(Color::White, Adjustment::Add(s(1)), s(5)).is_err());
    let bad = ClockSetting {
        white: m(1),
        black: m(1),
        white_moves: 3,
        black_moves: 3,
        to_move: Color::Black,
    };
    assert!(matches!(
        c.set(bad, s(30)),
        Err(ClockError::InvalidSetting(_))
    ));
    assert_eq!(c, before);
}

#[test]
fn set_restores_times_moves_and_periods() {
    let mut c = started("40/90+30, 30+30");
    let t = play(&mut c, Duration::ZERO, 42, s(30));
    assert_eq!(c.period(Color::Black), 2);
    // The arbiter goes back to the position after White's 38th move.
    let setting = ClockSetting {
        white: m(70),
        black: m(65),
        white_moves: 38,
        black_moves: 37,
        to_move: Color::Black,
    };
    assert_eq!(c.set(setting, t + s(5)), Ok(()));
    assert_eq!(c.state(), ClockState::Paused);
    assert_eq!(c.moves_completed(), 38);
    assert_eq!((c.period(Color::White), c.period(Color::Black)), (1, 1));
    assert_eq!(c.moves_to_control(Color::Black), Some(3));
    assert_eq!(c.to_move(), Color::Black);
    assert_eq!(c.remaining(Color::White, t + s(99)), m(70));
    assert_eq!(c.resume(t + s(10)), Ok(()));
    assert_eq!(c.remaining(Color::Black, t + s(20)), m(65) - s(10));
    // Time used is real time and is kept, White's 5 s before the set too.
    assert_eq!(c.used(Color::White, t + s(20)), s(30) * 42 + s(5));
    // Setting what the clock shows changes no time left.
    let unchanged = c.setting(t + s(30));
    assert_eq!(c.set(unchanged, t + s(30)), Ok(()));
    assert_eq!(c.setting(t + s(99)), unchanged);
    // Moves past a repeating last period land in the right repetition.
    let mut r = started("2/2, 1/1");
    let to = ClockSetting {
        white: m(1),
        black: m(1),
        white_moves: 6,
        black_moves: 5,
        to_move: Color::Black,
    };
    assert_eq!(r.set(to, s(1)), Ok(()));
    assert_eq!((r.period(Color::White), r.period(Color::Black)), (6, 5));
}

#[test]
fn appendix_d_the_press_at_the_made_instant_charges_the_mover() {
    // White lifts a piece at 5 s (D.2.2: touched), puts it in its new
    // hole at 8 s, announces it, misspeaks and corrects it at once
    // (D.2.8); the table rules the move made at 12 s and presses then.
    let mut c = started("90+30");
    let made = s(12);
    // Nothing of the lift or the slip reaches the clock: it still runs
    // for White, as on a clock that was never touched.
    assert_eq!(c.remaining(Color::White, s(8)), m(90) - s(8));
    press(&mut c, made);
    assert_eq!(c.used(Color::White, made), made);
    assert_eq!(c.remaining(Color::White, made), m(90) - made + s(30));
    // Black's clock starts at the made instant, not at the lift.
    assert_eq!(c.used(Color::Black, s(20)), s(8));
    assert_eq!(c.remaining(Color::Black, s(20)), m(90) - s(8));
    // A clock pressed at the same instant without any slip agrees.
    let mut plain = started("90+30");
    press(&mut plain, made);
    assert_eq!(plain, c);
}

/// The journal's clock JSON, as written before the sides were a
/// `ByColor`: the same bytes.
#[test]
fn the_clock_json_keeps_its_shape() {
    let mut c = started("40/90+30, 30+30");
    play(&mut c, Duration::ZERO, 3, s(45));
    let json = serde_json::to_string(&c).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        json,
        r#"{"control":"40/90+30, 30+30","white":{"base":{"secs":5355,"nanos":0},"used":{"secs":135,"nanos":0},"moves":3,"period":1,"period_moves":3},"black":{"base":{"secs":5355,"nanos":0},"used":{"secs":135,"nanos":0},"moves":3,"period":1,"period_moves":3},"to_move":"white","state":{"state":"running","since":{"secs":270,"nanos":0}},"turn_used":{"secs":0,"nanos":0},"last":{"secs":270,"nanos":0}}"#
    );
    let back: Clock = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, c);
}

#[test]
fn reading_and_serde_round_trip() {
    let mut c = started("40/90+30, 30+30");
    let t = play(&mut c, Duration::ZERO, 3, s(45));
    let r = c.reading(t + s(15));
    assert_eq!(r.moves, 3);
    assert_eq!(r.white.remaining, m(90) - s(45) * 3 + s(30) * 3 - s(15));
    assert_eq!(r.white.used, s(45 * 3 + 15));
    assert_eq!(r.black.used, s(45 * 3));
    let json = serde_json::to_string(&c).unwrap_or_else(|e| panic!("{e}"));
    assert!(json.contains("\"to_move\":\"white\""), "{json}");
    let back: Clock = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, c);
    assert!(serde_json::from_str::<Clock>(&json.replace("\"white\"", "\"green\"")).is_err());
    // A fallen flag is journalled too.
    let fall = c.deadline().unwrap_or_default();
    assert!(c.pause(fall).is_err());
    let json = serde_json::to_string(&c).unwrap_or_else(|e| panic!("{e}"));
    assert!(json.contains("\"state\":\"flagged\""), "{json}");
    let back: Clock = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, c);
}
