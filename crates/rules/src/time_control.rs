//! Time controls (Article 6.3): one or more periods, each with a number of
//! moves (or the rest of the game), a time, and an increment or a delay.
//!
//! # Syntax
//!
//! A control is a list of periods separated by `,` (FIDE style) or `:` (PGN
//! style); spaces around periods are ignored. A period is
//! `[MOVES/]TIME[BONUS]`:
//!
//! - `MOVES/`: the period ends after that many moves of the player; without
//!   it the period lasts the rest of the game. Every period but the last needs
//!   it. A last period with a move count repeats (`40/120, 20/60`: twenty
//!   moves per hour after move 40, the old secondary control).
//! - `TIME`: a whole number with an optional unit, `h`, `m` or `s`
//!   (`2h`, `90m`, `5400s`). A bare number is read by one rule for the whole
//!   string: **seconds if the string contains `:` (the PGN separator) or any
//!   bare time is above 240; minutes otherwise.** No tournament period is
//!   longer than four hours, and PGN writes every time in seconds (`5400` for
//!   90 minutes, `300` for five). So `90`, `90+30`, `40/90+30, 30+30`, `15+10`
//!   and `3+2` are minutes; `5400`, `5400+30` and `40/5400+30:1800+30` are
//!   seconds. Three minutes in seconds must be written `180s` (a bare `180`
//!   is three hours) or read with [`TimeControl::from_pgn`], where every bare
//!   number is seconds.
//! - `BONUS`, always in seconds (an optional trailing `s` is allowed):
//!   `+N` a Fischer increment added after each move of the period,
//!   `bN` a Bronstein delay (the time used on a move, up to N, is given back
//!   after it), `dN` a simple (US) delay (the main time starts only after N
//!   seconds of each move). One bonus per period.
//!
//! Examples: `90` (sudden death), `90+30`, `40/90+30, 30+30` (FIDE classical),
//! `40/5400+30:1800+30` (the same as PGN), `90d5` (simple delay), `90b5`
//! (Bronstein), `15+10` (rapid), `3+2` (blitz).
//!
//! Unused time carries over to the next period (6.3.2): the clock adds a new
//! period's time to what is left; see [`super::clock`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The largest bare number read as minutes; larger bare numbers mean the
/// string is in seconds (see the module docs).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::time_control::TimeControl;
///
/// let bare = |s: &str| s.parse::<TimeControl>().unwrap().period(1).time;
/// assert_eq!(bare("240"), Duration::from_secs(240 * 60)); // MAX_BARE_MINUTES: minutes
/// assert_eq!(bare("241"), Duration::from_secs(241)); // above: seconds
/// ```
pub const MAX_BARE_MINUTES: u64 = 240;

/// What a player gets per move besides the period's time.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::time_control::{Bonus, TimeControl};
///
/// let bonus = |s: &str| s.parse::<TimeControl>().unwrap().period(1).bonus;
/// let five = Duration::from_secs(5);
/// assert_eq!(bonus("90+5"), Bonus::Increment(five));
/// assert_eq!(bonus("90b5"), Bonus::Bronstein(five));
/// assert_eq!(bonus("90d5"), Bonus::SimpleDelay(five));
/// assert_eq!(bonus("90+0"), Bonus::None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bonus {
    /// Nothing.
    #[default]
    None,
    /// Fischer increment: added to the player's time after each move.
    Increment(Duration),
    /// Bronstein delay: after each move the time used on it, up to this
    /// much, is given back. The main time runs from the start of the move.
    Bronstein(Duration),
    /// Simple (US) delay: the main time starts to run only after this much
    /// of each move has passed.
    SimpleDelay(Duration),
}

