//! Time controls in both syntaxes: never a panic; whatever parses is shown
//! (`Display`, `to_pgn`) as text that parses back to the same control, and
//! a clock on it runs a few moves without overflowing.

use std::time::Duration;

use tactus_rules::clock::Clock;
use tactus_rules::time_control::TimeControl;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for tc in [text.parse::<TimeControl>(), TimeControl::from_pgn(text)]
        .into_iter()
        .flatten()
    {
        let shown = tc.to_string();
        assert_eq!(
            shown.parse().as_ref(),
            Ok(&tc),
            "{text:?} shown as {shown:?}"
        );
        let pgn = tc.to_pgn();
        assert_eq!(
            TimeControl::from_pgn(&pgn).as_ref(),
            Ok(&tc),
            "{text:?} as PGN {pgn:?}"
        );
        run_clock(tc);
    }
}

/// Two moves a side, then far past any time: errors are fine, panics not.
fn run_clock(tc: TimeControl) {
    let mut clock = Clock::new(tc);
    let mut now = Duration::ZERO;
    let _ = clock.start(now);
    for step in [1, 2, 3, 4] {
        now += Duration::from_secs(step);
        let _ = clock.press(now);
    }
    let _ = clock.reading(now);
    let _ = clock.setting(now);
    let _ = clock.deadline();
    let far = Duration::from_secs(u64::MAX / 2);
    let _ = clock.flag(far);
    let _ = clock.reading(far);
    let _ = clock.press(far);
}
