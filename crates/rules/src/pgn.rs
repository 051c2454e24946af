//! Game records: PGN out and in, and the plain two-column scoresheet text.
//!
//! This is tactus's one PGN reader: `tactus say pgn`, `tactus voices stats`
//! and anything that imports a game read PGN here. It reads PGN as the
//! world writes it (ChessBase, lichess, cutechess, engines' tools), with
//! pgn-reader for the syntax and shakmaty for the moves:
//! - a byte-order mark, CR/LF line ends, comments, variations, NAGs and
//!   move marks (`!?`), escape lines (`%`);
//! - moves in SAN, in SAN with a promotion written without `=` (`e8Q`), or
//!   in coordinates (`g1f3`, `e7e8q`, castling `e1g1` or king onto rook);
//! - several games in one file ([`read_games`]);
//! - `[SetUp "1"]`/`[FEN]` starts, and Chess960 (`[Variant "Chess960"]`,
//!   `fischerandom`, …) with X-FEN or Shredder-FEN castling rights;
//! - a variant the Laws do not cover (crazyhouse, antichess, …) is refused
//!   by name ([`PgnError::Variant`]);
//! - a null move (`--`, `Z0`, `0000`, `@@@@`) ends what is read of the game:
//!   Appendix D has no null move and the moves after one never stood on a
//!   board, so the record keeps the moves before it and says where it
//!   stopped ([`GameRecord::null_move`]);
//! - a token in the main line that is no move (`Qxe9`) is an error naming
//!   its ply, never skipped.
//!
//! What a record holds and how it is written:
//! - tags, in order (the Seven Tag Roster first; `Result`, `TimeControl`,
//!   `Variant`, `SetUp` and `FEN` are kept as typed fields, not as tags);
//! - `TimeControl` as the PGN standard writes it (`40/5400+30:1800+30`),
//!   typed as the clock's [`TimeControl`]; `?` and `-` (unknown, untimed)
//!   and controls the clock does not run (`10+0.05`) stay plain tags;
//! - the remaining clock time after every move as `{[%clk h:mm:ss]}`, with
//!   milliseconds when there are any (`[%clk 0:00:04.25]`);
//! - draw offers as `(=)` in the comment of the move they were made with,
//!   the mark FIDE scoresheets use (Article 9.1.2.2); reading also accepts
//!   `[%draw offer]`;
//! - the result, in the movetext and the `Result` tag.
//!
//! Writing and reading back gives the same record (see the tests).

use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;
use std::time::Duration;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position};

use super::notation::Lang;
use super::time_control::TimeControl;
use super::variant::{NotUnderTheLaws, Variant};

/// One move of a record.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::pgn::read_pgn;
///
/// let r = read_pgn("1. e4 {[%clk 1:29:58]} e5 {(=)} *").unwrap();
/// assert_eq!(r.moves[0].clock, Some(Duration::from_secs(5398)));
/// assert!(!r.moves[0].draw_offer && r.moves[1].draw_offer);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move, legal in the position before it.
    pub m: Move,
    /// The mover's remaining time after the move (milliseconds kept).
    pub clock: Option<Duration>,
    /// Whether a draw was offered with this move.
    pub draw_offer: bool,
}

/// A game as recorded.
///
/// # Examples
///
/// ```
/// use shakmaty::{KnownOutcome, Outcome};
/// use tactus_rules::pgn::read_pgn;
/// use tactus_rules::variant::Variant;
///
/// let pgn = r#"[Event "Club"]
/// [White "Anna"]
/// [Black "Bert"]
/// [Result "1/2-1/2"]
/// [TimeControl "5400+30"]
///
/// 1. d4 d5 1/2-1/2"#;
/// let r = read_pgn(pgn).unwrap();
/// assert_eq!(r.tag("White"), Some("Anna"));
/// assert_eq!(r.time_control.unwrap().to_string(), "90+30");
/// assert_eq!((r.variant, r.moves.len()), (Variant::Standard, 2));
/// assert_eq!(r.result, Outcome::Known(KnownOutcome::Draw));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags other than `Result`, `TimeControl`, `Variant`, `SetUp` and
    /// `FEN`, in order.
    pub tags: Vec<(String, String)>,
    /// The `TimeControl` tag, when it names a control the clock can run.
    pub time_control: Option<TimeControl>,
    /// Standard chess or Chess960.
    pub variant: Variant,
    /// The start position when not the variant's initial one.
    pub start: Option<Fen>,
    /// The main line's moves, from the start position.
    pub moves: Vec<RecordedMove>,
    /// The ply of a null move the record stops at (`moves` holds the plies
    /// before it; what the movetext has after it is not read).
    pub null_move: Option<usize>,
    /// The result (`*` is [`Outcome::Unknown`]).
    pub result: Outcome,
}

