//! What a table publishes for those who only read it: its view and its PGN,
//! replaced after every step of the actor (a `watch` channel, one slot).
//!
//! Readers never write to the table's mailbox, so a crowd reading the
//! public pages cannot queue in front of a player's move or delay a flag
//! fall: reading costs a lock of the slot and a clone, on the reader's own
//! task. The view is taken when the actor last changed something; the
//! clock inside it is brought to the moment it is read from the clock
//! itself (a running clock is the only part of a table that changes without
//! the actor doing anything).

use std::sync::Arc;
use std::time::Duration;

use shakmaty::Color;
use tactus_rules::clock::Clock;
use tokio::sync::watch;

use super::timebase::Timebase;
use super::view::TableView;
use tactus_speech::voice_pack::VoicePack;

/// One publication: the view as the actor left it, the clock it was read
/// from, and the game as PGN.
pub(super) struct Published {
    pub(super) view: TableView,
    pub(super) clock: Clock,
    pub(super) pgn: Arc<str>,
    /// The pack the table speaks with.
    pub(super) voice: Arc<VoicePack>,
    /// The actor's count of changes to its game when the PGN was written:
    /// the next publication writes it again only if the game changed.
    pub(super) game_rev: u64,
}

/// The slot's reading end, in every handle. `None` only until the actor
/// has published once, which it does before its handle is handed out.
#[derive(Clone)]
pub(super) struct Reader {
    rx: watch::Receiver<Option<Arc<Published>>>,
    time: Timebase,
}

/// The table's task has stopped (its sender is gone) or never published.
#[derive(Debug, Clone, Copy)]
pub(super) struct Gone;

/// The slot's writing end, held by the actor.
pub(super) type Publisher = watch::Sender<Option<Arc<Published>>>;

/// A new, empty slot over the table's time.
pub(super) fn slot(time: Timebase) -> (Publisher, Reader) {
    let (tx, rx) = watch::channel(None);
    (tx, Reader { rx, time })
}

impl Reader {
    fn latest(&self) -> Result<Arc<Published>, Gone> {
        // A sender dropped: the actor stopped; its last view would be a lie.
        if self.rx.has_changed().is_err() {
            return Err(Gone);
        }
        self.rx.borrow().clone().ok_or(Gone)
    }

    /// The table's view, its clock read now.
    pub(super) fn view(&self) -> Result<TableView, Gone> {
        let p = self.latest()?;
        let mut view = p.view.clone();
        if view.clock.running {
            // Never before the publication's own instant (the table's
            // instants never go back).
            let now = self
                .time
                .now()
                .max(Duration::from_millis(view.clock.as_of_ms));
            view.clock.white_ms = p.clock.remaining(Color::White, now).as_millis() as u64;
            view.clock.black_ms = p.clock.remaining(Color::Black, now).as_millis() as u64;
            view.clock.flag = p.clock.flag(now).map(|f| f.side);
            view.clock.as_of_ms = now.as_millis() as u64;
        }
        Ok(view)
    }

    /// The pack the table speaks with.
    pub(super) fn voice(&self) -> Result<Arc<VoicePack>, Gone> {
        Ok(Arc::clone(&self.latest()?.voice))
    }

    /// The game as PGN, shared: the same `Arc` while the game is unchanged
    /// (what a cache of its braille record keys on).
    pub(super) fn pgn(&self) -> Result<Arc<str>, Gone> {
        Ok(Arc::clone(&self.latest()?.pgn))
    }
}
