//! Serde for shakmaty's types that have no serde of their own (`Square`,
//! `KnownOutcome`): written as their `Display` text and read back with their
//! `FromStr`, so the journal and the JSON API keep the text they always had
//! (`"e2"`, `"1/2-1/2"`) while the code holds the type.

use std::fmt::Display;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

/// Serde: `#[serde(with = "crate::as_text")]` writes a value as its
/// `Display` text and reads it with `FromStr`.
///
/// # Examples
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use shakmaty::{KnownOutcome, Square};
///
/// #[derive(Serialize, Deserialize)]
/// struct Touch {
///     #[serde(with = "tactus_rules::as_text")]
///     square: Square,
///     #[serde(with = "tactus_rules::as_text")]
///     result: KnownOutcome,
/// }
///
/// let t: Touch = serde_json::from_str(r#"{"square":"e2","result":"1/2-1/2"}"#).unwrap();
/// assert_eq!((t.square, t.result), (Square::E2, KnownOutcome::Draw));
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"square":"e2","result":"1/2-1/2"}"#);
/// assert!(serde_json::from_str::<Touch>(r#"{"square":"e9","result":"1-0"}"#).is_err());
/// ```
pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// Serde: reads a value from its text (see [`serialize`]); text that is not
/// one is an error quoting it with the parser's reason (`invalid square`).
///
/// # Examples
///
/// ```
/// use shakmaty::Square;
///
/// let mut json = serde_json::Deserializer::from_str(r#""h8""#);
/// let square: Square = tactus_rules::as_text::deserialize(&mut json).unwrap();
/// assert_eq!(square, Square::H8);
/// let mut json = serde_json::Deserializer::from_str(r#""h9""#);
/// let err = tactus_rules::as_text::deserialize::<Square, _>(&mut json).unwrap_err();
/// assert!(err.to_string().starts_with("`h9`: "), "{err}");
/// ```
pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(d)?;
    text.parse().map_err(|e| {
        let shown: String = text.chars().take(40).collect();
        D::Error::custom(format!("`{shown}`: {e}"))
    })
}
