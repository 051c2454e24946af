//! Naming the piece of a promotion made on a pegged board, which cannot
//! show it.

use shakmaty::Role;

use crate::table::actions::PersonRole;
use crate::table::actor::{Forbidden, Reply, TableActor, TableError, Unprocessable};

impl TableActor {
    /// A player names the promotion on their own board only (with two blind
    /// players, never the other's); the assistant and the arbiter on any.
    pub(super) async fn name_promotion(
        &mut self,
        role: PersonRole,
        piece: Role,
    ) -> Result<Reply, TableError> {
        let own = role.plays(self.setup.blind);
        let Some(at) = self.boards.promotion_on(own) else {
            let elsewhere = self.boards.promotion_waiting();
            return Err(if elsewhere {
                Forbidden::OthersPromotion { role }.into()
            } else {
                Unprocessable::NoPromotionWaiting.into()
            });
        };
        let inferred = self.boards[at]
            .inference
            .name_promotion(piece)
            .map_err(Unprocessable::Promotion)?;
        let mut reply = Reply::default();
        for i in inferred {
            if let Some(r) = self.inferred(at, i).await {
                reply = r;
            }
        }
        Ok(reply)
    }
}
