//! What a table shows: the JSON of `GET /api/tables/{id}` and of the live
//! `state` events, and the announcements on the live stream; and the
//! snapshot of a table actor that makes them. The service re-exports these
//! types in `service::web::api_types`, beside the request bodies; `docs/api.md`
//! describes every field, and a test fails if one is left out there.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{ByColor, Color, EnPassantMode, Position};

use super::announcing::Announcer;
use super::boards::{Boards, LiveBoard};
use super::display::DisplayStatus;
use super::id::TableId;
use super::journaled_game::JournaledGame;
use super::round::Round;
use tactus_rules::clock::{Clock, ClockState, Flag};
use tactus_rules::clock_announce::Shown;
use tactus_rules::game::{Irregularity, NoticeKind, TouchedPiece};
use tactus_rules::game_kind::GameKind;
use tactus_rules::result::FlagRule;
use tactus_rules::result::{Ending, GameResult};
use tactus_rules::side;
use tactus_rules::time_control::TimeControl;
use tactus_speech::device::AudioView;

/// A snapshot of one table.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    /// The table's id, as in its URLs (`1`, `board-7`).
    pub id: TableId,
    /// White's name (empty if not configured).
    pub white: String,
    /// Black's name (empty if not configured).
    pub black: String,
    /// The event, for the PGN.
    pub event: String,
    /// The round, for the PGN.
    pub round: Round,
    /// The number of the table's game: 1 for its first, one more for each
    /// round (or replayed game) since. A page that sees it change knows a
    /// new game has been set up.
    pub game: u32,
    /// Whether the game has begun (a move, the clock started, or a
    /// result): one that has not may be set up anew.
    pub begun: bool,
    /// The blind player's side.
    #[serde(with = "side")]
    pub blind: Color,
    /// The competition's start ranks of the players, when the round's
    /// pairings gave them (`{"white": 3, "black": 8}`).
    #[serde(with = "tactus_rules::side::by_color_sparse")]
    pub ranks: super::setup::Ranks,
    /// The time control as configured (e.g. `40/90+30, 30+30`).
    pub control: TimeControl,
    /// The position (FEN).
    pub fen: String,
    /// The side to move.
    #[serde(with = "side")]
    pub turn: Color,
    /// The moves so far, in SAN.
    pub moves: Vec<String>,
    /// The same moves in UCI (`g1f3`): the pages name the last move's
    /// squares and write moves in long notation (`Ng1-f3`) from them.
    pub moves_uci: Vec<UciMove>,
    /// Every legal move of the side to move, in UCI as `moves_uci` writes
    /// them (`e1g1`; Chess960 castling as the king onto the rook; `e7e8q`
    /// for each promotion); empty once the game is over. The sighted
    /// pages' boards show a piece's squares from them.
    pub legal_moves: Vec<UciMove>,
    pub clock: ClockView,
    /// `standard`, `rapid` or `blitz` (A.1, B.1): penalties are one minute
    /// in rapid and blitz (A.3).
    pub kind: GameKind,
    /// `claim` (6.8, the default) or `auto`.
    pub flag_rule: FlagRule,
    /// What the clock announcement tells by default: `left` or `used`.
    pub clock_says: Shown,
    /// Illegal moves the arbiter ruled completed, per side (7.5.5).
    #[serde(with = "tactus_rules::side::by_color")]
    pub illegal_completed: ByColor<u32>,
    /// The blind player's tactile board (`null` if the table has none).
    pub board: Option<BoardView>,
    /// The opponent's board (`null`: the assistant enters those moves).
    pub opponent_board: Option<BoardView>,
    /// The game's result once it is over (`null` while it is played):
    /// `result` (`1-0`, `0-1`, `1/2-1/2`), `reason` in words, `ending`.
    pub result: Option<GameResult>,
    /// A standing draw offer and its side.
    #[serde(serialize_with = "side_or_null")]
    pub draw_offer: Option<Color>,
    /// Touched pieces on the record (4.3): `side`, `square`, `ply`,
    /// `at_ms`; the latest [`RECORD_SHOWN`] (all are in the journal).
    pub touched: Vec<TouchedPiece>,
    /// How many touched pieces are on the record.
    pub touched_count: usize,
    /// Illegal move attempts on the record (7.5): `side`, `text`, `ply`,
    /// `at_ms`; the latest [`RECORD_SHOWN`] (all are in the journal).
    pub illegal: Vec<Irregularity>,
    /// How many illegal move attempts are on the record.
    pub illegal_count: usize,
    /// What needs the arbiter's eye, in words.
    pub alerts: Vec<Alert>,
    /// The table's sound output: `state` (`playing`, `failed`, `starting`,
    /// `none`), `device`, `error`, `reopened`, `retried`.
    pub audio: AudioView,
    /// The last announcement's text (what "repeat" says again).
    pub last_announcement: Option<String>,
    /// The braille display: `connected`, `disconnected` (`null`: none).
    pub braille: Option<super::display::DisplayState>,
    /// The language of the announcements (the table's voice pack's, `de`):
    /// pages mark announcement text with it so screen readers read it in
    /// that language's voice.
    pub voice_lang: String,
    /// The speaking rate of the table's sound (0.7–1.6 as the arbiter sets
    /// it, 1 as recorded; the pitch kept).
    pub rate: f32,
}

