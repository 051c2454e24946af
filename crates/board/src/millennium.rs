//! The Millennium ChessLink protocol (eONE, Exclusive, Performance and
//! Supreme boards), `board-protocols.md` §3: 38400 baud, 7 data bits, odd
//! parity, 1 stop bit; printable ASCII messages of fixed length per type,
//! each ended by a block check: the XOR of all its characters as two
//! upper-case hex digits.
//!
//! Read as 8-bit bytes (a USB or network link at 8N1, as the open
//! implementations do), each byte carries its odd parity in bit 7; on a real
//! 7O1 line bit 7 is clear. So the decoder masks bit 7, but a byte with bit
//! 7 set and even parity is corrupt; the host writes every byte with its
//! parity bit set, which is the same frame on the wire at 8N1 and harmless
//! at 7O1.
//!
//! The board reports its whole position (`s` + 64 pieces) on every change;
//! the decoder turns the first report into a dump and each later one into
//! field updates (removals first), so the inference sees what a DGT board
//! would send. Decoding is pure and incremental; after garbage it
//! resynchronises on the next character that can begin a message, trying
//! again one byte later whenever a candidate turns out wrong.

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use super::event::{BoardEvent, Decoded, Decoder, Unreadable};

/// The boards' speed.
pub const BAUD: u32 = 38400;

/// The character with its odd-parity bit in bit 7.
pub const fn with_parity(c: u8) -> u8 {
    let c = c & 0x7F;
    if c.count_ones().is_multiple_of(2) {
        c | 0x80
    } else {
        c
    }
}

/// Whether a received byte can be a character: bit 7 clear (a 7-bit line)
/// or the right odd-parity bit.
pub const fn parity_ok(b: u8) -> bool {
    b & 0x80 == 0 || b.count_ones() % 2 == 1
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The block check of `chars`: their XOR.
pub const fn block_check(chars: &[u8]) -> u8 {
    let mut x = 0;
    let mut i = 0;
    while i < chars.len() {
        x ^= chars[i] & 0x7F;
        i += 1;
    }
    x
}

/// A message as sent: `ascii`, its block check as two hex digits, every
/// byte with its parity bit.
pub fn frame(ascii: &[u8]) -> Vec<u8> {
    let x = block_check(ascii);
    ascii
        .iter()
        .copied()
        .chain([HEX[usize::from(x >> 4)], HEX[usize::from(x & 0x0F)]])
        .map(with_parity)
        .collect()
}

/// [`frame`] at compile time; `M` must be `ascii.len() + 2`.
const fn framed<const M: usize>(ascii: &[u8]) -> [u8; M] {
    assert!(M == ascii.len() + 2);
    let mut out = [0u8; M];
    let mut i = 0;
    while i < ascii.len() {
        out[i] = with_parity(ascii[i]);
        i += 1;
    }
    let x = block_check(ascii);
    out[i] = with_parity(HEX[(x >> 4) as usize]);
    out[i + 1] = with_parity(HEX[(x & 0x0F) as usize]);
    out
}

/// Host → board: send the status (`S`).
pub const REQUEST_STATUS: [u8; 3] = framed(b"S");
/// Host → board: send the version (`V`).
pub const REQUEST_VERSION: [u8; 3] = framed(b"V");
/// Host → board: every LED off (`X`).
pub const LEDS_OFF: [u8; 3] = framed(b"X");
/// Host → board: write E2ROM address 02 (automatic reports) with 03: send
/// the status on any change (debouncing is the host's settling time).
pub const AUTO_REPORTS_ON_CHANGE: [u8; 7] = framed(b"W0203");

const fn concat3<const N: usize>(a: &[u8], b: &[u8], c: &[u8]) -> [u8; N] {
    assert!(N == a.len() + b.len() + c.len());
    let mut out = [0u8; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        out[i + j] = b[j];
        j += 1;
    }
    let mut k = 0;
    while k < c.len() {
        out[i + j + k] = c[k];
        k += 1;
    }
    out
}

/// What a host sends when it connects: reports on change, version, status.
pub const START: [u8; 13] = concat3(&AUTO_REPORTS_ON_CHANGE, &REQUEST_VERSION, &REQUEST_STATUS);

/// The whole length of a board → host message starting with `c` (check
/// digits included), if `c` begins one.
pub fn reply_len(c: u8) -> Option<usize> {
    match c {
        b's' => Some(67),
        b'v' | b'w' | b'r' => Some(7),
        b'l' | b'x' => Some(3),
        _ => None,
    }
}

/// The whole length of a host → board command starting with `c`.
pub fn command_len(c: u8) -> Option<usize> {
    match c {
        b'S' | b'V' | b'X' | b'T' => Some(3),
        b'R' => Some(5),
        b'W' => Some(7),
        b'L' => Some(1 + 2 + 2 * 81 + 2),
        _ => None,
    }
}

const PIECES: &[u8] = b"KQRBNPkqrbnp.";

/// Whether character `c` may stand at `pos` of a message starting with
/// `kind` of length `len` (0 is `kind` itself).
fn plausible(kind: u8, len: usize, pos: usize, c: u8) -> bool {
    if pos + 2 >= len {
        // Block check digits.
        return HEX.contains(&c);
    }
    match kind {
        b's' => PIECES.contains(&c),
        b'S' | b'V' | b'X' | b'T' => false,
        _ => HEX.contains(&c),
    }
}

/// Square of status position `i` (0 = a8, 7 = h8, 8 = a7, …, 63 = h1).
pub fn square_at(i: usize) -> Option<Square> {
    let file = File::new(u32::try_from(i % 8).ok()?);
    let rank = Rank::new(7 - u32::try_from(i / 8).ok().filter(|r| *r < 8)?);
    Some(Square::from_coords(file, rank))
}

fn piece_of(c: u8) -> Option<Piece> {
    let role = Role::from_char(char::from(c.to_ascii_lowercase()))?;
    Some(Piece {
        color: if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        },
        role,
    })
}