/// Why a PGN could not be read as a game record.
///
/// # Examples
///
/// ```
/// use tactus_rules::pgn::{PgnError, read_pgn};
///
/// assert_eq!(read_pgn(""), Err(PgnError::Empty));
/// let err = read_pgn("1. e4 e5 2. Qxe9 *").unwrap_err();
/// assert_eq!(err, PgnError::NotAMove { ply: 3, token: "Qxe9".into() });
/// assert!(matches!(read_pgn("1. e4 e4 *"), Err(PgnError::Illegal { ply: 2, .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The text holds no game.
    #[error("no game in the PGN")]
    Empty,
    /// The PGN's syntax broke off (an unterminated tag); pgn-reader's
    /// message.
    #[error("cannot read the PGN: {0}")]
    Io(String),
    /// The `FEN` tag is no position: the tag and the reason.
    #[error("bad FEN tag `{0}`: {1}")]
    Fen(String, String),
    /// A main-line move is not legal in its position.
    #[error("ply {ply} (`{san}`): {reason}")]
    Illegal {
        /// Which half-move, 1 for the first.
        ply: usize,
        /// The move as written.
        san: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// A main-line token is no move at all.
    #[error("ply {ply} (`{token}`): not a move")]
    NotAMove {
        /// Which half-move, 1 for the first.
        ply: usize,
        /// The token as written.
        token: String,
    },
    /// The `Variant` tag names a game the Laws do not cover.
    #[error(
        "variant `{0}` is not a game under the FIDE Laws and Appendix D: \
         tactus reads standard chess and Chess960 only"
    )]
    Variant(String),
    /// A clock time that is not `h:mm:ss` (see [`parse_clock`]).
    #[error("bad clock `{0}`")]
    Clock(String),
}

const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

impl GameRecord {
    /// An empty game from the standard position with the Seven Tag Roster
    /// filled with PGN's unknown values.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::pgn::GameRecord;
    ///
    /// let r = GameRecord::new();
    /// assert_eq!(r.tag("Date"), Some("????.??.??"));
    /// assert!(r.to_pgn().unwrap().ends_with("*\n\n"));
    /// ```
    pub fn new() -> GameRecord {
        GameRecord {
            tags: ROSTER
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            time_control: None,
            variant: Variant::Standard,
            start: None,
            moves: Vec::new(),
            null_move: None,
            result: Outcome::Unknown,
        }
    }

