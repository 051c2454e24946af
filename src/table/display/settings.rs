//! The table's braille settings: `braille` (which display, if any:
//! [`BrailleSpec`]) and `braille_shows` (what a move looks like on it:
//! [`BrailleShows`]).

use std::str::FromStr;

use serde::Deserialize;

/// The table setting `braille`: `none`, `brlapi` (the brltty on the
/// server) or `brlapi:HOST:PORT` (a brltty elsewhere, e.g. on the player's
/// own computer; PORT is BrlAPI's number, TCP port 4101 + PORT).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum BrailleSpec {
    #[default]
    None,
    Brlapi(Option<String>),
}

/// A `braille` setting that is none of the three forms, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("braille `{0}`: none, brlapi or brlapi:HOST:PORT (PORT a number)")]
pub struct BadBrailleSpec(pub String);

impl FromStr for BrailleSpec {
    type Err = BadBrailleSpec;
    fn from_str(s: &str) -> Result<BrailleSpec, BadBrailleSpec> {
        match s {
            "none" => Ok(BrailleSpec::None),
            "brlapi" => Ok(BrailleSpec::Brlapi(None)),
            _ => {
                let bad = || BadBrailleSpec(s.to_owned());
                let rest = s.strip_prefix("brlapi:").ok_or_else(bad)?;
                let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
                if host.is_empty() || port.parse::<u16>().is_err() {
                    return Err(bad());
                }
                Ok(BrailleSpec::Brlapi(Some(rest.to_owned())))
            }
        }
    }
}

impl std::fmt::Display for BrailleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrailleSpec::None => f.write_str("none"),
            BrailleSpec::Brlapi(None) => f.write_str("brlapi"),
            BrailleSpec::Brlapi(Some(h)) => write!(f, "brlapi:{h}"),
        }
    }
}

/// The table setting `braille_shows`: what a move looks like on the
/// display.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrailleShows {
    /// The announcement's words, as the pack writes them, in the literary
    /// braille of the table's language (liblouis).
    #[default]
    Words,
    /// Moves in the braille chess code (`docs/braille.md`), as cells;
    /// everything else in words.
    Notation,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_and_refused() {
        assert_eq!("none".parse(), Ok(BrailleSpec::None));
        assert_eq!("brlapi".parse(), Ok(BrailleSpec::Brlapi(None)));
        assert_eq!(
            "brlapi:table3.local:1".parse(),
            Ok(BrailleSpec::Brlapi(Some("table3.local:1".into())))
        );
        assert_eq!(
            "brlapi:table3.local:1"
                .parse::<BrailleSpec>()
                .unwrap()
                .to_string(),
            "brlapi:table3.local:1"
        );
        for bad in [
            "brltty",
            "brlapi:",
            "brlapi:host",
            "brlapi::1",
            "brlapi:h:x",
        ] {
            assert!(bad.parse::<BrailleSpec>().is_err(), "{bad}");
        }
    }
}
