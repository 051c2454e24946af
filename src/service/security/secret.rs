//! A secret: an access token or the key the second blind player's tokens
//! are derived from. Compared only in constant time (and equal only so),
//! never in a log or a panic (`Debug` says `Secret(..)`), and generated in
//! one place. Its text leaves the type only through [`Secret::expose`], for
//! the links the organiser hands out and the file that keeps them.

use std::fmt;

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// A new random secret: 16 bytes from the system's source, as 32 hex
    /// digits.
    pub fn generate() -> Result<Secret, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Secret(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A secret made elsewhere (a player's code, a derived token).
    pub fn new(text: String) -> Secret {
        Secret(text)
    }

    /// Whether `presented` is this secret, compared in constant time: the
    /// time taken says nothing of how much of a guess was right.
    pub fn matches(&self, presented: &str) -> bool {
        bool::from(self.0.as_bytes().ct_eq(presented.as_bytes()))
    }

    /// The secret's text, for a link handed to its holder or the file
    /// that keeps it: never for a log.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Secret) -> bool {
        self.matches(&other.0)
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_matches_only_itself_and_never_shows_in_debug() {
        let s = Secret::generate().unwrap();
        assert_eq!(s.expose().len(), 32);
        assert!(s.matches(s.expose()));
        assert!(!s.matches(&s.expose()[..31]));
        assert!(!s.matches(""));
        assert_ne!(s, Secret::generate().unwrap());
        let shown = format!("{s:?} {:?}", vec![s.clone()]);
        assert!(!shown.contains(s.expose()), "{shown}");
    }
}
