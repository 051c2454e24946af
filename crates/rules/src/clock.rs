//! The chess clock (Article 6) as pure arithmetic.
//!
//! Every operation takes `now`: a [`Duration`] since an epoch of the caller's
//! choosing (the server uses a monotonic clock's start). Nothing here reads
//! the system time, so a test plays a whole game in microseconds. Instants
//! must not go back: an operation with an earlier `now` than the last one is
//! refused and changes nothing.
//!
//! # Appendix D timing (D.2.3, D.2.4, D.2.8)
//!
//! On the blind player's board a move is *made* only when the captured piece
//! is off the board, the piece stands in its new hole and the move has been
//! announced (D.2.3); only then is the opponent's clock started (D.2.4). The
//! table, not the clock, decides that instant and calls [`Clock::press`] with
//! it. Lifting a piece, a slip of the tongue corrected at once (D.2.8), an
//! announcement repeated: none of these touch the clock, so they cost
//! nothing beyond the time that passes while the player's own clock runs.
//!
//! # Rules kept
//!
//! - White's clock starts at [`Clock::start`] (6.6).
//! - A press completes the move of the side to move (6.2.1): its clock stops,
//!   its bonus is credited, its move counter and period advance, and the
//!   opponent's clock starts.
//! - Fischer increment: added after the move. Bronstein delay: the time used
//!   on the move, up to the delay, is given back after it. Simple delay: the
//!   main time runs only once the delay of the move has passed (and the delay
//!   is not given back). The bonus of the period the move belongs to applies.
//! - When a player completes a period's moves, the next period's time is
//!   added to what is left (6.3.2).
//! - A flag falls at the first instant the running side has no time left,
//!   in any period. Any operation at or after that instant records the fall
//!   and is refused with [`ClockError::FlagFell`]. [`flag_result`] gives the
//!   result of Article 6.9.
//! - The arbiter may add or take time ([`Clock::adjust`], Articles 7 and
//!   12.9) and set both times and the move counts ([`Clock::set`], 7.1 and
//!   D.2.9).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Color, KnownOutcome, Position};

use super::clock_announce::{ClockReading, PlayerTimes};
use super::time_control::{Bonus, TimeControl};

/// What the clock is doing.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock::{Clock, ClockState};
///
/// let mut clock = Clock::new("5+3".parse().unwrap());
/// assert_eq!(clock.state(), ClockState::NotStarted);
/// clock.start(Duration::from_secs(2)).unwrap();
/// assert_eq!(clock.state(), ClockState::Running { since: Duration::from_secs(2) });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ClockState {
    /// Not started yet: both players have the first period's time.
    NotStarted,
    /// The side to move's clock has run since `since`.
    Running {
        /// The instant of the last checkpoint (start, press, resume).
        since: Duration,
    },
    /// Stopped by the arbiter; [`Clock::resume`] continues the same move.
    Paused,
    /// A flag has fallen.
    Flagged(Flag),
}

/// A fallen flag: whose and when.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::clock::Flag;
///
/// let flag = Flag { side: Color::Black, at: Duration::from_secs(300) };
/// let json = serde_json::to_string(&flag).unwrap();
/// assert_eq!(json, r#"{"side":"black","at":{"secs":300,"nanos":0}}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    /// The player whose time ran out.
    #[serde(with = "super::side")]
    pub side: Color,
    /// The first instant the side had no time left.
    pub at: Duration,
}

/// An arbiter's change of one player's time (Articles 7 and 12.9).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::clock::{Adjustment, Clock};
///
/// let s = Duration::from_secs;
/// let mut clock = Clock::new("10".parse().unwrap());
/// clock.start(s(0)).unwrap();
/// clock.adjust(Color::Black, Adjustment::Add(s(120)), s(5)).unwrap(); // 7.5.5
/// assert_eq!(clock.remaining(Color::Black, s(5)), s(720));
/// clock.adjust(Color::Black, Adjustment::Subtract(s(3600)), s(6)).unwrap();
/// assert_eq!(clock.remaining(Color::Black, s(6)), s(0)); // not below zero
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjustment {
    /// More time, e.g. two minutes for an illegal move of the opponent (7.5.5).
    Add(Duration),
    /// Less time; it cannot go below zero.
    Subtract(Duration),
}