    /// The value of tag `name`, if set.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::pgn::read_pgn;
    ///
    /// let r = read_pgn("[Round \"3\"]\n\n1. e4 *").unwrap();
    /// assert_eq!(r.tag("Round"), Some("3"));
    /// assert_eq!(r.tag("Annotator"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position (castling as the variant has it).
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, Position};
    /// use tactus_rules::pgn::read_pgn;
    ///
    /// let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 *";
    /// let start = read_pgn(pgn).unwrap().start_position().unwrap();
    /// assert_eq!(start.turn(), Color::Black);
    /// ```
    pub fn start_position(&self) -> Result<Chess, PgnError> {
        match &self.start {
            None => Ok(self.variant.initial()),
            Some(fen) => fen
                .clone()
                .into_position(self.variant.castling_mode())
                .map_err(|e| PgnError::Fen(fen.to_string(), e.to_string())),
        }
    }

    /// Every tag as the PGN is written: the record's tags in order with
    /// `Result` after `Black`, then `TimeControl`, `Variant`, `SetUp` and
    /// `FEN` where they apply.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::pgn::GameRecord;
    ///
    /// let mut r = GameRecord::new();
    /// r.time_control = Some("3+2".parse().unwrap());
    /// let names: Vec<String> = r.all_tags().into_iter().map(|(k, _)| k).collect();
    /// assert_eq!(names, ["Event", "Site", "Date", "Round", "White", "Black", "Result", "TimeControl"]);
    /// ```
    pub fn all_tags(&self) -> Vec<(String, String)> {
        let mut out = Vec::with_capacity(self.tags.len() + 5);
        let mut push = |k: &str, v: &str| out.push((k.to_owned(), v.to_owned()));
        for (k, v) in &self.tags {
            push(k, v);
            if k == "Black" {
                push("Result", outcome_str(self.result));
            }
        }
        if self.tag("Black").is_none() {
            push("Result", outcome_str(self.result));
        }
        if let Some(tc) = &self.time_control {
            push("TimeControl", &tc.to_pgn());
        }
        if let Some(variant) = self.variant.tag() {
            push("Variant", variant);
        }
        if let Some(fen) = &self.start {
            push("SetUp", "1");
            push("FEN", &fen.to_string());
        }
        out
    }

    /// The record as PGN (lines of at most 80 characters).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::pgn::read_pgn;
    ///
    /// let r = read_pgn("1. e4 {[%clk 0:04:58]} e5 {[%clk 0:04:57]} 2. Qh5 {(=)} 1-0").unwrap();
    /// let pgn = r.to_pgn().unwrap();
    /// assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    /// assert!(pgn.contains("1. e4 {[%clk 0:04:58]} 1... e5 {[%clk 0:04:57]} 2. Qh5 {(=)} 1-0"));
    /// assert_eq!(read_pgn(&pgn).unwrap(), r); // written and read back: the same record
    /// ```
    pub fn to_pgn(&self) -> Result<String, PgnError> {
        let mut out = String::new();
        for (k, v) in self.all_tags() {
            let v = tag_value(&v).replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{k} \"{v}\"]");
        }
        out.push('\n');

        let mut pos = self.start_position()?;
        let mut words: Vec<String> = Vec::new();
        let mut need_number = true;
        for (i, rm) in self.moves.iter().enumerate() {
            if !pos.is_legal(rm.m) {
                return Err(PgnError::Illegal {
                    ply: i + 1,
                    san: format!("{:?}", rm.m),
                    reason: "not legal in the position".into(),
                });
            }
            let number = pos.fullmoves();
            if pos.turn() == Color::White {
                words.push(format!("{number}."));
            } else if need_number {
                words.push(format!("{number}..."));
            }
            words.push(SanPlus::from_move_and_play_unchecked(&mut pos, rm.m).to_string());
            let mut comment = Vec::new();
            if let Some(c) = rm.clock {
                comment.push(format!("[%clk {}]", format_clock(c)));
            }
            if rm.draw_offer {
                comment.push("(=)".to_string());
            }
            need_number = !comment.is_empty();
            if !comment.is_empty() {
                words.push(format!("{{{}}}", comment.join(" ")));
            }
        }
        if self.null_move.is_some() {
            if pos.turn() == Color::White {
                words.push(format!("{}.", pos.fullmoves()));
            } else if need_number {
                words.push(format!("{}...", pos.fullmoves()));
            }
            words.push("--".into());
        }
        words.push(outcome_str(self.result).to_string());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        Ok(out)
    }

    /// The plain scoresheet: numbered, White's and Black's moves in two
    /// columns, in `lang`'s piece letters ([`Lang::Auto`]: English), `(=)`
    /// after a move a draw was offered with, the result last. The sheet
    /// reader reads it back in the same language.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Chess;
    /// use tactus_rules::language::Language;
    /// use tactus_rules::pgn::read_pgn;
    /// use tactus_rules::notation::Lang;
    /// use tactus_rules::sheet::read_sheet;
    ///
    /// let r = read_pgn("1. e4 e5 2. Nf3 Nc6 1/2-1/2").unwrap();
    /// let text = r.to_sheet_text(Lang::Of(Language::De)).unwrap();
    /// assert!(text.starts_with("  1. e4"), "{text}");
    /// assert!(text.contains("Sf3"), "{text}");
    /// assert_eq!(read_sheet(&Chess::default(), &text, Lang::Of(Language::De)).moves.len(), 4);
    /// ```
    pub fn to_sheet_text(&self, lang: Lang) -> Result<String, PgnError> {
        let mut pos = self.start_position()?;
        let mut out = String::new();
        for (i, rm) in self.moves.iter().enumerate() {
            if !pos.is_legal(rm.m) {
                return Err(PgnError::Illegal {
                    ply: i + 1,
                    san: format!("{:?}", rm.m),
                    reason: "not legal in the position".into(),
                });
            }
            let white = pos.turn() == Color::White;
            let number = pos.fullmoves();
            let mut san = letters(
                &SanPlus::from_move_and_play_unchecked(&mut pos, rm.m).to_string(),
                lang,
            );
            if rm.draw_offer {
                san.push_str(" (=)");
            }
            if white {
                let _ = write!(out, "{:>3}. {san:<14}", number);
            } else {
                if i == 0 {
                    let _ = write!(out, "{:>3}. {:<14}", number, "...");
                }
                let _ = writeln!(out, "{san}");
            }
        }
        if pos.turn() == Color::Black && !self.moves.is_empty() {
            out = out.trim_end().to_string();
            out.push('\n');
        }
        let _ = writeln!(out, "{}", outcome_str(self.result));
        Ok(out)
    }
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::new()
    }
}

