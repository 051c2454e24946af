//! One task per table: it owns the table's game, clock, boards and speech,
//! and takes requests and board events from its channel, one at a time (the
//! actor pattern: no game state behind locks).
//!
//! Every change is journaled before it takes effect: the request is checked
//! on a copy of the game, the event is committed to the journal, and only
//! then applied, announced and acknowledged.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{ByColor, Color, Move, Position, Role};
use tokio::sync::{broadcast, mpsc};

use super::actions::{Action, PersonRole};
use super::announcing::{AnnouncedMove, Announcer, Change};
use super::boards::{BoardNews, Boards};
use super::error::{Forbidden, TableError, TableStartError, Unprocessable};
use super::handle::Request;
use super::handle::{Reply, TableHandle};
use super::journal::Record;
use super::journaled_game::JournaledGame;
use super::parts::TableParts;
use super::replay::{ConfigSays, Entry, Replayed, new_game, next_from_config, replay};
use super::round::Round;
use super::setup::Setup;
use super::timebase::Instants;
use super::view::TableView;
use tactus_board::infer::Inferred;
use tactus_board::serial::Stamped;
use tactus_rules::announce::Style;
use tactus_rules::clock::ClockState;
use tactus_rules::clock_announce::Shown;
use tactus_rules::event::{DrawClaim, GameEvent};
use tactus_rules::game::{Notice, NoticeKind};
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, MoveError, parse_move_preferring};
use tactus_rules::result::FlagRule;
use tactus_rules::token::Word;

/// The table task: its parts, each owning its state, and the loop that
/// hands them requests, board events and timers one at a time.
pub struct TableActor {
    /// The game, its setup and the journal every change goes to first.
    game: JournaledGame,
    /// How moves are said (for the table's next game).
    style: Style,
    /// The blind player's board first, then the opponent's, if any.
    boards: Boards,
    /// How clock times are told.
    shown: Shown,
    /// The piece letters of moves entered without a language.
    notation: Lang,
    rx: mpsc::Receiver<Request>,
    /// What the table says and shows, and the move being announced.
    announcer: Announcer,
    /// Where time comes from: instants that never go back.
    time: Instants,
    /// While the journal fails to record a flag fall: when to try again and
    /// the wait after that (doubling), so a failing disk is retried with
    /// backoff, not in a loop.
    flag_retry: Option<(Duration, tactus_backoff::Backoff)>,
    /// The braille display's state, if the table has a display.
    display: Option<super::display::DisplayStatus>,
    /// Where the view and the PGN are published for readers.
    publisher: super::published::Publisher,
}

/// The first and the longest wait before recording a flag fall again while
/// the journal fails.
const FLAG_RETRY_MIN: Duration = Duration::from_millis(250);
const FLAG_RETRY_MAX: Duration = Duration::from_secs(5);

