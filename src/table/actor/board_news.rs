//! What the boards tell the table: a board's event acted on, what its
//! inference engine concluded (a move, a touch, a difference, a slide
//! corrected), and every board kept in step with the game.

use shakmaty::{Move, Position};

use crate::table::actions::PersonRole;
use crate::table::boards::BoardNews;
use crate::table::error::{TableError, Unprocessable};
use crate::table::handle::Reply;
use tactus_board::infer::Inferred;
use tactus_board::serial::Stamped;
use tactus_rules::clock::ClockState;
use tactus_rules::event::GameEvent;
use tactus_rules::game::NoticeKind;
use tactus_rules::token::Word;

use super::TableActor;

impl TableActor {
    /// Acts on board `at`'s event, as the boards read it.
    pub(super) async fn board_event(&mut self, at: usize, stamped: Stamped) {
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
    pub(super) async fn inferred(&mut self, at: usize, inferred: Inferred) -> Option<Reply> {
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
            clock: Some(crate::table::slide::clock_before_slide(game, side, now)),
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
    pub(super) fn follow(&mut self, m: Move, made_on: Option<usize>) {
        let uci = self.game.uci(m);
        let (now, position) = (self.time.last(), self.game.game().position());
        self.boards
            .follow(m, uci, made_on, position, now, self.game.id());
    }

    /// Starts following from the game's position again (after a refused
    /// board move or a ruling).
    pub(super) fn resync_board(&mut self) {
        self.boards.resync(self.game.game().position());
    }
}
