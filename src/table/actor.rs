//! One task per table: it owns the table's game, clock, boards and speech,
//! and takes requests and board events from its channel, one at a time (the
//! actor pattern: no game state behind locks).
//!
//! Every change is journaled before it takes effect: the request is checked
//! on a copy of the game, the event is committed to the journal, and only
//! then applied, announced and acknowledged.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Color, Move, Position};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::actions::{Action, PersonRole};
use super::announcing::{Announcer, spoken};
use super::boards::{BoardLink, Boards};
pub use super::error::{Forbidden, RecordError, TableError, TableStartError, Unprocessable};
use super::id::TableId;
use super::journal::{Record, TableJournal};
use super::replay::{ConfigSays, Entry, new_game, next_from_config, replay};
use super::speaker::Speaker;
use super::timebase::{Instants, Timebase};
use super::view::{LiveEvent, TableView};
use tactus_rules::announce::Style;
use tactus_rules::clock::ClockState;
use tactus_rules::clock_announce::Shown;
use tactus_rules::event::GameEvent;
use tactus_rules::game::{Game, GameError, NoticeKind};
use tactus_rules::notation::Lang;
use tactus_rules::result::FlagRule;
use tactus_rules::time_control::TimeControl;
use tactus_rules::token::Word;
use tactus_speech::voice_pack::VoicePack;

/// How a table is set up; journaled as its first entry so that a restart
/// keeps the game's time control and players even if the config changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub id: TableId,
    #[serde(with = "tactus_rules::side")]
    pub blind: Color,
    pub control: TimeControl,
    pub white: String,
    pub black: String,
    pub event: String,
    pub round: String,
    /// The start position if not the standard one.
    pub fen: Option<Fen>,
    /// What a clock reaching zero does (6.8); journals from before this
    /// setting read as the default, `claim`.
    #[serde(default)]
    pub flag: FlagRule,
    /// The players' start ranks in the competition (the pairing program's
    /// numbers), when the round's pairings gave them: a listed player's own
    /// token acts here for their side, in this game only. Journals from
    /// before read as none.
    #[serde(default, skip_serializing_if = "Ranks::is_empty")]
    pub ranks: Ranks,
}

/// Which player of the competition plays each side of a game, by start
/// rank; `None` for a side the pairing did not name by number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranks {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<u16>,
}

impl Ranks {
    /// Neither side named.
    pub fn is_empty(&self) -> bool {
        self.white.is_none() && self.black.is_none()
    }

