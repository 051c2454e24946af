//! Draws that need more than their event: accepting one offered, and a
//! claim that may declare the move bringing it about (9.2, 9.3).

use shakmaty::Color;

use crate::table::actions::PersonRole;
use crate::table::actor::{Reply, TableActor, TableError, Unprocessable};
use tactus_rules::event::{DrawClaim, GameEvent};
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, parse_move_preferring};

impl TableActor {
    /// Agrees the draw offered; refused if none was.
    pub(super) async fn accept_draw(&mut self, role: PersonRole) -> Result<Reply, TableError> {
        let Some(offered_by) = self.game.draw_offer() else {
            return Err(Unprocessable::NoDrawOffered.into());
        };
        // A player accepts an offer made to them, never their own.
        if role.plays(self.setup.blind) == Some(offered_by) {
            return Err(Unprocessable::OwnDrawOffer.into());
        }
        self.commit(GameEvent::DrawAgreed).await
    }

    /// `side` claims a draw, on the position as it stands or on the move
    /// `declared` (read with `lang`, the table's `notation` if none).
    pub(super) async fn claim_draw(
        &mut self,
        side: Color,
        claim: DrawClaim,
        declared: Option<&str>,
        lang: Option<Lang>,
        page_lang: Option<Language>,
    ) -> Result<Reply, TableError> {
        let lang = lang.unwrap_or(self.notation);
        let declared = match declared.map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                parse_move_preferring(self.game.position(), text, lang, page_lang)
                    .map_err(Unprocessable::DeclaredMove)?,
            ),
        };
        let plies = self.game.plies().len();
        let reply = self
            .commit(GameEvent::DrawClaimed {
                side,
                claim,
                declared: declared.map(|m| self.uci(m)),
            })
            .await?;
        // An incorrect claim on a declared move makes that move (9.5.3): the
        // boards follow it as any other.
        if let Some(m) = declared
            && self.game.plies().len() > plies
        {
            self.follow(m, None);
        }
        Ok(reply)
    }
}
