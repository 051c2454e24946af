//! What the table does for each [`Action`], one method per action (the
//! shape of mini-redis's `src/cmd/`): `act` checks who asks, records a flag
//! that fell before the request, and hands the action to its method.
//! Actions that are one game event (starting the clock, resigning, …) are
//! committed as they are.

mod asked;
mod draw;
mod moves;
mod promotion;
mod ruling;

use shakmaty::Position;

use super::action::{Action, PersonRole};
use super::actor::{Forbidden, Reply, TableActor, TableError};
use tactus_rules::event::GameEvent;

impl TableActor {
    /// Does `action` on behalf of `role`, if it is theirs to ask.
    pub(in crate::table) async fn act(
        &mut self,
        role: PersonRole,
        action: Action,
    ) -> Result<Reply, TableError> {
        let to_move = self.game.position().turn();
        if !action.allowed(role, self.setup.blind, to_move) {
            return Err(Forbidden::Role { role }.into());
        }
        // A flag that fell before this request is recorded first: the
        // request then meets a finished game.
        self.timers().await;
        use Action::*;
        match action {
            Move {
                text,
                lang,
                page_lang,
            } => self.typed_move(&text, lang, page_lang).await,
            SayClock { time } => Ok(self.say_clock(role, time)),
            Repeat => Ok(self.repeat(role)),
            BoardDifferences => self.board_differences(role),
            StartClock => self.commit(GameEvent::ClockStarted).await,
            PauseClock => self.commit(GameEvent::ClockPaused).await,
            ResumeClock => self.commit(GameEvent::ClockResumed).await,
            AdjustClock {
                side,
                millis,
                reason,
            } => {
                let event = GameEvent::ClockAdjusted {
                    side,
                    millis,
                    reason,
                };
                self.commit(event).await
            }
            Touched { side, square } => self.commit(GameEvent::Touched { side, square }).await,
            OfferDraw { side } => self.commit(GameEvent::DrawOffered { side }).await,
            DeclineDraw { side } => self.commit(GameEvent::DrawDeclined { side }).await,
            AcceptDraw => self.accept_draw(role).await,
            ClaimDraw {
                side,
                claim,
                declared,
                lang,
                page_lang,
            } => {
                let declared = declared.as_deref();
                self.claim_draw(side, claim, declared, lang, page_lang)
                    .await
            }
            IllegalCompleted { side } => {
                self.commit(GameEvent::IllegalMoveCompleted { side }).await
            }
            Resign { side } => self.commit(GameEvent::Resigned { side }).await,
            ClaimFlag => self.commit(GameEvent::FlagFell).await,
            SetResult { result, reason } => {
                self.commit(GameEvent::ResultSet { result, reason }).await
            }
            Ruling {
                white_sheet,
                black_sheet,
                apply,
            } => self.ruling(&white_sheet, &black_sheet, apply).await,
            NamePromotion(piece) => self.name_promotion(role, piece).await,
        }
    }
}
