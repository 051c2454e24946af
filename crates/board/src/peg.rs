//! The peg protocol (`board-protocols.md` §1): ASCII lines `L e2`, `P e4`,
//! `S <16 hex>`, `B n`, `H text`, ended by `\n` (`\r\n` accepted).
//! Decoding is pure and incremental; a line may arrive in any chunks.

use std::time::Duration;

use shakmaty::{Bitboard, Square};

use thiserror::Error;

use super::event::{BoardEvent, Decoded, Decoder, Unreadable};

/// Why a peg line is unreadable (the line is shown as received).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PegLineError {
    #[error("peg line {0:?}: expected a letter, a space and an argument")]
    Shape(String),
    #[error("peg line {line:?}: {arg:?} is no square")]
    Square { line: String, arg: String },
    #[error("peg line {0:?}: a scan needs 16 hex digits")]
    Scan(String),
    #[error("peg line {0:?}: a button is 1 to 9")]
    Button(String),
    #[error("peg line {0:?}: hello text is not printable UTF-8")]
    Hello(String),
    #[error("peg line {line:?}: unknown message {kind:?}")]
    Unknown { line: String, kind: char },
}

/// Longest line accepted (a hello text included). Longer lines are
/// unreadable: the rest of such a line is skipped, never buffered.
pub const MAX_LINE: usize = 80;

/// Host → board: ask for a full scan.
pub const REQUEST_SCAN: &[u8] = b"?\n";
/// Host → board: ask for the hello line.
pub const REQUEST_HELLO: &[u8] = b"V\n";

/// The word of a hello (`H … debounced=10ms`) by which a board says that
/// it debounces its own switches: it reports a hole's or a button's change
/// only once the switch has held it this long. Such a board's lines are
/// changes, not contact bounce, so the host need not wait out a bounce
/// again (`infer::DEBOUNCED_SETTLE`). A board without the word is assumed
/// to send its switches as they are.
pub const DEBOUNCED: &str = "debounced=";

/// The longest debouncing a board may state: anything longer is no
/// debouncing but a broken board (a hand lifts a peg in 50 ms or more).
pub const MAX_DEBOUNCE: Duration = Duration::from_millis(100);

/// How long the board that said `hello` holds a switch's change before it
/// reports it (the word [`DEBOUNCED`] followed by whole milliseconds and
/// `ms`), if it says so. A word that is not of that form, zero, or over
/// [`MAX_DEBOUNCE`] says nothing.
pub fn debounced(hello: &str) -> Option<Duration> {
    hello.split_whitespace().find_map(|word| {
        let ms = word.strip_prefix(DEBOUNCED)?.strip_suffix("ms")?;
        if ms.is_empty() || !ms.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let d = Duration::from_millis(ms.parse().ok()?);
        (!d.is_zero() && d <= MAX_DEBOUNCE).then_some(d)
    })
}

/// Incremental decoder of board → host lines.
#[derive(Debug, Default)]
pub struct PegDecoder {
    line: Vec<u8>,
    /// The current line overflowed `MAX_LINE`; skip to its end.
    overlong: bool,
}

impl Decoder for PegDecoder {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Decoded>) {
        for &b in bytes {
            if b == b'\n' {
                if self.overlong {
                    out.push(Decoded::Unreadable(Unreadable {
                        what: format!("peg line longer than {MAX_LINE} bytes"),
                        bytes: std::mem::take(&mut self.line),
                    }));
                    self.overlong = false;
                } else {
                    let line = std::mem::take(&mut self.line);
                    if let Some(d) = parse_line(&line) {
                        out.push(d);
                    }
                }
            } else if self.overlong {
                // Skipping the rest of an overlong line.
            } else if self.line.len() >= MAX_LINE {
                self.overlong = true;
            } else {
                self.line.push(b);
            }
        }
    }

    fn scan_request(&self) -> &'static [u8] {
        REQUEST_SCAN
    }

    fn start_requests(&self) -> &'static [u8] {
        b"V\n?\n"
    }
}

/// Parses one line without its `\n`. Blank lines are ignored (`None`).
pub fn parse_line(line: &[u8]) -> Option<Decoded> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(|b| b.is_ascii_whitespace()) {
        return None;
    }
    Some(match parse_event(line) {
        Ok(e) => Decoded::Event(e),
        Err(e) => Decoded::Unreadable(Unreadable {
            what: e.to_string(),
            bytes: line.to_vec(),
        }),
    })
}

/// Parses one line (no `\n`, not blank).
pub fn parse_event(line: &[u8]) -> Result<BoardEvent, PegLineError> {
    let shown = || String::from_utf8_lossy(line).into_owned();
    let (kind, arg) = match line {
        [k, b' ', rest @ ..] => (*k, rest),
        _ => return Err(PegLineError::Shape(shown())),
    };
    let square = || {
        Square::from_ascii(arg).map_err(|_| PegLineError::Square {
            line: shown(),
            arg: String::from_utf8_lossy(arg).into_owned(),
        })
    };
    match kind {
        b'L' => Ok(BoardEvent::Lifted(square()?)),
        b'P' => Ok(BoardEvent::Put(square()?)),
        b'S' => {
            let hex = std::str::from_utf8(arg)
                .ok()
                .filter(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()));
            let bits = hex
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .ok_or_else(|| PegLineError::Scan(shown()))?;
            Ok(BoardEvent::Scan(Bitboard(bits)))
        }
        b'B' => match arg {
            [d @ b'1'..=b'9'] => Ok(BoardEvent::Button(d - b'0')),
            _ => Err(PegLineError::Button(shown())),
        },
        b'H' => match std::str::from_utf8(arg) {
            Ok(text) if !text.chars().any(char::is_control) => {
                Ok(BoardEvent::Hello(text.trim().to_owned()))
            }
            _ => Err(PegLineError::Hello(shown())),
        },
        _ => Err(PegLineError::Unknown {
            line: shown(),
            kind: kind as char,
        }),
    }
}