/// Both times and the move counts, as the arbiter sets them after restoring
/// a position (7.1, D.2.9).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::clock::{Clock, ClockSetting, ClockState};
///
/// let m = |n: u64| Duration::from_secs(60 * n);
/// let mut clock = Clock::new("40/90, 30".parse().unwrap());
/// let setting = ClockSetting { white: m(50), black: m(45), white_moves: 39, black_moves: 38, to_move: Color::Black };
/// clock.set(setting, m(0)).unwrap();
/// assert_eq!(clock.state(), ClockState::Paused);
/// assert_eq!(clock.setting(m(0)), setting);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSetting {
    /// White's time left.
    pub white: Duration,
    /// Black's time left.
    pub black: Duration,
    /// Moves White has completed.
    pub white_moves: u32,
    /// Moves Black has completed: equal to White's when White is to move,
    /// one fewer when Black is.
    pub black_moves: u32,
    /// The side whose clock runs on resume.
    #[serde(with = "super::side")]
    pub to_move: Color,
}

/// Why an operation was refused. Apart from [`ClockError::FlagFell`] (which
/// records the fall, a fact of time) a refused operation changes nothing.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::clock::{Clock, ClockError};
///
/// let s = Duration::from_secs;
/// let mut clock = Clock::new("3+2".parse().unwrap());
/// assert_eq!(clock.press(s(1)), Err(ClockError::NotStarted));
/// clock.start(s(10)).unwrap();
/// assert_eq!(clock.press(s(9)), Err(ClockError::TimeWentBack { now: s(9), last: s(10) }));
/// assert_eq!(clock.resume(s(11)), Err(ClockError::NotPaused));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The operation needs a started clock.
    #[error("the clock has not been started")]
    NotStarted,
    /// [`Clock::start`] on a clock that has been started.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// The clock is paused: a press or a pause must wait for the resume.
    #[error("the clock is paused: resume it first")]
    Paused,
    /// [`Clock::resume`] on a clock that is not paused.
    #[error("the clock is not paused")]
    NotPaused,
    /// `now` is before the last operation's instant.
    #[error("time went back: {now:?} is before the last operation at {last:?}")]
    TimeWentBack {
        /// The instant given.
        now: Duration,
        /// The instant of the last operation.
        last: Duration,
    },
    /// A flag has fallen: the clock stopped at the fall.
    #[error("{}'s flag fell at {:?}", super::side::name(.0.side), .0.at)]
    FlagFell(Flag),
    /// A [`ClockSetting`] whose move counts do not fit the side to move.
    #[error("invalid clock setting: {0}")]
    InvalidSetting(&'static str),
}

/// One player's side of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Side {
    /// Time left at the last checkpoint, before charging the current move's
    /// `turn_used` (for the side to move).
    base: Duration,
    /// Time the clock has run for this side up to the last checkpoint.
    used: Duration,
    /// Moves completed.
    moves: u32,
    /// Current period, 1 for the first.
    period: u32,
    /// Moves completed in the current period.
    period_moves: u32,
}

/// The clock. Serialises its whole state (the server journals it).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::clock::Clock;
///
/// let secs = Duration::from_secs;
/// let mut clock = Clock::new("3+2".parse().unwrap());
/// clock.start(secs(0)).unwrap();
/// clock.press(secs(10)).unwrap(); // White's move made at 10 s
/// assert_eq!(clock.remaining(Color::White, secs(10)), secs(180 - 10 + 2));
/// assert_eq!(clock.remaining(Color::Black, secs(25)), secs(180 - 15));
/// assert_eq!(clock.deadline(), Some(secs(190)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    /// Each player's account; written as `"white"` and `"black"` beside
    /// the other fields, as the journal always had them.
    #[serde(flatten, with = "super::side::by_color")]
    sides: ByColor<Side>,
    #[serde(with = "super::side")]
    to_move: Color,
    state: ClockState,
    /// Time the side to move's clock has run on the current move up to the
    /// last checkpoint (pauses split a move into several runs).
    turn_used: Duration,
    /// The instant of the last operation; `now` may not go before it.
    last: Duration,
}

