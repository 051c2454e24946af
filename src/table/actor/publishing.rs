//! The table's state published after every step: its view and PGN for
//! readers, and the live stream told when it should be.

use std::sync::Arc;

use crate::table::view::TableView;

use super::TableActor;

impl TableActor {
    /// The table as it is now.
    fn view(&self) -> TableView {
        TableView::of(crate::table::view::Sources {
            game: &self.game,
            announcer: &self.announcer,
            boards: &self.boards,
            now: self.time.peek(),
            shown: self.shown,
            flag_unrecorded: self.flag_retry.is_some(),
            display: self.display.as_ref(),
        })
    }

    /// Publishes the table's state to readers and to the live stream.
    pub(super) fn publish_state(&self) {
        let published = self.publish();
        self.announcer.publish_state(|| published.view.clone());
    }

    /// Publishes the table's state to readers only (a step the live
    /// stream need not hear of, or has heard of already).
    pub(super) fn refresh(&self) {
        self.publish();
    }

    /// Replaces what readers see with the table as it is now; the PGN is
    /// written again only if the game changed since the last time.
    fn publish(&self) -> Arc<crate::table::published::Published> {
        let rev = self.game.rev();
        let pgn = match &*self.publisher.borrow() {
            Some(p) if p.game_rev == rev => Some(Arc::clone(&p.pgn)),
            _ => None,
        };
        let pgn = pgn.unwrap_or_else(|| {
            Arc::from(crate::table::pgn::game_pgn(
                self.game.setup(),
                self.game.game(),
            ))
        });
        let published = Arc::new(crate::table::published::Published {
            view: self.view(),
            clock: self.game.game().clock().clone(),
            pgn,
            voice: Arc::clone(self.announcer.voice()),
            game_rev: rev,
        });
        self.publisher.send_replace(Some(Arc::clone(&published)));
        published
    }
}
