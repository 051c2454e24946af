//! One task per table: it owns the table's game, clock, boards and speech,
//! and takes requests and board events from its channel, one at a time (the
//! actor pattern: no game state behind locks).
//!
//! Every change is journaled before it takes effect: the request is checked
//! on a copy of the game, the event is committed to the journal, and only
//! then applied, announced and acknowledged.

use std::time::Duration;

use shakmaty::Position;
use tokio::sync::mpsc;

use super::actions::{Action, PersonRole};
use super::announcing::{Announcer, Change};
use super::boards::Boards;
use super::error::{Forbidden, TableError, Unprocessable};
use super::handle::Reply;
use super::handle::Request;
use super::journaled_game::JournaledGame;
use super::timebase::Instants;
use tactus_rules::announce::Style;
use tactus_rules::clock::ClockState;
use tactus_rules::clock_announce::Shown;
use tactus_rules::event::GameEvent;
use tactus_rules::notation::Lang;

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

/// How often a running clock's table tells the journal it is alive, so a
/// restart pauses the clock at most this long after the crash.
const ALIVE_EVERY: Duration = Duration::from_secs(1);

mod board_news;
mod committing;
mod publishing;
mod requests;
mod start;
mod timers;

impl TableActor {
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
    /// committed as they are; the others are the methods of `requests.rs`.
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
}