/// One period of a time control.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::time_control::{Bonus, Period, TimeControl};
///
/// let fide: TimeControl = "40/90+30, 30+30".parse().unwrap();
/// let thirty = Duration::from_secs(30);
/// assert_eq!(
///     fide.periods()[0],
///     Period { moves: Some(40), time: Duration::from_secs(90 * 60), bonus: Bonus::Increment(thirty) }
/// );
/// assert_eq!(fide.periods()[1].moves, None); // the rest of the game
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves of the player in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// The period's time, added to what is left when the period starts.
    pub time: Duration,
    /// Increment or delay per move of this period.
    pub bonus: Bonus,
}

/// A validated time control: at least one period, every period but the last
/// with a move count, times and bonuses in whole seconds, no period without
/// time.
///
/// Serialises as its [`Display`](fmt::Display) string, e.g. `"40/90+30, 30+30"`.
///
/// # Examples
///
/// ```
/// use tactus_rules::time_control::TimeControl;
///
/// let pgn: TimeControl = "40/5400+30:1800+30".parse().unwrap(); // seconds, PGN style
/// let fide: TimeControl = "40/90+30, 30+30".parse().unwrap(); // minutes, FIDE style
/// assert_eq!(pgn, fide);
/// assert_eq!(serde_json::to_string(&fide).unwrap(), r#""40/90+30, 30+30""#);
/// assert!("40/90, 0".parse::<TimeControl>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// Why a time control was refused; the message names the part and says what
/// was expected.
///
/// # Examples
///
/// ```
/// use tactus_rules::time_control::{TimeControl, TimeControlError};
///
/// let err = "90, 30".parse::<TimeControl>().unwrap_err();
/// assert!(matches!(err, TimeControlError::Period { period: 1, .. }));
/// assert!(err.to_string().contains("give a move count"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Nothing was given.
    #[error("empty time control: expected e.g. `90+30`, `40/90+30, 30+30` or `40/5400+30:1800+30`")]
    Empty,
    /// One period is wrong.
    #[error(
        "period {period} `{text}`: {problem}; expected `[MOVES/]TIME[+INC|dDELAY|bDELAY]`, e.g. `40/90+30`"
    )]
    Period {
        /// 1-based number of the period in the string.
        period: usize,
        /// The period as written.
        text: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A PGN tag that names no control a clock can run (`?`, `-`, `*60`):
    /// the tag and why.
    #[error("PGN time control `{0}` cannot run a clock: {1}")]
    PgnUnsupported(String, &'static str),
}

impl TimeControl {
    /// A control from its periods, checked as the type promises. A bonus of
    /// zero is no bonus (`90+0` is `90`), so each control has one value and
    /// its text parses back to it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::time_control::{Bonus, Period, TimeControl};
    ///
    /// let rapid = TimeControl::new(vec![Period {
    ///     moves: None,
    ///     time: Duration::from_secs(15 * 60),
    ///     bonus: Bonus::Increment(Duration::from_secs(10)),
    /// }])
    /// .unwrap();
    /// assert_eq!(rapid.to_string(), "15+10");
    /// assert!(TimeControl::new(vec![]).is_err());
    /// ```
    pub fn new(mut periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        for p in &mut periods {
            if bonus_time(p.bonus).is_zero() {
                p.bonus = Bonus::None;
            }
        }
        if periods.is_empty() {
            return Err(TimeControlError::Empty);
        }
        let last = periods.len() - 1;
        for (i, p) in periods.iter().enumerate() {
            let problem = if i < last && p.moves.is_none() {
                Some("only the last period may be for the rest of the game; give a move count")
            } else if p.moves == Some(0) {
                Some("a period needs at least one move")
            } else if p.time.is_zero() {
                Some("a period needs some time")
            } else if p.time.subsec_nanos() != 0 || bonus_time(p.bonus).subsec_nanos() != 0 {
                Some("times and bonuses are whole seconds")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(TimeControlError::Period {
                    period: i + 1,
                    text: DisplayPeriod(p, false).to_string(),
                    problem: problem.to_owned(),
                });
            }
        }
        Ok(TimeControl { periods })
    }

    /// The periods as given.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::time_control::TimeControl;
    ///
    /// let tc: TimeControl = "40/120, 20/60, 30".parse().unwrap();
    /// assert_eq!(tc.periods().len(), 3);
    /// ```
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// Period number `n` (1 for the first). Past the last period, a last
    /// period with a move count repeats; one without is the rest of the game.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::time_control::TimeControl;
    ///
    /// // Twenty moves an hour after move 40, for as long as the game lasts.
    /// let tc: TimeControl = "40/120, 20/60".parse().unwrap();
    /// assert_eq!(tc.period(1).time, Duration::from_secs(2 * 3600));
    /// assert_eq!(tc.period(5).moves, Some(20));
    /// assert_eq!(tc.period(5).time, Duration::from_secs(3600));
    /// ```
    pub fn period(&self, n: u32) -> &Period {
        let i = (n.max(1) - 1) as usize;
        // `periods` is never empty (checked in `new`), so `last()` exists.
        match self.periods.get(i).or(self.periods.last()) {
            Some(p) => p,
            None => unreachable!("a TimeControl has at least one period"),
        }
    }

    /// Reads a PGN `TimeControl` tag (PGN standard 9.6.1, with this module's
    /// `d`/`b` delays as an extension): every bare number is seconds, periods
    /// are separated by `:`. `?` (unknown), `-` (none) and `*N` (sandclock)
    /// are refused: they cannot run this clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::time_control::TimeControl;
    ///
    /// let blitz = TimeControl::from_pgn("180+2").unwrap();
    /// assert_eq!(blitz.to_string(), "3+2");
    /// assert!(TimeControl::from_pgn("?").is_err());
    /// ```
    pub fn from_pgn(tag: &str) -> Result<TimeControl, TimeControlError> {
        let tag = tag.trim();
        match tag {
            "?" => Err(TimeControlError::PgnUnsupported(
                tag.to_owned(),
                "the control is unknown",
            )),
            "-" => Err(TimeControlError::PgnUnsupported(
                tag.to_owned(),
                "the game has no time control",
            )),
            t if t.starts_with('*') => Err(TimeControlError::PgnUnsupported(
                tag.to_owned(),
                "sandclock controls are not supported",
            )),
            _ => parse(tag, Some(Unit::Second)),
        }
    }

    /// The PGN `TimeControl` tag: `40/5400+30:1800+30`. PGN has no notation
    /// for delays; they are written with this module's `d`/`b` extension
    /// (`5400d5`), which [`from_pgn`](TimeControl::from_pgn) reads back.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::time_control::TimeControl;
    ///
    /// let tc: TimeControl = "40/90+30, 30+30".parse().unwrap();
    /// assert_eq!(tc.to_pgn(), "40/5400+30:1800+30");
    /// assert_eq!(TimeControl::from_pgn(&tc.to_pgn()).unwrap(), tc);
    /// ```
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                s.push(':');
            }
            if let Some(m) = p.moves {
                s.push_str(&format!("{m}/"));
            }
            s.push_str(&p.time.as_secs().to_string());
            push_bonus(&mut s, p.bonus);
        }
        s
    }
}