impl Clock {
    /// A clock for `control`, not started, both players with the first
    /// period's time, White to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let clock = Clock::new("90+30".parse().unwrap());
    /// assert_eq!(clock.remaining(Color::Black, s(0)), s(90 * 60));
    /// assert_eq!(clock.to_move(), Color::White);
    /// ```
    pub fn new(control: TimeControl) -> Clock {
        let time = control.period(1).time;
        let side = Side {
            base: time,
            used: Duration::ZERO,
            moves: 0,
            period: 1,
            period_moves: 0,
        };
        Clock {
            control,
            sides: ByColor::new_with(|_| side),
            to_move: Color::White,
            state: ClockState::NotStarted,
            turn_used: Duration::ZERO,
            last: Duration::ZERO,
        }
    }

    /// Starts White's clock (6.6).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, s(7)), s(300 - 7));
    /// assert!(clock.start(s(8)).is_err()); // already started
    /// ```
    pub fn start(&mut self, now: Duration) -> Result<(), ClockError> {
        self.check_time(now)?;
        if self.state != ClockState::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.state = ClockState::Running { since: now };
        self.last = now;
        Ok(())
    }

    /// Completes the move of the side to move at `now`, the instant the move
    /// was *made* (D.2.3): stops its clock, credits its bonus, counts the
    /// move, starts the next period if this move completes one (adding its
    /// time to what is left), and starts the opponent's clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// // Two moves in a minute, then 30 minutes more (6.3.2).
    /// let mut clock = Clock::new("2/1, 30".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// for t in [10, 20, 30, 40] {
    ///     clock.press(s(t)).unwrap();
    /// }
    /// assert_eq!(clock.period(Color::White), 2);
    /// assert_eq!(clock.remaining(Color::White, s(40)), s(60 - 20 + 1800));
    /// assert_eq!(clock.to_move(), Color::White);
    /// ```
    pub fn press(&mut self, now: Duration) -> Result<(), ClockError> {
        self.check_time(now)?;
        match self.state {
            ClockState::NotStarted => return Err(ClockError::NotStarted),
            ClockState::Paused => return Err(ClockError::Paused),
            ClockState::Flagged(flag) => return Err(ClockError::FlagFell(flag)),
            ClockState::Running { .. } => self.checkpoint(now)?,
        }
        let used = self.turn_used;
        let color = self.to_move;
        let control = &self.control;
        let side = &mut self.sides[color];
        let period = control.period(side.period);
        side.base = side.base.saturating_sub(charge(period.bonus, used));
        // Sums saturate: absurd adjustments must not overflow into a panic.
        side.base = side.base.saturating_add(match period.bonus {
            Bonus::None | Bonus::SimpleDelay(_) => Duration::ZERO,
            Bonus::Increment(inc) => inc,
            Bonus::Bronstein(delay) => used.min(delay),
        });
        side.moves = side.moves.saturating_add(1);
        side.period_moves = side.period_moves.saturating_add(1);
        if period.moves == Some(side.period_moves) {
            side.period = side.period.saturating_add(1);
            side.period_moves = 0;
            side.base = side.base.saturating_add(control.period(side.period).time);
        }
        self.to_move = !color;
        self.turn_used = Duration::ZERO;
        self.state = ClockState::Running { since: now };
        Ok(())
    }

    /// Stops the running clock (the arbiter's pause); the move continues
    /// after [`resume`](Clock::resume), delay already spent included.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.pause(s(10)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, s(500)), s(290)); // stopped
    /// ```
    pub fn pause(&mut self, now: Duration) -> Result<(), ClockError> {
        self.check_time(now)?;
        match self.state {
            ClockState::NotStarted => Err(ClockError::NotStarted),
            ClockState::Paused => Err(ClockError::Paused),
            ClockState::Flagged(flag) => Err(ClockError::FlagFell(flag)),
            ClockState::Running { .. } => {
                self.checkpoint(now)?;
                self.state = ClockState::Paused;
                Ok(())
            }
        }
    }

