//! The peg board firmware's inputs on arbitrary bytes: the host's command
//! lines (`protocol::Commands`) and the switch readings (`debounce`). Never
//! panics; a request comes only at a line's end, for a line that is one of
//! the commands; the debounced state changes only by the changes reported,
//! each switch's changes alternate, and a reading held for the settling
//! time becomes the state.

use tactus_peg_board::debounce::{Debouncer, SETTLE_US};
use tactus_peg_board::protocol::{Commands, Request};

pub fn check(data: &[u8]) {
    // The bytes as what a host sends.
    let mut commands = Commands::default();
    let mut line = Vec::new();
    for &b in data {
        let got = commands.byte(b);
        if b == b'\n' {
            let trimmed: &[u8] = {
                let s = line.as_slice();
                let start = s
                    .iter()
                    .position(|c| !b" \r\t".contains(c))
                    .unwrap_or(s.len());
                let end = s
                    .iter()
                    .rposition(|c| !b" \r\t".contains(c))
                    .map_or(start, |e| e + 1);
                &s[start..end.max(start)]
            };
            let want = match (line.len() <= 16).then_some(trimmed) {
                Some(b"?") => Some(Request::Scan),
                Some(b"V" | b"v") => Some(Request::Hello),
                Some(b"D" | b"d") => Some(Request::Diagnostic),
                _ => None,
            };
            assert_eq!(got, want, "{line:?}");
            line.clear();
        } else {
            assert_eq!(got, None);
            line.push(b);
        }
    }
    // The bytes as switch readings: each chunk of 9 a gap (µs, times 16)
    // and a reading of the 64 holes.
    let mut d = Debouncer::<64>::new();
    let mut out = heapless::Vec::new();
    let mut now = 0u64;
    let mut last: [Option<bool>; 64] = [None; 64];
    let mut raw = 0u64;
    for chunk in data.chunks_exact(9) {
        now += u64::from(chunk[0]) * 16;
        raw = u64::from_le_bytes(chunk[1..9].try_into().unwrap());
        let before = d.state();
        d.scan(now, raw, &mut out);
        let mut applied = before;
        for c in &out {
            let i = usize::from(c.index);
            assert_ne!(last[i], Some(c.closed), "two changes the same way");
            last[i] = Some(c.closed);
            applied ^= 1 << i;
            assert_eq!(applied >> i & 1 == 1, c.closed);
        }
        assert_eq!(applied, d.state());
    }
    d.scan(now + 1, raw, &mut out);
    d.scan(now + 1 + SETTLE_US, raw, &mut out);
    assert_eq!(d.state(), raw);
}