fn bonus_time(b: Bonus) -> Duration {
    match b {
        Bonus::None => Duration::ZERO,
        Bonus::Increment(d) | Bonus::Bronstein(d) | Bonus::SimpleDelay(d) => d,
    }
}

fn push_bonus(s: &mut String, b: Bonus) {
    match b {
        Bonus::None => {}
        Bonus::Increment(d) if d.is_zero() => {}
        Bonus::Increment(d) => s.push_str(&format!("+{}", d.as_secs())),
        Bonus::Bronstein(d) => s.push_str(&format!("b{}", d.as_secs())),
        Bonus::SimpleDelay(d) => s.push_str(&format!("d{}", d.as_secs())),
    }
}

/// A period in the human syntax; `bare_minutes` false writes every time with
/// an explicit unit (for error messages, where the string's rule is unknown).
struct DisplayPeriod<'a>(&'a Period, bool);

impl fmt::Display for DisplayPeriod<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        if let Some(m) = p.moves {
            write!(f, "{m}/")?;
        }
        let secs = p.time.as_secs();
        let minutes = secs / 60;
        // A bare number above MAX_BARE_MINUTES would turn the whole string
        // into seconds, so such times carry their unit.
        if self.1 && secs.is_multiple_of(60) && minutes <= MAX_BARE_MINUTES {
            write!(f, "{minutes}")?;
        } else if secs.is_multiple_of(60) {
            write!(f, "{minutes}m")?;
        } else {
            write!(f, "{secs}s")?;
        }
        let mut s = String::new();
        push_bonus(&mut s, p.bonus);
        f.write_str(&s)
    }
}