    /// Restarts the side to move's clock after a pause (or after
    /// [`set`](Clock::set)).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.pause(s(10)).unwrap();
    /// clock.resume(s(100)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, s(110)), s(280));
    /// ```
    pub fn resume(&mut self, now: Duration) -> Result<(), ClockError> {
        self.check_time(now)?;
        if self.state != ClockState::Paused {
            return Err(ClockError::NotPaused);
        }
        // A side resumed with no time left flags at once: `flag(now)` says
        // so and the next operation records it.
        self.state = ClockState::Running { since: now };
        self.last = now;
        Ok(())
    }

    /// Adds or takes time from one player (Articles 7 and 12.9). Time taken
    /// stops at zero; taking the running side's last time makes its flag fall
    /// now. Time given to a flagged side lifts the flag and leaves the clock
    /// paused, so the arbiter resumes it when play continues.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::{Adjustment, Clock, ClockState};
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// assert!(clock.record_flag(s(61)).unwrap().is_some());
    /// clock.adjust(Color::White, Adjustment::Add(s(30)), s(62)).unwrap();
    /// assert_eq!(clock.state(), ClockState::Paused);
    /// assert_eq!(clock.remaining(Color::White, s(62)), s(30));
    /// ```
    pub fn adjust(
        &mut self,
        color: Color,
        change: Adjustment,
        now: Duration,
    ) -> Result<(), ClockError> {
        self.check_time(now)?;
        if let ClockState::Running { .. } = self.state {
            // A flag that fell before the adjustment has fallen: record it,
            // then adjust the flagged clock as below.
            if let Err(ClockError::FlagFell(_)) = self.checkpoint(now) {
                self.last = now;
            }
        }
        let flagged = matches!(self.state, ClockState::Flagged(f) if f.side == color);
        let bonus = self.control.period(self.side(color).period).bonus;
        let turn_used = self.turn_used;
        let side = &mut self.sides[color];
        match change {
            // A flagged side has nothing left (its base equals what the move
            // has charged): nothing to take, and what is given is all it has.
            // The move's delay stays spent.
            Adjustment::Add(d) if flagged => {
                if !d.is_zero() {
                    side.base = charge(bonus, turn_used).saturating_add(d);
                    self.state = ClockState::Paused;
                }
            }
            Adjustment::Subtract(_) if flagged => {}
            Adjustment::Add(d) => side.base = side.base.saturating_add(d),
            Adjustment::Subtract(d) => side.base = side.base.saturating_sub(d),
        }
        if matches!(self.state, ClockState::Running { .. }) && self.deadline() == Some(now) {
            // The adjustment emptied the running clock: the flag falls now.
            let _ = self.checkpoint(now);
        }
        self.last = now;
        Ok(())
    }

    /// Sets both times and the move counts (7.1, D.2.9): periods follow from
    /// the move counts; time used so far is kept. Leaves the clock paused
    /// (also a clock not yet started): [`resume`](Clock::resume) continues.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::{Clock, ClockError, ClockSetting};
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("15+10".parse().unwrap());
    /// let back = ClockSetting { white: s(600), black: s(700), white_moves: 10, black_moves: 10, to_move: Color::White };
    /// clock.set(back, s(0)).unwrap();
    /// clock.resume(s(0)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, s(5)), s(595));
    /// let wrong = ClockSetting { black_moves: 9, ..back };
    /// assert!(matches!(clock.set(wrong, s(6)), Err(ClockError::InvalidSetting(_))));
    /// ```
    pub fn set(&mut self, setting: ClockSetting, now: Duration) -> Result<(), ClockError> {
        self.check_time(now)?;
        let consistent = match setting.to_move {
            Color::White => setting.white_moves == setting.black_moves,
            Color::Black => setting.white_moves == setting.black_moves.saturating_add(1),
        };
        if !consistent {
            return Err(ClockError::InvalidSetting(
                "Black has as many moves as White when White is to move, one fewer when Black is",
            ));
        }
        if let ClockState::Running { .. } = self.state {
            // Bank the time used so far (a fallen flag is overridden).
            let _ = self.checkpoint(now);
        }
        for (color, time, moves) in [
            (Color::White, setting.white, setting.white_moves),
            (Color::Black, setting.black, setting.black_moves),
        ] {
            let (period, period_moves) = period_after(&self.control, moves);
            let side = &mut self.sides[color];
            side.base = time;
            side.moves = moves;
            side.period = period;
            side.period_moves = period_moves;
        }
        self.to_move = setting.to_move;
        self.turn_used = Duration::ZERO;
        self.state = ClockState::Paused;
        self.last = now;
        Ok(())
    }

