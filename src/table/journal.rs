//! What a table needs of a journal, as an interface of the table's own: the
//! service's SQLite journal implements it, so the table never names the
//! layer above it.
//!
//! Every change at a table is journaled before it takes effect (see
//! `actor.rs`); at start-up the table's records are replayed (`replay.rs`).

use futures_util::future::BoxFuture;

use super::id::TableId;

/// One stored entry of a table's journal, as read back at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Position in the journal, increasing across all tables.
    pub seq: i64,
    pub table: TableId,
    /// The table's game (1, 2, …): a table plays one game per round, and
    /// a round may hold a second (a replayed or tie-break game).
    pub game: u32,
    /// Milliseconds on the service's clock when the event happened.
    pub at_ms: i64,
    /// The event as JSON (the table's event type decides its shape).
    pub payload: String,
}

/// Why an entry was not journaled; the table then changes nothing.
/// Its message is the journal's own.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotJournaled(pub Box<dyn std::error::Error + Send + Sync>);

/// Where a table writes its journal.
pub trait TableJournal: Send + Sync {
    /// Appends one entry of `table`'s game `game` and resolves once it is
    /// committed, with its position in the journal.
    fn append<'a>(
        &'a self,
        table: &'a TableId,
        game: u32,
        at_ms: i64,
        payload: String,
    ) -> BoxFuture<'a, Result<i64, NotJournaled>>;

    /// Notes, without waiting, that `table`'s clock runs at `at_ms`: a
    /// restart pauses the clock at the last such instant.
    fn alive(&self, table: &TableId, at_ms: i64);

    /// The journal's last error while writes fail (shown as an alert);
    /// `None` while they succeed.
    fn failing(&self) -> Option<String>;
}