/// The line a peg board sends for `event` (for the simulator), with its
/// `\n`; `None` for events the peg protocol has no line for.
pub fn encode(event: &BoardEvent) -> Option<String> {
    Some(match event {
        BoardEvent::Lifted(sq) => format!("L {sq}\n"),
        BoardEvent::Put(sq) => format!("P {sq}\n"),
        BoardEvent::Scan(bb) => format!("S {:016x}\n", bb.0),
        BoardEvent::Button(n) if (1..=9).contains(n) => format!("B {n}\n"),
        BoardEvent::Hello(text) => format!("H {}\n", text.replace(['\r', '\n'], " ")),
        _ => return None,
    })
}

/// A host → board request, as a peg board reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostRequest {
    /// `?`: send a full scan.
    Scan,
    /// `V`: send the hello line.
    Hello,
}

/// Parses a host → board line (without `\n`); `None` if it is no request.
pub fn parse_request(line: &[u8]) -> Option<HostRequest> {
    match line.strip_suffix(b"\r").unwrap_or(line) {
        b"?" => Some(HostRequest::Scan),
        b"V" => Some(HostRequest::Hello),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<Decoded> {
        let mut d = PegDecoder::default();
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, &mut out);
        }
        out
    }

    #[test]
    fn decodes_every_message_in_any_chunking() {
        let bytes = b"L e2\nP e4\r\nS 000000000000ffff\nB 3\nH PegBoard 1.2\n";
        let whole = decode(&[bytes]);
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(whole, decode(&bytewise));
        assert_eq!(
            whole,
            vec![
                Decoded::Event(BoardEvent::Lifted(Square::E2)),
                Decoded::Event(BoardEvent::Put(Square::E4)),
                Decoded::Event(BoardEvent::Scan(Bitboard(0xffff))),
                Decoded::Event(BoardEvent::Button(3)),
                Decoded::Event(BoardEvent::Hello("PegBoard 1.2".into())),
            ]
        );
    }

    #[test]
    fn bad_lines_are_unreadable_and_decoding_carries_on() {
        let out = decode(&[b"L z9\nX e2\nS 12\nB 0\nLe2\n\nP e4\n"]);
        assert_eq!(out.len(), 6);
        assert!(out[..5].iter().all(|d| matches!(d, Decoded::Unreadable(_))));
        assert_eq!(out[5], Decoded::Event(BoardEvent::Put(Square::E4)));
        if let Decoded::Unreadable(u) = &out[0] {
            assert!(u.what.contains("no square"), "{}", u.what);
        }
    }

    #[test]
    fn an_endless_line_is_bounded_and_unreadable() {
        let mut d = PegDecoder::default();
        let mut out = Vec::new();
        for _ in 0..10_000 {
            d.feed(b"xxxxxxxxxx", &mut out);
        }
        assert!(out.is_empty());
        assert!(d.line.len() <= MAX_LINE);
        d.feed(b"\nL a1\n", &mut out);
        assert!(matches!(&out[0], Decoded::Unreadable(u) if u.what.contains("longer")));
        assert_eq!(out[1], Decoded::Event(BoardEvent::Lifted(Square::A1)));
    }

    #[test]
    fn a_hello_says_its_debouncing_in_whole_milliseconds() {
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(
            debounced("tactus peg board 0.1.0 E6614103E7123456 debounced=10ms"),
            ms(10)
        );
        assert_eq!(debounced("debounced=1ms board"), ms(1));
        assert_eq!(debounced("b debounced=100ms"), ms(100));
        for says_nothing in [
            "tactus-sim 1.0",
            "tactus peg board 0.1.0 E6614103E7123456",
            "debounced=0ms",
            "debounced=101ms",
            "debounced=10",
            "debounced=ms",
            "debounced=-5ms",
            "debounced=+5ms",
            "debounced=1.5ms",
            "debounced=99999999999999999999999ms",
            "undebounced=10ms",
            "",
        ] {
            assert_eq!(debounced(says_nothing), None, "{says_nothing:?}");
        }
    }

    #[test]
    fn encoder_round_trips() {
        let events = [
            BoardEvent::Lifted(Square::H8),
            BoardEvent::Put(Square::A1),
            BoardEvent::Scan(Bitboard(0xffff_0000_0000_ffff)),
            BoardEvent::Button(9),
            BoardEvent::Hello("Sim 1.0".into()),
        ];
        for e in events {
            let line = encode(&e).unwrap();
            assert_eq!(decode(&[line.as_bytes()]), vec![Decoded::Event(e)]);
        }
        assert_eq!(parse_request(b"?"), Some(HostRequest::Scan));
        assert_eq!(parse_request(b"V\r"), Some(HostRequest::Hello));
        assert_eq!(parse_request(b"x"), None);
    }
}