/// Both clocks, read at `as_of_ms`.
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// A clock is running.
    pub running: bool,
    /// `not_started`, `running`, `paused` or `flagged`.
    pub state: ClockPhase,
    /// Moves White has completed.
    pub moves: u32,
    /// The side whose clock has reached zero, shown at once (6.8).
    #[serde(serialize_with = "side_or_null")]
    pub flag: Option<Color>,
    /// The side whose time is running (`null` unless `running`).
    #[serde(serialize_with = "side_or_null")]
    pub running_side: Option<Color>,
    /// The table's time (milliseconds, the journal's timebase) at which
    /// `white_ms` and `black_ms` were read: a page counts the running side
    /// down from here, against the offset it measures between this time
    /// and its own, so its clocks tick between events.
    pub as_of_ms: u64,
}

/// Where the clock is: `not_started`, `running`, `paused` or `flagged`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockPhase {
    /// Not yet started.
    NotStarted,
    /// A side's time is running.
    Running,
    /// Stopped by the assistant or the arbiter.
    Paused,
    /// A side's time has run out.
    Flagged,
}

/// A side as its name, or `null`.
fn side_or_null<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => side::serialize(c, s),
        None => s.serialize_none(),
    }
}

/// A tactile board as the table sees it.
#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
    /// The board's driver is connected and reading.
    pub connected: bool,
    /// The board shows what it should (the position, or the position after
    /// the announced move once carried out).
    pub in_sync: bool,
    /// The announced move the blind player is to carry out on the board,
    /// until the board shows it (UCI).
    pub following: Option<UciMove>,
    /// Squares that differ, a1 to h8.
    pub differs: Vec<String>,
    /// What the board should show (FEN placement).
    pub fen: String,
    /// The squares where the board senses a piece now, a1 to h8 (a peg
    /// board senses pegs, not which piece).
    pub occupied: Vec<String>,
    /// What stands on the board, as it senses it (FEN placement), for a
    /// board that tells the pieces (DGT, Millennium); `null` for a peg
    /// board, which senses only `occupied`.
    pub pieces: Option<String>,
    /// A peg-board promotion waiting for its piece.
    pub promotion_pending: bool,
    /// Lines or messages from the board that could not be read.
    pub unreadable: u64,
    /// Attempts to reach the board that failed since it last sent a valid
    /// message (non-zero: the board is failing, tried again with backoff).
    pub failures: u64,
    /// A pinned board (`board_hello`) not followed: `unsaid` until it says
    /// who it is, or the hello it answered with instead of the pinned one.
    /// `null`: followed.
    pub not_followed: Option<String>,
    /// How long the board must be still before it is read, in
    /// milliseconds: the venue's `settle_ms` or its kind's default; 0 for
    /// a peg board whose hello says it debounces itself.
    pub settle_ms: u64,
}

