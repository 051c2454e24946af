//! A round of the competition as the arbiter names it, checked once where
//! it enters (configuration, journal, request), ordered as people read
//! rounds (by number, then by name), and giving the pairing program's
//! round number when it is one.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The longest round name, in characters.
pub const MAX_CHARS: usize = 32;

/// A round's name: up to 32 characters, no spaces around, no control
/// characters; `1`, `2`, … for the rounds a pairing program numbers, any
/// other name (`tie-break`) for the rest. Empty for a game in no round (a
/// table's game the configuration sets up without one).
///
/// ```
/// use tactus::table::round::Round;
///
/// let r: Round = "3".parse().unwrap();
/// assert_eq!(r.number(), Some(3));
/// assert!("10".parse::<Round>().unwrap() > r);
/// assert!("tie-break".parse::<Round>().unwrap() > "10".parse().unwrap());
/// assert!(" 3".parse::<Round>().is_err());
/// assert!(Round::none().is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Round(String);

/// Why a text is not a round's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "round `{0}`: use up to {MAX_CHARS} characters, no spaces around and no control characters"
)]
pub struct BadRound(pub String);

impl Round {
    /// No round.
    pub fn none() -> Round {
        Round(String::new())
    }

    /// Whether this is no round.
    pub fn is_none(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The round's number as a pairing program counts rounds (1, 2, …), if
    /// its name is one.
    pub fn number(&self) -> Option<u16> {
        self.digits()
            .and_then(|n| u16::try_from(n).ok())
            .filter(|n| *n > 0)
    }

    /// The name's value when it is all digits (`+3` and ` 3` are names,
    /// not numbers), for ordering and numbering.
    fn digits(&self) -> Option<u64> {
        if !self.0.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.0.parse().ok()
    }

    /// The round numbered `n` (1, 2, …).
    pub fn numbered(n: u16) -> Round {
        Round(n.to_string())
    }
}

impl TryFrom<String> for Round {
    type Error = BadRound;

    fn try_from(text: String) -> Result<Round, BadRound> {
        let valid = text.chars().count() <= MAX_CHARS
            && text.trim() == text
            && !text.chars().any(char::is_control);
        if valid {
            Ok(Round(text))
        } else {
            // Shown back to people: cut to a length a message can carry.
            Err(BadRound(text.chars().take(2 * MAX_CHARS).collect()))
        }
    }
}

impl FromStr for Round {
    type Err = BadRound;

    fn from_str(text: &str) -> Result<Round, BadRound> {
        Round::try_from(text.to_owned())
    }
}

impl From<Round> for String {
    fn from(round: Round) -> String {
        round.0
    }
}

impl Deref for Round {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Round {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Round {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Rounds by number where they are numbers, then by name (so round 10
/// comes after round 9, and a tie-break after both).
impl Ord for Round {
    fn cmp(&self, other: &Round) -> Ordering {
        match (self.digits(), other.digits()) {
            (Some(x), Some(y)) => x.cmp(&y).then_with(|| self.0.cmp(&other.0)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => self.0.cmp(&other.0),
        }
    }
}

impl PartialOrd for Round {
    fn partial_cmp(&self, other: &Round) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_name_is_checked_where_it_enters() {
        for ok in [
            "",
            "1",
            "12",
            "tie-break",
            "Ronda 3",
            &"x".repeat(MAX_CHARS),
        ] {
            assert!(ok.parse::<Round>().is_ok(), "{ok:?}");
        }
        for bad in [" 1", "1 ", "a\nb", "\t", &"x".repeat(MAX_CHARS + 1)] {
            assert!(bad.parse::<Round>().is_err(), "{bad:?}");
        }
        // From JSON too: a journal or a body with a bad round is refused.
        assert!(serde_json::from_str::<Round>("\" 1\"").is_err());
        assert_eq!(serde_json::to_string(&Round::numbered(4)).unwrap(), "\"4\"");
    }

    #[test]
    fn rounds_are_ordered_by_number_then_by_name() {
        let mut rounds: Vec<Round> = ["10", "b", "2", "a", "1", "02"]
            .iter()
            .map(|r| r.parse().unwrap())
            .collect();
        rounds.sort();
        let names: Vec<&str> = rounds.iter().map(Round::as_str).collect();
        assert_eq!(names, ["1", "02", "2", "10", "a", "b"]);
    }

    #[test]
    fn only_a_plain_positive_number_is_a_pairing_programs_round() {
        assert_eq!("7".parse::<Round>().unwrap().number(), Some(7));
        assert_eq!("0".parse::<Round>().unwrap().number(), None);
        assert_eq!("+7".parse::<Round>().unwrap().number(), None);
        assert_eq!("70000".parse::<Round>().unwrap().number(), None);
        assert_eq!(Round::none().number(), None);
    }
}
