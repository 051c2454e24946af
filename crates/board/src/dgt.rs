//! The DGT protocol (`board-protocols.md` §2): binary messages whose first
//! byte has the high bit set, then a 14-bit total length, then data bytes
//! with the high bit clear. Decoding is pure and incremental; after garbage
//! it resynchronises on the next byte with the high bit set.

use shakmaty::{Board, Color, Piece, Role, Square};
use thiserror::Error;

use super::event::{BoardEvent, ClockMessage, ClockTime, Decoded, Decoder, SideTime, Unreadable};

/// Host → board: reset.
pub const RESET: u8 = 0x40;
/// Host → board: send the board dump.
pub const SEND_BOARD: u8 = 0x42;
/// Host → board: send updates.
pub const SEND_UPDATES: u8 = 0x43;
/// Host → board: send updates (board only).
pub const SEND_UPDATES_BOARD: u8 = 0x44;
/// Host → board: send the serial number.
pub const SEND_SERIAL: u8 = 0x45;
/// Host → board: send updates "nice".
pub const SEND_UPDATES_NICE: u8 = 0x4B;
/// Host → board: send the version.
pub const SEND_VERSION: u8 = 0x4D;
/// Host → board: set LEDs (Revelation II): `0x60`, size 4, pattern (0 off,
/// 1 on), first and last square index, `0x00`. Boards without LEDs ignore it.
pub const SET_LEDS: u8 = 0x60;

/// The commands lighting `from` and `to` on a Revelation II (one square
/// each, whatever the board makes of a range).
pub fn show_move(from: Square, to: Square) -> Vec<u8> {
    let mut out = Vec::with_capacity(12);
    for sq in [from, to] {
        out.extend([SET_LEDS, 4, 1, index_of(sq), index_of(sq), 0]);
    }
    out
}

/// The command switching every LED off.
pub const LEDS_OFF: [u8; 6] = [SET_LEDS, 4, 0, 0, 63, 0];

/// Board → host message ids (high bit included).
pub const MSG_BOARD_DUMP: u8 = 0x86;
pub const MSG_FIELD_UPDATE: u8 = 0x8E;
pub const MSG_VERSION: u8 = 0x93;
pub const MSG_SERIAL: u8 = 0x91;
pub const MSG_CLOCK: u8 = 0x8D;

/// The longest message (a board dump); nothing longer is buffered.
pub const MAX_MESSAGE: usize = 67;

fn expected_len(id: u8) -> Option<usize> {
    match id {
        MSG_BOARD_DUMP => Some(67),
        MSG_FIELD_UPDATE => Some(5),
        MSG_VERSION => Some(5),
        MSG_SERIAL => Some(8),
        MSG_CLOCK => Some(10),
        _ => None,
    }
}

/// Incremental decoder of board → host messages.
#[derive(Debug, Default)]
pub struct DgtDecoder {
    msg: Vec<u8>,
    /// Data bytes seen outside any message since the last report.
    stray: Vec<u8>,
    /// Skipping a bad message's data until the next high-bit byte.
    skipping: bool,
}

impl DgtDecoder {
    fn flush_stray(&mut self, out: &mut Vec<Decoded>) {
        if !self.stray.is_empty() {
            out.push(Decoded::Unreadable(Unreadable {
                what: format!("{} DGT byte(s) outside any message", self.stray.len()),
                bytes: std::mem::take(&mut self.stray),
            }));
        }
    }

    fn reject(&mut self, what: String, out: &mut Vec<Decoded>) {
        out.push(Decoded::Unreadable(Unreadable {
            what,
            bytes: std::mem::take(&mut self.msg),
        }));
        self.skipping = true;
    }
}

