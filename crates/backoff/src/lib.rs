//! The one backoff of every reconnecting part: boards (local or behind
//! ser2net), sound devices, braille displays, the journal's flag-fall
//! retry. Pure (time is passed in), so it sits below every layer.
//!
//! Two rules make it a bound rather than a delay:
//!
//! - It is reset only by [`Backoff::proven`]: a connection that opens and
//!   fails at once (ser2net accepting and closing because its USB device is
//!   missing, a BrlAPI server that sends its version and hangs up) is one
//!   more failure, not a fresh start. Each part says what proof is: a board
//!   that sent a valid message, a display that answered, a sound device
//!   that played.
//! - It says when a failure is worth a log line: the first at once, then at
//!   most one per [`Backoff::LOG_EVERY`] with how many came since, so a part
//!   that keeps failing writes one line a minute, not one per attempt.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use tactus_backoff::Backoff;
//!
//! let ms = Duration::from_millis;
//! let mut b = Backoff::new(ms(50), ms(200));
//! let waits: Vec<_> = (0..4).map(|_| b.failed()).collect();
//! assert_eq!(waits, [ms(50), ms(100), ms(200), ms(200)]);
//! assert!(b.is_failing());
//! b.proven();
//! assert_eq!(b.failed(), ms(50));
//! ```

use std::time::{Duration, Instant};

/// A doubling wait between attempts, reset only by proof.
#[derive(Debug, Clone)]
pub struct Backoff {
    min: Duration,
    max: Duration,
    next: Duration,
    /// Failures since the last proof.
    failures: u64,
    /// When a failure was last logged, and how many failures that line
    /// told of (the count since then is `failures - told`).
    logged_at: Option<Instant>,
    told: u64,
}

impl Backoff {
    /// At most one log line this often while a part keeps failing.
    pub const LOG_EVERY: Duration = Duration::from_secs(60);

    /// Waits `min`, doubling up to `max` (a `max` below `min` is `min`).
    pub fn new(min: Duration, max: Duration) -> Backoff {
        Backoff {
            min,
            max: max.max(min),
            next: min,
            failures: 0,
            logged_at: None,
            told: 0,
        }
    }

    /// One more failure (an attempt that failed, or a connection that ended
    /// before proving itself): how long to wait before the next attempt.
    pub fn failed(&mut self) -> Duration {
        let wait = self.next;
        self.next = self.next.saturating_mul(2).min(self.max);
        self.failures = self.failures.saturating_add(1);
        wait
    }

    /// The connection proved itself: the next failure waits `min` again,
    /// and is told at once.
    pub fn proven(&mut self) {
        self.next = self.min;
        self.failures = 0;
        self.logged_at = None;
        self.told = 0;
    }

    /// Whether the part has failed since it last proved itself.
    pub fn is_failing(&self) -> bool {
        self.failures > 0
    }

    /// Failures since the last proof.
    pub fn failures(&self) -> u64 {
        self.failures
    }

    /// The wait the next failure will get.
    pub fn next_wait(&self) -> Duration {
        self.next
    }

    /// Whether a line about the failures is due at `now`: `Some(n)` with the
    /// failures not yet told (the first failure at once, then at most one
    /// line per [`Backoff::LOG_EVERY`]); `None` when the log should stay
    /// quiet.
    pub fn log_due(&mut self, now: Instant) -> Option<u64> {
        let untold = self.failures.saturating_sub(self.told);
        if untold == 0 {
            return None;
        }
        let due = self
            .logged_at
            .is_none_or(|at| now.saturating_duration_since(at) >= Self::LOG_EVERY);
        if !due {
            return None;
        }
        self.logged_at = Some(now);
        self.told = self.failures;
        Some(untold)
    }
}

/// What a supervised thread does after its body panicked, as the part's
/// owner decides (`failed` of [`supervise`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterPanic {
    /// Wait out the backoff and run the body again.
    Restart,
    /// Stop: nobody needs the part any more.
    Stop,
}

