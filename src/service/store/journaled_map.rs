//! A map kept in the journal as one document (JSON): read once at start,
//! and changed only by journaling the whole next map before it takes
//! effect, so a restart finds what was answered. The players' settings and
//! the tables' speaking rates are such maps.
//!
//! Writers take turns (an async lock held across the journal's write): two
//! changes made at once are both kept, never one lost to the other's copy.
//! A document that no longer reads is said in the log and taken as empty:
//! everyone starts from the defaults rather than the server not starting.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::service::store::journal::{JournalError, JournalHandle};

/// The map, its document's name, and the journal it is kept in (none: not
/// kept, for tests of the web layer alone).
pub struct JournaledMap<K, V> {
    document: &'static str,
    all: Mutex<BTreeMap<K, V>>,
    writer: tokio::sync::Mutex<Option<JournalHandle>>,
}

impl<K, V> JournaledMap<K, V>
where
    K: Ord + Clone + Serialize + DeserializeOwned,
    V: Clone + PartialEq + Serialize + DeserializeOwned,
{
    /// The map the journal's document `kept` holds; `what` says what it is
    /// in the log if it no longer reads (taken as empty).
    pub fn read(kept: Option<Vec<u8>>, what: &str) -> BTreeMap<K, V> {
        kept.and_then(|bytes| match serde_json::from_slice(&bytes) {
            Ok(all) => Some(all),
            Err(e) => {
                tracing::warn!("{what} in the journal do not read ({e}): taken as none");
                None
            }
        })
        .unwrap_or_default()
    }

    /// The map of document `document`, as `kept`, written to `journal`.
    pub fn new(
        document: &'static str,
        kept: Option<Vec<u8>>,
        what: &str,
        journal: Option<JournalHandle>,
    ) -> Self {
        JournaledMap {
            document,
            all: Mutex::new(Self::read(kept, what)),
            writer: tokio::sync::Mutex::new(journal),
        }
    }

    /// The value at `key`, if any.
    pub fn get(&self, key: &K) -> Option<V> {
        self.all
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    /// Sets `key` to `value`: the whole map journaled first, then kept.
    /// A value already there is not journaled again.
    pub async fn insert(&self, key: K, value: V) -> Result<(), JournalError> {
        self.change(|map| {
            map.insert(key, value);
        })
        .await
    }

    /// Changes the map with `f`: the whole next map journaled first, then
    /// kept; nothing is journaled if `f` changed nothing.
    pub async fn change(&self, f: impl FnOnce(&mut BTreeMap<K, V>)) -> Result<(), JournalError> {
        let journal = self.writer.lock().await;
        let before = self.all.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut next = before.clone();
        f(&mut next);
        if next == before {
            return Ok(());
        }
        if let Some(journal) = journal.as_ref() {
            let bytes = serde_json::to_vec(&next).unwrap_or_default();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            journal.put_document(self.document, now, bytes).await?;
        }
        *self.all.lock().unwrap_or_else(|e| e.into_inner()) = next;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_that_does_not_read_is_taken_as_empty() {
        let read = JournaledMap::<u16, f32>::read(Some(b"{not json".to_vec()), "test values");
        assert!(read.is_empty());
        let read = JournaledMap::<u16, f32>::read(Some(br#"{"3":1.25}"#.to_vec()), "test values");
        assert_eq!(read.get(&3), Some(&1.25));
    }

    #[tokio::test]
    async fn changes_at_once_are_all_kept() {
        let map = std::sync::Arc::new(JournaledMap::<u16, u16>::new("test", None, "test", None));
        let mut tasks = Vec::new();
        for i in 0..50u16 {
            let map = map.clone();
            tasks.push(tokio::spawn(async move { map.insert(i, i * 2).await }));
        }
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        for i in 0..50u16 {
            assert_eq!(map.get(&i), Some(i * 2));
        }
    }
}
