//! Standard, rapid or blitz (Appendices A.1 and B.1), which sets the time
//! penalties of Articles 7 and 9: two minutes in standard play, one minute
//! in rapid and blitz (A.3, applied to blitz by B.3).

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use super::time_control::{Bonus, TimeControl};

/// The kind of game a time control makes.
///
/// # Examples
///
/// ```
/// use tactus_rules::game_kind::GameKind;
///
/// let kind = GameKind::of(&"25+10".parse().unwrap());
/// assert_eq!(kind, GameKind::Rapid);
/// assert_eq!(kind.to_string(), "rapid");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// 60 minutes or more for each player.
    Standard,
    /// More than 10 and less than 60 minutes (A.1).
    Rapid,
    /// 10 minutes or less (B.1).
    Blitz,
}

impl GameKind {
    /// The kind of game under `control`, measured as A.1 and B.1 do: the
    /// time allotted for the game plus 60 times the increment. With several
    /// periods, the time allotted is that of every period begun within the
    /// first 60 moves. Delays are not increments (the Laws count only
    /// increments), so `3d2` is blitz.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::game_kind::GameKind;
    ///
    /// let kind = |tc: &str| GameKind::of(&tc.parse().unwrap());
    /// assert_eq!(kind("90+30"), GameKind::Standard);
    /// assert_eq!(kind("15+10"), GameKind::Rapid); // 15 + 60 × 10 s = 25 min
    /// assert_eq!(kind("3+2"), GameKind::Blitz); // 3 + 2 = 5 min
    /// assert_eq!(kind("10"), GameKind::Blitz);
    /// assert_eq!(kind("5+5"), GameKind::Blitz); // 5 + 60 × 5 s = 10 min: "10 minutes or less"
    /// ```
    pub fn of(control: &TimeControl) -> GameKind {
        let minutes = allotted_for_60_moves(control);
        if minutes <= Duration::from_secs(10 * 60) {
            GameKind::Blitz
        } else if minutes < Duration::from_secs(60 * 60) {
            GameKind::Rapid
        } else {
            GameKind::Standard
        }
    }

    /// The time penalty of Articles 7 and 9 (7.5.5, 9.5.3): two minutes, one
    /// in rapid and blitz (A.3, B.3).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::game_kind::GameKind;
    ///
    /// assert_eq!(GameKind::Standard.penalty(), Duration::from_secs(120));
    /// assert_eq!(GameKind::Blitz.penalty(), Duration::from_secs(60));
    /// ```
    pub fn penalty(self) -> Duration {
        match self {
            GameKind::Standard => Duration::from_secs(120),
            GameKind::Rapid | GameKind::Blitz => Duration::from_secs(60),
        }
    }

    /// The word for pages: `standard`, `rapid`, `blitz`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::game_kind::GameKind;
    ///
    /// assert_eq!(GameKind::Blitz.name(), "blitz");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Standard => "standard",
            GameKind::Rapid => "rapid",
            GameKind::Blitz => "blitz",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The time a player is given for their first 60 moves: each period begun
/// by then, and the increment of every one of those moves.
fn allotted_for_60_moves(control: &TimeControl) -> Duration {
    let mut total = Duration::ZERO;
    let mut period = 1u32;
    let mut in_period = 0u32;
    total = total.saturating_add(control.period(1).time);
    for _ in 0..60 {
        let p = control.period(period);
        if let Bonus::Increment(inc) = p.bonus {
            total = total.saturating_add(inc);
        }
        in_period += 1;
        if p.moves == Some(in_period) {
            period += 1;
            in_period = 0;
            total = total.saturating_add(control.period(period).time);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(tc: &str) -> GameKind {
        GameKind::of(&tc.parse().unwrap())
    }

    #[test]
    fn the_boundaries_of_a1_and_b1() {
        // B.1: 10 minutes or less, time + 60 × increment.
        assert_eq!(kind("10"), GameKind::Blitz);
        assert_eq!(kind("5+5"), GameKind::Blitz); // exactly 10 minutes
        assert_eq!(kind("3+2"), GameKind::Blitz);
        assert_eq!(kind("10+1"), GameKind::Rapid); // 11 minutes
        // A.1: more than 10 and less than 60.
        assert_eq!(kind("15+10"), GameKind::Rapid);
        assert_eq!(kind("25+10"), GameKind::Rapid); // 35 minutes
        assert_eq!(kind("59"), GameKind::Rapid);
        assert_eq!(kind("50+10"), GameKind::Standard); // exactly 60 minutes
        assert_eq!(kind("60"), GameKind::Standard);
        assert_eq!(kind("90+30"), GameKind::Standard);
        assert_eq!(kind("40/90+30, 30+30"), GameKind::Standard);
        // Delays are not increments.
        assert_eq!(kind("9d5"), GameKind::Blitz);
        assert_eq!(kind("9b5"), GameKind::Blitz);
        // A second period begun within 60 moves counts: 20/5, 5 → 10 minutes.
        assert_eq!(kind("20/5, 5"), GameKind::Blitz);
        assert_eq!(kind("20/5, 6"), GameKind::Rapid);
    }

    #[test]
    fn penalties_are_one_minute_in_rapid_and_blitz() {
        assert_eq!(GameKind::Standard.penalty(), Duration::from_secs(120));
        assert_eq!(GameKind::Rapid.penalty(), Duration::from_secs(60));
        assert_eq!(GameKind::Blitz.penalty(), Duration::from_secs(60));
    }
}