/// The human syntax, FIDE style: `40/90+30, 30+30`. Parses back to the same
/// control.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", DisplayPeriod(p, true))?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads the syntax of the module docs.
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        parse(s, None)
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;

    fn try_from(s: String) -> Result<TimeControl, TimeControlError> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Hour,
    Minute,
    Second,
}

impl Unit {
    fn secs(self) -> u64 {
        match self {
            Unit::Hour => 3600,
            Unit::Minute => 60,
            Unit::Second => 1,
        }
    }
}

/// A period split into its parts, numbers not yet scaled.
struct RawPeriod<'a> {
    text: &'a str,
    moves: Option<u32>,
    time: u64,
    unit: Option<Unit>,
    bonus: Option<(char, u64)>,
}

fn parse(s: &str, bare: Option<Unit>) -> Result<TimeControl, TimeControlError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(TimeControlError::Empty);
    }
    let raw: Vec<RawPeriod> = s
        .split([',', ':'])
        .enumerate()
        .map(|(i, text)| split_period(i + 1, text.trim()))
        .collect::<Result<_, _>>()?;
    let bare = bare.unwrap_or_else(|| {
        let seconds = s.contains(':')
            || raw
                .iter()
                .any(|p| p.unit.is_none() && p.time > MAX_BARE_MINUTES);
        if seconds { Unit::Second } else { Unit::Minute }
    });
    let mut periods = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let err = |problem: &str| TimeControlError::Period {
            period: i + 1,
            text: p.text.to_owned(),
            problem: problem.to_owned(),
        };
        let secs = p
            .time
            .checked_mul(p.unit.unwrap_or(bare).secs())
            .ok_or_else(|| err("the time is too large"))?;
        let time = Duration::from_secs(secs);
        let bonus = match p.bonus {
            None => Bonus::None,
            Some(('+', n)) => Bonus::Increment(Duration::from_secs(n)),
            Some(('b', n)) => Bonus::Bronstein(Duration::from_secs(n)),
            Some((_, n)) => Bonus::SimpleDelay(Duration::from_secs(n)),
        };
        periods.push(Period {
            moves: p.moves,
            time,
            bonus,
        });
    }
    TimeControl::new(periods).map_err(|e| match e {
        // Name the period as the user wrote it, not as re-rendered.
        TimeControlError::Period {
            period, problem, ..
        } => TimeControlError::Period {
            period,
            text: raw
                .get(period - 1)
                .map_or_else(String::new, |p| p.text.to_owned()),
            problem,
        },
        other => other,
    })
}

