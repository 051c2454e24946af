//! Debouncing: a switch's contacts bounce as a peg goes in or comes out (a
//! reed switch for well under a millisecond, a contact pin for a few), and
//! a peg rocked in its hole can open and close it. A hole (or a button)
//! changes state only once its reading has differed from the state for
//! [`SETTLE_US`] without a break; a reading that goes back sooner was a
//! bounce and is never reported.
//!
//! Changes are given in the order they began: a peg lifted from e2 and
//! seated on e4 a little later gives `L e2` before `P e4`, even when both
//! settle in the same scan. How long each change bounced before it
//! settled is measured, and the longest is kept for the `D` diagnostic, so
//! a builder can see what their switches do.

/// How long a reading must hold before it counts: longer than the hands
/// model's bounces (1–6 ms, `crates/board/src/hands.rs`) and than any
/// reed or contact switch's datasheet bounce (under 1 ms for reed
/// switches, typically 1–5 ms for contacts); short beside the 50 ms or
/// more a hand takes to lift or seat a peg.
pub const SETTLE_US: u64 = 10_000;

/// A bounce episode that never settled is forgotten after this long (a
/// glitch); a later change starts a new one.
const FORGET_US: u64 = 100_000;

/// One switch's episode of readings that differ from its state.
#[derive(Clone, Copy, Default)]
struct Episode {
    /// The first differing reading (when the change began).
    first: Option<u64>,
    /// The start of the present unbroken run of differing readings.
    run: Option<u64>,
}

/// A change that settled: which switch, its new state, when it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The switch's index (a hole's square, 0 = a1 … 63 = h8; a button's
    /// index, 0 = button 1).
    pub index: u8,
    /// Closed (a peg in the hole, a button pressed) or open.
    pub closed: bool,
    /// When the change began, in microseconds of the board's clock.
    pub began_us: u64,
}

/// Up to 64 switches, debounced together.
pub struct Debouncer<const N: usize> {
    state: u64,
    episodes: [Episode; N],
    longest_bounce_us: u64,
}

impl<const N: usize> Default for Debouncer<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Debouncer<N> {
    /// All switches open, as a board is read before its first scan.
    pub const fn new() -> Self {
        assert!(N <= 64);
        Debouncer {
            state: 0,
            episodes: [Episode {
                first: None,
                run: None,
            }; N],
            longest_bounce_us: 0,
        }
    }

    /// The settled state: bit i set when switch i is closed.
    pub fn state(&self) -> u64 {
        self.state
    }

    /// Takes this state as settled without reporting changes (at
    /// power-up, once the first readings have held).
    pub fn settle_at(&mut self, state: u64) {
        self.state = state & Self::mask();
        self.episodes = [Episode::default(); N];
    }

    /// The longest time a change bounced before it settled.
    pub fn longest_bounce_us(&self) -> u64 {
        self.longest_bounce_us
    }

    fn mask() -> u64 {
        if N == 64 {
            u64::MAX
        } else {
            (1u64 << N) - 1
        }
    }

