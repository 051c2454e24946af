//! Board benchmarks: inference per board event (target < 20 µs), and from
//! the last byte of the completing event to the move being known with
//! settling time zero (target < 1 ms): decode+infer in-process, and over a
//! real pseudo-terminal round trip (simulator → driver thread → inference).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use shakmaty::fen::Fen;
use shakmaty::{Board, CastlingMode, Chess, Color, Square};
use tactus_board::event::{BoardEvent, Decoded, Protocol, decoder};
use tactus_board::infer::{Inference, Inferred, Settings};
use tactus_board::serial::{Driver, DriverConfig, DriverEvent};
use tactus_board::sim::Simulator;
use tactus_board::{dgt, peg};

fn zero() -> Settings {
    Settings {
        settle: Duration::ZERO,
        auto_correct: false,
    }
}

/// A middlegame with many legal moves and captures.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 8";

fn middlegame() -> Chess {
    MIDDLEGAME
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn inference(c: &mut Criterion) {
    let mut g = c.benchmark_group("infer_event");
    // A lift that completes nothing (board judged, no move fits).
    let fresh = Inference::new(middlegame(), Protocol::Peg, zero());
    g.bench_function("peg_lift", |b| {
        b.iter_batched_ref(
            || fresh.clone(),
            |inf| black_box(inf.event(&BoardEvent::Lifted(Square::F3), Duration::ZERO)),
            BatchSize::SmallInput,
        )
    });
    // The put completing cxd5 (captured pawn lifted first).
    let mut ready = fresh.clone();
    ready.event(&BoardEvent::Lifted(Square::D5), Duration::ZERO);
    ready.event(&BoardEvent::Lifted(Square::C4), Duration::ZERO);
    g.bench_function("peg_put_completing_capture", |b| {
        b.iter_batched_ref(
            || ready.clone(),
            |inf| {
                let out = inf.event(&BoardEvent::Put(Square::D5), Duration::ZERO);
                assert!(matches!(out.last(), Some(Inferred::Moved { .. })));
                black_box(out)
            },
            BatchSize::SmallInput,
        )
    });
    let mut dgt_ready = Inference::new(middlegame(), Protocol::Dgt, zero());
    dgt_ready.event(
        &BoardEvent::Field {
            square: Square::D5,
            piece: None,
        },
        Duration::ZERO,
    );
    dgt_ready.event(
        &BoardEvent::Field {
            square: Square::C4,
            piece: None,
        },
        Duration::ZERO,
    );
    g.bench_function("dgt_field_completing_capture", |b| {
        b.iter_batched_ref(
            || dgt_ready.clone(),
            |inf| {
                let e = BoardEvent::Field {
                    square: Square::D5,
                    piece: Some(Color::White.pawn()),
                };
                let out = inf.event(&e, Duration::ZERO);
                assert!(matches!(out.last(), Some(Inferred::Moved { .. })));
                black_box(out)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Bytes of the completing event → decoder → inference → move known.
fn decode_and_infer(c: &mut Criterion) {
    let mut g = c.benchmark_group("bytes_to_move");
    let mut ready = Inference::new(middlegame(), Protocol::Peg, zero());
    ready.event(&BoardEvent::Lifted(Square::D5), Duration::ZERO);
    ready.event(&BoardEvent::Lifted(Square::C4), Duration::ZERO);
    let bytes = peg::encode(&BoardEvent::Put(Square::D5))
        .unwrap()
        .into_bytes();
    g.bench_function("peg", |b| {
        b.iter_batched_ref(
            || (ready.clone(), decoder(Protocol::Peg), Vec::new()),
            |(inf, dec, out)| move_from_bytes(inf, dec.as_mut(), out, &bytes),
            BatchSize::SmallInput,
        )
    });
    let mut ready = Inference::new(middlegame(), Protocol::Dgt, zero());
    ready.event(
        &BoardEvent::Field {
            square: Square::D5,
            piece: None,
        },
        Duration::ZERO,
    );
    ready.event(
        &BoardEvent::Field {
            square: Square::C4,
            piece: None,
        },
        Duration::ZERO,
    );
    let bytes = dgt::encode(&BoardEvent::Field {
        square: Square::D5,
        piece: Some(Color::White.pawn()),
    })
    .unwrap();
    g.bench_function("dgt", |b| {
        b.iter_batched_ref(
            || (ready.clone(), decoder(Protocol::Dgt), Vec::new()),
            |(inf, dec, out)| move_from_bytes(inf, dec.as_mut(), out, &bytes),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn move_from_bytes(
    inf: &mut Inference,
    dec: &mut dyn tactus_board::event::Decoder,
    out: &mut Vec<Decoded>,
    bytes: &[u8],
) {
    dec.feed(bytes, out);
    let mut made = false;
    for d in out.drain(..) {
        if let Decoded::Event(e) = d {
            made |= inf
                .event(&e, Duration::ZERO)
                .iter()
                .any(|i| matches!(i, Inferred::Moved { .. }));
        }
    }
    assert!(made);
}

/// Over a pseudo-terminal: the simulator writes a knight shuffle, the
/// driver thread reads and decodes, inference finds each move.
fn pty_round_trip(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut g = c.benchmark_group("pty_move_to_known");
    g.sample_size(20);
    for protocol in [Protocol::Peg, Protocol::Dgt, Protocol::Millennium] {
        let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
        let mut config = DriverConfig::new(sim.path(), protocol);
        config.poll = Duration::from_millis(20);
        let mut driver = Driver::spawn(config).unwrap();
        let mut inf = Inference::new(Chess::default(), protocol, zero());
        let epoch = Instant::now();
        // Wait for the start-up scan or dump.
        rt.block_on(async {
            loop {
                let s = driver.next().await.unwrap();
                if matches!(
                    s.event,
                    DriverEvent::Board(BoardEvent::Scan(_) | BoardEvent::Dump(_))
                ) {
                    break;
                }
            }
        });
        let name = protocol.name();
        // The knight shuffle continues across criterion's batches.
        let mut ply = 0usize;
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let cmd = ["move g1f3", "move g8f6", "move f3g1", "move f6g8"][ply % 4];
                    ply += 1;
                    let start = Instant::now();
                    sim.command(cmd).unwrap();
                    rt.block_on(async {
                        loop {
                            let s = driver.next().await.unwrap();
                            if let DriverEvent::Board(e) = s.event
                                && inf
                                    .event(&e, s.at - epoch)
                                    .iter()
                                    .any(|i| matches!(i, Inferred::Moved { .. }))
                            {
                                break;
                            }
                        }
                    });
                    total += start.elapsed();
                }
                total
            })
        });
    }
    g.finish();
}

criterion_group!(benches, inference, decode_and_infer, pty_round_trip);
criterion_main!(benches);