fn split_period(n: usize, text: &str) -> Result<RawPeriod<'_>, TimeControlError> {
    let err = |problem: String| TimeControlError::Period {
        period: n,
        text: text.to_owned(),
        problem,
    };
    if text.is_empty() {
        return Err(err("the period is empty".to_owned()));
    }
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            let m = number(m.trim())
                .ok_or_else(|| err(format!("`{}` before `/` is not a move count", m.trim())))?;
            let m = u32::try_from(m).map_err(|_| err("the move count is too large".to_owned()))?;
            (Some(m), rest.trim())
        }
        None => (None, text),
    };
    // TIME runs up to the first bonus sign.
    let cut = rest.find(['+', 'b', 'd']).unwrap_or(rest.len());
    let (time_text, bonus_text) = rest.split_at(cut);
    let time_text = time_text.trim();
    let (digits, unit) = match time_text.char_indices().last() {
        Some((i, 'h')) => (&time_text[..i], Some(Unit::Hour)),
        Some((i, 'm')) => (&time_text[..i], Some(Unit::Minute)),
        Some((i, 's')) => (&time_text[..i], Some(Unit::Second)),
        _ => (time_text, None),
    };
    let time = number(digits.trim()).ok_or_else(|| {
        err(format!(
            "`{time_text}` is not a time: expected a whole number, optionally with `h`, `m` or `s`"
        ))
    })?;
    let bonus = match bonus_text.chars().next() {
        None => None,
        Some(sign) => {
            let amount = bonus_text[sign.len_utf8()..].trim();
            let amount = amount.strip_suffix('s').unwrap_or(amount).trim();
            let n = number(amount).ok_or_else(|| {
                err(format!(
                    "`{bonus_text}` is not a bonus: expected `+N` (increment), `bN` (Bronstein) or `dN` (delay), N whole seconds"
                ))
            })?;
            Some((sign, n))
        }
    };
    Ok(RawPeriod {
        text,
        moves,
        time,
        unit,
        bonus,
    })
}

