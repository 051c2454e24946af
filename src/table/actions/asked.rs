//! What a player asks to hear: the clock read out, the last words again,
//! where their board differs from the game.

use crate::table::actions::PersonRole;
use crate::table::actor::{Reply, TableActor, TableError, Unprocessable};
use tactus_rules::clock_announce::{Shown, clock_tokens_in};
use tactus_rules::game::NoticeKind;
use tactus_rules::token::Word;

impl TableActor {
    /// The clock announcement (D.2.6, D.2.10.4), the time left or used
    /// (`None`: the table's setting).
    pub(super) fn say_clock(&mut self, role: PersonRole, time: Option<Shown>) -> Reply {
        let now = self.time.now();
        let shown = time.unwrap_or(self.shown);
        let tokens = clock_tokens_in(
            &self.game.clock().reading(now),
            shown,
            self.announcer.voice.grammar(),
        );
        let asked = match shown {
            Shown::Remaining => "clock left",
            Shown::Used => "clock used",
        };
        self.announcer
            .say_asked((role, asked), now, NoticeKind::Clock, tokens, true)
    }

    /// The last announcement again, in full (nothing if none yet).
    pub(super) fn repeat(&mut self, role: PersonRole) -> Reply {
        let now = self.time.now();
        match self.announcer.last_said.clone() {
            Some((_, tokens)) => {
                self.announcer
                    .say_asked((role, "repeat"), now, NoticeKind::Repeat, tokens, true)
            }
            None => Reply::default(),
        }
    }

    /// Which holes of a board differ: a player's own board; the blind
    /// player's for the others.
    pub(super) fn board_differences(&mut self, role: PersonRole) -> Result<Reply, TableError> {
        let side = role.plays(self.setup.blind).unwrap_or(self.setup.blind);
        let Some(board) = self.boards.of(side) else {
            return Err(Unprocessable::NoBoard { side }.into());
        };
        let fixes = board.inference.fixes();
        let tokens = if fixes.is_empty() {
            vec![Word::BoardCorrect.into()]
        } else {
            fixes.tokens()
        };
        let now = self.time.now();
        Ok(self
            .announcer
            .say_asked((role, "board"), now, NoticeKind::Board, tokens, false))
    }
}
