//! What a board driver reports: the events decoded from a board's bytes, and
//! the bytes it could not read. Both protocols share this vocabulary so one
//! inference engine serves every board.

use serde::Serialize;
use shakmaty::{Bitboard, Board, Piece, Square};

/// The wire protocols of `board-protocols.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Pegged tactile boards: occupancy sensors, one ASCII line per message.
    Peg,
    /// DGT electronic boards: binary messages, pieces identified.
    Dgt,
    /// Millennium ChessLink boards (eONE, Exclusive, Performance, Supreme):
    /// ASCII messages with a block check, 7 data bits and odd parity, the
    /// whole position on every change; pieces identified.
    Millennium,
}

impl Protocol {
    /// The speed boards of this protocol use unless told otherwise.
    pub fn default_baud(self) -> u32 {
        match self {
            Protocol::Peg | Protocol::Dgt => 9600,
            Protocol::Millennium => super::millennium::BAUD,
        }
    }

    /// The line's framing at `baud`.
    pub fn framing(self, baud: u32) -> super::link::Framing {
        match self {
            Protocol::Peg | Protocol::Dgt => super::link::Framing::n81(baud),
            Protocol::Millennium => super::link::Framing::o71(baud),
        }
    }

    /// Its name in settings and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Peg => "peg",
            Protocol::Dgt => "dgt",
            Protocol::Millennium => "millennium",
        }
    }

    /// Whether its boards tell the pieces apart (else only occupancy).
    pub fn identifies_pieces(self) -> bool {
        self != Protocol::Peg
    }
}

/// One thing a board told the host, or the driver noticed about the link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardEvent {
    /// Peg `L sq`: a piece was lifted out of a hole.
    Lifted(Square),
    /// Peg `P sq`: a piece was put into a hole.
    Put(Square),
    /// Peg `S hex`: full occupancy scan.
    Scan(Bitboard),
    /// Peg `B n` (1..=9): a frame button was pressed.
    Button(u8),
    /// Peg `H text`: the board's name and firmware.
    Hello(String),
    /// DGT board dump, or a ChessLink board's first status: every square
    /// with its piece.
    Dump(Board),
    /// DGT field update, or one square of a ChessLink status that changed
    /// (`None`: now empty).
    Field {
        square: Square,
        piece: Option<Piece>,
    },
    /// DGT version message.
    Version { major: u8, minor: u8 },
    /// DGT serial number (5 ASCII characters).
    SerialNumber(String),
    /// DGT clock message relayed by the board.
    Clock(ClockMessage),
    /// The port was opened (first time or after a disconnect).
    Connected,
    /// The port failed or hung up (board unplugged); the reason.
    Disconnected(String),
}

/// A DGT clock message: an acknowledgement or the two sides' times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ClockMessage {
    /// The clock acknowledged a command; the raw 7 data bytes.
    Ack { data: [u8; 7] },
    /// The clock's display.
    Time(ClockTime),
}

/// The times of a DGT clock, as displayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockTime {
    pub right: SideTime,
    pub left: SideTime,
    pub running: bool,
    pub right_to_move: bool,
    pub left_to_move: bool,
    pub no_clock: bool,
}

/// One side of a DGT clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SideTime {
    pub hours: u8,
    pub minutes: u8,
    pub seconds: u8,
    pub flag: bool,
}

/// Bytes a decoder could not read: what was wrong, and the bytes (at most a
/// line's or a message's worth, for the log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    pub what: String,
    pub bytes: Vec<u8>,
}

/// One decoder output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    Event(BoardEvent),
    Unreadable(Unreadable),
}

/// An incremental decoder: feed any chunking of the byte stream, get the
/// same events and the same unreadable bytes (stray bytes are reported at
/// the end of each chunk, so that the host can ask for a scan at once; how
/// they are grouped into reports depends on the chunking). Buffers are
/// bounded.
pub trait Decoder: Send {
    /// Decodes `bytes`, appending what they complete to `out`.
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Decoded>);
    /// The bytes that ask the board for a full scan (sent after unreadable input).
    fn scan_request(&self) -> &'static [u8];
    /// The bytes a host sends when it connects.
    fn start_requests(&self) -> &'static [u8];
}

/// A fresh decoder for `protocol`.
pub fn decoder(protocol: Protocol) -> Box<dyn Decoder> {
    match protocol {
        Protocol::Peg => Box::new(super::peg::PegDecoder::default()),
        Protocol::Dgt => Box::new(super::dgt::DgtDecoder::default()),
        Protocol::Millennium => Box::new(super::millennium::MillenniumDecoder::default()),
    }
}

/// The events and the unreadable bytes of decoder outputs: what stays the
/// same however the stream was chunked.
pub fn normalized(out: &[Decoded]) -> (Vec<BoardEvent>, Vec<u8>) {
    let mut events = Vec::new();
    let mut bytes = Vec::new();
    for d in out {
        match d {
            Decoded::Event(e) => events.push(e.clone()),
            Decoded::Unreadable(u) => bytes.extend(&u.bytes),
        }
    }
    (events, bytes)
}