/// SAN with the piece letters of `lang` (SAN's only upper-case letters
/// besides castling's `O` are piece letters).
fn letters(san: &str, lang: Lang) -> String {
    san.chars()
        .map(|c| {
            shakmaty::Role::from_char(c.to_ascii_lowercase())
                .filter(|_| c.is_ascii_uppercase())
                .and_then(|role| lang.letter(role))
                .unwrap_or(c)
        })
        .collect()
}

fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::Known(KnownOutcome::Decisive {
            winner: Color::White,
        }) => "1-0",
        Outcome::Known(KnownOutcome::Decisive {
            winner: Color::Black,
        }) => "0-1",
        Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
        Outcome::Unknown => "*",
    }
}

/// `h:mm:ss`, with up to three decimals when the time has milliseconds.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::pgn::format_clock;
///
/// assert_eq!(format_clock(Duration::from_secs(5400)), "1:30:00");
/// assert_eq!(format_clock(Duration::from_millis(4250)), "0:00:04.25");
/// ```
pub fn format_clock(d: Duration) -> String {
    let s = d.as_secs();
    let mut out = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    let ms = d.subsec_millis();
    if ms > 0 {
        let frac = format!("{ms:03}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

/// Reads `h:mm:ss`, `h:mm:ss.f` (up to three decimals) or `mm:ss`.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::pgn::parse_clock;
///
/// assert_eq!(parse_clock("1:30:00"), Ok(Duration::from_secs(5400)));
/// assert_eq!(parse_clock("4:59.5"), Ok(Duration::from_millis(299_500)));
/// assert!(parse_clock("0:61:00").is_err());
/// ```
pub fn parse_clock(s: &str) -> Result<Duration, PgnError> {
    let bad = || PgnError::Clock(s.to_string());
    let parts: Vec<&str> = s.trim().split(':').collect();
    let (h, m, sec) = match parts.as_slice() {
        [h, m, sec] => (h.parse::<u64>().map_err(|_| bad())?, *m, *sec),
        [m, sec] => (0, *m, *sec),
        _ => return Err(bad()),
    };
    let m: u64 = m.parse().map_err(|_| bad())?;
    let (whole, frac) = sec.split_once('.').unwrap_or((sec, ""));
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    if m >= 60 || whole >= 60 || frac.len() > 3 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let ms: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    let secs = h
        .checked_mul(3600)
        .and_then(|x| x.checked_add(m * 60 + whole))
        .ok_or_else(bad)?;
    Ok(Duration::from_secs(secs) + Duration::from_millis(ms))
}

/// A tag value as PGN can hold it: on one line, without control
/// characters (each becomes a space). Applied when reading and when writing,
/// so a value read (pgn-reader lets `\` carry it over a line break) is
/// written as it reads back.
fn tag_value(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Reads the first game of `pgn`.
///
/// # Examples
///
/// ```
/// use tactus_rules::pgn::read_pgn;
///
/// // Comments, variations, NAGs and a promotion without `=` are all read.
/// let r = read_pgn("1. e4 {best by test} (1. d4) e5 $1 2. Nf3 *").unwrap();
/// assert_eq!(r.moves.len(), 3);
/// ```
pub fn read_pgn(pgn: &str) -> Result<GameRecord, PgnError> {
    read_games(pgn.as_bytes())
        .into_iter()
        .next()
        .unwrap_or(Err(PgnError::Empty))
}

/// Reads every game of `pgn`, in order: each game's record or why that game
/// cannot be read (a game that cannot be read does not stop the next one).
/// After an error in the PGN's syntax (an unterminated tag) nothing more is
/// read. No games: an empty list.
///
/// # Examples
///
/// ```
/// use tactus_rules::pgn::read_games;
///
/// let games = read_games(b"1. e4 e5 1-0\n\n1. e4 e4 *\n\n1. d4 0-1\n");
/// assert_eq!(games.len(), 3);
/// assert!(games[0].is_ok() && games[1].is_err() && games[2].is_ok());
/// assert!(read_games(b"").is_empty());
/// ```
pub fn read_games(pgn: &[u8]) -> Vec<Result<GameRecord, PgnError>> {
    let prepared = prepare(pgn);
    let mut reader = Reader::new(io::Cursor::new(prepared.as_slice()));
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut RecordVisitor) {
            Ok(Some(r)) => games.push(r),
            Ok(None) => break,
            Err(e) => {
                games.push(Err(PgnError::Io(e.to_string())));
                break;
            }
        }
    }
    games
}

/// Starts the comment that stands, in the prepared text, where a main-line
/// token was that is no move; the token follows. A control character no
/// comment of the input keeps (see [`prepare`]).
const NOT_A_MOVE: u8 = 0x01;

/// The bytes pgn-reader ends a token at.
fn is_token_end(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

/// The input as pgn-reader reads it, with what it would pass over without
/// a word made explicit, and the move forms it does not know rewritten:
/// - a byte-order mark at the start of any line is dropped;
/// - null moves `0000` and `@@@@` become `--` (pgn-reader reads `--` and
///   `Z0`);
/// - a promotion without `=` (`e8Q`, `e7e8q`) gets one;
/// - a main-line token that starts like a move but is none (`Qxe9`,
///   `Sf3`) becomes a comment of our own ([`NOT_A_MOVE`]), so that the
///   visitor meets it at its ply instead of pgn-reader skipping it.
///
/// Tag lines, comments, `;` and `%` lines and variations are copied as
/// they are (a variation is never announced), except that the marker byte
/// in a comment becomes a space.
fn prepare(pgn: &[u8]) -> Vec<u8> {
    let mut p = Preparer {
        out: Vec::with_capacity(pgn.len() + 64),
        rest: pgn,
        depth: 0,
        line_start: true,
    };
    while let Some(&c) = p.rest.first() {
        if p.line_start {
            p.line_start = false;
            p.start_line();
        } else {
            p.movetext(c);
        }
    }
    p.out
}

/// [`prepare`] under way: the text prepared so far, the input left, how
/// deep in variations it is and whether a line starts here.
struct Preparer<'a> {
    out: Vec<u8>,
    rest: &'a [u8],
    depth: usize,
    line_start: bool,
}

impl Preparer<'_> {
    /// Copies the rest of the line, up to its newline.
    fn copy_line(&mut self) {
        let rest = self.rest;
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.out.extend_from_slice(&rest[..end]);
        self.rest = &rest[end..];
    }

    /// At a line's start: drops byte-order marks and copies a tag or `%`
    /// line whole.
    fn start_line(&mut self) {
        while let Some(r) = self.rest.strip_prefix(b"\xef\xbb\xbf".as_slice()) {
            self.rest = r;
        }
        let first = self
            .rest
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .copied();
        match first {
            // A blank line ends a game's movetext, and a tag line starts
            // the next game: a variation left open ends there.
            None | Some(b'\n') => self.depth = 0,
            Some(b'[') => {
                self.depth = 0;
                self.copy_line();
            }
            Some(b'%') => self.copy_line(),
            _ => {}
        }
    }

    /// Within a line of movetext, at byte `c`: one newline, comment,
    /// variation bracket, token end or token.
    fn movetext(&mut self, c: u8) {
        match c {
            b'\n' => {
                self.push(c);
                self.line_start = true;
            }
            b'{' => self.comment(),
            b';' => self.copy_line(),
            b'(' | b')' => {
                self.depth = if c == b'(' {
                    self.depth + 1
                } else {
                    self.depth.saturating_sub(1)
                };
                self.push(c);
            }
            _ if is_token_end(c) || c == b'}' => self.push(c),
            _ => self.token(),
        }
    }

    /// Copies the byte `c` the input starts with.
    fn push(&mut self, c: u8) {
        self.out.push(c);
        self.rest = &self.rest[1..];
    }

    /// Copies a `{…}` comment, the marker byte in it made a space.
    fn comment(&mut self) {
        let rest = self.rest;
        let end = rest
            .iter()
            .position(|&b| b == b'}')
            .map_or(rest.len(), |i| i + 1);
        self.out.extend(
            rest[..end]
                .iter()
                .map(|&b| if b == NOT_A_MOVE { b' ' } else { b }),
        );
        self.rest = &rest[end..];
    }

    /// One token: copied in a variation, rewritten on the main line.
    fn token(&mut self) {
        let rest = self.rest;
        // "e.p." after an en passant capture is a remark.
        let end = if rest.starts_with(b"e.p.") {
            4
        } else {
            rest.iter()
                .position(|&b| is_token_end(b))
                .unwrap_or(rest.len())
        };
        let token = &rest[..end];
        self.rest = &rest[end..];
        if self.depth > 0 || token == b"e.p." {
            self.out.extend_from_slice(token);
        } else {
            main_line_token(token, &mut self.out);
        }
    }
}

/// One main-line token (no token-end byte in it) into the prepared text.
fn main_line_token(token: &[u8], out: &mut Vec<u8>) {
    // Null moves pgn-reader does not read as such.
    let (core, suffix) = split_suffix(token);
    if core == b"0000" || core == b"@@@@" {
        out.extend_from_slice(b"--");
        out.extend_from_slice(suffix);
        return;
    }
    // Results, castling with zeros and move numbers are pgn-reader's; a
    // move glued to its number ("12e4") is read after the digits.
    let body = match token.first() {
        Some(b'0'..=b'9') => {
            if token.contains(&b'-') || token.contains(&b'/') {
                out.extend_from_slice(token);
                return;
            }
            let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
            out.extend_from_slice(&token[..digits]);
            &token[digits..]
        }
        _ => token,
    };
    if body.is_empty() || SanPlus::from_ascii(body).is_ok() {
        out.extend_from_slice(body);
        return;
    }
    // A promotion written without `=`: `e8Q`, `exd8N+`, `e7e8q`.
    let (core, suffix) = split_suffix(body);
    if let [head @ .., b'1' | b'8', piece] = core
        && b"QRBNqrbn".contains(piece)
    {
        let mut fixed = head.to_vec();
        fixed.push(core[core.len() - 2]);
        fixed.push(b'=');
        fixed.push(*piece);
        fixed.extend_from_slice(suffix);
        if SanPlus::from_ascii(&fixed).is_ok() {
            out.extend_from_slice(&fixed);
            return;
        }
    }
    if body[0].is_ascii_alphabetic() || body[0] == b'@' {
        out.extend_from_slice(b"{\x01");
        out.extend_from_slice(body);
        out.push(b'}');
    } else {
        // Evaluation marks (`+-`, `=`, `±`) and the like: no move meant.
        out.extend_from_slice(body);
    }
}

/// A token and its check or mate mark.
fn split_suffix(token: &[u8]) -> (&[u8], &[u8]) {
    match token {
        [core @ .., b'+' | b'#'] => (core, &token[core.len()..]),
        _ => (token, &[]),
    }
}

struct RecordVisitor;

struct Movetext {
    record: GameRecord,
    pos: Chess,
    tag_result: Option<Outcome>,
    outcome_seen: bool,
}

impl Movetext {
    /// The record as read so far, with the result from the movetext or
    /// else from the `Result` tag.
    fn finish(self) -> GameRecord {
        let mut record = self.record;
        if !self.outcome_seen
            && let Some(r) = self.tag_result
        {
            record.result = r;
        }
        record
    }
}

/// The move `san` stands for in `pos`: SAN, or a move written in
/// coordinates (`g1f3`, `e1g1`, `e1h1`), which reads as a pawn move from
/// the first square in SAN's grammar (as in python-chess, a fully given
/// origin and target square read as that move, whatever the piece).
fn to_move(pos: &Chess, san: San) -> Result<Move, SanError> {
    let err = match san.to_move(pos) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    if let San::Normal {
        role: shakmaty::Role::Pawn,
        file: Some(file),
        rank: Some(rank),
        capture: false,
        to,
        promotion,
    } = san
    {
        let uci = UciMove::Normal {
            from: shakmaty::Square::from_coords(file, rank),
            to,
            promotion,
        };
        if let Ok(m) = uci.to_move(pos) {
            return Ok(m);
        }
    }
    Err(err)
}

impl Visitor for RecordVisitor {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext;
    type Output = Result<GameRecord, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            tag_value(&value.decode_utf8_lossy()),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let mut record = GameRecord {
            tags: Vec::new(),
            ..GameRecord::new()
        };
        let mut tag_result = None;
        // The variant first: it says how the FEN's castling rights read.
        if let Some((_, v)) = tags.iter().find(|(k, _)| k == "Variant") {
            match Variant::from_tag(v) {
                Ok(variant) => record.variant = variant,
                Err(NotUnderTheLaws(name)) => {
                    return ControlFlow::Break(Err(PgnError::Variant(name)));
                }
            }
        }
        for (k, v) in tags {
            match k.as_str() {
                "Result" => tag_result = v.parse::<Outcome>().ok(),
                "SetUp" | "Variant" => {}
                "TimeControl" => match TimeControl::from_pgn(&v) {
                    Ok(tc) => record.time_control = Some(tc),
                    // Unknown, untimed, or a control tactus's clock does not
                    // run (cutechess's `10+0.05`): kept as written, since
                    // what the game's moves were does not depend on it.
                    Err(_) => record.tags.push((k, v)),
                },
                "FEN" => match v.trim().parse::<Fen>() {
                    Ok(fen) => record.start = Some(fen),
                    Err(e) => return ControlFlow::Break(Err(PgnError::Fen(v, e.to_string()))),
                },
                _ => record.tags.push((k, v)),
            }
        }
        let pos = match record.start_position() {
            Ok(p) => p,
            Err(e) => return ControlFlow::Break(Err(e)),
        };
        ControlFlow::Continue(Movetext {
            record,
            pos,
            tag_result,
            outcome_seen: false,
        })
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let ply = mt.record.moves.len() + 1;
        if san_plus.san == San::Null {
            mt.record.null_move = Some(ply);
            let record = std::mem::take(&mut mt.record);
            let rest = Movetext {
                record,
                pos: Chess::default(),
                tag_result: mt.tag_result,
                outcome_seen: false,
            };
            return ControlFlow::Break(Ok(rest.finish()));
        }
        match to_move(&mt.pos, san_plus.san) {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                mt.record.moves.push(RecordedMove {
                    m,
                    clock: None,
                    draw_offer: false,
                });
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(PgnError::Illegal {
                ply,
                san: san_plus.to_string(),
                reason: match e {
                    SanError::AmbiguousSan => "ambiguous in the position",
                    _ => "not a legal move in the position",
                }
                .into(),
            })),
        }
    }

    fn comment(
        &mut self,
        mt: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if let Some(token) = comment.as_bytes().strip_prefix(&[NOT_A_MOVE]) {
            return ControlFlow::Break(Err(PgnError::NotAMove {
                ply: mt.record.moves.len() + 1,
                token: String::from_utf8_lossy(token).into_owned(),
            }));
        }
        let text = String::from_utf8_lossy(comment.as_bytes());
        let Some(last) = mt.record.moves.last_mut() else {
            return ControlFlow::Continue(()); // A comment before the first move.
        };
        if let Some(i) = text.find("[%clk") {
            let rest = text.get(i + 5..).unwrap_or("");
            let value = rest.split(']').next().unwrap_or("").trim();
            match parse_clock(value) {
                Ok(c) => last.clock = Some(c),
                Err(e) => return ControlFlow::Break(Err(e)),
            }
        }
        if text.contains("(=)") || text.contains("[%draw offer]") {
            last.draw_offer = true;
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, mt: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        mt.record.result = outcome;
        mt.outcome_seen = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        Ok(mt.finish())
    }
}

/// The FEN of a position, for records that start elsewhere.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::pgn::fen_of;
///
/// assert_eq!(fen_of(&Chess::default()).to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// ```
pub fn fen_of(pos: &Chess) -> Fen {
    Fen::from_position(pos, EnPassantMode::Legal)
}

#[cfg(test)]
mod tests;