    /// One scan's readings at `now_us`: the changes that settled, in the
    /// order they began (ties by index), into `out`.
    pub fn scan(&mut self, now_us: u64, raw: u64, out: &mut heapless::Vec<Change, N>) {
        out.clear();
        let raw = raw & Self::mask();
        for i in 0..N {
            let bit = 1u64 << i;
            let e = &mut self.episodes[i];
            if (raw ^ self.state) & bit == 0 {
                // As settled: a run of differing readings is broken.
                e.run = None;
                if e.first
                    .is_some_and(|f| now_us.saturating_sub(f) > FORGET_US)
                {
                    e.first = None;
                }
                continue;
            }
            let first = *e.first.get_or_insert(now_us);
            let run = *e.run.get_or_insert(now_us);
            if now_us.saturating_sub(run) >= SETTLE_US {
                self.state ^= bit;
                self.longest_bounce_us = self.longest_bounce_us.max(run - first);
                *e = Episode::default();
                // N changes at most, one per switch: never full.
                let _ = out.push(Change {
                    index: i as u8,
                    closed: raw & bit != 0,
                    began_us: first,
                });
            }
        }
        out.sort_unstable_by_key(|c| (c.began_us, c.index));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(d: &mut Debouncer<64>, readings: &[(u64, u64)]) -> Vec<Change> {
        let mut all = Vec::new();
        let mut out = heapless::Vec::new();
        for &(t, raw) in readings {
            d.scan(t, raw, &mut out);
            all.extend(out.iter().copied());
        }
        all
    }

    #[test]
    fn a_change_counts_once_it_has_held() {
        let mut d = Debouncer::<64>::new();
        let readings: Vec<_> = (0..=10).map(|ms| (ms * 1000, 1u64 << 12)).collect();
        let got = run(&mut d, &readings);
        assert_eq!(
            got,
            [Change {
                index: 12,
                closed: true,
                began_us: 0
            }]
        );
        assert_eq!(d.state(), 1 << 12);
    }

    #[test]
    fn a_bounce_shorter_than_the_settling_time_is_never_reported() {
        let mut d = Debouncer::<64>::new();
        d.settle_at(1);
        // a1 opens for 6 ms (the longest bounce of the hands model), then
        // is closed again for good.
        let readings: Vec<_> = (0..40u64)
            .map(|ms| (ms * 1000, if (3..9).contains(&ms) { 0 } else { 1 }))
            .collect();
        assert_eq!(run(&mut d, &readings), []);
        assert_eq!(d.state(), 1);
    }

    #[test]
    fn a_seated_peg_that_chatters_settles_once_and_its_bounce_is_measured() {
        let mut d = Debouncer::<64>::new();
        // e4 (28) closes at 5 ms, chatters until 8 ms, then holds.
        let e4 = 1u64 << 28;
        let readings: Vec<_> = (0..30u64)
            .map(|ms| {
                let closed = ms >= 5 && !(ms == 6 || ms == 7);
                (ms * 1000, if closed { e4 } else { 0 })
            })
            .collect();
        let got = run(&mut d, &readings);
        assert_eq!(
            got,
            [Change {
                index: 28,
                closed: true,
                began_us: 5000
            }]
        );
        assert_eq!(d.longest_bounce_us(), 3000);
    }

    #[test]
    fn changes_settling_together_come_in_the_order_they_began() {
        let mut d = Debouncer::<64>::new();
        d.settle_at(1 << 12); // a peg on e2
                              // e4 closes at 2 ms, e2 opens at 4 ms; both have held at 14 ms.
        let mut readings = Vec::new();
        for ms in 0..14u64 {
            let mut raw = 1u64 << 12;
            if ms >= 2 {
                raw |= 1 << 28
            }
            if ms >= 4 {
                raw &= !(1 << 12)
            }
            readings.push((ms * 1000, raw));
        }
        // One scan where both settle (the board was busy for 12 ms).
        readings.push((16_000, 1 << 28));
        let got = run(&mut d, &readings);
        assert_eq!(
            got.iter().map(|c| (c.index, c.closed)).collect::<Vec<_>>(),
            [(28, true), (12, false)]
        );
    }

    #[test]
    fn a_glitch_is_forgotten_and_does_not_shorten_a_later_change() {
        let mut d = Debouncer::<64>::new();
        let mut readings = vec![(0, 1u64)];
        // Nothing for 200 ms, then a1 closes for good at 200 ms.
        readings.extend((1..=220u64).map(|ms| (ms * 1000, if ms >= 200 { 1 } else { 0 })));
        let got = run(&mut d, &readings);
        assert_eq!(
            got,
            [Change {
                index: 0,
                closed: true,
                began_us: 200_000
            }]
        );
        assert_eq!(d.longest_bounce_us(), 0);
    }

    #[test]
    fn buttons_use_only_their_own_bits() {
        let mut d = Debouncer::<8>::new();
        let mut out = heapless::Vec::new();
        d.scan(0, u64::MAX, &mut out);
        d.scan(20_000, u64::MAX, &mut out);
        assert_eq!(out.len(), 8);
        assert_eq!(d.state(), 0xff);
    }
}

/// Random readings, many seeds: whatever the switches do, the state only
/// changes by the changes reported, each switch's changes alternate, and a
/// reading held for the settling time becomes the state.
#[cfg(test)]
mod random {
    use super::*;

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn the_state_follows_the_reported_changes_and_settles_on_what_holds() {
        for seed in 1..=200u64 {
            let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut d = Debouncer::<64>::new();
            let mut out = heapless::Vec::new();
            let mut raw = 0u64;
            let mut now = 0u64;
            let mut last: [Option<bool>; 64] = [None; 64];
            for _ in 0..2_000 {
                now += 1 + rng.next() % 3_000;
                // Flip a few switches, now and then many.
                for _ in 0..(rng.next() % 3) {
                    raw ^= 1 << (rng.next() % 64);
                }
                let before = d.state();
                d.scan(now, raw, &mut out);
                let mut applied = before;
                for c in &out {
                    let i = c.index as usize;
                    assert_ne!(
                        last[i],
                        Some(c.closed),
                        "seed {seed}: two changes the same way"
                    );
                    last[i] = Some(c.closed);
                    assert!(c.began_us <= now);
                    applied ^= 1 << i;
                    assert_eq!(applied >> i & 1 == 1, c.closed);
                }
                assert_eq!(applied, d.state(), "seed {seed}");
                assert!(out
                    .windows(2)
                    .all(|w| (w[0].began_us, w[0].index) <= (w[1].began_us, w[1].index)));
            }
            // Held long enough, the reading is the state.
            d.scan(now + 1, raw, &mut out);
            d.scan(now + 1 + SETTLE_US, raw, &mut out);
            assert_eq!(d.state(), raw, "seed {seed}");
        }
    }
}
