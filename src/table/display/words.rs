//! Words on the display: text in the literary braille of the table's
//! language, through liblouis.

use std::sync::atomic::{AtomicBool, Ordering};

use tactus_braille::louis;
use tactus_rules::language::Language;

use super::slot::Content;

/// Words on the display: literary braille of the table's language through
/// liblouis, uncontracted (`louis::table_for`). Should liblouis fail (its
/// tables not installed), the text goes to brltty, which shows it with its
/// own text table: the display still says something.
pub(super) struct Words {
    table: &'static str,
    reported: AtomicBool,
    id: String,
}

impl Words {
    /// `tag`: the voice pack's language tag; one tactus does not know is
    /// read as English.
    pub(super) fn new(id: &str, tag: &str) -> Words {
        Words {
            table: louis::table_for(Language::from_tag(tag).unwrap_or_default()),
            reported: AtomicBool::new(false),
            id: id.to_owned(),
        }
    }

    pub(super) fn content(&self, text: &str) -> Content {
        match louis::translate(self.table, text) {
            Ok(cells) => Content::Dots(cells),
            Err(e) => {
                if !self.reported.swap(true, Ordering::Relaxed) {
                    tracing::warn!(table = %self.id, "braille display: {e}; showing text through brltty");
                }
                Content::Text(text.to_owned())
            }
        }
    }
}