    /// Records a fall that is due by `now` (the clock stops at the fall) and
    /// returns it; a fall already recorded is returned as it is; `None` if
    /// no flag has fallen.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::{Clock, ClockState};
    ///
    /// let mut clock = Clock::new("1".parse().unwrap());
    /// clock.start(Duration::ZERO).unwrap();
    /// assert_eq!(clock.record_flag(Duration::from_secs(30)).unwrap(), None);
    /// let flag = clock.record_flag(Duration::from_secs(61)).unwrap().unwrap();
    /// assert_eq!((flag.side, flag.at), (Color::White, Duration::from_secs(60)));
    /// assert!(matches!(clock.state(), ClockState::Flagged(_)));
    /// ```
    pub fn record_flag(&mut self, now: Duration) -> Result<Option<Flag>, ClockError> {
        self.check_time(now)?;
        match self.state {
            ClockState::Flagged(flag) => Ok(Some(flag)),
            ClockState::Running { .. } => match self.checkpoint(now) {
                Err(ClockError::FlagFell(flag)) => Ok(Some(flag)),
                Ok(()) => Ok(None),
                Err(e) => Err(e),
            },
            _ => Ok(None),
        }
    }

    /// The time control.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let clock = Clock::new("40/90+30, 30+30".parse().unwrap());
    /// assert_eq!(clock.control().to_string(), "40/90+30, 30+30");
    /// ```
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// What the clock is doing (as of the last operation; see
    /// [`flag`](Clock::flag) for a fall since).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::clock::{Clock, ClockState};
    ///
    /// let mut clock = Clock::new("1".parse().unwrap());
    /// clock.start(Duration::ZERO).unwrap();
    /// // The flag is due, but no operation has recorded it yet.
    /// assert!(matches!(clock.state(), ClockState::Running { .. }));
    /// assert!(clock.flag(Duration::from_secs(90)).is_some());
    /// ```
    pub fn state(&self) -> ClockState {
        self.state
    }