    /// The side start rank `rank` plays, if it plays here.
    pub fn side_of(&self, rank: u16) -> Option<Color> {
        if self.white == Some(rank) {
            Some(Color::White)
        } else if self.black == Some(rank) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The start rank playing `side`.
    pub fn of(&self, side: Color) -> Option<u16> {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

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

/// Everything a table needs to start.
pub struct TableParts {
    pub setup: Setup,
    pub voice: Arc<VoicePack>,
    pub speaker: Speaker,
    pub journal: Arc<dyn TableJournal>,
    /// The journal's records of the table's latest game (empty for a new
    /// table).
    pub history: Vec<Record>,
    /// The rounds of the table's earlier games: a configuration that
    /// names one of them never starts it again.
    pub earlier_rounds: Vec<String>,
    /// The last instant the table was seen alive before a restart.
    pub last_alive_ms: Option<u64>,
    /// The blind player's tactile board.
    pub board: Option<BoardLink>,
    /// The opponent's board: an electronic board for a sighted opponent, a
    /// second tactile board when both players are blind.
    pub opponent_board: Option<BoardLink>,
    /// How clock times are told (time left or time used).
    pub shown: Shown,
    /// How moves are said.
    pub style: Style,
    /// The piece letters of moves entered without a language (`notation`).
    pub notation: Lang,
    /// The service's time (never the system clock).
    pub time: Timebase,
    /// The braille display's state, if the table has a display: its
    /// thread (`display::attach`) writes it, the table's view reads it.
    pub display: Option<super::display::DisplayStatus>,
}

impl TableParts {
    /// A new table's parts: no history, no board, no display, the time
    /// left told, standard moves, any piece letters. Set the others with
    /// struct update syntax: `TableParts { board, ..TableParts::new(…) }`.
    pub fn new(
        setup: Setup,
        voice: Arc<VoicePack>,
        speaker: Speaker,
        journal: Arc<dyn TableJournal>,
        time: Timebase,
    ) -> TableParts {
        TableParts {
            setup,
            voice,
            speaker,
            journal,
            history: Vec::new(),
            earlier_rounds: Vec::new(),
            last_alive_ms: None,
            board: None,
            opponent_board: None,
            shown: Shown::Remaining,
            style: Style::Standard,
            notation: Lang::Auto,
            time,
            display: None,
        }
    }
}

/// The table task.
pub struct TableActor {
    pub(super) setup: Setup,
    /// The number of the game being played (1, 2, …; one per round and
    /// replayed game): every entry is journaled under it.
    pub(super) game_no: u32,
    pub(super) game: Game,
    /// How moves are said (for the table's next game).
    pub(super) style: Style,
    pub(super) journal: Arc<dyn TableJournal>,
    /// The blind player's board first, then the opponent's, if any.
    pub(super) boards: Boards,
    pub(super) shown: Shown,
    /// The piece letters of moves entered without a language.
    pub(super) notation: Lang,
    pub(super) rx: mpsc::Receiver<Request>,
    /// What the table says and shows, and the move being announced.
    pub(super) announcer: Announcer,
    /// Where time comes from: instants that never go back.
    pub(super) time: Instants,
    /// While the journal fails to record a flag fall: when to try again and
    /// the wait after that (doubling), so a failing disk is retried with
    /// backoff, not in a loop.
    pub(super) flag_retry: Option<(Duration, tactus_backoff::Backoff)>,
    /// The braille display's state, if the table has a display.
    pub(super) display: Option<super::display::DisplayStatus>,
    /// Where the view and the PGN are published for readers.
    pub(super) publisher: super::published::Publisher,
    /// One more each time `game` is replaced: the PGN is written again
    /// only when it changed.
    pub(super) game_rev: u64,
}

/// The first and the longest wait before recording a flag fall again while
/// the journal fails.
const FLAG_RETRY_MIN: Duration = Duration::from_millis(250);
const FLAG_RETRY_MAX: Duration = Duration::from_secs(5);

/// How often a running clock's table tells the journal it is alive, so a
/// restart pauses the clock at most this long after the crash.
const ALIVE_EVERY: Duration = Duration::from_secs(1);

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
        let journaled_game = history.first().map_or(0, |r| r.game);
        // Replay refuses an entry that does not apply (never a different
        // game). A journaled game is never renamed or altered by the
        // configuration: what the configuration says of names, event and
        // round is for the table's next game (see `next_from_config`).
        let mut renamed = false;
        let resumed = if history.is_empty() {
            None
        } else {
            let r = replay(&configured.id, &history, style)?;
            match next_from_config(&r, &configured, &earlier_rounds).map_err(|why| {
                TableStartError::Disagrees {
                    table: configured.id.clone(),
                    why,
                }
            })? {
                ConfigSays::Keep { differs } => {
                    renamed = differs;
                    Some(r)
                }
                ConfigSays::NextGame => None,
            }
        };
        let (setup, game_no, game, replayed, last_ms) = match resumed {
            Some(r) => (r.setup, journaled_game, r.game, r.events, r.last_ms),
            // A new table, or the journaled game is done with: the
            // configured game is the next.
            None => {
                let game = new_game(&configured, style)?;
                let last_ms = history
                    .iter()
                    .map(|r| r.at_ms.max(0) as u64)
                    .max()
                    .unwrap_or(0);
                (configured.clone(), journaled_game + 1, game, 0, last_ms)
            }
        };
        let (tx, rx) = mpsc::channel(64);
        let (live, _) = broadcast::channel(256);
        let recent = super::recent::Recent::default();
        let (publisher, published) = super::published::slot(time.clone());
        let links = [(setup.blind, board), (!setup.blind, opponent_board)];
        let boards = Boards::wire(links, game.position());
        let mut actor = TableActor {
            setup: setup.clone(),
            game_no,
            game,
            style,
            journal,
            boards,
            shown,
            notation,
            rx,
            announcer: Announcer::new(voice, speaker, live.clone(), recent.clone()),
            time: Instants::new(time, Duration::from_millis(last_ms)),
            flag_retry: None,
            display,
            publisher,
            game_rev: 0,
        };
        if replayed == 0 && game_no > journaled_game {
            if journaled_game > 0 {
                tracing::info!(table = %setup.id, game = game_no, round = %setup.round, "the configuration starts the table's next game");
            }
            actor.record(&Entry::Setup(Box::new(setup.clone()))).await?;
        } else if actor.game.result().is_some() {
            // A finished game is not "resumed": nothing to say or pause.
            tracing::info!(table = %setup.id, events = replayed, "finished game read from the journal");
        } else {
            tracing::info!(table = %setup.id, events = replayed, "game resumed from the journal");
            if renamed {
                tracing::warn!(table = %setup.id, "names, event or round changed in the configuration: they apply to the table's next game, not to the game under way");
            }
            let paused_at_ms = last_alive_ms.unwrap_or(last_ms).max(last_ms);
            actor
                .commit(GameEvent::ServiceRestarted { paused_at_ms })
                .await
                .map_err(|why| TableStartError::Restart {
                    table: setup.id.clone(),
                    why,
                })?;
        }
        actor.refresh();
        let handle = TableHandle {
            id: setup.id.clone(),
            tx,
            live,
            recent,
            published,
        };
        Ok((actor, handle))
    }

    /// Runs until every handle is dropped.
    pub async fn run(mut self) {
        let mut alive = tokio::time::interval(ALIVE_EVERY);
        alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            let flag_at = self
                .game
                .clock()
                .deadline()
                .filter(|_| self.game.result().is_none())
                .map(|at| at.max(self.flag_retry.as_ref().map_or(at, |(retry, _)| *retry)));
            // A board is read when its driver has passed on all the board
            // sent until its settling time ran out (`ReadUpTo`), not when a
            // timer here fires (the table may run late); on a manual time,
            // which no instant matches, by the timer.
            let settle_at = self.boards.settle_at(self.time.source());
            let wake = [flag_at, settle_at].into_iter().flatten().min();
            let time = self.time.source().clone();
            let sleep = async move {
                match wake {
                    Some(at) => time.sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                request = self.rx.recv() => match request {
                    Some(r) => self.handle(r).await,
                    None => break,
                },
                (i, event) = self.boards.next_event() => match event {
                    Some(stamped) => self.board_event(i, stamped).await,
                    None => {
                        tracing::warn!(table = %self.setup.id, "board driver stopped");
                        self.boards.remove(i);
                    }
                },
                _ = sleep => self.timers().await,
                _ = spoken(&mut self.announcer.announcing) => self.announced().await,
                _ = self.announcer.speaker.audio_changed() => self.publish_state(),
                _ = alive.tick() => {
                    if matches!(self.game.clock().state(), ClockState::Running { .. }) {
                        let now = self.time.now();
                        self.journal.alive(&self.setup.id, now.as_millis() as i64);
                    }
                }
            }
            // Whatever the step changed (a board's state, an alert from the
            // journal) is what readers see next.
            self.refresh();
        }
        // Stopping a board driver joins its thread (up to one read poll):
        // not on a runtime thread other tables need.
        let boards = std::mem::take(&mut self.boards);
        if !boards.is_empty() {
            tokio::task::spawn_blocking(move || drop(boards));
        }
    }

    pub(super) async fn handle(&mut self, request: Request) {
        match request {
            Request::Republish => self.publish_state(),
            Request::SetVoice(voice, reply) => {
                let result = if voice.name() == self.announcer.voice.name() {
                    self.announcer.speaker.set_voice(Arc::clone(&voice));
                    self.announcer.voice = voice;
                    self.publish_state();
                    Ok(())
                } else {
                    Err(Unprocessable::OtherVoice {
                        table: self.setup.id.clone(),
                        voice: voice.name().to_owned(),
                    }
                    .into())
                };
                let _ = reply.send(result);
            }
            Request::NewGame(setup, reply) => {
                let _ = reply.send(self.next_game(*setup).await);
            }
            Request::Act {
                role,
                action,
                game,
                reply,
            } => {
                if game.is_some_and(|g| g != self.game_no) {
                    let _ = reply.send(Err(TableError::Forbidden(Forbidden::OtherGame {
                        game: self.game_no,
                    })));
                    return;
                }
                // A blind player's move is made once announced: a request
                // that began its announcement waits for that (announced()
                // replies).
                let idle = self.announcer.announcing.is_none();
                let result = self.act(role, action).await;
                // Who is answered reads what their request did.
                self.refresh();
                let reply = match &result {
                    Ok(_) => self
                        .announcer
                        .reply_when_made(idle && self.announcer.announcing.is_some(), reply),
                    Err(_) => Some(reply),
                };
                if let Some(reply) = reply {
                    let _ = reply.send(result);
                }
            }
        }
    }

    /// A move as the journal writes it: UCI, with Chess960 castling as the
    /// king onto the rook (`b1c1` could be a king move there).
    pub(super) fn uci(&self, m: Move) -> UciMove {
        UciMove::from_move(m, self.game.position().castles().mode())
    }

    /// Checks `event` on a copy of the game, journals it, applies it, then
    /// announces what it caused and publishes the new state.
    pub(super) async fn commit(&mut self, event: GameEvent) -> Result<Reply, TableError> {
        self.commit_said(event, None).await
    }

    /// As [`Self::commit`], without saying again the notices of kind `said`
    /// (already announced).
    pub(super) async fn commit_said(
        &mut self,
        event: GameEvent,
        said: Option<NoticeKind>,
    ) -> Result<Reply, TableError> {
        let now = self.time.now();
        // Checked on a copy (the only one made): the game changes only once
        // the journal has the event.
        let (next, notices) = self.game.applied(now, &event).map_err(refusal)?;
        self.record(&Entry::Game(event))
            .await
            .map_err(|e| TableError::Journal(Arc::new(e)))?;
        self.game = next;
        self.game_rev += 1;
        let notices = notices
            .into_iter()
            .filter(|n| Some(n.kind) != said)
            .collect();
        let reply = self.announcer.announce(notices);
        self.publish_state();
        Ok(reply)
    }

    pub(super) async fn record(&mut self, entry: &Entry) -> Result<(), RecordError> {
        let payload = serde_json::to_string(entry)?;
        let at = self.time.last().as_millis() as i64;
        self.journal
            .append(&self.setup.id, self.game_no, at, payload)
            .await?;
        Ok(())
    }

    /// Flag falls and board settling, whichever is due.
    pub(super) async fn timers(&mut self) {
        let now = self.time.now();
        let running = matches!(self.game.clock().state(), ClockState::Running { .. });
        if self.game.result().is_none() && running && self.game.clock().flag(now).is_some() {
            // 6.8: shown (and said) at once; the game ends only on a claim,
            // unless the organiser chose `flag = "auto"`.
            let event = match self.game.flag_rule() {
                FlagRule::Auto => GameEvent::FlagFell,
                FlagRule::Claim => GameEvent::TimeExpired,
            };
            let retry_due = self.flag_retry.as_ref().is_none_or(|(at, _)| *at <= now);
            if retry_due {
                match self.commit(event).await {
                    Ok(_) => {
                        if self.flag_retry.take().is_some() {
                            tracing::warn!(table = %self.setup.id, "flag fall recorded: the journal works again");
                        }
                    }
                    Err(e) => {
                        // Told once; the view shows the flag fallen but not
                        // recorded and the journal failing until it works.
                        let mut backoff = match self.flag_retry.take() {
                            None => {
                                tracing::error!(table = %self.setup.id, "flag fall not recorded: {e}; trying again with backoff");
                                tactus_backoff::Backoff::new(FLAG_RETRY_MIN, FLAG_RETRY_MAX)
                            }
                            Some((_, backoff)) => backoff,
                        };
                        let wait = backoff.failed();
                        self.flag_retry = Some((now + wait, backoff));
                        self.publish_state();
                    }
                }
            }
        }
        for at in 0..self.boards.len() {
            for i in self.boards.settle_due(at, now, self.time.source()) {
                self.inferred(at, i).await;
            }
        }
    }

    /// Starts the table's next game from `setup`: journaled as the new
    /// game's first entry, then the boards are set to its start, each to
    /// its player's new colour, and the blind player hears their colour.
    pub(super) async fn next_game(&mut self, setup: Setup) -> Result<u32, TableError> {
        if setup.id != self.setup.id {
            return Err(Unprocessable::OtherTable {
                setup: setup.id,
                table: self.setup.id.clone(),
            }
            .into());
        }
        if super::replay::begun(&self.game) && self.game.result().is_none() {
            return Err(TableError::UnderWay {
                table: self.setup.id.clone(),
                round: self.setup.round.clone(),
            });
        }
        let game = new_game(&setup, self.style).map_err(Unprocessable::Start)?;
        self.game_no += 1;
        if let Err(e) = self.record(&Entry::Setup(Box::new(setup.clone()))).await {
            self.game_no -= 1;
            return Err(TableError::Journal(Arc::new(e)));
        }
        let blind_before = self.setup.blind;
        self.game = game;
        self.game_rev += 1;
        self.setup = setup;
        self.announcer.forget_game();
        self.flag_retry = None;
        let (blind, position) = (self.setup.blind, self.game.position());
        self.boards.new_game(blind_before, blind, position);
        self.resync_board();
        tracing::info!(table = %self.setup.id, game = self.game_no, round = %self.setup.round, "new game");
        let colour = match self.setup.blind {
            Color::White => Word::White,
            Color::Black => Word::Black,
        };
        self.announcer.say(NoticeKind::NewGame, vec![colour.into()]);
        self.publish_state();
        Ok(self.game_no)
    }

    pub(super) fn pgn(&self) -> String {
        crate::table::pgn::game_pgn(&self.setup, &self.game)
    }
}

pub(super) fn refusal(e: GameError) -> TableError {
    e.into()
}
