//! Making a move and committing events: each checked on a copy of the
//! game, journaled, then applied, announced and published; the blind
//! player's move announced first and made once spoken.

use shakmaty::{Move, Position};

use crate::table::announcing::AnnouncedMove;
use crate::table::error::{TableError, Unprocessable};
use crate::table::handle::Reply;
use tactus_rules::event::GameEvent;
use tactus_rules::game::{Notice, NoticeKind};

use super::TableActor;

impl TableActor {
    /// Makes a move: journaled, clock pressed at the instant it was made,
    /// announced, and followed on every board it was not made on (board
    /// `made_on`, if any). The blind player's move, when the table can be
    /// heard, is announced first and made once spoken (D.2.3.3, D.2.4: in
    /// [`Self::announced`]).
    pub(super) async fn play(
        &mut self,
        m: Move,
        made_on: Option<usize>,
    ) -> Result<Reply, TableError> {
        if self.game.setup().held_for_start && !crate::table::replay::begun(self.game.game()) {
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
    pub(super) async fn announced(&mut self, a: AnnouncedMove) {
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
    pub(super) async fn commit(&mut self, event: GameEvent) -> Result<Reply, TableError> {
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
}
