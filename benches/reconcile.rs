//! The D.2.9 ruling for two 300-ply sheets in different notations (English
//! SAN against German long algebraic), parsing included, languages detected.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::san::SanPlus;
use shakmaty::{ByColor, Chess, Color, Move, Position, Role};
use tactus_rules::language::Language;
use tactus_rules::notation::Lang;
use tactus_rules::ruling::reconcile;

/// A fixed pseudo-random legal game of `plies` plies that never runs into
/// mate or stalemate before its end.
fn game(plies: usize) -> Vec<Move> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies {
        let going_on: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                !next.legal_moves().is_empty()
            })
            .collect();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let m = going_on[(seed >> 33) as usize % going_on.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn english_san(moves: &[Move]) -> String {
    let mut pos = Chess::default();
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        out.push_str(&SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        out.push(' ');
    }
    out
}

fn german_long(moves: &[Move]) -> String {
    let letter = |r: Role| {
        Lang::Of(Language::De)
            .letter(r)
            .map(String::from)
            .unwrap_or_default()
    };
    let mut pos = Chess::default();
    let mut out = String::new();
    for &m in moves {
        let text = match m.castling_side() {
            Some(side) if side.is_king_side() => "0-0".to_string(),
            Some(_) => "0-0-0".to_string(),
            None => format!(
                "{}{}{}{}{}",
                letter(m.role()),
                m.from().map(|s| s.to_string()).unwrap_or_default(),
                if m.is_capture() { 'x' } else { '-' },
                m.to(),
                m.promotion().map(letter).unwrap_or_default()
            ),
        };
        if pos.turn() == Color::White {
            out.push_str(&format!("{}. ", pos.fullmoves()));
        }
        pos.play_unchecked(m);
        out.push_str(&text);
        out.push('\n');
    }
    out
}

fn bench(c: &mut Criterion) {
    let moves = game(300);
    let white = english_san(&moves);
    let black = german_long(&moves);
    let start = Chess::default();
    let check = reconcile(
        &start,
        &white,
        &black,
        Lang::Auto,
        ByColor::new_with(|_| None),
        None,
    );
    assert_eq!(check.agreed_plies, 300, "{:?}", check.sheets);
    c.bench_function("ruling_300_plies_en_san_vs_de_long_auto", |b| {
        b.iter(|| {
            reconcile(
                &start,
                black_box(&white),
                black_box(&black),
                Lang::Auto,
                ByColor::new_with(|_| None),
                None,
            )
        })
    });
    c.bench_function("ruling_300_plies_en_san_vs_de_long_given_lang", |b| {
        b.iter(|| {
            let w =
                tactus_rules::sheet::read_sheet(&start, black_box(&white), Lang::Of(Language::En));
            let k =
                tactus_rules::sheet::read_sheet(&start, black_box(&black), Lang::Of(Language::De));
            tactus_rules::ruling::rule(
                &start,
                ByColor {
                    white: &w,
                    black: &k,
                },
                ByColor::new_with(|_| None),
                None,
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