fn char_of(p: Option<Piece>) -> u8 {
    p.map_or(b'.', |p| p.char() as u8)
}

/// Incremental decoder of board → host messages.
#[derive(Debug, Default)]
pub struct MillenniumDecoder {
    /// Received bytes not yet resolved: a candidate message at the front.
    pending: Vec<u8>,
    /// Bytes dropped since the last report.
    stray: Vec<u8>,
    /// The last position reported.
    board: Option<Board>,
}

/// Nothing longer than one status message is buffered.
pub const MAX_MESSAGE: usize = 67;

impl MillenniumDecoder {
    fn flush_stray(&mut self, out: &mut Vec<Decoded>) {
        if !self.stray.is_empty() {
            out.push(Decoded::Unreadable(Unreadable {
                what: format!(
                    "{} ChessLink byte(s) in no valid message (bad parity, length or block check)",
                    self.stray.len()
                ),
                bytes: std::mem::take(&mut self.stray),
            }));
        }
    }

    fn drop_first(&mut self, out: &mut Vec<Decoded>) {
        if self.stray.len() >= MAX_MESSAGE {
            self.flush_stray(out);
        }
        if !self.pending.is_empty() {
            let b = self.pending.remove(0);
            self.stray.push(b);
        }
    }

    /// Resolves as much of `pending` as can be.
    fn resolve(&mut self, out: &mut Vec<Decoded>) {
        loop {
            let Some(&first) = self.pending.first() else {
                return;
            };
            let kind = first & 0x7F;
            let len = match reply_len(kind) {
                Some(len) if parity_ok(first) => len,
                _ => {
                    self.drop_first(out);
                    continue;
                }
            };
            let bad = self
                .pending
                .iter()
                .take(len)
                .enumerate()
                .skip(1)
                .any(|(pos, &b)| !parity_ok(b) || !plausible(kind, len, pos, b & 0x7F));
            if bad {
                self.drop_first(out);
                continue;
            }
            if self.pending.len() < len {
                return;
            }
            let msg: Vec<u8> = self.pending.iter().take(len).map(|b| b & 0x7F).collect();
            match self.message(&msg) {
                Some(events) => {
                    self.flush_stray(out);
                    self.pending.drain(..len);
                    out.extend(events.into_iter().map(Decoded::Event));
                }
                None => self.drop_first(out),
            }
        }
    }