impl Decoder for DgtDecoder {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Decoded>) {
        for &b in bytes {
            if b & 0x80 != 0 {
                self.flush_stray(out);
                if !self.msg.is_empty() {
                    let id = self.msg.first().copied().unwrap_or(0);
                    self.reject(
                        format!(
                            "DGT message 0x{id:02X} cut short after {} bytes",
                            self.msg.len()
                        ),
                        out,
                    );
                }
                self.skipping = false;
                self.msg.push(b);
                continue;
            }
            if self.skipping {
                continue;
            }
            if self.msg.is_empty() {
                // Bounded: a long run of garbage is reported in pieces.
                if self.stray.len() >= MAX_MESSAGE {
                    self.flush_stray(out);
                }
                self.stray.push(b);
                continue;
            }
            self.msg.push(b);
            let id = self.msg.first().copied().unwrap_or(0);
            if let [_, hi, lo] = self.msg[..] {
                let len = (usize::from(hi) << 7) | usize::from(lo);
                match expected_len(id) {
                    None => {
                        self.reject(format!("unknown DGT message 0x{id:02X}"), out);
                        continue;
                    }
                    Some(want) if want != len => {
                        self.reject(
                            format!("DGT message 0x{id:02X} says length {len}, expected {want}"),
                            out,
                        );
                        continue;
                    }
                    Some(_) => {}
                }
            }
            if self.msg.len() >= 3 && expected_len(id) == Some(self.msg.len()) {
                let msg = std::mem::take(&mut self.msg);
                out.push(match decode_message(&msg) {
                    Ok(e) => Decoded::Event(e),
                    Err(e) => Decoded::Unreadable(Unreadable {
                        what: e.to_string(),
                        bytes: msg,
                    }),
                });
            }
        }
        self.flush_stray(out);
    }

    fn scan_request(&self) -> &'static [u8] {
        &[SEND_BOARD]
    }

    fn start_requests(&self) -> &'static [u8] {
        &[SEND_UPDATES_NICE, SEND_VERSION, SEND_BOARD]
    }
}

/// Why a DGT message is unreadable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DgtError {
    #[error("DGT message shorter than its header")]
    Short,
    #[error("DGT message 0x{0:02X} has a bad length")]
    Length(u8),
    #[error("DGT serial number is not printable ASCII")]
    Serial,
    #[error("DGT clock message needs 7 data bytes")]
    ClockLength,
    #[error("DGT clock byte 0x{0:02X} is no BCD minute or second")]
    Bcd(u8),
    #[error("DGT square index {0} is off the board")]
    Index(usize),
    #[error("DGT piece code 0x{0:02X} is unknown")]
    PieceCode(u8),
}

/// Decodes one whole message (header included, length already checked).
fn decode_message(msg: &[u8]) -> Result<BoardEvent, DgtError> {
    let (id, data) = match msg {
        [id, _, _, data @ ..] => (*id, data),
        _ => return Err(DgtError::Short),
    };
    match (id, data) {
        (MSG_BOARD_DUMP, data) if data.len() == 64 => {
            let mut board = Board::empty();
            for (i, &code) in data.iter().enumerate() {
                if let Some(piece) = piece_from_code(code)? {
                    board.set_piece_at(square_from_index(i)?, piece);
                }
            }
            Ok(BoardEvent::Dump(board))
        }
        (MSG_FIELD_UPDATE, [index, code]) => Ok(BoardEvent::Field {
            square: square_from_index(usize::from(*index))?,
            piece: piece_from_code(*code)?,
        }),
        (MSG_VERSION, [major, minor]) => Ok(BoardEvent::Version {
            major: *major,
            minor: *minor,
        }),
        (MSG_SERIAL, data) if data.len() == 5 => {
            if data.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                Ok(BoardEvent::SerialNumber(
                    String::from_utf8_lossy(data).into_owned(),
                ))
            } else {
                Err(DgtError::Serial)
            }
        }
        (MSG_CLOCK, data) => {
            let d: [u8; 7] = data.try_into().map_err(|_| DgtError::ClockLength)?;
            decode_clock(d).map(BoardEvent::Clock)
        }
        _ => Err(DgtError::Length(id)),
    }
}

/// Decodes the 7 data bytes of a clock message.
pub fn decode_clock(d: [u8; 7]) -> Result<ClockMessage, DgtError> {
    if d[0] & 0x0F == 0x0A || d[3] & 0x0F == 0x0A {
        return Ok(ClockMessage::Ack { data: d });
    }
    let side = |h: u8, m: u8, s: u8| -> Result<SideTime, DgtError> {
        Ok(SideTime {
            hours: h & 0x0F,
            minutes: bcd(m)?,
            seconds: bcd(s)?,
            flag: h & 0x10 != 0,
        })
    };
    Ok(ClockMessage::Time(ClockTime {
        right: side(d[0], d[1], d[2])?,
        left: side(d[3], d[4], d[5])?,
        running: d[6] & 0x01 != 0,
        right_to_move: d[6] & 0x08 != 0,
        left_to_move: d[6] & 0x10 != 0,
        no_clock: d[6] & 0x20 != 0,
    }))
}

