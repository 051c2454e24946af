//! The peg decoder on arbitrary bytes: never panics, and any chunking of
//! the stream gives the same events and unreadable bytes as the whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tactus::board::event::{Protocol, decoder, normalized};

fuzz_target!(|data: &[u8]| {
    let mut whole = Vec::new();
    decoder(Protocol::Peg).feed(data, &mut whole);
    let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
    let (a, b) = data.split_at(cut);
    let mut d = decoder(Protocol::Peg);
    let mut parts = Vec::new();
    d.feed(a, &mut parts);
    d.feed(b, &mut parts);
    assert_eq!(normalized(&whole), normalized(&parts));
});
