//! The clock announcement (target: tokens in under 5 µs) and a press.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tactus_rules::clock::Clock;
use tactus_rules::clock_announce::{ClockReading, Shown, clock_tokens};

fn hms(h: u64, m: u64, s: u64) -> Duration {
    Duration::from_secs(h * 3600 + m * 60 + s)
}

fn bench(c: &mut Criterion) {
    let reading = ClockReading::remaining(hms(1, 12, 5), hms(0, 9, 31), 123);
    c.bench_function("clock_tokens", |b| {
        b.iter(|| clock_tokens(black_box(&reading), black_box(Shown::Remaining)))
    });

    let control = match "40/90+30, 30+30".parse() {
        Ok(tc) => tc,
        Err(e) => panic!("{e}"),
    };
    let mut clock = Clock::new(control);
    let mut now = Duration::ZERO;
    if let Err(e) = clock.start(now) {
        panic!("{e}");
    }
    // A millisecond per move never runs out against a 30 s increment.
    c.bench_function("press", |b| {
        b.iter(|| {
            now += Duration::from_millis(1);
            black_box(clock.press(black_box(now)))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