fn bcd(b: u8) -> Result<u8, DgtError> {
    let (hi, lo) = (b >> 4, b & 0x0F);
    if hi > 5 || lo > 9 {
        return Err(DgtError::Bcd(b));
    }
    Ok(hi * 10 + lo)
}

fn to_bcd(n: u8) -> u8 {
    ((n / 10) << 4) | (n % 10)
}

/// Encodes the 7 clock data bytes of `time` (inverse of [`decode_clock`]).
pub fn encode_clock(msg: &ClockMessage) -> [u8; 7] {
    match msg {
        ClockMessage::Ack { data } => *data,
        ClockMessage::Time(t) => {
            let h = |s: &SideTime| (s.hours & 0x0F) | if s.flag { 0x10 } else { 0 };
            let status = u8::from(t.running)
                | (u8::from(t.right_to_move) << 3)
                | (u8::from(t.left_to_move) << 4)
                | (u8::from(t.no_clock) << 5);
            [
                h(&t.right),
                to_bcd(t.right.minutes % 60),
                to_bcd(t.right.seconds % 60),
                h(&t.left),
                to_bcd(t.left.minutes % 60),
                to_bcd(t.left.seconds % 60),
                status,
            ]
        }
    }
}

/// DGT square index (0 = a8, 7 = h8, 63 = h1) to a square.
pub fn square_from_index(i: usize) -> Result<Square, DgtError> {
    if i >= 64 {
        return Err(DgtError::Index(i));
    }
    Square::try_from((7 - i / 8) * 8 + i % 8).map_err(|_| DgtError::Index(i))
}

/// Square to DGT index (0 = a8 … 63 = h1).
pub fn index_of(sq: Square) -> u8 {
    // rank 7 (eighth) maps to row 0.
    ((7 - u8::from(sq.rank())) * 8) + u8::from(sq.file())
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::King,
    Role::Queen,
];

/// DGT piece code to a piece (`None`: empty).
pub fn piece_from_code(code: u8) -> Result<Option<Piece>, DgtError> {
    match code {
        0 => Ok(None),
        1..=6 => Ok(ROLES.get(usize::from(code - 1)).map(|&role| Piece {
            color: Color::White,
            role,
        })),
        7..=12 => Ok(ROLES.get(usize::from(code - 7)).map(|&role| Piece {
            color: Color::Black,
            role,
        })),
        _ => Err(DgtError::PieceCode(code)),
    }
}

/// Piece to DGT piece code (0: empty).
pub fn code_of(piece: Option<Piece>) -> u8 {
    match piece {
        None => 0,
        Some(p) => {
            let i = ROLES.iter().position(|&r| r == p.role).unwrap_or(0) as u8;
            match p.color {
                Color::White => 1 + i,
                Color::Black => 7 + i,
            }
        }
    }
}

fn header(id: u8, len: usize) -> Vec<u8> {
    vec![id, ((len >> 7) & 0x7F) as u8, (len & 0x7F) as u8]
}

