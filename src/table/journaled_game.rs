//! The table's game and the journal that keeps it, as one part: the game
//! changes only through [`JournaledGame::commit`], which journals the event
//! before the game takes it, so what the journal holds is never behind what
//! the table shows.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Move, Position};

use super::error::{RecordError, TableError};
use super::id::TableId;
use super::journal::TableJournal;
use super::replay::Entry;
use super::setup::Setup;
use tactus_rules::event::GameEvent;
use tactus_rules::game::{Game, Notice};

/// The game being played at a table, with its setup, its number among the
/// table's games and the journal every change goes to first.
pub(super) struct JournaledGame {
    setup: Setup,
    /// The number of the game (1, 2, …; one per round and replayed game):
    /// every entry is journaled under it.
    number: u32,
    game: Game,
    /// One more each time the game changes: what is made from it (the PGN)
    /// is made again only when it did.
    rev: u64,
    journal: Arc<dyn TableJournal>,
}

impl JournaledGame {
    pub(super) fn new(
        setup: Setup,
        number: u32,
        game: Game,
        journal: Arc<dyn TableJournal>,
    ) -> JournaledGame {
        JournaledGame {
            setup,
            number,
            game,
            rev: 0,
            journal,
        }
    }

    pub(super) fn setup(&self) -> &Setup {
        &self.setup
    }

    pub(super) fn id(&self) -> &TableId {
        &self.setup.id
    }

    pub(super) fn game(&self) -> &Game {
        &self.game
    }

    pub(super) fn number(&self) -> u32 {
        self.number
    }

    pub(super) fn rev(&self) -> u64 {
        self.rev
    }

    pub(super) fn journal(&self) -> &dyn TableJournal {
        &*self.journal
    }

    /// A move as the journal writes it: UCI, with Chess960 castling as the
    /// king onto the rook (`b1c1` could be a king move there).
    pub(super) fn uci(&self, m: Move) -> UciMove {
        UciMove::from_move(m, self.game.position().castles().mode())
    }

    /// What `event` at `now` would cause, the game left as it is (a blind
    /// player's move is announced before it is made).
    pub(super) fn check(
        &self,
        now: Duration,
        event: &GameEvent,
    ) -> Result<Vec<Notice>, TableError> {
        Ok(self.game.applied(now, event)?.1)
    }

    /// Checks `event` at `now` on a copy of the game (the one copy made),
    /// journals it, and only then takes the copy: returns what it caused.
    pub(super) async fn commit(
        &mut self,
        now: Duration,
        event: GameEvent,
    ) -> Result<Vec<Notice>, TableError> {
        let (next, notices) = self.game.applied(now, &event)?;
        self.record(now, &Entry::Game(event))
            .await
            .map_err(|e| TableError::Journal(Arc::new(e)))?;
        self.game = next;
        self.rev += 1;
        Ok(notices)
    }

    /// Journals `entry` of this game, stamped `at`.
    pub(super) async fn record(&self, at: Duration, entry: &Entry) -> Result<(), RecordError> {
        self.record_in(self.number, at, entry).await
    }

    /// Journals `entry` of the table's game `number`, stamped `at`.
    async fn record_in(&self, number: u32, at: Duration, entry: &Entry) -> Result<(), RecordError> {
        let payload = serde_json::to_string(entry)?;
        self.journal
            .append(&self.setup.id, number, at.as_millis() as i64, payload)
            .await?;
        Ok(())
    }

    /// Makes `game`, set up by `setup`, the table's next game: journaled as
    /// that game's first entry (stamped `at`) before it replaces this one.
    pub(super) async fn next(
        &mut self,
        at: Duration,
        setup: Setup,
        game: Game,
    ) -> Result<u32, RecordError> {
        let number = self.number + 1;
        self.record_in(number, at, &Entry::Setup(Box::new(setup.clone())))
            .await?;
        self.number = number;
        self.game = game;
        self.rev += 1;
        self.setup = setup;
        Ok(self.number)
    }

    /// Tells the journal, without waiting, that the clock runs at `at`.
    pub(super) fn alive(&self, at: Duration) {
        self.journal.alive(&self.setup.id, at.as_millis() as i64);
    }
}
