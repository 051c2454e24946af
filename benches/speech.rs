//! Speech speed: the token list of a move, the samples of a four-word
//! announcement from a loaded pack, loading the default pack.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, File, Rank, Role};
use tactus_rules::announce::{Style, announce};
use tactus_rules::token::{Token, Word};
use tactus_speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

fn benches(c: &mut Criterion) {
    // A middlegame (Ruy Lopez, Closed) with a capture and check available.
    let pos: Chess = "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let m = "Na5".parse::<San>().unwrap().to_move(&pos).unwrap();
    c.bench_function("announce_move", |b| {
        b.iter(|| announce(black_box(&pos), black_box(m), Style::Standard))
    });

    let dir = find_pack(DEFAULT_PACK).unwrap();
    let pack = VoicePack::load(&dir, &LoadOptions::default()).unwrap();
    let at_48k = pack.at_rate(48_000).unwrap();
    let four = [
        Token::Piece(Role::Knight),
        Token::Word(Word::Takes),
        Token::File(File::F),
        Token::Rank(Rank::Third),
    ];
    c.bench_function("render_four_words_48k", |b| {
        b.iter(|| at_48k.render(black_box(&four)))
    });

    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.bench_function("default_pack", |b| {
        b.iter(|| VoicePack::load(black_box(&dir), &LoadOptions::default()).unwrap())
    });
    // Done once per output rate (e.g. when the sound card opens).
    group.bench_function("default_pack_resampled_to_48k", |b| {
        b.iter_batched(
            || VoicePack::load(&dir, &LoadOptions::default()).unwrap(),
            |pack| pack.at_rate(48_000).unwrap(),
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(speech, benches);
criterion_main!(speech);
