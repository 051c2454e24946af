//! The handle the web layer holds on a table: requests to the table's
//! task, and what the table last published, read without a message.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::actions::{Action, PersonRole};
use super::error::TableError;
use super::id::TableId;
use super::setup::Setup;
use super::view::{LiveEvent, TableView};
use tactus_speech::voice_pack::VoicePack;

/// The answer to an accepted request.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Reply {
    /// What was said, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The ruling, for `POST /ruling` (whose answer is the ruling itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<crate::table::actions::ruling::RulingJson>,
    /// The same request was asked while its last answer was still being
    /// said: `text` is the answer, not said again (the page shows it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paced: bool,
}

pub(super) enum Request {
    Act {
        role: PersonRole,
        action: Action,
        /// Only in this game of the table (a person whose token is one
        /// game's): refused if another game has been set up meanwhile.
        game: Option<u32>,
        reply: oneshot::Sender<Result<Reply, TableError>>,
    },
    /// Publish the view again now, for a change the actor does not see
    /// (its braille display coming or going).
    Republish,
    /// Speak with this pack from now on: the table's own pack at another
    /// rate (the arbiter's choice), loaded off the table's task.
    SetVoice(Arc<VoicePack>, oneshot::Sender<Result<(), TableError>>),
    NewGame(Box<Setup>, oneshot::Sender<Result<u32, TableError>>),
}

/// The handle the web layer holds; cheap to clone.
#[derive(Clone)]
pub struct TableHandle {
    pub id: TableId,
    tx: mpsc::Sender<Request>,
    live: broadcast::Sender<LiveEvent>,
    recent: super::recent::Recent,
    /// The table's view and PGN as it last published them: read without
    /// a message to the table.
    published: super::published::Reader,
}

impl TableHandle {
    pub(super) fn new(
        id: TableId,
        tx: mpsc::Sender<Request>,
        live: broadcast::Sender<LiveEvent>,
        recent: super::recent::Recent,
        published: super::published::Reader,
    ) -> TableHandle {
        TableHandle {
            id,
            tx,
            live,
            recent,
            published,
        }
    }

    /// Asks the table to do something on behalf of `role`.
    pub async fn act(&self, role: PersonRole, action: Action) -> Result<Reply, TableError> {
        self.act_in(None, role, action).await
    }

    /// As [`TableHandle::act`], and only if the table's game is still
    /// `game` (when given): a second blind player's token is valid in one
    /// game, so a request checked against it cannot land in the next.
    pub async fn act_in(
        &self,
        game: Option<u32>,
        role: PersonRole,
        action: Action,
    ) -> Result<Reply, TableError> {
        self.ask(|reply| Request::Act {
            role,
            action,
            game,
            reply,
        })
        .await
    }

    /// Sends the request `make` builds around its reply channel and waits
    /// for the answer; `Stopped` if the table is gone before answering.
    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, TableError>>) -> Request,
    ) -> Result<T, TableError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| TableError::Stopped)?;
        rx.await.map_err(|_| TableError::Stopped)?
    }

    /// The table as it is now: as the table last published it, its clock
    /// read now. Never waits for the table (see `published`).
    pub async fn view(&self) -> Result<TableView, TableError> {
        self.published.view().map_err(|_| TableError::Stopped)
    }

    /// The game as PGN.
    pub async fn pgn(&self) -> Result<String, TableError> {
        Ok(self.pgn_shared().await?.to_string())
    }

    /// The game as PGN, shared: the same `Arc` while the game does not
    /// change, so a cache of what is made from it can tell.
    pub async fn pgn_shared(&self) -> Result<Arc<str>, TableError> {
        self.published.pgn().map_err(|_| TableError::Stopped)
    }

    /// The pack the table speaks with now (its name, language, rate).
    pub fn voice(&self) -> Result<Arc<VoicePack>, TableError> {
        self.published.voice().map_err(|_| TableError::Stopped)
    }

    /// Speaks with `voice` from now on: the table's own pack (the same
    /// name) at another rate; another pack is refused.
    pub async fn set_voice(&self, voice: Arc<VoicePack>) -> Result<(), TableError> {
        self.ask(|reply| Request::SetVoice(voice, reply)).await
    }

    /// Sets up the table's next game (the arbiter's new round), returning
    /// its number. Refused while the game is under way; a game that has
    /// not begun is replaced.
    pub async fn new_game(&self, setup: Setup) -> Result<u32, TableError> {
        self.ask(|reply| Request::NewGame(Box::new(setup), reply))
            .await
    }

    /// The live stream: announcements and state snapshots.
    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.live.subscribe()
    }

    /// The announcements after number `seq`, for a page coming back.
    pub fn announced_since(&self, seq: u64) -> super::recent::Missed {
        self.recent.since(seq)
    }

    /// The number of the last announcement (0: none yet).
    pub fn newest_announced(&self) -> u64 {
        self.recent.newest()
    }

    /// Sends the table's state to the live stream now, for a change the
    /// table does not make itself (its braille display coming or going).
    pub async fn republish(&self) -> Result<(), TableError> {
        self.tx
            .send(Request::Republish)
            .await
            .map_err(|_| TableError::Stopped)
    }
}