/// How many of the latest touched pieces and illegal attempts the state
/// carries. Every live event carries the whole state, so a record anyone
/// with a token can lengthen is counted beyond this, not copied.
pub const RECORD_SHOWN: usize = 8;

/// The last `n` of `all`.
fn latest<T: Clone>(all: &[T], n: usize) -> Vec<T> {
    all.get(all.len().saturating_sub(n)..)
        .unwrap_or_default()
        .to_vec()
}

/// Something that needs the arbiter's eye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// What it is about.
    pub kind: AlertKind,
    /// The alert in English words, for programs and the log.
    pub text: String,
    /// The pages' message for it: `js-alert-{key}` in every catalogue
    /// (`src/service/pages/locales/*.ftl`), so a German page says it in
    /// German. A test keeps every key in every catalogue.
    pub key: &'static str,
    /// The message's parameters (`side` is `white` or `black`, which a
    /// page names in its own language).
    pub args: BTreeMap<&'static str, String>,
}

impl Alert {
    fn new<const N: usize>(
        kind: AlertKind,
        text: String,
        key: &'static str,
        args: [(&'static str, String); N],
    ) -> Alert {
        // Every key is listed, so the catalogues' test sees it (the tests
        // that raise each alert run debug builds).
        debug_assert!(ALERT_KEYS.contains(&key), "{key} not in ALERT_KEYS");
        Alert {
            kind,
            text,
            key,
            args: args.into_iter().collect(),
        }
    }
}

/// Every [`Alert::key`], for the catalogues' test.
pub const ALERT_KEYS: &[&str] = &[
    "journal-failing",
    "board-disconnected",
    "board-disconnected-retrying",
    "board-differs",
    "promotion-waiting",
    "flag-fell",
    "flag-unrecorded",
    "flag-claimable",
    "illegal-attempts",
    "no-sound",
    "no-sound-failed",
    "draw-offered",
];

/// What an alert is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertKind {
    /// The journal is failing: changes are not being recorded.
    Journal,
    /// The blind player's tactile board is not connected.
    BoardDisconnected,
    /// The tactile board does not show what it should.
    BoardDiffers,
    /// A flag has fallen (recorded, or waiting for a claim).
    Flag,
    /// Illegal move attempts are on the record.
    Illegal,
    /// A draw offer stands.
    DrawOffer,
    /// A tactile board's promotion waits for its piece.
    Promotion,
    /// No sound at the table.
    Audio,
}

/// An announcement on the live stream: what was said, as text and tokens.
#[derive(Debug, Clone, Serialize)]
pub struct Announcement {
    /// Increasing per table: a page can tell a repeat from a new one.
    pub seq: u64,
    /// What it is about: `move`, `clock`, `draw`, `result`, `touched`,
    /// `illegal`, `ruling`, `board`, `repeat`.
    pub kind: NoticeKind,
    /// What was said, as text in the voice pack's language.
    pub text: String,
    /// The voice pack's clip keys, in order: what a page plays.
    pub tokens: Vec<String>,
}

/// One item of a table's live stream.
#[derive(Debug, Clone)]
pub enum LiveEvent {
    Announcement(Announcement),
    State(Box<TableView>),
}

/// What a table's view is made of, borrowed from the table's parts.
pub(super) struct Sources<'a> {
    pub(super) game: &'a JournaledGame,
    pub(super) announcer: &'a Announcer,
    pub(super) boards: &'a Boards,
    /// The table's time now.
    pub(super) now: Duration,
    /// How the table tells clock times.
    pub(super) shown: Shown,
    /// A flag has fallen that the journal failed to record (retrying).
    pub(super) flag_unrecorded: bool,
    pub(super) display: Option<&'a DisplayStatus>,
}