    /// The events of a whole message of plausible characters; `None` if
    /// its block check is wrong.
    fn message(&mut self, msg: &[u8]) -> Option<Vec<BoardEvent>> {
        let (body, check) = msg.split_at(msg.len().checked_sub(2)?);
        let hex = |pair: &[u8]| -> Option<u8> {
            let s = std::str::from_utf8(pair).ok()?;
            u8::from_str_radix(s, 16).ok()
        };
        if hex(check)? != block_check(body) {
            return None;
        }
        let (&kind, data) = body.split_first()?;
        Some(match kind {
            b's' => {
                let mut board = Board::empty();
                for (i, &c) in data.iter().enumerate() {
                    if let (Some(sq), Some(p)) = (square_at(i), piece_of(c)) {
                        board.set_piece_at(sq, p);
                    }
                }
                match self.board.replace(board.clone()) {
                    None => vec![BoardEvent::Dump(board)],
                    Some(old) => changes(&old, &board),
                }
            }
            b'v' => vec![BoardEvent::Version {
                major: hex(data.get(0..2)?)?,
                minor: hex(data.get(2..4)?)?,
            }],
            // Acknowledgements of L, X, W, R: nothing for the host to act on.
            _ => Vec::new(),
        })
    }
}

/// The field updates that turn `old` into `new`: squares emptied or
/// replaced first (a capture lifts the captured piece), then squares filled.
pub fn changes(old: &Board, new: &Board) -> Vec<BoardEvent> {
    let differ = |sq: &Square| old.piece_at(*sq) != new.piece_at(*sq);
    let removed = old
        .occupied()
        .into_iter()
        .filter(differ)
        .map(|square| BoardEvent::Field {
            square,
            piece: None,
        });
    let added = new
        .occupied()
        .into_iter()
        .filter(differ)
        .map(|square| BoardEvent::Field {
            square,
            piece: new.piece_at(square),
        });
    removed.chain(added).collect()
}

impl Decoder for MillenniumDecoder {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Decoded>) {
        for &b in bytes {
            self.pending.push(b);
            self.resolve(out);
        }
        self.flush_stray(out);
    }

    fn scan_request(&self) -> &'static [u8] {
        &REQUEST_STATUS
    }

    fn start_requests(&self) -> &'static [u8] {
        &START
    }
}

/// The status message for `board` (for the simulator).
pub fn status(board: &Board) -> Vec<u8> {
    let mut ascii = vec![b's'];
    ascii.extend((0..64).map(|i| char_of(square_at(i).and_then(|sq| board.piece_at(sq)))));
    frame(&ascii)
}

/// The message a ChessLink board sends for `event` (for the simulator);
/// `None` for events the protocol has no message for.
pub fn encode(event: &BoardEvent) -> Option<Vec<u8>> {
    match event {
        BoardEvent::Dump(board) => Some(status(board)),
        BoardEvent::Version { major, minor } => {
            Some(frame(format!("v{major:02X}{minor:02X}").as_bytes()))
        }
        _ => None,
    }
}

/// Index of the LED at corner (`col`, `row`): columns 0..=8 from the a-file
/// edge to the h-file edge, rows 0..=8 from the eighth-rank edge to the
/// first (LED 1 is the a8 corner, 9 the a1 corner, 73 h8, 81 h1).
pub fn led_index(col: usize, row: usize) -> usize {
    col * 9 + row
}

/// The four LED indices around `sq`.
pub fn corners(sq: Square) -> [usize; 4] {
    let col = usize::from(sq.file());
    let row = 7 - usize::from(sq.rank());
    [
        led_index(col, row),
        led_index(col + 1, row),
        led_index(col, row + 1),
        led_index(col + 1, row + 1),
    ]
}

/// LED time slot, in 4.096 ms units: the patterns below step every ~131 ms.
pub const LED_SLOT: u8 = 0x20;
/// The pattern around the square a piece leaves, and around the square it
/// goes to: they blink in turn, so the move's direction shows.
pub const LED_FROM: u8 = 0xF0;
pub const LED_TO: u8 = 0x0F;