    /// The side whose clock runs (or will run on resume).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(3)).unwrap();
    /// assert_eq!(clock.to_move(), Color::Black);
    /// ```
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves `color` has completed.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(3)).unwrap();
    /// assert_eq!((clock.moves(Color::White), clock.moves(Color::Black)), (1, 0));
    /// ```
    pub fn moves(&self, color: Color) -> u32 {
        self.side(color).moves
    }

    /// Moves White has completed: the count the clock announces (a move is
    /// White's move and Black's reply).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(3)).unwrap(); // White's first move: none completed by both
    /// assert_eq!(clock.moves_completed(), 1);
    /// clock.press(s(5)).unwrap();
    /// assert_eq!(clock.moves_completed(), 1);
    /// ```
    pub fn moves_completed(&self) -> u32 {
        self.sides.white.moves
    }

    /// The period `color` is in, 1 for the first (a repeating last period
    /// counts on: 2, 3, ...). See [`TimeControl::period`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1/1, 1/1".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// assert_eq!(clock.period(Color::White), 1);
    /// clock.press(s(1)).unwrap();
    /// clock.press(s(2)).unwrap();
    /// clock.press(s(3)).unwrap();
    /// assert_eq!(clock.period(Color::White), 3); // the last period repeats
    /// ```
    pub fn period(&self, color: Color) -> u32 {
        self.side(color).period
    }

    /// Moves `color` still has to make in the current period, if it has a
    /// move count (tests check the period's count with it).
    #[cfg(test)]
    fn moves_to_control(&self, color: Color) -> Option<u32> {
        let side = self.side(color);
        let moves = self.control.period(side.period).moves?;
        Some(moves.saturating_sub(side.period_moves))
    }

    /// Time `color` has left at `now` (zero once its flag has fallen). For
    /// the side to move under a simple delay this is the main time, which
    /// does not run during the delay. An instant before the last operation
    /// reads as the last operation.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// // A 5-second simple delay: the main time waits for it.
    /// let mut clock = Clock::new("5d5".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, s(4)), s(300));
    /// assert_eq!(clock.remaining(Color::White, s(8)), s(297));
    /// ```
    pub fn remaining(&self, color: Color, now: Duration) -> Duration {
        if self.flag(now).is_some_and(|flag| flag.side == color) {
            return Duration::ZERO;
        }
        let side = self.side(color);
        if color != self.to_move || self.state == ClockState::NotStarted {
            return side.base;
        }
        let bonus = self.control.period(side.period).bonus;
        side.base.saturating_sub(charge(
            bonus,
            self.turn_used.saturating_add(self.running_for(now)),
        ))
    }

    /// Time `color`'s clock has run at `now`, whatever was credited or
    /// adjusted; up to the flag fall at most.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("3+2".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(10)).unwrap();
    /// assert_eq!(clock.used(Color::White, s(30)), s(10)); // the increment is not "unused"
    /// assert_eq!(clock.used(Color::Black, s(30)), s(20));
    /// ```
    pub fn used(&self, color: Color, now: Duration) -> Duration {
        let side = self.side(color);
        if color != self.to_move {
            return side.used;
        }
        match (self.state, self.deadline()) {
            (ClockState::Running { since }, Some(deadline)) => side
                .used
                .saturating_add(now.min(deadline).saturating_sub(since)),
            _ => side.used,
        }
    }

    /// The fallen flag at `now`, if any: recorded, or due because the running
    /// side's time has run out since the last operation.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// assert_eq!(clock.flag(s(59)), None);
    /// let flag = clock.flag(s(75)).unwrap();
    /// assert_eq!((flag.side, flag.at), (Color::White, s(60)));
    /// ```
    pub fn flag(&self, now: Duration) -> Option<Flag> {
        match self.state {
            ClockState::Flagged(flag) => Some(flag),
            ClockState::Running { .. } => self.deadline().filter(|&d| now >= d).map(|at| Flag {
                side: self.to_move,
                at,
            }),
            _ => None,
        }
    }

    /// The instant the running side's flag will fall if nobody presses (for
    /// the server's timer); `None` unless the clock runs.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1+1".parse().unwrap());
    /// assert_eq!(clock.deadline(), None);
    /// clock.start(s(100)).unwrap();
    /// assert_eq!(clock.deadline(), Some(s(160)));
    /// clock.press(s(110)).unwrap();
    /// assert_eq!(clock.deadline(), Some(s(170))); // Black's minute
    /// ```
    pub fn deadline(&self) -> Option<Duration> {
        let ClockState::Running { since } = self.state else {
            return None;
        };
        let side = self.side(self.to_move);
        let limit = match self.control.period(side.period).bonus {
            Bonus::SimpleDelay(delay) => side.base.saturating_add(delay),
            _ => side.base,
        };
        Some(since.saturating_add(limit.saturating_sub(self.turn_used)))
    }

    /// Both times and the move count at `now`, for the announcement.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("10".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(30)).unwrap();
    /// let r = clock.reading(s(40));
    /// assert_eq!((r.white.remaining, r.black.remaining, r.black.used), (s(570), s(590), s(10)));
    /// assert_eq!(r.moves, 1);
    /// ```
    pub fn reading(&self, now: Duration) -> ClockReading {
        let side = |c| PlayerTimes {
            remaining: self.remaining(c, now),
            used: self.used(c, now),
        };
        ClockReading {
            white: side(Color::White),
            black: side(Color::Black),
            moves: self.moves_completed(),
        }
    }

    /// The times and move counts at `now` as a [`ClockSetting`]: what
    /// [`set`](Clock::set) takes, for an arbiter who restores a position and
    /// leaves the clocks unchanged or corrects one figure (7.1).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::clock::Clock;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("10".parse().unwrap());
    /// clock.start(s(0)).unwrap();
    /// clock.press(s(30)).unwrap();
    /// let now = clock.setting(s(40));
    /// assert_eq!((now.white, now.black, now.to_move), (s(570), s(590), Color::Black));
    /// assert_eq!((now.white_moves, now.black_moves), (1, 0));
    /// ```
    pub fn setting(&self, now: Duration) -> ClockSetting {
        ClockSetting {
            white: self.remaining(Color::White, now),
            black: self.remaining(Color::Black, now),
            white_moves: self.sides.white.moves,
            black_moves: self.sides.black.moves,
            to_move: self.to_move,
        }
    }

    fn side(&self, color: Color) -> &Side {
        &self.sides[color]
    }

    fn check_time(&self, now: Duration) -> Result<(), ClockError> {
        if now < self.last {
            return Err(ClockError::TimeWentBack {
                now,
                last: self.last,
            });
        }
        Ok(())
    }

    /// How long the clock has run since the last checkpoint, at `now`.
    fn running_for(&self, now: Duration) -> Duration {
        match self.state {
            ClockState::Running { since } => now.saturating_sub(since),
            _ => Duration::ZERO,
        }
    }

    /// Folds the running time up to `now` into the side to move's account
    /// and restarts the run at `now`; if the flag fell by then, records it
    /// (the clock stops at the fall) and says so.
    fn checkpoint(&mut self, now: Duration) -> Result<(), ClockError> {
        let (ClockState::Running { since }, Some(deadline)) = (self.state, self.deadline()) else {
            return Ok(());
        };
        self.last = now;
        let until = now.min(deadline);
        let ran = until.saturating_sub(since);
        self.turn_used = self.turn_used.saturating_add(ran);
        let color = self.to_move;
        let side = &mut self.sides[color];
        side.used = side.used.saturating_add(ran);
        if now >= deadline {
            // `base` and `turn_used` stay as they are: the move has charged
            // all of `base`, and a later addition continues from there.
            let flag = Flag {
                side: color,
                at: deadline,
            };
            self.state = ClockState::Flagged(flag);
            return Err(ClockError::FlagFell(flag));
        }
        self.state = ClockState::Running { since: now };
        Ok(())
    }
}

