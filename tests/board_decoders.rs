//! Property tests: the decoders never panic on any bytes, give the same
//! result for any chunking, and resynchronise after garbage.

use proptest::prelude::*;
use shakmaty::{Board, Square};
use tactus::board::event::{BoardEvent, Decoded, Decoder, Protocol, decoder, normalized};
use tactus::board::{dgt, peg};

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_bytes_any_chunking(bytes in prop::collection::vec(any::<u8>(), 0..600), cut in 0usize..300) {
        for protocol in [Protocol::Peg, Protocol::Dgt] {
            let whole = decode(protocol, &[&bytes]);
            let cut = cut.min(bytes.len());
            let (a, b) = bytes.split_at(cut);
            prop_assert_eq!(normalized(&whole), normalized(&decode(protocol, &[a, b])));
            // Bounded: nothing reported carries more than a message's bytes.
            for d in &whole {
                if let Decoded::Unreadable(u) = d {
                    prop_assert!(u.bytes.len() <= peg::MAX_LINE.max(dgt::MAX_MESSAGE));
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
}
