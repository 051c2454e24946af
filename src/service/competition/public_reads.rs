//! The competition's public reads, computed once per change: the TRF with
//! every result written in, and the standings drawn from it. A 2 MB TRF
//! with 40 results took 3 s of a worker per anonymous request, and eight
//! such requests held a table's read for 8.8 s; now the first request
//! after a change computes on the blocking pool (`service::blocking`), one
//! at a time, and every other is answered from what it left.
//!
//! What the reads depend on is fingerprinted: the imported file's
//! generation (one more at each import) and every game's listing (table,
//! game, round, names, ranks, state, result, forfeit, moves). Anything else
//! changing is not a change of these reads.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use super::Standing;
use crate::service::competition::views::GameListed;

/// The fingerprint of what the public reads depend on.
pub(super) fn fingerprint(generation: u64, games: &[(GameListed, String)]) -> u64 {
    let mut h = DefaultHasher::new();
    generation.hash(&mut h);
    for (g, _) in games {
        // The listing as the API writes it: every field that may change.
        serde_json::to_vec(g).unwrap_or_default().hash(&mut h);
    }
    h.finish()
}

/// What was computed for one fingerprint.
#[derive(Default, Clone)]
pub(super) struct Computed {
    pub trf: Option<Arc<Vec<u8>>>,
    pub standings: Option<Arc<Vec<Standing>>>,
}

/// The last fingerprint's reads. Held (an async lock) while one is being
/// computed: the requests that come meanwhile wait for it, not beside it.
#[derive(Default)]
pub(super) struct PublicReads {
    last: tokio::sync::Mutex<(u64, Computed)>,
}

impl PublicReads {
    /// The reads of fingerprint `key`, as far as computed, with the lock
    /// held: the caller computes what is missing and puts it back.
    pub async fn at(&self, key: u64) -> tokio::sync::MutexGuard<'_, (u64, Computed)> {
        let mut last = self.last.lock().await;
        if last.0 != key {
            *last = (key, Computed::default());
        }
        last
    }
}