impl TableView {
    /// The table as its parts stand: its setup and game, its clocks read at
    /// the table's time, its boards, what needs the arbiter's eye, and what
    /// it says and how.
    pub(super) fn of(t: Sources<'_>) -> TableView {
        let now = t.now;
        let (setup, game) = (t.game.setup(), t.game.game());
        let pos = game.position();
        let board_view = |b: &LiveBoard| b.view(|m| t.game.uci(m));
        let board = t.boards.of(setup.blind).map(board_view);
        let opponent_board = t.boards.of(!setup.blind).map(board_view);
        let flag = game.clock().flag(now);
        let audio = t.announcer.speaker().audio();
        let alerts = alerts(&t, board.as_ref(), flag, &audio);
        TableView {
            id: setup.id.clone(),
            white: setup.white.clone(),
            black: setup.black.clone(),
            event: setup.event.clone(),
            round: setup.round.clone(),
            game: t.game.number(),
            begun: super::replay::begun(game),
            blind: setup.blind,
            ranks: setup.ranks,
            control: setup.control.clone(),
            fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
            turn: pos.turn(),
            moves: game.sans(),
            moves_uci: game.plies().iter().map(|p| p.uci).collect(),
            legal_moves: legal_moves(t.game),
            clock: ClockView::of(game.clock(), now, flag),
            kind: game.kind(),
            flag_rule: game.flag_rule(),
            clock_says: t.shown,
            illegal_completed: ByColor::new_with(|side| game.completed_illegal(side)),
            board,
            opponent_board,
            result: game.result().cloned(),
            draw_offer: game.draw_offer(),
            touched: latest(game.touched(), RECORD_SHOWN),
            touched_count: game.touched().len(),
            illegal: latest(game.irregularities(), RECORD_SHOWN),
            illegal_count: game.irregularities().len(),
            alerts,
            audio,
            last_announcement: t.announcer.last_said().map(str::to_owned),
            braille: t.display.map(DisplayStatus::get),
            voice_lang: t.announcer.voice().tag().to_owned(),
            rate: t.announcer.voice().speed(),
        }
    }
}

/// The moves a page may offer: none once the game is over.
fn legal_moves(game: &JournaledGame) -> Vec<UciMove> {
    if game.game().result().is_some() {
        return Vec::new();
    }
    game.game()
        .position()
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect()
}

impl ClockView {
    /// Both clocks read at `now`, with the fall `flag` if one fell.
    fn of(clock: &Clock, now: Duration, flag: Option<Flag>) -> ClockView {
        ClockView {
            white_ms: clock.remaining(Color::White, now).as_millis() as u64,
            black_ms: clock.remaining(Color::Black, now).as_millis() as u64,
            running: matches!(clock.state(), ClockState::Running { .. }),
            state: match clock.state() {
                ClockState::NotStarted => ClockPhase::NotStarted,
                ClockState::Running { .. } => ClockPhase::Running,
                ClockState::Paused => ClockPhase::Paused,
                ClockState::Flagged(_) => ClockPhase::Flagged,
            },
            moves: clock.moves_completed(),
            flag: flag.map(|f| f.side),
            running_side: match clock.state() {
                ClockState::Running { .. } => Some(clock.to_move()),
                _ => None,
            },
            as_of_ms: now.as_millis() as u64,
        }
    }
}

/// What needs the arbiter's eye at a table, in the order the pages list
/// it: the journal, the blind player's board, a flag, illegal attempts,
/// the sound, a draw offer.
fn alerts(
    t: &Sources<'_>,
    board: Option<&BoardView>,
    flag: Option<Flag>,
    audio: &AudioView,
) -> Vec<Alert> {
    let game = t.game.game();
    let mut alerts = Vec::new();
    alerts.extend(journal_alert(t.game));
    if let Some(b) = board {
        alerts.extend(board_alerts(b));
    }
    alerts.extend(flag_alert(game.result(), flag, t.flag_unrecorded));
    alerts.extend(illegal_alert(game.irregularities().len()));
    alerts.extend(audio_alert(&t.game.setup().id, audio));
    alerts.extend(game.draw_offer().map(|side| {
        Alert::new(
            AlertKind::DrawOffer,
            format!("draw offered by {}", side::name(side)),
            "draw-offered",
            [("side", side::name(side).to_owned())],
        )
    }));
    alerts
}

