//! Each table's speaking rate, as the arbiter set it on their page
//! (`POST /api/tables/{id}/rate`): the table's pack loaded again at that
//! rate, the pitch kept, and the choice journaled as one document, so a
//! restart speaks at the same rate.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::journal::{JournalError, JournalHandle};
use crate::table::id::TableId;

/// The name the tables' rates are kept under in the journal.
pub const RATES_DOCUMENT: &str = "table-rates";

/// The rates set, by table, and where they are kept.
pub struct TableRates {
    all: Mutex<BTreeMap<TableId, f32>>,
    journal: Option<JournalHandle>,
}

impl TableRates {
    /// The rates the journal's document `kept` holds (none if it does not
    /// read: every table at the venue's rate).
    pub fn new(kept: Option<Vec<u8>>, journal: JournalHandle) -> TableRates {
        TableRates {
            all: Mutex::new(read(kept)),
            journal: Some(journal),
        }
    }

    /// The rates journaled, read before the tables start.
    pub fn kept(kept: Option<Vec<u8>>) -> BTreeMap<TableId, f32> {
        read(kept)
    }

    /// Records table `id`'s rate, journaled before it answers.
    pub async fn set(&self, id: &TableId, rate: f32) -> Result<(), JournalError> {
        let mut next = self.all.lock().unwrap_or_else(|e| e.into_inner()).clone();
        next.insert(id.clone(), rate);
        if let Some(journal) = &self.journal {
            let bytes = serde_json::to_vec(&next).unwrap_or_default();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            journal.put_document(RATES_DOCUMENT, now, bytes).await?;
        }
        *self.all.lock().unwrap_or_else(|e| e.into_inner()) = next;
        Ok(())
    }
}

impl Default for TableRates {
    /// No rate set and none kept (tests of the web layer alone).
    fn default() -> TableRates {
        TableRates {
            all: Mutex::new(BTreeMap::new()),
            journal: None,
        }
    }
}

fn read(kept: Option<Vec<u8>>) -> BTreeMap<TableId, f32> {
    kept.and_then(|bytes| match serde_json::from_slice(&bytes) {
        Ok(rates) => Some(rates),
        Err(e) => {
            tracing::warn!("the tables' rates in the journal do not read ({e}): every table at the venue's rate");
            None
        }
    })
    .unwrap_or_default()
}
