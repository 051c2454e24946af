//! The requests that are more than one game event: a typed move, a draw
//! claim, a ruling on the scoresheets, a promotion named, and the table's
//! next game.

use std::sync::Arc;

use shakmaty::{ByColor, Color, Position, Role};

use crate::table::actions::PersonRole;
use crate::table::error::{Forbidden, TableError, Unprocessable};
use crate::table::handle::Reply;
use crate::table::replay::new_game;
use crate::table::setup::Setup;
use tactus_rules::event::{DrawClaim, GameEvent};
use tactus_rules::game::NoticeKind;
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, MoveError, parse_move_preferring};
use tactus_rules::token::Word;

use super::TableActor;

impl TableActor {
    /// Reads `text` with the piece letters of `lang` (the table's
    /// `notation` if none) and plays it.
    pub(super) async fn typed_move(
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
    pub(super) async fn claim_draw(
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
    pub(super) async fn ruling(
        &mut self,
        sheets: &ByColor<String>,
        apply: bool,
    ) -> Result<Reply, TableError> {
        let ruling = crate::table::actions::ruling::rule_at_table(self.game.game(), sheets)
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
    pub(super) async fn name_promotion(
        &mut self,
        role: PersonRole,
        piece: Role,
    ) -> Result<Reply, TableError> {
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

    /// Starts the table's next game from `setup`: journaled as the new
    /// game's first entry, then the boards are set to its start, each to
    /// its player's new colour, and the blind player hears their colour.
    pub(super) async fn next_game(&mut self, setup: Setup) -> Result<u32, TableError> {
        let id = self.game.id().clone();
        if setup.id != id {
            return Err(Unprocessable::OtherTable {
                setup: setup.id,
                table: id,
            }
            .into());
        }
        let game = self.game.game();
        if crate::table::replay::begun(game) && game.result().is_none() {
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
}
