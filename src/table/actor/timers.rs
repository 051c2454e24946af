//! What comes due with time: a flag fall, recorded (and tried again with
//! backoff while the journal fails), and board reads whose settling time
//! has run out.

use std::time::Duration;

use tactus_rules::clock::ClockState;
use tactus_rules::event::GameEvent;
use tactus_rules::result::FlagRule;

use super::TableActor;

/// The first and the longest wait before recording a flag fall again while
/// the journal fails.
const FLAG_RETRY_MIN: Duration = Duration::from_millis(250);
const FLAG_RETRY_MAX: Duration = Duration::from_secs(5);

impl TableActor {
    /// Flag falls and board settling, whichever is due.
    pub(super) async fn timers(&mut self) {
        let now = self.time.now();
        let game = self.game.game();
        let running = matches!(game.clock().state(), ClockState::Running { .. });
        if game.result().is_none() && running && game.clock().flag(now).is_some() {
            // 6.8: shown (and said) at once; the game ends only on a claim,
            // unless the organiser chose `flag = "auto"`.
            let event = match game.flag_rule() {
                FlagRule::Auto => GameEvent::FlagFell,
                FlagRule::Claim => GameEvent::TimeExpired,
            };
            let retry_due = self.flag_retry.as_ref().is_none_or(|(at, _)| *at <= now);
            if retry_due {
                match self.commit(event).await {
                    Ok(_) => {
                        if self.flag_retry.take().is_some() {
                            tracing::warn!(table = %self.game.id(), "flag fall recorded: the journal works again");
                        }
                    }
                    Err(e) => {
                        // Told once; the view shows the flag fallen but not
                        // recorded and the journal failing until it works.
                        let mut backoff = match self.flag_retry.take() {
                            None => {
                                tracing::error!(table = %self.game.id(), "flag fall not recorded: {e}; trying again with backoff");
                                tactus_backoff::Backoff::new(FLAG_RETRY_MIN, FLAG_RETRY_MAX)
                            }
                            Some((_, backoff)) => backoff,
                        };
                        let wait = backoff.failed();
                        self.flag_retry = Some((now + wait, backoff));
                        self.publish_state();
                    }
                }
            }
        }
        for at in 0..self.boards.len() {
            for i in self.boards.settle_due(at, now, self.time.source()) {
                self.inferred(at, i).await;
            }
        }
    }
}
