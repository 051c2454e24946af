//! The two sides by name, `"white"` and `"black"`: in the journal, the JSON
//! API, the configuration and the command line (shakmaty's `Color` has no
//! serde support of its own).

use serde::{Deserialize, Deserializer, Serializer};
use shakmaty::Color;

/// `"white"` or `"black"`.
pub fn name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A side's name that is neither `white` nor `black` (names are lower
/// case, as the journal and the API write them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown side `{0}`: expected `white` or `black`")]
pub struct UnknownSide(pub String);

/// The side named `s`.
pub fn parse(s: &str) -> Result<Color, UnknownSide> {
    match s {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(UnknownSide(other.to_owned())),
    }
}

/// Serde: `#[serde(with = "crate::rules::side")]`.
pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(name(*c))
}

/// Serde: `#[serde(with = "crate::rules::side")]`.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
    parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// Serde for a square as its name (`e4`):
/// `#[serde(serialize_with = "crate::rules::side::serialize_square")]`.
pub fn serialize_square<S: Serializer>(sq: &shakmaty::Square, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for c in Color::ALL {
            assert_eq!(parse(name(c)), Ok(c));
        }
        assert_eq!(parse("White"), Err(UnknownSide("White".into())));
        assert!(
            parse("White")
                .unwrap_err()
                .to_string()
                .contains("`white` or `black`")
        );
    }
}
