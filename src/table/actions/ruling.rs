//! The arbiter's D.2.9 ruling from both scoresheets, and applying it.

use crate::table::actor::{Reply, TableActor, TableError, Unprocessable};
use tactus_rules::event::GameEvent;

impl TableActor {
    /// The ruling on the scoresheets `white` and `black` (its answer is the
    /// ruling itself); if `apply`, the game goes back to the moves both
    /// agree on and the boards follow it.
    pub(super) async fn ruling(
        &mut self,
        white: &str,
        black: &str,
        apply: bool,
    ) -> Result<Reply, TableError> {
        let ruling = crate::table::ruling::rule_at_table(&self.game, white, black)
            .map_err(Unprocessable::Ruling)?;
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
}
