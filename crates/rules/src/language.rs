//! The languages tactus knows: one type for the sheet's piece letters
//! ([`super::notation::Lang`]), the pages' catalogues
//! ([`Language::has_catalogue`]), a voice pack's words and the braille
//! record's labels and liblouis table.
//!
//! A language is written as its ISO 639-1 code (`en`, `de`, ...) on the
//! command line, in JSON and in a venue file. Tags from elsewhere (a voice
//! pack's manifest, `Accept-Language`, a POSIX locale such as `de_AT.UTF-8`)
//! are read by [`Language::from_tag`], which looks at the first part only.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the languages tactus has piece letters, words or a braille table
/// for.
///
/// # Examples
///
/// ```
/// use tactus_rules::language::Language;
///
/// assert_eq!("de".parse::<Language>(), Ok(Language::De));
/// assert_eq!(Language::Cs.to_string(), "cs");
/// assert_eq!(serde_json::to_string(&Language::Pl).unwrap(), r#""pl""#);
/// assert_eq!(Language::from_tag("de_AT.UTF-8"), Some(Language::De));
/// assert_eq!(Language::from_tag("ru-RU"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English.
    #[default]
    En,
    /// German.
    De,
    /// Spanish.
    Es,
    /// French.
    Fr,
    /// Dutch.
    Nl,
    /// Portuguese.
    Pt,
    /// Polish.
    Pl,
    /// Czech.
    Cs,
}

impl Language {
    /// Every language, English first.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    ///
    /// assert_eq!(Language::ALL.len(), 8);
    /// assert_eq!(Language::ALL[0], Language::default());
    /// ```
    pub const ALL: [Language; 8] = [
        Language::En,
        Language::De,
        Language::Es,
        Language::Fr,
        Language::Nl,
        Language::Pt,
        Language::Pl,
        Language::Cs,
    ];

    /// The languages whose pages have a catalogue (`pages/locales/*.ftl`),
    /// the first the fallback.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    ///
    /// assert_eq!(Language::WITH_CATALOGUE[0], Language::En);
    /// ```
    pub const WITH_CATALOGUE: [Language; 3] = [Language::En, Language::Es, Language::De];

    /// The ISO 639-1 code (`en`, `de`, ...).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    ///
    /// assert_eq!(Language::Nl.code(), "nl");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
            Language::Es => "es",
            Language::Fr => "fr",
            Language::Nl => "nl",
            Language::Pt => "pt",
            Language::Pl => "pl",
            Language::Cs => "cs",
        }
    }

    /// The language of a BCP-47 (`de-AT`) or POSIX (`de_AT.UTF-8`) tag: its
    /// first part, in any case; `None` for a language tactus does not know.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    ///
    /// assert_eq!(Language::from_tag("es-419"), Some(Language::Es));
    /// assert_eq!(Language::from_tag("PL_pl"), Some(Language::Pl));
    /// assert_eq!(Language::from_tag("it"), None);
    /// ```
    pub fn from_tag(tag: &str) -> Option<Language> {
        tag.split(['-', '_']).next().unwrap_or(tag).parse().ok()
    }

    /// Whether the pages have a catalogue in this language.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    ///
    /// assert!(Language::Es.has_catalogue());
    /// assert!(!Language::Fr.has_catalogue());
    /// ```
    pub fn has_catalogue(self) -> bool {
        Language::WITH_CATALOGUE.contains(&self)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A code that is none of [`Language::ALL`].
///
/// # Examples
///
/// ```
/// use tactus_rules::language::{Language, UnknownLanguage};
///
/// assert_eq!("ru".parse::<Language>(), Err(UnknownLanguage("ru".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language `{0}`: expected en, de, es, fr, nl, pt, pl or cs")]
pub struct UnknownLanguage(pub String);

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// A code in any case (`DE` is German).
    fn from_str(s: &str) -> Result<Language, UnknownLanguage> {
        Language::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownLanguage(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        for l in Language::ALL {
            assert_eq!(l.code().parse::<Language>(), Ok(l));
            assert_eq!(l.code().to_ascii_uppercase().parse::<Language>(), Ok(l));
            let json = serde_json::to_string(&l).unwrap();
            assert_eq!(json, format!("\"{l}\""));
            assert_eq!(serde_json::from_str::<Language>(&json).unwrap(), l);
        }
    }

    #[test]
    fn tags_by_their_first_part() {
        assert_eq!(Language::from_tag("es-ES"), Some(Language::Es));
        assert_eq!(Language::from_tag("de_AT"), Some(Language::De));
        assert_eq!(Language::from_tag("EN"), Some(Language::En));
        assert_eq!(Language::from_tag("pt_BR.UTF-8"), Some(Language::Pt));
        assert_eq!(Language::from_tag(" de"), None);
        assert_eq!(Language::from_tag("xx"), None);
        assert_eq!(Language::from_tag(""), None);
        assert_eq!(Language::from_tag("-"), None);
    }
}
