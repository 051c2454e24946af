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

/// Serde for a square as its name, both ways: `#[serde(with =
/// "tactus_rules::side::square")]`. A name that is no square is refused
/// naming it (`z9`), so a body's field is checked where it is read.
///
/// # Examples
///
/// ```
/// use shakmaty::Square;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Touch {
///     #[serde(with = "tactus_rules::side::square")]
///     square: Square,
/// }
/// let t: Touch = serde_json::from_str(r#"{"square":"e2"}"#).unwrap();
/// assert_eq!(t.square, Square::E2);
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"square":"e2"}"#);
/// let e = serde_json::from_str::<Touch>(r#"{"square":"z9"}"#).err().unwrap();
/// assert!(e.to_string().contains("`z9` is not a square"), "{e}");
/// ```
pub mod square {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    /// The square's name.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// tactus_rules::side::square::serialize(&shakmaty::Square::H8, &mut json).unwrap();
    /// assert_eq!(out, br#""h8""#);
    /// ```
    pub fn serialize<S: Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
        super::serialize_square(sq, s)
    }

    /// A square read from its name, in either case.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut json = serde_json::Deserializer::from_str(r#""C3""#);
    /// let sq = tactus_rules::side::square::deserialize(&mut json).unwrap();
    /// assert_eq!(sq, shakmaty::Square::C3);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = String::deserialize(d)?;
        text.trim().to_ascii_lowercase().parse().map_err(|_| {
            let shown: String = text.chars().take(20).collect();
            serde::de::Error::custom(format!("`{shown}` is not a square (a1 to h8)"))
        })
    }
}

/// Serde for a promotion's piece: `q`, `r`, `b`, `n` or the English name
/// (`queen`), any case; written as the letter. Anything else is refused
/// naming it.
///
/// # Examples
///
/// ```
/// use shakmaty::Role;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Promotion {
///     #[serde(with = "tactus_rules::side::promotion_piece")]
///     piece: Role,
/// }
/// let p: Promotion = serde_json::from_str(r#"{"piece":"Knight"}"#).unwrap();
/// assert_eq!(p.piece, Role::Knight);
/// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"piece":"n"}"#);
/// assert!(serde_json::from_str::<Promotion>(r#"{"piece":"k"}"#).is_err());
/// ```
pub mod promotion_piece {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    /// The piece's letter.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// tactus_rules::side::promotion_piece::serialize(&shakmaty::Role::Queen, &mut json).unwrap();
    /// assert_eq!(out, br#""q""#);
    /// ```
    pub fn serialize<S: Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&role.char())
    }

    /// A promotion's piece read from its letter or name.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut json = serde_json::Deserializer::from_str(r#""rook""#);
    /// let role = tactus_rules::side::promotion_piece::deserialize(&mut json).unwrap();
    /// assert_eq!(role, shakmaty::Role::Rook);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let text = String::deserialize(d)?;
        match text.trim().to_ascii_lowercase().as_str() {
            "q" | "queen" => Ok(Role::Queen),
            "r" | "rook" => Ok(Role::Rook),
            "b" | "bishop" => Ok(Role::Bishop),
            "n" | "knight" => Ok(Role::Knight),
            _ => {
                let shown: String = text.chars().take(20).collect();
                Err(serde::de::Error::custom(format!(
                    "`{shown}` is not a promotion piece: q, r, b or n"
                )))
            }
        }
    }
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

/// Serde: `#[serde(with = "tactus_rules::side::by_color")]` writes
/// shakmaty's `ByColor<T>` (which has no serde of its own) as
/// `{"white": …, "black": …}`, White first, and reads it back; each side's
/// value is `T`'s own JSON. The one per-side shape of the journal and the
/// API, so no type mirrors `ByColor` by hand to get it.
///
/// # Examples
///
/// ```
/// use shakmaty::ByColor;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Counts {
///     #[serde(with = "tactus_rules::side::by_color")]
///     illegal: ByColor<u32>,
/// }
/// let c = Counts { illegal: ByColor { white: 0, black: 2 } };
/// let json = serde_json::to_string(&c).unwrap();
/// assert_eq!(json, r#"{"illegal":{"white":0,"black":2}}"#);
/// let back: Counts = serde_json::from_str(&json).unwrap();
/// assert_eq!(back.illegal, c.illegal);
/// ```
pub mod by_color {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::ByColor;

    /// The wire shape: the two sides as fields, White first.
    #[derive(Serialize, Deserialize)]
    struct Sides<T> {
        white: T,
        black: T,
    }

    /// Writes `{"white": …, "black": …}`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// let left = shakmaty::ByColor { white: 3, black: 4 };
    /// tactus_rules::side::by_color::serialize(&left, &mut json).unwrap();
    /// assert_eq!(out, br#"{"white":3,"black":4}"#);
    /// ```
    pub fn serialize<T: Serialize, S: Serializer>(b: &ByColor<T>, s: S) -> Result<S::Ok, S::Error> {
        Sides {
            white: &b.white,
            black: &b.black,
        }
        .serialize(s)
    }

    /// Reads `{"white": …, "black": …}`: both sides must be there.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut json = serde_json::Deserializer::from_str(r#"{"white":1,"black":2}"#);
    /// let b: shakmaty::ByColor<u8> = tactus_rules::side::by_color::deserialize(&mut json).unwrap();
    /// assert_eq!((b.white, b.black), (1, 2));
    /// let mut one = serde_json::Deserializer::from_str(r#"{"white":1}"#);
    /// assert!(tactus_rules::side::by_color::deserialize::<u8, _>(&mut one).is_err());
    /// ```
    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<ByColor<T>, D::Error> {
        let Sides { white, black } = Sides::deserialize(d)?;
        Ok(ByColor { white, black })
    }
}

/// `#[serde(with = "tactus_rules::side::by_color_sparse")]` on a
/// `ByColor<Option<T>>`: `{"white": …, "black": …}`, a side that is
/// `None` left out, and read back as `None` when missing.
pub mod by_color_sparse {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::ByColor;

    /// The wire shape: each side a field when it has a value.
    #[derive(Serialize, Deserialize)]
    struct Sides<T> {
        #[serde(default = "none", skip_serializing_if = "Option::is_none")]
        white: Option<T>,
        #[serde(default = "none", skip_serializing_if = "Option::is_none")]
        black: Option<T>,
    }

    fn none<T>() -> Option<T> {
        None
    }

    /// Writes the sides that have a value.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// let ranks = shakmaty::ByColor { white: Some(3), black: None };
    /// tactus_rules::side::by_color_sparse::serialize(&ranks, &mut json).unwrap();
    /// assert_eq!(out, br#"{"white":3}"#);
    /// ```
    pub fn serialize<T: Serialize + Clone, S: Serializer>(
        b: &ByColor<Option<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        Sides {
            white: b.white.clone(),
            black: b.black.clone(),
        }
        .serialize(s)
    }

    /// Reads either side or both; a missing side is `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut json = serde_json::Deserializer::from_str(r#"{"black":8}"#);
    /// let b: shakmaty::ByColor<Option<u16>> =
    ///     tactus_rules::side::by_color_sparse::deserialize(&mut json).unwrap();
    /// assert_eq!((b.white, b.black), (None, Some(8)));
    /// ```
    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<ByColor<Option<T>>, D::Error> {
        let Sides { white, black } = Sides::deserialize(d)?;
        Ok(ByColor { white, black })
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