/// How often a running clock's table tells the journal it is alive, so a
/// restart pauses the clock at most this long after the crash.
const ALIVE_EVERY: Duration = Duration::from_secs(1);

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
        let recent = super::recent::Recent::default();
        let (publisher, published) = super::published::slot(time.clone());
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

    /// Runs until every handle is dropped.
    pub async fn run(mut self) {
        let mut alive = tokio::time::interval(ALIVE_EVERY);
        alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            let game = self.game.game();
            let flag_at = game
                .clock()
                .deadline()
                .filter(|_| game.result().is_none())
                .map(|at| at.max(self.flag_retry.as_ref().map_or(at, |(retry, _)| *retry)));
            // A board is read when its driver has passed on all the board
            // sent until its settling time ran out (`ReadUpTo`), not when a
            // timer here fires (the table may run late); on a manual time,
            // which no instant matches, by the timer.
            let settle_at = self.boards.settle_at(self.time.source());
            let wake = [flag_at, settle_at].into_iter().flatten().min();
            // Only a running clock needs its alive mark, and only a board
            // not connected a fresh count of the attempts to reach it (its
            // driver retries on its own and tells the table nothing until
            // it connects): an idle table whose boards are there wakes for
            // nothing.
            let clock_runs = matches!(self.game.game().clock().state(), ClockState::Running { .. });
            let tick = clock_runs || !self.boards.all_connected();
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
                        tracing::warn!(table = %self.game.id(), "board driver stopped");
                        self.boards.remove(i);
                    }
                },
                _ = sleep => self.timers().await,
                change = self.announcer.next_change() => match change {
                    Change::Spoken(announced) => self.announced(announced).await,
                    Change::Audio => self.publish_state(),
                },
                _ = alive.tick(), if tick => {
                    if clock_runs {
                        self.game.alive(self.time.now());
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

    async fn handle(&mut self, request: Request) {
        match request {
            Request::Republish => self.publish_state(),
            Request::SetVoice(voice, reply) => {
                let result = if voice.name() == self.announcer.voice().name() {
                    self.announcer.set_voice(voice);
                    self.publish_state();
                    Ok(())
                } else {
                    Err(Unprocessable::OtherVoice {
                        table: self.game.id().clone(),
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
                let number = self.game.number();
                if game.is_some_and(|g| g != number) {
                    let refused = Forbidden::OtherGame { game: number };
                    let _ = reply.send(Err(TableError::Forbidden(refused)));
                    return;
                }
                // A blind player's move is made once announced: a request
                // that began its announcement waits for that (announced()
                // replies).
                let idle = !self.announcer.is_announcing();
                let result = self.act(role, action).await;
                // Who is answered reads what their request did.
                self.refresh();
                let began = idle && self.announcer.is_announcing();
                let reply = match &result {
                    Ok(_) => self.announcer.reply_when_made(began, reply),
                    Err(_) => Some(reply),
                };
                if let Some(reply) = reply {
                    let _ = reply.send(result);
                }
            }
        }
    }

    /// Does `action` on behalf of `role`, if it is theirs to ask. Actions
    /// that are one game event (starting the clock, resigning, …) are
    /// committed as they are; the others are the methods below.
    async fn act(&mut self, role: PersonRole, action: Action) -> Result<Reply, TableError> {
        let (blind, to_move) = (self.game.setup().blind, self.game.game().position().turn());
        if !action.allowed(role, blind, to_move) {
            return Err(Forbidden::Role { role }.into());
        }
        // A flag that fell before this request is recorded first: the
        // request then meets a finished game.
        self.timers().await;
        use Action::*;
        let event = match action {
            Move {
                text,
                lang,
                page_lang,
            } => return self.typed_move(&text, lang, page_lang).await,
            SayClock { time } => {
                let now = self.time.now();
                let reading = self.game.game().clock().reading(now);
                let shown = time.unwrap_or(self.shown);
                return Ok(self.announcer.say_clock(role, now, &reading, shown));
            }
            Repeat => return Ok(self.announcer.repeat(role, self.time.now())),
            BoardDifferences => {
                // A player's own board; the blind player's for the others.
                let side = role.plays(blind).unwrap_or(blind);
                let Some(tokens) = self.boards.differences_words(side) else {
                    return Err(Unprocessable::NoBoard { side }.into());
                };
                let now = self.time.now();
                return Ok(self.announcer.board_differences(role, now, tokens));
            }
            AcceptDraw => {
                let Some(offered_by) = self.game.game().draw_offer() else {
                    return Err(Unprocessable::NoDrawOffered.into());
                };
                // A player accepts an offer made to them, never their own.
                if role.plays(blind) == Some(offered_by) {
                    return Err(Unprocessable::OwnDrawOffer.into());
                }
                GameEvent::DrawAgreed
            }
            ClaimDraw {
                side,
                claim,
                declared,
                lang,
                page_lang,
            } => {
                let declared = declared.as_deref();
                return self
                    .claim_draw(side, claim, declared, lang, page_lang)
                    .await;
            }
            Ruling { sheets, apply } => return self.ruling(&sheets, apply).await,
            NamePromotion(piece) => return self.name_promotion(role, piece).await,
            StartClock => GameEvent::ClockStarted,
            PauseClock => GameEvent::ClockPaused,
            ResumeClock => GameEvent::ClockResumed,
            AdjustClock {
                side,
                millis,
                reason,
            } => GameEvent::ClockAdjusted {
                side,
                millis,
                reason,
            },
            Touched { side, square } => GameEvent::Touched { side, square },
            OfferDraw { side } => GameEvent::DrawOffered { side },
            DeclineDraw { side } => GameEvent::DrawDeclined { side },
            IllegalCompleted { side } => GameEvent::IllegalMoveCompleted { side },
            Resign { side } => GameEvent::Resigned { side },
            ClaimFlag => GameEvent::FlagFell,
            SetResult { result, reason } => GameEvent::ResultSet { result, reason },
        };
        self.commit(event).await
    }

    /// Reads `text` with the piece letters of `lang` (the table's
    /// `notation` if none) and plays it.
    async fn typed_move(
        &mut self,
        text: &str,
        lang: Option<Lang>,
        page_lang: Option<Language>,
    ) -> Result<Reply, TableError> {
        let lang = lang.unwrap_or(self.notation);
        let game = self.game.game();
        let m = match parse_move_preferring(game.position(), text, lang, page_lang) {
            Ok(m) => m,
            Err(e) => {
                // A move that reads but is not legal is an attempt on the
                // record for the arbiter (7.5); text that is no move at all
                // is only refused.
                if game.result().is_none() && matches!(e, MoveError::Illegal(_)) {
                    let side = game.position().turn();
                    let _ = self
                        .commit(GameEvent::IllegalAttempt {
                            side,
                            // The record keeps what the arbiter needs, not
                            // a body's worth of it.
                            text: text.trim().chars().take(100).collect(),
                        })
                        .await;
                }
                return Err(Unprocessable::Move(e).into());
            }
        };
        self.play(m, None).await
    }

    /// `side` claims a draw (9.2, 9.3), on the position as it stands or on
    /// the move `declared` (read with `lang`, the table's `notation` if
    /// none).
    async fn claim_draw(
        &mut self,
        side: Color,
        claim: DrawClaim,
        declared: Option<&str>,
        lang: Option<Lang>,
        page_lang: Option<Language>,
    ) -> Result<Reply, TableError> {
        let lang = lang.unwrap_or(self.notation);
        let position = self.game.game().position();
        let declared = match declared.map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                parse_move_preferring(position, text, lang, page_lang)
                    .map_err(Unprocessable::DeclaredMove)?,
            ),
        };
        let plies = self.game.game().plies().len();
        let reply = self
            .commit(GameEvent::DrawClaimed {
                side,
                claim,
                declared: declared.map(|m| self.game.uci(m)),
            })
            .await?;
        // An incorrect claim on a declared move makes that move (9.5.3): the
        // boards follow it as any other.
        if let Some(m) = declared
            && self.game.game().plies().len() > plies
        {
            self.follow(m, None);
        }
        Ok(reply)
    }

    /// The D.2.9 ruling on both players' scoresheets (its answer is the
    /// ruling itself); if `apply`, the game goes back to the moves both
    /// agree on and the boards follow it.
    async fn ruling(&mut self, sheets: &ByColor<String>, apply: bool) -> Result<Reply, TableError> {
        let ruling = super::actions::ruling::rule_at_table(self.game.game(), sheets)
            .map_err(Unprocessable::from)?;
        let data = Some(ruling.json);
        if !apply {
            return Ok(Reply {
                text: None,
                data,
                paced: false,
            });
        }
        let mut reply = self
            .commit(GameEvent::Retracted {
                plies: ruling.agreed_plies,
                clock: ruling.clock,
                slid: false,
            })
            .await?;
        self.resync_board();
        reply.data = data;
        Ok(reply)
    }

    /// Names the piece of a promotion made on a pegged board, which cannot
    /// show it. A player names the promotion on their own board only (with
    /// two blind players, never the other's); the assistant and the arbiter
    /// on any.
    async fn name_promotion(&mut self, role: PersonRole, piece: Role) -> Result<Reply, TableError> {
        let own = role.plays(self.game.setup().blind);
        let Some(at) = self.boards.promotion_on(own) else {
            return Err(if self.boards.promotion_waiting() {
                Forbidden::OthersPromotion { role }.into()
            } else {
                Unprocessable::NoPromotionWaiting.into()
            });
        };
        let inferred = self
            .boards
            .name_promotion(at, piece)
            .map_err(Unprocessable::Promotion)?;
        let mut reply = Reply::default();
        for i in inferred {
            if let Some(r) = self.inferred(at, i).await {
                reply = r;
            }
        }
        Ok(reply)
    }

    /// Makes a move: journaled, clock pressed at the instant it was made,
    /// announced, and followed on every board it was not made on (board
    /// `made_on`, if any). The blind player's move, when the table can be
    /// heard, is announced first and made once spoken (D.2.3.3, D.2.4: in
    /// [`Self::announced`]).
    async fn play(&mut self, m: Move, made_on: Option<usize>) -> Result<Reply, TableError> {
        if self.game.setup().held_for_start && !super::replay::begun(self.game.game()) {
            return Err(Unprocessable::NotStarted {
                round: self.game.setup().round.clone(),
            }
            .into());
        }
        if self.announcer.is_announcing() {
            return Err(Unprocessable::Announcing.into());
        }
        let uci = self.game.uci(m);
        let blind_moves = self.game.game().position().turn() == self.game.setup().blind;
        if blind_moves && self.announcer.speaker().is_audible() {
            let now = self.time.now();
            let notices = self.game.check(now, &GameEvent::MovePlayed { uci })?;
            let tokens = notices
                .into_iter()
                .find(|n| n.kind == NoticeKind::Move)
                .map(|n| n.tokens)
                .unwrap_or_default();
            return Ok(self.announcer.begin(m, made_on, tokens));
        }
        let reply = self.commit(GameEvent::MovePlayed { uci }).await?;
        self.follow(m, made_on);
        Ok(reply)
    }

    /// The announced move has been spoken: it is made now, and whoever
    /// waits for it is answered.
    async fn announced(&mut self, a: AnnouncedMove) {
        let uci = self.game.uci(a.m);
        let result = self
            .commit_said(GameEvent::MovePlayed { uci }, Some(NoticeKind::Move))
            .await;
        let result = match result {
            Ok(mut reply) => {
                self.follow(a.m, a.made_on);
                reply.text = Some(match reply.text {
                    Some(more) => format!("{} {more}", a.text),
                    None => a.text.clone(),
                });
                Ok(reply)
            }
            Err(e) => {
                // The game changed while it was said (a flag, a ruling): the
                // move was not made; the boards follow the game again.
                tracing::info!(table = %self.game.id(), "announced move not made: {e}");
                self.resync_board();
                Err(e)
            }
        };
        a.answer(result);
    }

    /// Checks `event` on a copy of the game, journals it, applies it, then
    /// announces what it caused and publishes the new state.
    async fn commit(&mut self, event: GameEvent) -> Result<Reply, TableError> {
        self.commit_said(event, None).await
    }

    /// As [`Self::commit`], without saying again the notices of kind `said`
    /// (already announced).
    async fn commit_said(
        &mut self,
        event: GameEvent,
        said: Option<NoticeKind>,
    ) -> Result<Reply, TableError> {
        let now = self.time.now();
        let notices: Vec<Notice> = self.game.commit(now, event).await?;
        let notices = notices
            .into_iter()
            .filter(|n| Some(n.kind) != said)
            .collect();
        let reply = self.announcer.announce(notices);
        self.publish_state();
        Ok(reply)
    }

    /// Flag falls and board settling, whichever is due.
    async fn timers(&mut self) {
        let now = self.time.now();
        let game = self.game.game();
        let running = matches!(game.clock().state(), ClockState::Running { .. });
        if game.result().is_none() && running && game.clock().flag(now).is_some() {
            // 6.8: shown (and said) at once; the game ends only on a claim,
            // unless the organiser chose `flag = "auto"`.
            let event = match game.flag_rule() {
                FlagRule::Auto => GameEvent::FlagFell,
                FlagRule::Claim => GameEvent::TimeExpired,
            };
            let retry_due = self.flag_retry.as_ref().is_none_or(|(at, _)| *at <= now);
            if retry_due {
                match self.commit(event).await {
                    Ok(_) => {
                        if self.flag_retry.take().is_some() {
                            tracing::warn!(table = %self.game.id(), "flag fall recorded: the journal works again");
                        }
                    }
                    Err(e) => {
                        // Told once; the view shows the flag fallen but not
                        // recorded and the journal failing until it works.
                        let mut backoff = match self.flag_retry.take() {
                            None => {
                                tracing::error!(table = %self.game.id(), "flag fall not recorded: {e}; trying again with backoff");
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
    async fn next_game(&mut self, setup: Setup) -> Result<u32, TableError> {
        let id = self.game.id().clone();
        if setup.id != id {
            return Err(Unprocessable::OtherTable {
                setup: setup.id,
                table: id,
            }
            .into());
        }
        let game = self.game.game();
        if super::replay::begun(game) && game.result().is_none() {
            return Err(TableError::UnderWay {
                table: id,
                round: self.game.setup().round.clone(),
            });
        }
        let next = new_game(&setup, self.style).map_err(Unprocessable::Start)?;
        let blind_before = self.game.setup().blind;
        let number = self
            .game
            .next(self.time.last(), setup, next)
            .await
            .map_err(|e| TableError::Journal(Arc::new(e)))?;
        self.announcer.forget_game();
        self.flag_retry = None;
        let blind = self.game.setup().blind;
        self.boards
            .new_game(blind_before, blind, self.game.game().position());
        self.resync_board();
        tracing::info!(table = %id, game = number, round = %self.game.setup().round, "new game");
        let colour = match blind {
            Color::White => Word::White,
            Color::Black => Word::Black,
        };
        self.announcer.say(NoticeKind::NewGame, vec![colour.into()]);
        self.publish_state();
        Ok(number)
    }

    /// Acts on board `at`'s event, as the boards read it.
    async fn board_event(&mut self, at: usize, stamped: Stamped) {
        // The instant the driver read the event, not when the table got to
        // it (never before an instant already used).
        let now = self.time.at(stamped.at);
        match self.boards.on_event(at, stamped, now, self.game.id()) {
            BoardNews::Nothing => {}
            BoardNews::Changed => self.publish_state(),
            BoardNews::Connected => {
                let words = vec![Word::BoardConnected.into()];
                self.announcer.say(NoticeKind::Board, words);
                self.publish_state();
            }
            BoardNews::Disconnected => {
                let words = vec![Word::BoardDisconnected.into()];
                self.announcer.say(NoticeKind::Board, words);
                self.publish_state();
            }
            BoardNews::Inferred(inferred) => {
                for i in inferred {
                    self.inferred(at, i).await;
                }
            }
            BoardNews::Button { before, n } => {
                for i in before {
                    self.inferred(at, i).await;
                }
                // The frame's buttons are its player's: the blind player's
                // board, or the second blind player's.
                let role = if self.boards.side(at) == Some(self.game.setup().blind) {
                    PersonRole::Player
                } else {
                    PersonRole::Opponent
                };
                if let Some(action) = self.boards.button_action(at, n, self.shown)
                    && let Err(e) = self.act(role, action).await
                {
                    tracing::info!(table = %self.game.id(), "frame button {n}: {e}");
                }
            }
        }
    }

    /// Acts on what board `at`'s inference engine concluded.
    async fn inferred(&mut self, at: usize, inferred: Inferred) -> Option<Reply> {
        let side = self.boards.side(at)?;
        match inferred {
            Inferred::Moved { mv, .. } => {
                let game = self.game.game();
                let theirs = game.position().turn() == side;
                let result = if theirs && game.result().is_none() {
                    self.play(mv, Some(at)).await
                } else {
                    Err(Unprocessable::NotTheirMove { side }.into())
                };
                match result {
                    Ok(reply) => {
                        // The board shows the move made: a difference it
                        // showed on the way (a piece in a wrong hole) is gone.
                        self.boards.agrees(at, false);
                        return Some(reply);
                    }
                    Err(e @ TableError::Unprocessable(Unprocessable::NotStarted { .. })) => {
                        // Not an attempt at an illegal move: the round's
                        // clocks are not started. The board is read again.
                        tracing::info!(table = %self.game.id(), "board move not made: {e}");
                        self.resync_board();
                    }
                    Err(e) => {
                        tracing::info!(table = %self.game.id(), "board move not made: {e}");
                        let text = self.game.uci(mv);
                        let _ = self
                            .commit(GameEvent::IllegalAttempt {
                                side,
                                text: format!("{text} ({e})"),
                            })
                            .await;
                        self.resync_board();
                    }
                }
            }
            Inferred::Confirmed { .. } => {
                self.boards.agrees(at, true);
                self.publish_state();
            }
            Inferred::Agrees => {
                self.boards.agrees(at, false);
                self.publish_state();
            }
            Inferred::Touched { square, .. } => {
                let _ = self.commit(GameEvent::Touched { side, square }).await;
            }
            Inferred::PromotionPending { .. } => {
                let words = vec![Word::Promotion.into()];
                return Some(self.announcer.say(NoticeKind::Board, words));
            }
            Inferred::Differs(fixes) => {
                self.boards.differs_at(at, &fixes.squares());
                self.publish_state();
            }
            Inferred::Correction(tokens) => {
                return Some(self.announcer.say(NoticeKind::Board, tokens));
            }
            Inferred::Corrected { retracted, mv, .. } => {
                return self.correct_slide(at, retracted, mv).await;
            }
        }
        None
    }

    /// The sighted player's move `retracted`, read on their board, was a
    /// slide resting on its way: the piece went on to make `mv`, one move.
    /// Journaled as a correction (the ply retracted with the clocks as
    /// they would have stood, then `mv` played), and said: the retraction's
    /// notice, then `mv` announced, before the blind player replies. If the
    /// game has moved on since (or `retracted` is not its last move), the
    /// boards are read afresh instead.
    async fn correct_slide(&mut self, at: usize, retracted: Move, mv: Move) -> Option<Reply> {
        let side = self.boards.side(at)?;
        let game = self.game.game();
        let last_is_it = game
            .plies()
            .last()
            .is_some_and(|p| p.uci == self.game.uci(retracted))
            && game.position().turn() != side
            && game.result().is_none()
            && !self.announcer.is_announcing()
            && matches!(game.clock().state(), ClockState::Running { .. });
        if !last_is_it {
            tracing::info!(table = %self.game.id(), "slide correction too late: boards read afresh");
            self.resync_board();
            return None;
        }
        let now = self.time.now();
        let undo = GameEvent::Retracted {
            plies: game.plies().len() - 1,
            clock: Some(super::slide::clock_before_slide(game, side, now)),
            slid: true,
        };
        if let Err(e) = self.commit(undo).await {
            tracing::warn!(table = %self.game.id(), "slide correction refused: {e}");
            self.resync_board();
            return None;
        }
        if let Err(e) = self.commit(GameEvent::ClockResumed).await {
            tracing::warn!(table = %self.game.id(), "slide correction: clock not resumed: {e}");
        }
        match self.play(mv, Some(at)).await {
            Ok(reply) => {
                self.boards.agrees(at, false);
                Some(reply)
            }
            Err(e) => {
                tracing::warn!(table = %self.game.id(), "slide correction: {e}");
                self.resync_board();
                None
            }
        }
    }

    /// Has every board but `made_on` follow move `m`, just made.
    fn follow(&mut self, m: Move, made_on: Option<usize>) {
        let uci = self.game.uci(m);
        let (now, position) = (self.time.last(), self.game.game().position());
        self.boards
            .follow(m, uci, made_on, position, now, self.game.id());
    }

    /// Starts following from the game's position again (after a refused
    /// board move or a ruling).
    fn resync_board(&mut self) {
        self.boards.resync(self.game.game().position());
    }

    /// The table as it is now.
    fn view(&self) -> TableView {
        TableView::of(super::view::Sources {
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
    fn publish_state(&self) {
        let published = self.publish();
        self.announcer.publish_state(|| published.view.clone());
    }

    /// Publishes the table's state to readers only (a step the live
    /// stream need not hear of, or has heard of already).
    fn refresh(&self) {
        self.publish();
    }

    /// Replaces what readers see with the table as it is now; the PGN is
    /// written again only if the game changed since the last time.
    fn publish(&self) -> Arc<super::published::Published> {
        let rev = self.game.rev();
        let pgn = match &*self.publisher.borrow() {
            Some(p) if p.game_rev == rev => Some(Arc::clone(&p.pgn)),
            _ => None,
        };
        let pgn = pgn.unwrap_or_else(|| {
            Arc::from(super::pgn::game_pgn(self.game.setup(), self.game.game()))
        });
        let published = Arc::new(super::published::Published {
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
