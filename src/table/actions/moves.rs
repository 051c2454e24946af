//! A move typed on a page (any notation the sheet reader takes).

use shakmaty::Position;

use crate::table::actor::{Reply, TableActor, TableError, Unprocessable};
use tactus_rules::event::GameEvent;
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, MoveError, parse_move_preferring};

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
        let m = match parse_move_preferring(self.game.position(), text, lang, page_lang) {
            Ok(m) => m,
            Err(e) => {
                // A move that reads but is not legal is an attempt on the
                // record for the arbiter (7.5); text that is no move at all
                // is only refused.
                if self.game.result().is_none() && matches!(e, MoveError::Illegal(_)) {
                    let side = self.game.position().turn();
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
}