/// The main time a move charges after `used` on it.
fn charge(bonus: Bonus, used: Duration) -> Duration {
    match bonus {
        Bonus::SimpleDelay(delay) => used.saturating_sub(delay),
        _ => used,
    }
}

/// The period a player is in after `moves` moves, and the moves made in it.
fn period_after(control: &TimeControl, moves: u32) -> (u32, u32) {
    let mut left = moves;
    let mut period = 1u32;
    for p in control.periods() {
        match p.moves {
            Some(m) if left >= m => {
                left -= m;
                period += 1;
            }
            _ => return (period, left),
        }
    }
    // Past the given periods: the last one repeats (it has a move count,
    // else we would have returned).
    match control.periods().last().and_then(|p| p.moves) {
        Some(m) => {
            // `period` is one past the last; repeat from there.
            let repeats = left / m;
            (period.saturating_add(repeats), left % m)
        }
        None => (period, left),
    }
}

/// The result when `flagged`'s flag has fallen (Article 6.9): the opponent
/// wins, unless the opponent cannot checkmate by any legal sequence of moves
/// (shakmaty's insufficient-material test), then it is a draw.
///
/// # Examples
///
/// ```
/// use shakmaty::{CastlingMode, Chess, Color, KnownOutcome, fen::Fen};
/// use tactus_rules::clock::flag_result;
///
/// let pos = |fen: &str| -> Chess {
///     fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
/// };
/// let start = Chess::default();
/// assert_eq!(flag_result(Color::White, &start), KnownOutcome::Decisive { winner: Color::Black });
/// // Black has a bare king: White's flag draws (6.9).
/// assert_eq!(flag_result(Color::White, &pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")), KnownOutcome::Draw);
/// ```
pub fn flag_result(flagged: Color, position: &impl Position) -> KnownOutcome {
    if position.has_insufficient_material(!flagged) {
        KnownOutcome::Draw
    } else {
        KnownOutcome::Decisive { winner: !flagged }
    }
}

#[cfg(test)]
mod tests;
