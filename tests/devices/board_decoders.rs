//! Property tests: the decoders never panic on any bytes, give the same
//! result for any chunking, and resynchronise after garbage.

use proptest::prelude::*;
use shakmaty::{Board, Square};
use tactus_board::event::{BoardEvent, Decoded, Decoder, Protocol, decoder, normalized};
use tactus_board::{dgt, millennium, peg};

fn decode(protocol: Protocol, chunks: &[&[u8]]) -> Vec<Decoded> {
    let mut d: Box<dyn Decoder> = decoder(protocol);
    let mut out = Vec::new();
    for c in chunks {
        d.feed(c, &mut out);
    }
    out
}

fn events(out: &[Decoded]) -> Vec<BoardEvent> {
    out.iter()
        .filter_map(|d| match d {
            Decoded::Event(e) => Some(e.clone()),
            Decoded::Unreadable(_) => None,
        })
        .collect()
}

fn peg_valid() -> Vec<BoardEvent> {
    vec![
        BoardEvent::Lifted(Square::E2),
        BoardEvent::Put(Square::E4),
        BoardEvent::Scan(Board::default().occupied()),
        BoardEvent::Button(2),
    ]
}

fn dgt_valid() -> Vec<BoardEvent> {
    vec![
        BoardEvent::Field {
            square: Square::E2,
            piece: None,
        },
        BoardEvent::Dump(Board::default()),
        BoardEvent::Version { major: 2, minor: 1 },
    ]
}

/// ChessLink reports: a first status (a dump), then the changes of the
/// next (e2 emptied, e4 filled), a version.
fn millennium_bytes() -> (Vec<u8>, Vec<BoardEvent>) {
    let start = Board::default();
    let mut after = start.clone();
    after.discard_piece_at(Square::E2);
    after.set_piece_at(Square::E4, shakmaty::Color::White.pawn());
    let mut bytes = millennium::status(&start);
    bytes.extend(millennium::status(&after));
    bytes.extend(millennium::encode(&BoardEvent::Version { major: 1, minor: 7 }).unwrap());
    let events = vec![
        BoardEvent::Dump(start),
        BoardEvent::Field {
            square: Square::E2,
            piece: None,
        },
        BoardEvent::Field {
            square: Square::E4,
            piece: Some(shakmaty::Color::White.pawn()),
        },
        BoardEvent::Version { major: 1, minor: 7 },
    ];
    (bytes, events)
}

#[test]
fn millennium_reports_decode_from_8_bit_and_7_bit_lines() {
    let (bytes, want) = millennium_bytes();
    assert_eq!(events(&decode(Protocol::Millennium, &[&bytes])), want);
    let seven: Vec<u8> = bytes.iter().map(|b| b & 0x7F).collect();
    assert_eq!(events(&decode(Protocol::Millennium, &[&seven])), want);
    // A single bit flipped anywhere loses that message only.
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut bad = bytes.clone();
            bad[i] ^= 1 << bit;
            let got = events(&decode(Protocol::Millennium, &[&bad]));
            assert!(got.len() < want.len() + 2, "{i}/{bit}: {got:?}");
            assert!(
                got.last() == want.last() || i >= bytes.len() - 7,
                "{i}/{bit}: {got:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_bytes_any_chunking(bytes in prop::collection::vec(any::<u8>(), 0..600), cut in 0usize..300) {
        for protocol in [Protocol::Peg, Protocol::Dgt, Protocol::Millennium] {
            let whole = decode(protocol, &[&bytes]);
            let cut = cut.min(bytes.len());
            let (a, b) = bytes.split_at(cut);
            prop_assert_eq!(normalized(&whole), normalized(&decode(protocol, &[a, b])));
            // Bounded: nothing reported carries more than a message's bytes.
            for d in &whole {
                if let Decoded::Unreadable(u) = d {
                    prop_assert!(u.bytes.len() <= peg::MAX_LINE.max(dgt::MAX_MESSAGE).max(millennium::MAX_MESSAGE));
                }
            }
        }
    }

    #[test]
    fn peg_resynchronises_after_garbage(garbage in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = garbage;
        bytes.push(b'\n');
        for e in peg_valid() {
            bytes.extend(peg::encode(&e).unwrap().into_bytes());
        }
        let out = decode(Protocol::Peg, &[&bytes]);
        let got = events(&out);
        prop_assert!(got.ends_with(&peg_valid()), "{:?}", got);
    }

    #[test]
    fn dgt_resynchronises_after_garbage(garbage in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = garbage;
        for e in dgt_valid() {
            bytes.extend(dgt::encode(&e).unwrap());
        }
        let out = decode(Protocol::Dgt, &[&bytes]);
        let got = events(&out);
        prop_assert!(got.ends_with(&dgt_valid()), "{:?}", got);
    }

    #[test]
    fn millennium_resynchronises_after_garbage(garbage in prop::collection::vec(any::<u8>(), 0..300)) {
        let (valid, want) = millennium_bytes();
        let mut bytes = garbage;
        bytes.extend(&valid);
        let got = events(&decode(Protocol::Millennium, &[&bytes]));
        // The first status may follow one the garbage held: then it is
        // changes, not a dump; the rest is the same.
        prop_assert!(got.ends_with(&want[1..]), "{:?}", got);
    }
}