/// The message a DGT board sends for `event` (for the simulator); `None`
/// for events the DGT protocol has no message for.
pub fn encode(event: &BoardEvent) -> Option<Vec<u8>> {
    Some(match event {
        BoardEvent::Dump(board) => {
            let mut m = header(MSG_BOARD_DUMP, 67);
            m.extend((0..64).map(|i| {
                square_from_index(i)
                    .map(|sq| code_of(board.piece_at(sq)))
                    .unwrap_or(0)
            }));
            m
        }
        BoardEvent::Field { square, piece } => {
            let mut m = header(MSG_FIELD_UPDATE, 5);
            m.extend([index_of(*square), code_of(*piece)]);
            m
        }
        BoardEvent::Version { major, minor } => {
            let mut m = header(MSG_VERSION, 5);
            m.extend([major & 0x7F, minor & 0x7F]);
            m
        }
        BoardEvent::SerialNumber(s) => {
            let mut m = header(MSG_SERIAL, 8);
            let mut bytes: Vec<u8> = s.bytes().filter(u8::is_ascii_graphic).take(5).collect();
            bytes.resize(5, b' ');
            m.extend(bytes);
            m
        }
        BoardEvent::Clock(c) => {
            let mut m = header(MSG_CLOCK, 10);
            m.extend(encode_clock(c).map(|b| b & 0x7F));
            m
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<Decoded> {
        let mut d = DgtDecoder::default();
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
    fn squares_and_pieces_number_as_specified() {
        assert_eq!(square_from_index(0), Ok(Square::A8));
        assert_eq!(square_from_index(7), Ok(Square::H8));
        assert_eq!(square_from_index(8), Ok(Square::A7));
        assert_eq!(square_from_index(63), Ok(Square::H1));
        assert!(square_from_index(64).is_err());
        for sq in Square::ALL {
            assert_eq!(square_from_index(usize::from(index_of(sq))), Ok(sq));
        }
        assert_eq!(piece_from_code(6), Ok(Some(Color::White.queen())));
        assert_eq!(piece_from_code(0x0B), Ok(Some(Color::Black.king())));
        assert!(piece_from_code(13).is_err());
        for code in 0..=12 {
            assert_eq!(code_of(piece_from_code(code).unwrap()), code);
        }
    }

    #[test]
    fn every_message_round_trips_in_any_chunking() {
        let clock = ClockMessage::Time(ClockTime {
            right: SideTime {
                hours: 1,
                minutes: 59,
                seconds: 7,
                flag: false,
            },
            left: SideTime {
                hours: 0,
                minutes: 3,
                seconds: 0,
                flag: true,
            },
            running: true,
            right_to_move: true,
            left_to_move: false,
            no_clock: false,
        });
        let all = vec![
            BoardEvent::Dump(Board::default()),
            BoardEvent::Field {
                square: Square::E4,
                piece: Some(Color::White.pawn()),
            },
            BoardEvent::Field {
                square: Square::E2,
                piece: None,
            },
            BoardEvent::Version { major: 1, minor: 7 },
            BoardEvent::SerialNumber("A1234".into()),
            BoardEvent::Clock(clock),
        ];
        let bytes: Vec<u8> = all.iter().flat_map(|e| encode(e).unwrap()).collect();
        let whole = decode(&[&bytes]);
        assert_eq!(events(&whole), all);
        assert_eq!(whole.len(), all.len());
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode(&bytewise), whole);
    }

    #[test]
    fn clock_ack_and_bad_bcd() {
        let ack = [0x0A, 0, 0, 0, 0, 0, 0];
        assert_eq!(decode_clock(ack), Ok(ClockMessage::Ack { data: ack }));
        assert!(decode_clock([0, 0x0A, 0, 0, 0, 0, 0]).is_err());
        let out = decode(&[&[MSG_CLOCK, 0, 10, 0, 0x7A, 0, 0, 0, 0, 0]]);
        assert!(matches!(&out[0], Decoded::Unreadable(u) if u.what.contains("BCD")));
    }

    #[test]
    fn resynchronises_after_garbage_and_truncation() {
        let field = encode(&BoardEvent::Field {
            square: Square::D4,
            piece: None,
        })
        .unwrap();
        let mut bytes = vec![0x01, 0x02, 0x7F];
        bytes.extend(&field[..3]); // cut short
        bytes.extend([0xFF, 0, 5, 1, 1]); // unknown id
        bytes.extend([MSG_VERSION, 0, 9, 1]); // wrong length
        bytes.extend(&field);
        let out = decode(&[&bytes]);
        assert_eq!(out.len(), 5, "{out:?}");
        assert!(out[..4].iter().all(|d| matches!(d, Decoded::Unreadable(_))));
        assert_eq!(
            events(&out),
            vec![BoardEvent::Field {
                square: Square::D4,
                piece: None
            }]
        );
        // Split inside a run of stray bytes: reported per chunk, same bytes.
        let split = decode(&[&bytes[..2], &bytes[2..]]);
        assert_eq!(
            crate::event::normalized(&split),
            crate::event::normalized(&out)
        );
        // Endless stray bytes stay bounded.
        let mut d = DgtDecoder::default();
        let mut out = Vec::new();
        d.feed(&vec![0x11; 10_000], &mut out);
        assert!(d.stray.len() <= MAX_MESSAGE);
        assert!(out.iter().all(|d| matches!(d, Decoded::Unreadable(_))));
    }
}