/// A whole number written in ASCII digits only (no sign, no spaces).
fn number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mins(m: u64) -> Duration {
        Duration::from_secs(m * 60)
    }
    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }
    fn tc(s: &str) -> TimeControl {
        match s.parse() {
            Ok(tc) => tc,
            Err(e) => panic!("{s}: {e}"),
        }
    }
    fn one(time: Duration, bonus: Bonus) -> Vec<Period> {
        vec![Period {
            moves: None,
            time,
            bonus,
        }]
    }

    #[test]
    fn sudden_death_in_minutes_and_pgn_seconds() {
        assert_eq!(tc("90").periods(), one(mins(90), Bonus::None));
        assert_eq!(tc("5400").periods(), one(mins(90), Bonus::None));
        assert_eq!(tc("90m").periods(), one(mins(90), Bonus::None));
        assert_eq!(tc("2h").periods(), one(mins(120), Bonus::None));
        assert_eq!(tc("180s").periods(), one(mins(3), Bonus::None));
        // The documented boundary: 240 is minutes, 241 seconds.
        assert_eq!(tc("240").periods(), one(mins(240), Bonus::None));
        assert_eq!(tc("241").periods(), one(secs(241), Bonus::None));
        assert_eq!(tc("180").periods(), one(mins(180), Bonus::None));
    }

    /// Found by the `time_control` fuzz target: `90+0` was shown as `90`,
    /// which parsed to a different value.
    #[test]
    fn a_zero_bonus_is_no_bonus_and_round_trips() {
        for s in ["90+0", "90d0", "90b0s", "90"] {
            let t = tc(s);
            assert_eq!(t.periods(), one(mins(90), Bonus::None), "{s}");
            assert_eq!(t.to_string().parse(), Ok(t.clone()));
            assert_eq!(TimeControl::from_pgn(&t.to_pgn()), Ok(t));
        }
    }

    #[test]
    fn increments_rapid_and_blitz() {
        let inc = |s| Bonus::Increment(secs(s));
        assert_eq!(tc("90+30").periods(), one(mins(90), inc(30)));
        assert_eq!(tc("5400+30").periods(), one(mins(90), inc(30)));
        assert_eq!(tc("15+10").periods(), one(mins(15), inc(10)));
        assert_eq!(tc("3+2").periods(), one(mins(3), inc(2)));
        assert_eq!(tc("3 + 2s").periods(), one(mins(3), inc(2)));
        assert_eq!(
            TimeControl::from_pgn("180+2").map(|t| t.periods().to_vec()),
            Ok(one(mins(3), inc(2)))
        );
    }

    #[test]
    fn delays() {
        assert_eq!(
            tc("90d5").periods(),
            one(mins(90), Bonus::SimpleDelay(secs(5)))
        );
        assert_eq!(
            tc("90b5").periods(),
            one(mins(90), Bonus::Bronstein(secs(5)))
        );
        assert_eq!(
            tc("5400d5").periods(),
            one(mins(90), Bonus::SimpleDelay(secs(5)))
        );
    }

    #[test]
    fn fide_classical_in_both_styles() {
        let want = vec![
            Period {
                moves: Some(40),
                time: mins(90),
                bonus: Bonus::Increment(secs(30)),
            },
            Period {
                moves: None,
                time: mins(30),
                bonus: Bonus::Increment(secs(30)),
            },
        ];
        assert_eq!(tc("40/90+30, 30+30").periods(), want);
        assert_eq!(tc("40/5400+30:1800+30").periods(), want);
        assert_eq!(
            TimeControl::from_pgn("40/5400+30:1800+30").map(|t| t.periods().to_vec()),
            Ok(want.clone())
        );
        // Seconds by magnitude for the whole string, even with `,`.
        assert_eq!(tc("40/5400+30, 1800+30").periods(), want);
        assert_eq!(tc("40/5400+30:1800+30").to_pgn(), "40/5400+30:1800+30");
        assert_eq!(tc("40/90+30, 30+30").to_string(), "40/90+30, 30+30");
    }

    #[test]
    fn last_period_with_moves_repeats() {
        let t = tc("40/120, 20/60");
        assert_eq!(t.period(1).moves, Some(40));
        assert_eq!(t.period(2).time, mins(60));
        assert_eq!(t.period(7).time, mins(60));
        assert_eq!(t.period(0).moves, Some(40));
    }

    #[test]
    fn display_pgn_and_serde_round_trip() {
        for s in [
            "90",
            "90+30",
            "40/90+30, 30+30",
            "40/120, 20/60, 30",
            "90d5",
            "90b5",
            "15+10",
            "3+2",
            "45s+1",
            "300m",
            "2h",
            "40/5400+30:1800+30",
            "1s",
        ] {
            let t = tc(s);
            assert_eq!(tc(&t.to_string()), t, "display of {s}: {t}");
            assert_eq!(
                TimeControl::from_pgn(&t.to_pgn()),
                Ok(t.clone()),
                "pgn of {s}"
            );
            let json = serde_json::to_string(&t).unwrap_or_default();
            assert_eq!(json, format!("\"{t}\""));
            let back: TimeControl = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, t);
        }
        assert_eq!(tc("300m").to_string(), "300m");
        assert_eq!(tc("45s+1").to_string(), "45s+1");
        assert_eq!(tc("90b5").to_pgn(), "5400b5");
    }

    #[test]
    fn bad_controls_say_what_and_where() {
        for (s, needle) in [
            ("", "empty"),
            ("   ", "empty"),
            ("abc", "period 1 `abc`"),
            ("90+", "`+` is not a bonus"),
            ("90+x", "`+x` is not a bonus"),
            ("90, 30", "period 1 `90`: only the last period"),
            ("40/90, ", "period 2 ``: the period is empty"),
            ("0", "needs some time"),
            ("0/90", "at least one move"),
            ("x/90", "`x` before `/`"),
            ("-5", "`-5` is not a time"),
            ("90q", "`90q` is not a time"),
            ("90+5d3", "`+5d3` is not a bonus"),
            ("99999999999999999999", "is not a time"),
            ("40/90+30, 30+30,", "period 3"),
        ] {
            match s.parse::<TimeControl>() {
                Ok(t) => panic!("{s:?} parsed as {t}"),
                Err(e) => assert!(e.to_string().contains(needle), "{s:?}: {e}"),
            }
        }
        for s in ["?", "-", "*180"] {
            assert!(TimeControl::from_pgn(s).is_err(), "{s}");
        }
        assert!(serde_json::from_str::<TimeControl>("\"90+\"").is_err());
    }
}
