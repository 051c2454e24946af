//! The slot between the table and the display thread: the latest content
//! to show ([`Content`]), not a queue.

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the display shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Content {
    Text(String),
    Dots(Vec<u8>),
}

/// What the display is to show next, handed from the table to the display
/// thread. Only the latest matters (a display shows one thing), so this is
/// a slot, not a queue: announcements made while the display thread is
/// busy connecting replace each other instead of piling up.
#[derive(Default)]
struct Latest {
    slot: Mutex<Slot>,
    changed: std::sync::Condvar,
}

/// What the slot holds, and who has gone.
#[derive(Default)]
struct Slot {
    /// The content not yet taken.
    content: Option<Content>,
    /// The table's side dropped: nothing more will come.
    table_gone: bool,
    /// The display thread's side dropped: nothing will be shown.
    display_gone: bool,
}

/// What the display thread finds in the slot.
pub(super) enum Next {
    Content(Content),
    Nothing,
    /// The table is gone.
    Gone,
}

/// The table's side of the slot.
pub(super) struct ContentTx(Arc<Latest>);

/// The display thread's side of the slot.
pub(super) struct ContentRx(Arc<Latest>);

pub(super) fn content_slot() -> (ContentTx, ContentRx) {
    let latest = Arc::new(Latest::default());
    (ContentTx(latest.clone()), ContentRx(latest))
}

impl Latest {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl ContentTx {
    /// Puts `c` in the slot, replacing what was not yet shown; an error if
    /// the display thread is gone.
    pub(super) fn send(&self, c: Content) -> Result<(), ()> {
        let mut slot = self.0.lock();
        if slot.display_gone {
            return Err(());
        }
        slot.content = Some(c);
        drop(slot);
        self.0.changed.notify_one();
        Ok(())
    }
}

impl Drop for ContentTx {
    fn drop(&mut self) {
        self.0.lock().table_gone = true;
        self.0.changed.notify_one();
    }
}

impl ContentRx {
    pub(super) fn try_take(&self) -> Next {
        let mut slot = self.0.lock();
        match slot.content.take() {
            Some(c) => Next::Content(c),
            None if slot.table_gone => Next::Gone,
            None => Next::Nothing,
        }
    }

    /// Waits up to `limit` for new content.
    pub(super) fn take_timeout(&self, limit: Duration) -> Next {
        let deadline = std::time::Instant::now() + limit;
        let mut slot = self.0.lock();
        loop {
            if let Some(c) = slot.content.take() {
                return Next::Content(c);
            }
            if slot.table_gone {
                return Next::Gone;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Next::Nothing;
            }
            slot = self
                .0
                .changed
                .wait_timeout(slot, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for ContentRx {
    fn drop(&mut self) {
        self.0.lock().display_gone = true;
    }
}
