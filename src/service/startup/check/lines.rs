//! The report's lines: one checked part each, what it was, whether it is
//! ready for play and what was found, as the JSON and the terminal show
//! them.

use serde::Serialize;

use crate::table::id::TableId;

use super::faults::Finding;

/// One checked part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The table (`null`: the venue as a whole).
    pub table: Option<TableId>,
    /// What was checked.
    pub part: Part,
    /// Whether the part is ready for play.
    pub ok: bool,
    /// What was found, in words: what works, or what is wrong and where.
    pub text: String,
}

/// A part of the hall `tactus check` tries; written in the JSON and on the
/// arbiter's page as its words (`opponent board`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Part {
    #[serde(rename = "board")]
    Board,
    #[serde(rename = "opponent board")]
    OpponentBoard,
    #[serde(rename = "sound")]
    Sound,
    #[serde(rename = "braille")]
    Braille,
    #[serde(rename = "voice")]
    Voice,
    #[serde(rename = "data")]
    Data,
    #[serde(rename = "listen")]
    Listen,
    #[serde(rename = "pages")]
    Pages,
    #[serde(rename = "https")]
    Https,
}

impl Part {
    /// The part in words, as the JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Board => "board",
            Part::OpponentBoard => "opponent board",
            Part::Sound => "sound",
            Part::Braille => "braille",
            Part::Voice => "voice",
            Part::Data => "data",
            Part::Listen => "listen",
            Part::Pages => "pages",
            Part::Https => "https",
        }
    }
}

impl Line {
    pub(super) fn new(table: Option<&TableId>, part: Part, result: Finding) -> Line {
        let (ok, text) = match result {
            Ok(t) => (true, t),
            Err(fault) => (false, fault.to_string()),
        };
        Line {
            table: table.cloned(),
            part,
            ok,
            text,
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scope = match &self.table {
            Some(t) => format!("table {t}"),
            None => "venue".to_owned(),
        };
        let verdict = if self.ok { "ok" } else { "FAIL" };
        write!(
            f,
            "{scope:<10} {:<15} {verdict:<5} {}",
            self.part.as_str(),
            self.text
        )
    }
}