/// Runs `body` until it returns, and runs it again each time it panics:
/// the one loop of every device thread (a board's driver, a braille
/// display), so that no thread of a table dies silently.
///
/// After a panic `failed` is told whether a log line is due, and with how
/// many panics since the last (at most one line a minute, as
/// [`Backoff::log_due`] says); it marks the part failed for the table and
/// says whether to go on. Then `sleep` waits
/// out the doubling wait (a part's own sleep can cut it short when the
/// part is let go). The panic itself is printed by the panic hook as
/// usual.
///
/// ```
/// use std::time::Duration;
/// use tactus_backoff::{AfterPanic, Backoff, supervise};
///
/// let mut runs = 0;
/// let mut logs = Vec::new();
/// let mut slept = Vec::new();
/// let ms = Duration::from_millis;
/// # let hook = std::panic::take_hook();
/// # std::panic::set_hook(Box::new(|_| {}));
/// supervise(
///     &mut Backoff::new(ms(50), ms(2000)),
///     || {
///         runs += 1;
///         if runs < 3 {
///             panic!("a decoder bug");
///         }
///     },
///     |log| {
///         logs.push(log);
///         AfterPanic::Restart
///     },
///     |wait| slept.push(wait),
/// );
/// # std::panic::set_hook(hook);
/// assert_eq!(runs, 3);
/// assert_eq!(logs, [Some(1), None]); // one line within the minute
/// assert_eq!(slept, [ms(50), ms(100)]);
/// ```
pub fn supervise(
    restarts: &mut Backoff,
    mut body: impl FnMut(),
    mut failed: impl FnMut(Option<u64>) -> AfterPanic,
    mut sleep: impl FnMut(Duration),
) {
    loop {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&mut body));
        if run.is_ok() {
            return;
        }
        let wait = restarts.failed();
        let log = restarts.log_due(Instant::now());
        if failed(log) == AfterPanic::Stop {
            return;
        }
        sleep(wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_to_the_cap_and_stay_there_until_proof() {
        let s = Duration::from_secs;
        let mut b = Backoff::new(Duration::from_millis(50), s(2));
        let mut total = Duration::ZERO;
        // A peer that accepts and closes at once, for ten seconds: the
        // attempts are bounded by the doubling, not by the peer's speed.
        let mut attempts = 0;
        while total < s(10) {
            total += b.failed();
            attempts += 1;
        }
        assert!(attempts <= 10, "{attempts}");
        assert_eq!(b.next_wait(), s(2));
        assert_eq!(b.failures(), attempts);
        b.proven();
        assert!(!b.is_failing());
        assert_eq!(b.next_wait(), Duration::from_millis(50));
    }

    #[test]
    fn a_failing_part_is_logged_once_a_minute_at_most() {
        let mut b = Backoff::new(Duration::from_millis(1), Duration::from_millis(1));
        let t0 = Instant::now();
        assert_eq!(b.log_due(t0), None, "nothing failed yet");
        b.failed();
        assert_eq!(b.log_due(t0), Some(1), "the first at once");
        let mut lines = 0;
        for i in 1..=10_000u64 {
            b.failed();
            let now = t0 + Duration::from_millis(i * 10);
            if b.log_due(now).is_some() {
                lines += 1;
            }
        }
        // 100 s of failures: one more line at the minute.
        assert_eq!(lines, 1);
        b.proven();
        b.failed();
        assert_eq!(b.log_due(t0), Some(1), "after proof, told at once again");
    }

    /// A body that always panics is restarted at the backoff's pace until
    /// its owner says stop; a log line is due at the first panic only
    /// (within the minute).
    #[test]
    fn a_panicking_body_is_restarted_with_backoff_until_told_to_stop() {
        let ms = Duration::from_millis;
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let mut runs = 0;
        let mut logs = Vec::new();
        let mut slept = Vec::new();
        let mut restarts = Backoff::new(ms(50), ms(200));
        supervise(
            &mut restarts,
            || {
                runs += 1;
                panic!("always");
            },
            |log| {
                logs.push(log);
                if logs.len() < 5 {
                    AfterPanic::Restart
                } else {
                    AfterPanic::Stop
                }
            },
            |wait| slept.push(wait),
        );
        std::panic::set_hook(hook);
        assert_eq!(runs, 5);
        assert_eq!(slept, [ms(50), ms(100), ms(200), ms(200)]);
        assert_eq!(logs, [Some(1), None, None, None, None]);
        assert_eq!(restarts.failures(), 5);
    }
}
