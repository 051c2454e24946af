//! Each table's speaking rate, as the arbiter set it on their page
//! (`POST /api/tables/{id}/rate`): the table's pack loaded again at that
//! rate, the pitch kept, and the choice journaled as one document, so a
//! restart speaks at the same rate.

use crate::service::store::journal::JournalHandle;
use crate::service::store::journaled_map::JournaledMap;
use crate::table::id::TableId;

/// The name the tables' rates are kept under in the journal.
pub const RATES_DOCUMENT: &str = "table-rates";

/// What the log calls them if their document no longer reads.
const WHAT: &str = "the tables' rates (every table then at the venue's rate)";

/// The rates set, by table, journaled.
pub type TableRates = JournaledMap<TableId, f32>;

/// The rates of the journal's document `kept`, kept in `journal` (none:
/// not kept, for tests of the web layer alone).
pub fn table_rates(kept: Option<Vec<u8>>, journal: Option<JournalHandle>) -> TableRates {
    JournaledMap::new(RATES_DOCUMENT, kept, WHAT, journal)
}
