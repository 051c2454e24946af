//! A table's id, checked once where it enters (configuration, journal, URL)
//! so that everything after can put it in a path, a file name, a log line
//! or a page without escaping.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The longest id.
pub const MAX_LEN: usize = 32;

/// A table's id: 1 to 32 ASCII letters, digits, `-` or `_`.
///
/// ```
/// use tactus::table::id::TableId;
///
/// let id: TableId = "board-7".parse().unwrap();
/// assert_eq!(id.as_str(), "board-7");
/// assert!("a b".parse::<TableId>().is_err());
/// assert!("".parse::<TableId>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TableId(String);

/// Why a text is not a table id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("table id `{0}`: use 1 to {MAX_LEN} letters, digits, `-` or `_`")]
pub struct BadTableId(pub String);

impl TableId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for TableId {
    type Error = BadTableId;

    fn try_from(text: String) -> Result<TableId, BadTableId> {
        let valid = !text.is_empty()
            && text.len() <= MAX_LEN
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if valid {
            Ok(TableId(text))
        } else {
            // Shown back to people: cut to a length a message can carry.
            Err(BadTableId(text.chars().take(2 * MAX_LEN).collect()))
        }
    }
}

impl FromStr for TableId {
    type Err = BadTableId;

    fn from_str(text: &str) -> Result<TableId, BadTableId> {
        TableId::try_from(text.to_owned())
    }
}

impl From<TableId> for String {
    fn from(id: TableId) -> String {
        id.0
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Deref for TableId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for TableId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Lets a map keyed by ids be looked up with the text of a URL.
impl Borrow<str> for TableId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_on_every_way_in() {
        for good in ["1", "A-b_9", &"x".repeat(MAX_LEN)] {
            assert_eq!(good.parse::<TableId>().unwrap().as_str(), good);
        }
        for bad in ["", "a b", "a/b", "ä", "<script>", &"x".repeat(MAX_LEN + 1)] {
            let e = bad.parse::<TableId>().unwrap_err();
            assert!(e.to_string().contains("use 1 to 32"), "{e}");
        }
        let id: TableId = serde_json::from_str(r#""t-1""#).unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""t-1""#);
        let e = serde_json::from_str::<TableId>(r#""t 1""#).unwrap_err();
        assert!(e.to_string().contains("table id `t 1`"), "{e}");
    }
}
