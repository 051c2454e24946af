//! The time a table lives by: one source the service hands every table, so
//! that the chess clock, board settling and the journal's instants agree and
//! the table itself never reads the system clock.
//!
//! Elapsed time comes from a *monotonic* source. The wall clock is read once,
//! when the service starts, only to give instants a meaning a person can read
//! in the journal (milliseconds since the Unix epoch, roughly): an NTP step or
//! an organiser changing the system time during a game changes no clock. The
//! other source is a manual one that tests advance by hand, so a whole
//! 90-minute game runs in milliseconds.
//!
//! Named `Timebase`, not `Clock`: [`tactus_rules::clock::Clock`] is the chess
//! clock.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// A shared, cheap-to-clone source of the service's time.
#[derive(Clone)]
pub struct Timebase {
    inner: Arc<Source>,
}

enum Source {
    /// `at_origin` plus the monotonic time elapsed since `origin`.
    Monotonic {
        origin: Instant,
        at_origin: Duration,
    },
    /// Time that moves only when [`Timebase::advance`] is called.
    Manual {
        now: Mutex<Duration>,
        changed: watch::Sender<Duration>,
    },
}

impl Timebase {
    /// Monotonic time that reads `at_origin` now. The service passes the wall
    /// time at start-up (or the journal's last instant if that is later), so
    /// instants keep increasing across restarts.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus::table::timebase::Timebase;
    ///
    /// let t = Timebase::monotonic(Duration::from_secs(1_000));
    /// assert!(t.now() >= Duration::from_secs(1_000));
    /// ```
    pub fn monotonic(at_origin: Duration) -> Timebase {
        Timebase {
            inner: Arc::new(Source::Monotonic {
                origin: Instant::now(),
                at_origin,
            }),
        }
    }

    /// Time that stands at `start` until a test advances it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus::table::timebase::Timebase;
    ///
    /// let t = Timebase::manual(Duration::ZERO);
    /// t.advance(Duration::from_secs(90 * 60));
    /// assert_eq!(t.now(), Duration::from_secs(5_400));
    /// ```
    pub fn manual(start: Duration) -> Timebase {
        let (changed, _) = watch::channel(start);
        Timebase {
            inner: Arc::new(Source::Manual {
                now: Mutex::new(start),
                changed,
            }),
        }
    }

    /// Moves a manual time forward by `by`; `false` (and nothing happens) for
    /// the monotonic source, which no one may move.
    pub fn advance(&self, by: Duration) -> bool {
        match &*self.inner {
            Source::Monotonic { .. } => false,
            Source::Manual { now, changed } => {
                let mut now = now.lock().unwrap_or_else(|e| e.into_inner());
                *now = now.saturating_add(by);
                changed.send_replace(*now);
                true
            }
        }
    }

    /// The time now, in whole milliseconds (what the journal stores is
    /// exactly what was applied).
    pub fn now(&self) -> Duration {
        let t = match &*self.inner {
            Source::Monotonic { origin, at_origin } => at_origin.saturating_add(origin.elapsed()),
            Source::Manual { now, .. } => *now.lock().unwrap_or_else(|e| e.into_inner()),
        };
        whole_ms(t)
    }

    /// The service's time at `instant`, a monotonic stamp taken elsewhere (a
    /// board driver reading its port). A manual time has no relation to real
    /// instants: there every stamp is "now".
    pub fn at(&self, instant: Instant) -> Duration {
        match &*self.inner {
            Source::Monotonic { origin, at_origin } => {
                let t = match instant.checked_duration_since(*origin) {
                    Some(after) => at_origin.saturating_add(after),
                    None => at_origin.saturating_sub(origin.duration_since(instant)),
                };
                whole_ms(t)
            }
            Source::Manual { .. } => self.now(),
        }
    }

    /// The monotonic instant at which the time reads `at` (what a board
    /// driver is asked to have read up to); `None` for a manual time, which
    /// no instant corresponds to.
    pub fn instant_of(&self, at: Duration) -> Option<Instant> {
        match &*self.inner {
            Source::Monotonic { origin, at_origin } => {
                Some(*origin + at.saturating_sub(*at_origin))
            }
            Source::Manual { .. } => None,
        }
    }

    /// Waits until the time reads `at` or later.
    pub async fn sleep_until(&self, at: Duration) {
        match &*self.inner {
            Source::Monotonic { origin, at_origin } => {
                let when = *origin + at.saturating_sub(*at_origin);
                tokio::time::sleep_until(tokio::time::Instant::from_std(when)).await;
            }
            Source::Manual { changed, .. } => {
                let mut rx = changed.subscribe();
                loop {
                    if *rx.borrow_and_update() >= at {
                        return;
                    }
                    if rx.changed().await.is_err() {
                        // The source is gone: this time will never come.
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }
}

impl std::fmt::Debug for Timebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &*self.inner {
            Source::Monotonic { .. } => "monotonic",
            Source::Manual { .. } => "manual",
        };
        write!(f, "Timebase({kind}, {:?})", self.now())
    }
}

/// A table's instants: read from its [`Timebase`], and never earlier than
/// one already handed out, even when the journal holds a later instant than
/// the source reads (after a restart).
pub(super) struct Instants {
    source: Timebase,
    /// The latest instant handed out.
    last: Duration,
}

impl Instants {
    /// Instants from `source`, none before `last` (the journal's latest).
    pub(super) fn new(source: Timebase, last: Duration) -> Instants {
        Instants { source, last }
    }

    /// The time now, never earlier than an instant already handed out.
    pub(super) fn now(&mut self) -> Duration {
        self.last = self.last.max(self.source.now());
        self.last
    }

    /// The time at `instant` (a board driver's stamp), never earlier than
    /// an instant already handed out.
    pub(super) fn at(&mut self, instant: Instant) -> Duration {
        self.last = self.last.max(self.source.at(instant));
        self.last
    }

    /// The latest instant handed out.
    pub(super) fn last(&self) -> Duration {
        self.last
    }

    /// The time now, as [`Instants::now`] would hand it out, without
    /// handing it out (for a view of the table).
    pub(super) fn peek(&self) -> Duration {
        self.last.max(self.source.now())
    }

    /// The time source.
    pub(super) fn source(&self) -> &Timebase {
        &self.source
    }
}

fn whole_ms(t: Duration) -> Duration {
    Duration::from_millis(u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_stamp_maps_onto_the_same_time() {
        let t = Timebase::monotonic(Duration::from_secs(100));
        let stamp = Instant::now();
        let at = t.at(stamp);
        assert!(at >= Duration::from_secs(100) && at <= t.now());
        // A stamp from before the origin maps before it, never panics.
        let early = t.at(stamp - Duration::from_millis(50).min(stamp.elapsed()));
        assert!(early <= at);
    }

    #[tokio::test]
    async fn manual_sleep_wakes_when_advanced_past_its_instant() {
        let t = Timebase::manual(Duration::ZERO);
        let waiter = {
            let t = t.clone();
            tokio::spawn(async move { t.sleep_until(Duration::from_secs(60)).await })
        };
        t.advance(Duration::from_secs(30));
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        t.advance(Duration::from_secs(30));
        waiter.await.unwrap();
        assert!(!Timebase::monotonic(Duration::ZERO).advance(Duration::from_secs(1)));
    }
}
