//! The two sides by name, `"white"` and `"black"`: in the journal, the JSON
//! API, the configuration and the command line (shakmaty's `Color` has no
//! serde support of its own).

use serde::{Deserialize, Deserializer, Serializer};
use shakmaty::Color;

/// `"white"` or `"black"`.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
/// use tactus_rules::side;
///
/// assert_eq!(side::name(Color::White), "white");
/// assert_eq!(side::name(Color::Black), "black");
/// ```
pub fn name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A side's name that is neither `white` nor `black` (names are lower
/// case, as the journal and the API write them).
///
/// # Examples
///
/// ```
/// use tactus_rules::side::{UnknownSide, parse};
///
/// assert_eq!(parse("White"), Err(UnknownSide("White".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown side `{0}`: expected `white` or `black`")]
pub struct UnknownSide(pub String);

/// The side named `s`.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
/// use tactus_rules::side;
///
/// assert_eq!(side::parse("black"), Ok(Color::Black));
/// assert!(side::parse("blue").is_err());
/// ```
pub fn parse(s: &str) -> Result<Color, UnknownSide> {
    match s {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(UnknownSide(other.to_owned())),
    }
}

/// Serde: `#[serde(with = "crate::side")]` writes a side as its
/// name.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
///
/// #[derive(serde::Serialize)]
/// struct Turn {
///     #[serde(with = "tactus_rules::side")]
///     side: Color,
/// }
/// let json = serde_json::to_string(&Turn { side: Color::Black }).unwrap();
/// assert_eq!(json, r#"{"side":"black"}"#);
/// ```
pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(name(*c))
}

/// Serde: `#[serde(with = "crate::side")]` reads a side from its
/// name, refusing any other string.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
///
/// #[derive(serde::Deserialize)]
/// struct Turn {
///     #[serde(with = "tactus_rules::side")]
///     side: Color,
/// }
/// let turn: Turn = serde_json::from_str(r#"{"side":"white"}"#).unwrap();
/// assert_eq!(turn.side, Color::White);
/// assert!(serde_json::from_str::<Turn>(r#"{"side":"White"}"#).is_err());
/// ```
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
    parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// Serde for a square as its name (`e4`):
/// `#[serde(serialize_with = "crate::side::serialize_square")]`.
///
/// # Examples
///
/// ```
/// use shakmaty::Square;
///
/// #[derive(serde::Serialize)]
/// struct Lifted {
///     #[serde(serialize_with = "tactus_rules::side::serialize_square")]
///     square: Square,
/// }
/// let json = serde_json::to_string(&Lifted { square: Square::E4 }).unwrap();
/// assert_eq!(json, r#"{"square":"e4"}"#);
/// ```
pub fn serialize_square<S: Serializer>(sq: &shakmaty::Square, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(sq)
}

/// Serde for an optional side: `#[serde(default, with = "tactus_rules::side::option")]`,
/// `null` or a side's name.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Absent {
///     #[serde(default, with = "tactus_rules::side::option")]
///     side: Option<Color>,
/// }
/// let a: Absent = serde_json::from_str(r#"{"side":"black"}"#).unwrap();
/// assert_eq!(a.side, Some(Color::Black));
/// assert_eq!(serde_json::from_str::<Absent>("{}").unwrap().side, None);
/// assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"side":"black"}"#);
/// ```
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    /// Writes `null` or the side's name.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// tactus_rules::side::option::serialize(&Some(shakmaty::Color::White), &mut json).unwrap();
    /// assert_eq!(out, br#""white""#);
    /// ```
    pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_str(super::name(*c)),
            None => s.serialize_none(),
        }
    }

    /// Reads `null` or a side's name.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut json = serde_json::Deserializer::from_str("null");
    /// assert_eq!(tactus_rules::side::option::deserialize(&mut json).unwrap(), None);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(s) => super::parse(&s).map(Some).map_err(serde::de::Error::custom),
        }
    }
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
