//! The Millennium ChessLink decoder on arbitrary bytes: never panics,
//! cutting the stream in two gives the same events and unreadable bytes as
//! the whole, and a valid status and version after any garbage are read.

use shakmaty::Board;
use tactus_board::event::{BoardEvent, Decoded, Protocol, decoder, normalized};
use tactus_board::millennium;

pub fn check(data: &[u8]) {
    let mut whole = Vec::new();
    decoder(Protocol::Millennium).feed(data, &mut whole);
    // The first byte chooses where to cut.
    let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
    let (a, b) = data.split_at(cut);
    let mut d = decoder(Protocol::Millennium);
    let mut parts = Vec::new();
    d.feed(a, &mut parts);
    d.feed(b, &mut parts);
    assert_eq!(normalized(&whole), normalized(&parts));
    // Resynchronisation: a status and a version after the garbage.
    let version = BoardEvent::Version { major: 1, minor: 7 };
    d.feed(&millennium::status(&Board::default()), &mut parts);
    d.feed(&millennium::encode(&version).unwrap(), &mut parts);
    let last = parts.iter().rev().find_map(|d| match d {
        Decoded::Event(e) => Some(e),
        Decoded::Unreadable(_) => None,
    });
    assert_eq!(last, Some(&version));
}