/// The `L` command lighting the corners of `from` and `to`.
pub fn show_move(from: Square, to: Square) -> Vec<u8> {
    let mut leds = [0u8; 81];
    for (sq, pattern) in [(from, LED_FROM), (to, LED_TO)] {
        for i in corners(sq) {
            if let Some(l) = leds.get_mut(i) {
                *l |= pattern;
            }
        }
    }
    let mut ascii = format!("L{LED_SLOT:02X}");
    for l in leds {
        ascii.push_str(&format!("{l:02X}"));
    }
    frame(ascii.as_bytes())
}

/// The squares the LED codes `leds` light: those with all four corners lit,
/// less any whose corners are all lit for other such squares already (the
/// square between e2 and e4 shares its corners with both).
pub fn lit_squares(leds: &[u8; 81]) -> Vec<Square> {
    let lit = |i: &usize| leds.get(*i).is_some_and(|l| *l != 0);
    let mut squares: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|sq| corners(*sq).iter().all(lit))
        .collect();
    let mut i = 0;
    while i < squares.len() {
        let sq = squares[i];
        let covered = corners(sq).iter().all(|c| {
            squares
                .iter()
                .any(|other| *other != sq && corners(*other).contains(c))
        });
        if covered {
            squares.remove(i);
        } else {
            i += 1;
        }
    }
    squares
}

/// A host → board command, as a ChessLink board reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Status,
    Version,
    LedsOff,
    Reset,
    /// `L`: slot time and the 81 LED codes.
    Leds {
        slot: u8,
        leds: Box<[u8; 81]>,
    },
    WriteE2rom {
        address: u8,
        value: u8,
    },
    ReadE2rom {
        address: u8,
    },
}

