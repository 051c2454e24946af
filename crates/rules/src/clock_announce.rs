//! The clock announcement on request (Appendix D.2.6.1, D.2.10.4), exactly as
//! the clock section of `docs/announcements.md` says:
//! `Weiß <time> Schwarz <time> <moves>`.
//!
//! Times are floored to whole seconds, as a clock displays them: 0:09:59.4
//! is "neun Minuten neunundfünfzig Sekunden", and 0.6 s left is "null
//! Sekunden" (the flag has not fallen yet, but no whole second is left).
//!
//! Time used instead of time left (D.2.10.4 speaks of time used) is
//! [`Shown::Used`]: each side word is followed by `clock.used` ("Weiß
//! verbraucht eine Stunde ..."), so the listener cannot mistake one for the
//! other. Seconds follow the time *left* in both settings: below ten minutes
//! left a player needs them, whatever is being told.
//!
//! Nothing is said unless asked (D.2.10.4).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::grammar::{Grammar, Unit};
use super::token::{Token, Word};

/// Below this much time left, seconds are spoken.
const SECONDS_BELOW: Duration = Duration::from_secs(10 * 60);

/// Which time the announcement tells.
///
/// # Examples
///
/// ```
/// use tactus_rules::clock_announce::Shown;
///
/// assert_eq!(serde_json::to_string(&Shown::Remaining).unwrap(), r#""left""#);
/// assert_eq!(serde_json::from_str::<Shown>(r#""remaining""#).unwrap(), Shown::Remaining);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shown {
    /// The time left (the default; announcements.md). Written `left`.
    #[default]
    #[serde(rename = "left", alias = "remaining")]
    Remaining,
    /// The time used so far, each side word followed by `clock.used`.
    Used,
}

/// One player's times at the moment of the request.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock_announce::ClockReading;
///
/// let r = ClockReading::remaining(Duration::from_secs(300), Duration::from_secs(240), 12);
/// assert_eq!(r.black.remaining, Duration::from_secs(240));
/// assert_eq!(r.black.used, Duration::ZERO);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerTimes {
    /// Time left on the player's clock.
    pub remaining: Duration,
    /// Time the player's clock has run so far.
    pub used: Duration,
}

/// What the announcement is made from: both times and the move count.
/// [`super::clock::Clock::reading`] makes one; a caller without a clock
/// (`tactus say clock`) fills it in directly.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock_announce::{ClockReading, PlayerTimes};
///
/// let white = PlayerTimes { remaining: Duration::from_secs(3000), used: Duration::from_secs(600) };
/// let r = ClockReading { white, black: white, moves: 20 };
/// assert_eq!(r.white.used, Duration::from_secs(600));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClockReading {
    /// White's times.
    pub white: PlayerTimes,
    /// Black's times.
    pub black: PlayerTimes,
    /// Moves White has completed (a move is White's move and Black's reply).
    pub moves: u32,
}

impl ClockReading {
    /// A reading of the times left only (time used unknown, set to zero).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::clock_announce::ClockReading;
    ///
    /// let r = ClockReading::remaining(Duration::from_secs(60), Duration::from_secs(30), 40);
    /// assert_eq!((r.white.remaining.as_secs(), r.moves), (60, 40));
    /// ```
    pub fn remaining(white: Duration, black: Duration, moves: u32) -> ClockReading {
        ClockReading {
            white: PlayerTimes {
                remaining: white,
                used: Duration::ZERO,
            },
            black: PlayerTimes {
                remaining: black,
                used: Duration::ZERO,
            },
            moves,
        }
    }
}

/// The announcement: `Weiß <time> Schwarz <time> <moves>`, with `clock.used`
/// after each side word when `shown` is [`Shown::Used`], in the default
/// (German) grammar.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock_announce::{ClockReading, Shown, clock_tokens};
///
/// // One hour left for White, 9:05 for Black (below ten minutes: seconds too).
/// let r = ClockReading::remaining(Duration::from_secs(3600), Duration::from_secs(545), 1);
/// let keys: Vec<String> = clock_tokens(&r, Shown::Remaining).iter().map(|t| t.key()).collect();
/// assert_eq!(
///     keys,
///     [
///         "clock.white", "num.one_f", "unit.hour",
///         "clock.black", "num.9", "unit.minutes", "num.5", "unit.seconds",
///         "num.one_m", "unit.move",
///     ]
/// );
/// ```
pub fn clock_tokens(reading: &ClockReading, shown: Shown) -> Vec<Token> {
    clock_tokens_in(reading, shown, &Grammar::default())
}

/// [`clock_tokens`] in a pack's grammar (its units' genders and number
/// forms: "Blancas una hora", "treinta y un segundos").
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock_announce::{ClockReading, Shown, clock_tokens_in};
/// use tactus_rules::grammar::{Gender, Genders, Grammar};
/// use tactus_rules::token::{Form, Token};
///
/// // A grammar whose seconds are masculine and which records `num.31.m`.
/// let genders = Genders { second: Gender::Masculine, ..Genders::default() };
/// let grammar = Grammar::new(genders, [Token::NumberForm(31, Form::Masculine)]);
/// let r = ClockReading::remaining(Duration::from_secs(31), Duration::from_secs(31), 0);
/// let tokens = clock_tokens_in(&r, Shown::Remaining, &grammar);
/// assert_eq!(tokens[1], Token::NumberForm(31, Form::Masculine));
/// ```
pub fn clock_tokens_in(reading: &ClockReading, shown: Shown, grammar: &Grammar) -> Vec<Token> {
    let mut out = Vec::with_capacity(16);
    for (word, side) in [(Word::White, reading.white), (Word::Black, reading.black)] {
        out.push(Token::Word(word));
        let time = match shown {
            Shown::Remaining => side.remaining,
            Shown::Used => {
                out.push(Token::Word(Word::Used));
                side.used
            }
        };
        push_time(&mut out, time, side.remaining < SECONDS_BELOW, grammar);
    }
    push_moves(&mut out, reading.moves, grammar);
    out
}

