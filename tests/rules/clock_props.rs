//! Property tests of the clock: for random sequences of presses, pauses,
//! resumes and arbiter additions, times never go below zero except at a flag
//! fall, and the two clocks together account for all running time plus what
//! was credited (period times, increments or delays, adjustments).

use std::time::Duration;

use proptest::prelude::*;
use shakmaty::Color;
use tactus_rules::clock::{Adjustment, Clock, ClockError, ClockState};
use tactus_rules::time_control::{Bonus, TimeControl};

#[derive(Debug, Clone)]
enum Op {
    Press,
    Pause,
    Resume,
    Add(Color, Duration),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Press),
        1 => Just(Op::Pause),
        2 => Just(Op::Resume),
        1 => (any::<bool>(), 0u64..20_000).prop_map(|(white, ms)| Op::Add(
            if white { Color::White } else { Color::Black },
            Duration::from_millis(ms)
        )),
    ]
}

const CONTROLS: [&str; 4] = [
    "3/1m+2, 2/30s+2, 45s+2",
    "3/1mb2, 2/30sb2, 45sb2",
    "3/1md2, 2/30sd2, 45sd2",
    "2/1m, 1/20s",
];

/// Time credited to `color` apart from per-move bonuses: the times of the
/// periods it has entered plus the arbiter's additions.
fn period_times(clock: &Clock, color: Color) -> Duration {
    (1..=clock.period(color))
        .map(|n| clock.control().period(n).time)
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn clocks_account_for_all_running_time(
        control in 0..CONTROLS.len(),
        steps in prop::collection::vec((op(), 0u64..40_000), 1..80),
    ) {
        let tc: TimeControl = CONTROLS[control].parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let bonus = tc.period(1).bonus;
        let mut clock = Clock::new(tc);
        let mut t = Duration::from_secs(1);
        clock.start(t).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let mut running = Duration::ZERO;
        let mut added = [Duration::ZERO; 2];
        for (op, gap) in steps {
            let next = t + Duration::from_millis(gap);
            // The running side's clock ran from t until next, or until its
            // flag fell in between.
            if let ClockState::Running { .. } = clock.state() {
                let end = clock.flag(next).map_or(next, |f| f.at.min(next));
                running += end.saturating_sub(t);
            }
            let flagged_before = clock.flag(next);
            let result = match op {
                Op::Press => clock.press(next),
                Op::Pause => clock.pause(next),
                Op::Resume => clock.resume(next),
                Op::Add(color, d) => {
                    let r = clock.adjust(color, Adjustment::Add(d), next);
                    if r.is_ok() {
                        added[color as usize] += d;
                    }
                    r
                }
            };
            t = next;
            // After a flag fall only the arbiter's additions are accepted.
            if let (Some(flag), false) = (flagged_before, matches!(op, Op::Add(..))) {
                prop_assert!(
                    matches!(result, Err(ClockError::FlagFell(f)) if f == flag)
                        || (matches!(op, Op::Resume) && result == Err(ClockError::NotPaused)),
                    "{op:?} after {flag:?}: {result:?}"
                );
            }

            let used = |c| clock.used(c, t);
            prop_assert_eq!(used(Color::White) + used(Color::Black), running);
            for color in Color::ALL {
                let credited = period_times(&clock, color) + added[color as usize];
                let left = clock.remaining(color, t);
                let spent = used(color);
                let moves = clock.moves(color);
                if clock.flag(t).is_some_and(|f| f.side == color) {
                    prop_assert_eq!(left, Duration::ZERO);
                }
                match bonus {
                    // Exact, a fallen flag included: at the fall every
                    // credited second has been used.
                    Bonus::None => prop_assert_eq!(left + spent, credited),
                    Bonus::Increment(inc) => {
                        prop_assert_eq!(left + spent, credited + inc * moves);
                    }
                    Bonus::Bronstein(delay) | Bonus::SimpleDelay(delay) => {
                        // A delay saves at most `delay` per move, the current
                        // one included, and never charges more than was used.
                        prop_assert!(left + spent >= credited || left.is_zero());
                        prop_assert!(left + spent <= credited + delay * (moves + 1));
                    }
                }
            }
        }
    }
}
