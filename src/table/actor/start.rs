//! The table's start: its parts put together, its journal replayed, and
//! its first step with its game (a new game's setup journaled, a game
//! under way resumed).

use std::time::Duration;

use tokio::sync::{broadcast, mpsc};

use crate::table::announcing::Announcer;
use crate::table::boards::Boards;
use crate::table::error::TableStartError;
use crate::table::handle::TableHandle;
use crate::table::journal::Record;
use crate::table::journaled_game::JournaledGame;
use crate::table::parts::TableParts;
use crate::table::replay::{ConfigSays, Entry, Replayed, new_game, next_from_config, replay};
use crate::table::round::Round;
use crate::table::setup::Setup;
use crate::table::timebase::Instants;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;

use super::TableActor;

/// Requests waiting for a table: a page that sends more waits (the
/// handle's `send` is async), nothing is dropped.
const REQUESTS_QUEUED: usize = 64;

/// Live events kept for a slow page: one that falls further behind reads
/// the table afresh (`recent.rs`).
const LIVE_KEPT: usize = 256;

impl TableActor {
    /// Builds the table from its parts, replaying its journal, and returns
    /// the actor (to be `run`) and its handle. A table with no history
    /// journals its setup first.
    pub async fn start(parts: TableParts) -> Result<(TableActor, TableHandle), TableStartError> {
        let TableParts {
            setup: configured,
            voice,
            speaker,
            journal,
            history,
            earlier_rounds,
            last_alive_ms,
            board,
            opponent_board,
            shown,
            style,
            notation,
            time,
            display,
        } = parts;
        let (found, opened) = open_game(&configured, &history, &earlier_rounds, style)?;
        let Replayed { setup, game, .. } = opened;
        let (tx, rx) = mpsc::channel(REQUESTS_QUEUED);
        let (live, _) = broadcast::channel(LIVE_KEPT);
        let recent = crate::table::recent::Recent::default();
        let (publisher, published) = crate::table::published::slot(time.clone());
        let links = [(setup.blind, board), (!setup.blind, opponent_board)];
        let boards = Boards::wire(links, game.position());
        let id = setup.id.clone();
        let mut actor = TableActor {
            game: JournaledGame::new(setup, found.game_no, game, journal),
            style,
            boards,
            shown,
            notation,
            rx,
            announcer: Announcer::new(voice, speaker, live.clone(), recent.clone()),
            time: Instants::new(time, Duration::from_millis(found.last_ms)),
            flag_retry: None,
            display,
            publisher,
        };
        actor.begin(found, last_alive_ms).await?;
        actor.refresh();
        let handle = TableHandle::new(id, tx, live, recent, published);
        Ok((actor, handle))
    }

    /// The table's first step with its game: a new game's setup journaled;
    /// a journaled game under way resumed (its clock paused at the last
    /// instant the table was alive); a finished one only read.
    async fn begin(
        &mut self,
        found: Found,
        last_alive_ms: Option<u64>,
    ) -> Result<(), TableStartError> {
        let id = self.game.setup().id.clone();
        let round = self.game.setup().round.clone();
        if found.replayed == 0 && found.game_no > found.journaled {
            if found.journaled > 0 {
                tracing::info!(table = %id, game = found.game_no, round = %round, "the configuration starts the table's next game");
            }
            let setup = Entry::Setup(Box::new(self.game.setup().clone()));
            self.game.record(self.time.last(), &setup).await?;
        } else if self.game.game().result().is_some() {
            // A finished game is not "resumed": nothing to say or pause.
            tracing::info!(table = %id, events = found.replayed, "finished game read from the journal");
        } else {
            tracing::info!(table = %id, events = found.replayed, "game resumed from the journal");
            if found.renamed {
                tracing::warn!(table = %id, "names, event or round changed in the configuration: they apply to the table's next game, not to the game under way");
            }
            let paused_at_ms = last_alive_ms.unwrap_or(found.last_ms).max(found.last_ms);
            self.commit(GameEvent::ServiceRestarted { paused_at_ms })
                .await
                .map_err(|why| TableStartError::Restart { table: id, why })?;
        }
        Ok(())
    }
}

/// What a table's start found in its journal.
#[derive(Debug, Clone, Copy)]
struct Found {
    /// The number of the game the journal holds (0: none).
    journaled: u32,
    /// The number of the game the table plays.
    game_no: u32,
    /// Game events replayed (0 for a next game).
    replayed: usize,
    /// The configuration names the resumed game otherwise.
    renamed: bool,
    /// The latest instant in the journal, in milliseconds.
    last_ms: u64,
}

/// The game a table starts with: the journaled one, or the configured
/// game as the next. Replay refuses an entry that does not apply (never a
/// different game). A journaled game is never renamed or altered by the
/// configuration: what the configuration says of names, event and round
/// is for the table's next game (see `next_from_config`).
fn open_game(
    configured: &Setup,
    history: &[Record],
    earlier_rounds: &[Round],
    style: Style,
) -> Result<(Found, Replayed), TableStartError> {
    let journaled = history.first().map_or(0, |r| r.game);
    if !history.is_empty() {
        let r = replay(&configured.id, history, style)?;
        let says = next_from_config(&r, configured, earlier_rounds).map_err(|why| {
            TableStartError::Disagrees {
                table: configured.id.clone(),
                why,
            }
        })?;
        if let ConfigSays::Keep { differs } = says {
            let found = Found {
                journaled,
                game_no: journaled,
                replayed: r.events,
                renamed: differs,
                last_ms: r.last_ms,
            };
            return Ok((found, r));
        }
    }
    // A new table, or the journaled game is done with: the configured
    // game is the next.
    let game = new_game(configured, style)?;
    let last_ms = history
        .iter()
        .map(|r| r.at_ms.max(0) as u64)
        .max()
        .unwrap_or(0);
    let found = Found {
        journaled,
        game_no: journaled + 1,
        replayed: 0,
        renamed: false,
        last_ms,
    };
    let next = Replayed {
        setup: configured.clone(),
        game,
        events: 0,
        last_ms,
    };
    Ok((found, next))
}