/// A time as hours, minutes and seconds, zero parts left out; seconds only
/// if `with_seconds`, and then always (`null Sekunden` included). A time
/// that would say nothing is `null Sekunden`. Floors to whole seconds.
fn push_time(out: &mut Vec<Token>, time: Duration, with_seconds: bool, grammar: &Grammar) {
    let total = time.as_secs();
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let start = out.len();
    for (n, unit) in [(h, Unit::Hour), (m, Unit::Minute)] {
        if n > 0 {
            out.extend(grammar.count(clamp(n), unit));
        }
    }
    if with_seconds || out.len() == start {
        out.extend(grammar.count(clamp(s), Unit::Second));
    }
}

/// `ein Zug`, `null Züge`, `<n> Züge`.
fn push_moves(out: &mut Vec<Token>, moves: u32, grammar: &Grammar) {
    out.extend(grammar.count(moves, Unit::Move));
}

fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// The texts of the default voice pack, read straight from its TOML.
    fn texts() -> HashMap<String, String> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../voices/de-appendix-d/voice.toml"
        );
        let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let doc: toml::Table = toml::from_str(&src).unwrap_or_else(|e| panic!("{path}: {e}"));
        let tokens = doc
            .get("tokens")
            .and_then(toml::Value::as_table)
            .unwrap_or_else(|| panic!("{path}: no [tokens] table"));
        tokens
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.get("text")?.as_str()?.to_owned())))
            .collect()
    }

    fn say(tokens: &[Token]) -> String {
        let texts = texts();
        tokens
            .iter()
            .map(|t| {
                texts
                    .get(&t.key())
                    .unwrap_or_else(|| panic!("no text for {}", t.key()))
                    .as_str()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn hms(h: u64, m: u64, s: u64) -> Duration {
        Duration::from_secs(h * 3600 + m * 60 + s)
    }

    fn remaining(white: Duration, black: Duration, moves: u32) -> String {
        say(&clock_tokens(
            &ClockReading::remaining(white, black, moves),
            Shown::Remaining,
        ))
    }

    #[test]
    fn the_three_examples_of_the_spec() {
        assert_eq!(
            remaining(hms(1, 12, 5), hms(0, 58, 40), 23),
            "Weiß eine Stunde zwölf Minuten Schwarz achtundfünfzig Minuten dreiundzwanzig Züge"
        );
        assert_eq!(
            remaining(hms(0, 9, 0), hms(0, 0, 31), 41),
            "Weiß neun Minuten null Sekunden Schwarz einunddreißig Sekunden einundvierzig Züge"
        );
        assert_eq!(
            remaining(hms(1, 0, 0), hms(1, 30, 0), 1),
            "Weiß eine Stunde Schwarz eine Stunde dreißig Minuten ein Zug"
        );
    }

    #[test]
    fn units_zero_and_one() {
        assert_eq!(
            remaining(Duration::ZERO, hms(0, 1, 1), 0),
            "Weiß null Sekunden Schwarz eine Minute eine Sekunde null Züge"
        );
        // Ten minutes exactly: no seconds; one tick less: seconds.
        assert_eq!(
            remaining(hms(0, 10, 0), hms(2, 1, 0), 2),
            "Weiß zehn Minuten Schwarz zwei Stunden eine Minute zwei Züge"
        );
        assert_eq!(
            remaining(hms(0, 10, 0) - Duration::from_millis(1), hms(1, 0, 1), 100),
            "Weiß neun Minuten neunundfünfzig Sekunden Schwarz eine Stunde hundert Züge"
        );
        assert_eq!(
            remaining(hms(0, 0, 1), hms(0, 5, 0), 123),
            "Weiß eine Sekunde Schwarz fünf Minuten null Sekunden hundert dreiundzwanzig Züge"
        );
    }

    #[test]
    fn rounding_floors_to_whole_seconds() {
        assert_eq!(
            remaining(
                hms(0, 9, 59) + Duration::from_millis(400),
                Duration::from_millis(999),
                3
            ),
            "Weiß neun Minuten neunundfünfzig Sekunden Schwarz null Sekunden drei Züge"
        );
    }

    #[test]
    fn time_used_setting() {
        let reading = ClockReading {
            white: PlayerTimes {
                remaining: hms(0, 20, 0),
                used: hms(1, 10, 0),
            },
            black: PlayerTimes {
                remaining: hms(0, 5, 0),
                used: hms(1, 25, 7),
            },
            moves: 38,
        };
        // Seconds follow the time left: Black is below ten minutes.
        assert_eq!(
            say(&clock_tokens(&reading, Shown::Used)),
            "Weiß verbraucht eine Stunde zehn Minuten Schwarz verbraucht eine Stunde \
             fünfundzwanzig Minuten sieben Sekunden achtunddreißig Züge"
        );
        assert_eq!(
            say(&clock_tokens(&reading, Shown::Remaining)),
            "Weiß zwanzig Minuten Schwarz fünf Minuten null Sekunden achtunddreißig Züge"
        );
    }
}
