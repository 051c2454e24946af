//! The peg protocol as the board speaks it (tactus `docs/board-protocols.md`
//! §1): `L e2` a peg lifted, `P e4` a peg seated, `S <16 hex>` the whole
//! board (bit 0 = a1 … bit 63 = h8), `B n` a frame button, `H <text>` the
//! board's name and firmware; each line ended by `\n`. The host asks with
//! `?` (a scan) and `V` (the hello); `D` is this firmware's own diagnostic
//! (the raw matrix, unfiltered, and the longest bounce measured), which
//! tactus reads as an unknown line and ignores.

use core::fmt::Write;

/// A line to send: the longest, `D`, is under 64 bytes (the protocol
/// allows 80).
pub type Line = heapless::String<64>;

/// The hello line's text: the board and this firmware's version.
pub const HELLO: &str = concat!("tactus peg board ", env!("CARGO_PKG_VERSION"));

/// A square's name, `a1` … `h8`, from its index (0 = a1, 63 = h8).
fn square(index: u8) -> [u8; 2] {
    [b'a' + (index % 8), b'1' + (index / 8) % 8]
}

fn with_square(kind: char, index: u8) -> Line {
    let mut l = Line::new();
    let sq = square(index);
    let _ = writeln!(l, "{kind} {}{}", sq[0] as char, sq[1] as char);
    l
}

/// `L e2`: the peg on square `index` was lifted.
pub fn lifted(index: u8) -> Line {
    with_square('L', index)
}

/// `P e4`: a peg was seated on square `index`.
pub fn put(index: u8) -> Line {
    with_square('P', index)
}

/// `S 000000000000ffff`: the occupied holes.
pub fn scan(holes: u64) -> Line {
    let mut l = Line::new();
    let _ = writeln!(l, "S {holes:016x}");
    l
}

/// `B n`: frame button `n` (1-based) was pressed.
pub fn button(n: u8) -> Line {
    let mut l = Line::new();
    let _ = writeln!(l, "B {n}");
    l
}

/// `H tactus peg board 0.1.0 E6614103E7123456 debounced=10ms`: the
/// firmware and the board's serial number (its flash chip's unique ID, as
/// on USB), so a venue can pin the board it expects at a table
/// (`board_hello`) and follow no other; then its debouncing
/// ([`crate::debounce::SETTLE_US`], in whole milliseconds), so that tactus
/// does not wait out a bounce this board never sends (tactus
/// `docs/board-protocols.md` §1). A serial number longer than 16
/// characters is cut.
pub fn hello(serial: &str) -> Line {
    let mut l = Line::new();
    let serial = serial.get(..16).unwrap_or(serial);
    let ms = crate::debounce::SETTLE_US / 1000;
    let _ = writeln!(l, "H {HELLO} {serial} debounced={ms}ms");
    l
}

/// `D <raw holes> <raw buttons> <longest bounce in µs>`: the matrix as
/// read in the last scan, before debouncing, for wiring a board: a hole
/// whose bit never changes as a peg goes in and out is not connected.
pub fn diagnostic(raw_holes: u64, raw_buttons: u16, bounce_us: u64) -> Line {
    let mut l = Line::new();
    let _ = writeln!(l, "D {raw_holes:016x} {raw_buttons:03x} {bounce_us}");
    l
}

/// What the host asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Scan,
    Hello,
    Diagnostic,
}

/// The longest command line kept; the rest of a longer line is skipped.
const MAX_COMMAND: usize = 16;

/// Host → board lines, assembled from bytes as they come (any chunks).
/// A line is one command letter (`?`, `V`, `D`, either case for letters),
/// with spaces and `\r` around it ignored; anything else, and any line
/// longer than 16 bytes, is skipped.
#[derive(Default)]
pub struct Commands {
    line: heapless::Vec<u8, MAX_COMMAND>,
    overlong: bool,
}

impl Commands {
    /// Takes one byte; a request when it ends a command line.
    pub fn byte(&mut self, b: u8) -> Option<Request> {
        if b != b'\n' {
            if self.line.push(b).is_err() {
                self.overlong = true;
            }
            return None;
        }
        let overlong = core::mem::take(&mut self.overlong);
        let request = match trim(&self.line) {
            _ if overlong => None,
            b"?" => Some(Request::Scan),
            b"V" | b"v" => Some(Request::Hello),
            b"D" | b"d" => Some(Request::Diagnostic),
            _ => None,
        };
        self.line.clear();
        request
    }
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\r' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\r' | b'\t'] = s {
        s = rest;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_as_the_protocol_writes_them() {
        assert_eq!(lifted(12).as_str(), "L e2\n");
        assert_eq!(put(28).as_str(), "P e4\n");
        assert_eq!(put(63).as_str(), "P h8\n");
        assert_eq!(lifted(0).as_str(), "L a1\n");
        assert_eq!(scan(0xffff_0000_0000_ffff).as_str(), "S ffff00000000ffff\n");
        assert_eq!(button(3).as_str(), "B 3\n");
        assert_eq!(
            hello("E6614103E7123456").as_str(),
            concat!(
                "H tactus peg board ",
                env!("CARGO_PKG_VERSION"),
                " E6614103E7123456 debounced=10ms\n"
            )
        );
        assert!(hello(&"9".repeat(100)).len() < 64);
        assert_eq!(
            diagnostic(u64::MAX, 0x1ff, u64::MAX).len(),
            44,
            "the longest line fits"
        );
    }

    #[test]
    fn commands_in_any_chunks_and_junk_skipped() {
        let mut c = Commands::default();
        let got: Vec<_> = b"V\r\n?\n\nx\n d \n"
            .iter()
            .filter_map(|&b| c.byte(b))
            .collect();
        assert_eq!(got, [Request::Hello, Request::Scan, Request::Diagnostic]);
        let mut long = vec![b'?'; 40];
        long.push(b'\n');
        long.extend(b"?\n");
        let got: Vec<_> = long.iter().filter_map(|&b| c.byte(b)).collect();
        assert_eq!(
            got,
            [Request::Scan],
            "an overlong line is skipped, the next read"
        );
    }
}

/// Random bytes in random chunks: no panic, and a request only for a line
/// that is one of the commands.
#[cfg(test)]
mod random {
    use super::*;

    #[test]
    fn random_host_bytes_ask_only_for_what_a_line_asks() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet = b"?VvDd \r\n\tx\x00\xff";
        for _ in 0..200 {
            let mut c = Commands::default();
            let mut line: Vec<u8> = Vec::new();
            for _ in 0..5_000 {
                let b = if next() % 2 == 0 {
                    alphabet[(next() % alphabet.len() as u64) as usize]
                } else {
                    next() as u8
                };
                let got = c.byte(b);
                if b == b'\n' {
                    let want = match (line.len() <= 16).then(|| trim(&line)) {
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
        }
    }
}
