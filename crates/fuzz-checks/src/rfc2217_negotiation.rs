//! The RFC 2217 client's telnet reader on arbitrary server bytes: never
//! panics, keeps what it holds bounded (answers, settings noted, a
//! subnegotiation), answers each request at most once, passes on no more
//! data than came, and reads the same whether the bytes come whole or cut
//! in two.

use tactus_board::link::TelnetReader;

pub fn check(data: &[u8]) {
    let (mut whole_data, mut whole_reply) = (Vec::new(), Vec::new());
    let mut whole = TelnetReader::default();
    whole.feed(data, &mut whole_data, &mut whole_reply);
    assert!(whole_data.len() <= data.len());
    // Each answer is three bytes, and at most 64 are ever given.
    assert!(whole_reply.len() <= 3 * 64);
    assert_eq!(whole_reply.len() % 3, 0);
    assert!(whole.settings_seen.len() <= 16);
    assert!(whole.settings_seen.iter().all(|(_, v)| v.len() <= 32));
    // Bits 1..=4 only: the four settings.
    assert_eq!(whole.acknowledged & !0b1_1110, 0);

    // The first byte chooses where to cut.
    let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
    let (a, b) = data.split_at(cut);
    let (mut parts_data, mut parts_reply) = (Vec::new(), Vec::new());
    let mut parts = TelnetReader::default();
    parts.feed(a, &mut parts_data, &mut parts_reply);
    parts.feed(b, &mut parts_data, &mut parts_reply);
    assert_eq!(whole_data, parts_data);
    assert_eq!(whole_reply, parts_reply);
    assert_eq!(whole.com_port, parts.com_port);
    assert_eq!(whole.acknowledged, parts.acknowledged);
    assert_eq!(whole.settings_seen, parts.settings_seen);

    // The same bytes again: nothing is answered twice.
    let mut again = Vec::new();
    whole.feed(data, &mut Vec::new(), &mut again);
    for answer in again.chunks(3) {
        assert!(
            !whole_reply.chunks(3).any(|a| a == answer),
            "answered twice: {answer:?}"
        );
    }
}
