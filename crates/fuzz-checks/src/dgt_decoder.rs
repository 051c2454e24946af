//! The DGT decoder on arbitrary bytes: never panics, and cutting the stream
//! in two gives the same events and unreadable bytes as the whole.

use tactus_board::event::{Protocol, decoder, normalized};

pub fn check(data: &[u8]) {
    let mut whole = Vec::new();
    decoder(Protocol::Dgt).feed(data, &mut whole);
    // The first byte chooses where to cut.
    let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
    let (a, b) = data.split_at(cut);
    let mut d = decoder(Protocol::Dgt);
    let mut parts = Vec::new();
    d.feed(a, &mut parts);
    d.feed(b, &mut parts);
    assert_eq!(normalized(&whole), normalized(&parts));
}