/// Parses a whole command (bit 7 already masked); `None` if it is not one
/// (unknown letter, wrong length, bad digits or block check).
pub fn parse_command(msg: &[u8]) -> Option<Command> {
    let (&kind, _) = msg.split_first()?;
    if command_len(kind)? != msg.len() {
        return None;
    }
    let (body, check) = msg.split_at(msg.len() - 2);
    let hex = |pair: &[u8]| -> Option<u8> {
        if !pair.iter().all(|c| HEX.contains(c)) {
            return None;
        }
        u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()
    };
    if hex(check)? != block_check(body) {
        return None;
    }
    let data = body.get(1..)?;
    Some(match kind {
        b'S' => Command::Status,
        b'V' => Command::Version,
        b'X' => Command::LedsOff,
        b'T' => Command::Reset,
        b'R' => Command::ReadE2rom {
            address: hex(data.get(0..2)?)?,
        },
        b'W' => Command::WriteE2rom {
            address: hex(data.get(0..2)?)?,
            value: hex(data.get(2..4)?)?,
        },
        b'L' => {
            let slot = hex(data.get(0..2)?)?;
            let mut leds = Box::new([0u8; 81]);
            for (i, l) in leds.iter_mut().enumerate() {
                *l = hex(data.get(2 + 2 * i..4 + 2 * i)?)?;
            }
            Command::Leds { slot, leds }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<Decoded> {
        let mut d = MillenniumDecoder::default();
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

    #[test]
    fn framing_matches_the_published_examples() {
        // "V56" as python-mchess logs it: 0xD6 0xB5 0xB6 on the wire.
        assert_eq!(REQUEST_VERSION, [0xD6, 0xB5, 0xB6]);
        // The version answer it logs: "v010374" (v, 01, 03, check 74).
        let v = frame(b"v0103");
        let ascii: Vec<u8> = v.iter().map(|b| b & 0x7F).collect();
        assert_eq!(ascii, b"v010374");
        assert!(v.iter().all(|b| b.count_ones() % 2 == 1));
        assert_eq!(
            events(&decode(&[&v])),
            [BoardEvent::Version { major: 1, minor: 3 }]
        );
        // And the same read from a 7-bit line.
        assert_eq!(events(&decode(&[b"v010374"])).len(), 1);
    }

    #[test]
    fn a_status_then_changes_in_any_chunking() {
        let start = Board::default();
        let mut after = start.clone();
        after.discard_piece_at(Square::E2);
        after.set_piece_at(Square::E4, Color::White.pawn());
        let mut capture = after.clone();
        capture.discard_piece_at(Square::D7);
        capture.set_piece_at(Square::E4, Color::Black.pawn());
        let mut bytes = status(&start);
        bytes.extend(status(&after));
        bytes.extend(frame(b"x"));
        bytes.extend(status(&capture));
        let whole = decode(&[&bytes]);
        assert_eq!(
            events(&whole),
            [
                BoardEvent::Dump(start),
                BoardEvent::Field {
                    square: Square::E2,
                    piece: None
                },
                BoardEvent::Field {
                    square: Square::E4,
                    piece: Some(Color::White.pawn())
                },
                BoardEvent::Field {
                    square: Square::E4,
                    piece: None
                },
                BoardEvent::Field {
                    square: Square::D7,
                    piece: None
                },
                BoardEvent::Field {
                    square: Square::E4,
                    piece: Some(Color::Black.pawn())
                },
            ]
        );
        assert_eq!(whole.len(), 6, "{whole:?}");
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode(&bytewise), whole);
    }

    #[test]
    fn resynchronises_after_garbage() {
        let v = frame(b"v0105");
        let mut bytes = vec![b's', 0x01, 0xFF]; // a stray 's', junk
        bytes.extend(&v[..4]); // cut short
        bytes.extend(frame(b"v0106").iter().map(|b| b ^ 0x01)); // bit errors
        let mut bad_check = frame(b"v0107");
        bad_check[5] = with_parity(b'0');
        bad_check[6] = with_parity(b'0');
        bytes.extend(bad_check);
        bytes.extend(&v);
        let out = decode(&[&bytes]);
        assert_eq!(events(&out), [BoardEvent::Version { major: 1, minor: 5 }]);
        let (_, dropped) = crate::event::normalized(&out);
        assert_eq!(dropped.len(), bytes.len() - v.len());
        // Endless garbage stays bounded.
        let mut d = MillenniumDecoder::default();
        let mut out = Vec::new();
        d.feed(&[b's'; 10_000], &mut out);
        assert!(d.pending.len() <= MAX_MESSAGE && d.stray.len() <= MAX_MESSAGE);
    }

    #[test]
    fn squares_and_leds_number_as_documented() {
        assert_eq!(square_at(0), Some(Square::A8));
        assert_eq!(square_at(7), Some(Square::H8));
        assert_eq!(square_at(63), Some(Square::H1));
        assert_eq!(square_at(64), None);
        // LED 1 in the a8 corner, 9 in a1, 73 in h8, 81 in h1 (1-based).
        assert_eq!(corners(Square::A8)[0], 0);
        assert_eq!(corners(Square::A1)[2], 8);
        assert_eq!(corners(Square::H8)[1], 72);
        assert_eq!(corners(Square::H1)[3], 80);
        let cmd = show_move(Square::E2, Square::E4);
        let ascii: Vec<u8> = cmd.iter().map(|b| b & 0x7F).collect();
        let Some(Command::Leds { slot, leds }) = parse_command(&ascii) else {
            panic!("{}", String::from_utf8_lossy(&ascii));
        };
        assert_eq!(slot, LED_SLOT);
        assert_eq!(lit_squares(&leds), [Square::E2, Square::E4]);
        for (from, to) in [
            (Square::E2, Square::E3),
            (Square::E1, Square::G1),
            (Square::B1, Square::C3),
            (Square::A1, Square::H8),
        ] {
            let cmd: Vec<u8> = show_move(from, to).iter().map(|b| b & 0x7F).collect();
            let Some(Command::Leds { leds, .. }) = parse_command(&cmd) else {
                panic!()
            };
            let mut want = vec![from, to];
            want.sort();
            assert_eq!(lit_squares(&leds), want, "{from}{to}");
        }
        for (ascii, cmd) in [
            (&b"S53"[..], Command::Status),
            (
                b"W020356",
                Command::WriteE2rom {
                    address: 2,
                    value: 3,
                },
            ),
        ] {
            assert_eq!(parse_command(ascii), Some(cmd));
        }
        let start: Vec<u8> = START.iter().map(|b| b & 0x7F).collect();
        assert_eq!(start, b"W020356V56S53");
        assert_eq!(parse_command(b"S54"), None);
        assert_eq!(parse_command(b"Q00"), None);
    }
}