/// The journal refuses what the table gives it.
fn journal_alert(game: &JournaledGame) -> Option<Alert> {
    let e = game.journal().failing()?;
    Some(Alert::new(
        AlertKind::Journal,
        format!("journal failing: changes are not being recorded ({e})"),
        "journal-failing",
        [("error", e.to_string())],
    ))
}

/// The blind player's board: disconnected (and how often reaching it
/// failed) or showing other than the game, and a promotion waiting for
/// its piece to be named.
fn board_alerts(b: &BoardView) -> Vec<Alert> {
    let mut alerts = Vec::new();
    if !b.connected {
        alerts.push(match b.failures {
            0 => Alert::new(
                AlertKind::BoardDisconnected,
                "tactile board disconnected".to_owned(),
                "board-disconnected",
                [],
            ),
            n => Alert::new(
                AlertKind::BoardDisconnected,
                format!(
                    "tactile board disconnected: {n} attempts to reach it failed; trying again"
                ),
                "board-disconnected-retrying",
                [("failures", n.to_string())],
            ),
        });
    } else if !b.in_sync {
        let squares = b.differs.join(", ");
        alerts.push(Alert::new(
            AlertKind::BoardDiffers,
            format!("tactile board differs at {squares}"),
            "board-differs",
            [("squares", squares)],
        ));
    }
    if b.promotion_pending {
        alerts.push(Alert::new(
            AlertKind::Promotion,
            "promotion waiting for the piece to be named".into(),
            "promotion-waiting",
            [],
        ));
    }
    alerts
}

/// A flag: fallen and recorded as the result, fallen but not recorded
/// (the journal is failing), or fallen and waiting for a claim (6.8).
fn flag_alert(result: Option<&GameResult>, flag: Option<Flag>, unrecorded: bool) -> Option<Alert> {
    match (result, flag) {
        (Some(r), _) if r.ending == Ending::FlagFell => Some(Alert::new(
            AlertKind::Flag,
            format!("flag fell: {}", r.score()),
            "flag-fell",
            [("result", r.score())],
        )),
        (None, Some(f)) if unrecorded => Some(Alert::new(
            AlertKind::Flag,
            format!(
                "{}'s time is up: the flag has fallen, not yet recorded (the journal is failing)",
                side::name(f.side)
            ),
            "flag-unrecorded",
            [("side", side::name(f.side).to_owned())],
        )),
        (None, Some(f)) => Some(Alert::new(
            AlertKind::Flag,
            format!(
                "{}'s time is up: the flag has fallen once claimed (6.8)",
                side::name(f.side)
            ),
            "flag-claimable",
            [("side", side::name(f.side).to_owned())],
        )),
        _ => None,
    }
}

/// Illegal moves attempted, counted.
fn illegal_alert(count: usize) -> Option<Alert> {
    (count > 0).then(|| {
        Alert::new(
            AlertKind::Illegal,
            format!("{count} illegal move attempt(s)"),
            "illegal-attempts",
            [("count", count.to_string())],
        )
    })
}

/// No sound at table `id`, with the output's error if it gave one.
fn audio_alert(id: &TableId, audio: &AudioView) -> Option<Alert> {
    if !audio.is_down() {
        return None;
    }
    let table = id.to_string();
    Some(match audio.error.as_deref() {
        Some(error) => Alert::new(
            AlertKind::Audio,
            format!("no sound at table {table}: {error}"),
            "no-sound",
            [("table", table.clone()), ("error", error.to_owned())],
        ),
        None => Alert::new(
            AlertKind::Audio,
            format!("no sound at table {table}: the sound output failed"),
            "no-sound-failed",
            [("table", table.clone())],
        ),
    })
}
