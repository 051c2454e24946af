//! What a table shows: the JSON of `GET /api/tables/{id}` and of the live
//! `state` events, and the announcements on the live stream.

use serde::Serialize;

use crate::rules::clock_announce::Shown;
use crate::rules::game::{FlagRule, GameResult, Irregularity, NoticeKind, TouchedPiece};
use crate::rules::game_kind::GameKind;

/// A snapshot of one table.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    pub id: String,
    pub white: String,
    pub black: String,
    pub event: String,
    pub round: String,
    /// The blind player's side.
    pub blind: &'static str,
    /// The time control as configured (e.g. `40/90+30, 30+30`).
    pub control: String,
    pub fen: String,
    /// The side to move.
    pub turn: &'static str,
    /// The moves so far, in SAN.
    pub moves: Vec<String>,
    pub clock: ClockView,
    /// `standard`, `rapid` or `blitz` (A.1, B.1): penalties are one minute
    /// in rapid and blitz (A.3).
    pub kind: GameKind,
    /// `claim` (6.8, the default) or `auto`.
    pub flag_rule: FlagRule,
    /// What the clock announcement tells by default: `left` or `used`.
    pub clock_says: Shown,
    /// Illegal moves the arbiter ruled completed, per side (7.5.5).
    pub illegal_completed: PerSide,
    /// The blind player's tactile board (`null` if the table has none).
    pub board: Option<BoardView>,
    /// The opponent's board (`null`: the assistant enters those moves).
    pub opponent_board: Option<BoardView>,
    pub result: Option<GameResult>,
    /// A standing draw offer and its side.
    pub draw_offer: Option<&'static str>,
    pub touched: Vec<TouchedPiece>,
    pub illegal: Vec<Irregularity>,
    /// What needs the arbiter's eye, in words.
    pub alerts: Vec<Alert>,
    /// The table's sound output: `state` (`playing`, `failed`, `starting`,
    /// `none`), `device`, `error`, `reopened`, `retried`.
    pub audio: crate::speech::device::AudioView,
    /// The last announcement's text (what "repeat" says again).
    pub last_announcement: Option<String>,
    /// The braille display: `connected`, `disconnected` (`null`: none).
    pub braille: Option<&'static str>,
    /// The language of the announcements (the table's voice pack's, `de`):
    /// pages mark announcement text with it so screen readers read it in
    /// that language's voice.
    pub voice_lang: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    pub white_ms: u64,
    pub black_ms: u64,
    pub running: bool,
    /// `not_started`, `running`, `paused` or `flagged`.
    pub state: &'static str,
    /// Moves White has completed.
    pub moves: u32,
    /// The side whose clock has reached zero, shown at once (6.8).
    pub flag: Option<&'static str>,
}

/// A count per side: `{"white": 0, "black": 1}`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PerSide {
    pub white: u32,
    pub black: u32,
}

impl From<shakmaty::ByColor<u32>> for PerSide {
    fn from(b: shakmaty::ByColor<u32>) -> PerSide {
        PerSide {
            white: b.white,
            black: b.black,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
    pub connected: bool,
    /// The board shows what it should (the position, or the position after
    /// the announced move once carried out).
    pub in_sync: bool,
    /// The announced move the blind player is to carry out on the board,
    /// until the board shows it (UCI).
    pub following: Option<String>,
    /// Squares that differ, a1 to h8.
    pub differs: Vec<String>,
    /// What the board should show (FEN placement).
    pub fen: String,
    /// A peg-board promotion waiting for its piece.
    pub promotion_pending: bool,
    /// Lines or messages from the board that could not be read.
    pub unreadable: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// `board_disconnected`, `board_differs`, `flag`, `illegal`, `draw_offer`,
    /// `promotion`, `audio` (no sound at the table).
    pub kind: &'static str,
    pub text: String,
}

/// An announcement on the live stream: what was said, as text and tokens.
#[derive(Debug, Clone, Serialize)]
pub struct Announcement {
    /// Increasing per table: a page can tell a repeat from a new one.
    pub seq: u64,
    pub kind: NoticeKind,
    pub text: String,
    pub tokens: Vec<String>,
}

/// One item of a table's live stream.
#[derive(Debug, Clone)]
pub enum LiveEvent {
    Announcement(Announcement),
    State(Box<TableView>),
}
