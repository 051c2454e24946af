//! Game records: PGN out and in (pgn-reader for reading), and the plain
//! two-column scoresheet text.
//!
//! What a record holds and how it is written:
//! - tags, in order (the Seven Tag Roster first; `Result`, `TimeControl`,
//!   `SetUp` and `FEN` are kept as typed fields, not as tags);
//! - `TimeControl` as the PGN standard writes it (`40/5400+30:1800+30`),
//!   typed as the clock's [`TimeControl`]; `?` and `-` (unknown, untimed)
//!   stay plain tags;
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
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position};

use super::sheet::Lang;
use super::time_control::{TimeControl, TimeControlError};

/// One move of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedMove {
    pub m: Move,
    /// The mover's remaining time after the move (milliseconds kept).
    pub clock: Option<Duration>,
    /// Whether a draw was offered with this move.
    pub draw_offer: bool,
}

/// A game as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags other than `Result`, `TimeControl`, `SetUp` and `FEN`, in order.
    pub tags: Vec<(String, String)>,
    pub time_control: Option<TimeControl>,
    /// The start position when not the standard one.
    pub start: Option<Fen>,
    pub moves: Vec<RecordedMove>,
    pub result: Outcome,
}

/// Why a PGN could not be read as a game record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("no game in the PGN")]
    Empty,
    #[error("cannot read the PGN: {0}")]
    Io(String),
    #[error("bad FEN tag `{0}`")]
    Fen(String),
    #[error("bad TimeControl `{0}`")]
    TimeControl(String),
    #[error("move {ply} `{san}` is not legal")]
    Illegal { ply: usize, san: String },
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
    pub fn new() -> GameRecord {
        GameRecord {
            tags: ROSTER
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            time_control: None,
            start: None,
            moves: Vec::new(),
            result: Outcome::Unknown,
        }
    }

    /// The value of tag `name`, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position.
    pub fn start_position(&self) -> Result<Chess, PgnError> {
        match &self.start {
            None => Ok(Chess::default()),
            Some(fen) => fen
                .clone()
                .into_position(CastlingMode::Standard)
                .map_err(|_| PgnError::Fen(fen.to_string())),
        }
    }

    /// The record as PGN (lines of at most 80 characters).
    pub fn to_pgn(&self) -> Result<String, PgnError> {
        let mut out = String::new();
        let tag = |out: &mut String, k: &str, v: &str| {
            let v = tag_value(v).replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{k} \"{v}\"]");
        };
        for (k, v) in &self.tags {
            tag(&mut out, k, v);
            if k == "Black" {
                tag(&mut out, "Result", outcome_str(self.result));
            }
        }
        if self.tag("Black").is_none() {
            tag(&mut out, "Result", outcome_str(self.result));
        }
        if let Some(tc) = &self.time_control {
            tag(&mut out, "TimeControl", &tc.to_pgn());
        }
        if let Some(fen) = &self.start {
            tag(&mut out, "SetUp", "1");
            tag(&mut out, "FEN", &fen.to_string());
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
    pub fn to_sheet_text(&self, lang: Lang) -> Result<String, PgnError> {
        let mut pos = self.start_position()?;
        let mut out = String::new();
        for (i, rm) in self.moves.iter().enumerate() {
            if !pos.is_legal(rm.m) {
                return Err(PgnError::Illegal {
                    ply: i + 1,
                    san: format!("{:?}", rm.m),
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
pub fn read_pgn(pgn: &str) -> Result<GameRecord, PgnError> {
    let mut reader = Reader::new(io::Cursor::new(pgn.as_bytes()));
    match reader.read_game(&mut RecordVisitor) {
        Ok(Some(r)) => r,
        Ok(None) => Err(PgnError::Empty),
        Err(e) => Err(PgnError::Io(e.to_string())),
    }
}

struct RecordVisitor;

struct Movetext {
    record: GameRecord,
    pos: Chess,
    tag_result: Option<Outcome>,
    outcome_seen: bool,
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
        for (k, v) in tags {
            match k.as_str() {
                "Result" => tag_result = v.parse::<Outcome>().ok(),
                "SetUp" => {}
                "TimeControl" => match TimeControl::from_pgn(&v) {
                    Ok(tc) => record.time_control = Some(tc),
                    // Unknown or untimed: no control to type, kept as written.
                    Err(TimeControlError::PgnUnsupported(..)) => record.tags.push((k, v)),
                    Err(_) => return ControlFlow::Break(Err(PgnError::TimeControl(v))),
                },
                "FEN" => match v.parse::<Fen>() {
                    Ok(fen) => record.start = Some(fen),
                    Err(_) => return ControlFlow::Break(Err(PgnError::Fen(v))),
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
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                mt.record.moves.push(RecordedMove {
                    m,
                    clock: None,
                    draw_offer: false,
                });
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(Err(PgnError::Illegal {
                ply: mt.record.moves.len() + 1,
                san: san_plus.to_string(),
            })),
        }
    }

    fn comment(
        &mut self,
        mt: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
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
        let mut record = mt.record;
        if !mt.outcome_seen
            && let Some(r) = mt.tag_result
        {
            record.result = r;
        }
        Ok(record)
    }
}

/// The FEN of a position, for records that start elsewhere.
pub fn fen_of(pos: &Chess) -> Fen {
    Fen::from_position(pos, EnPassantMode::Legal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::sheet::read_sheet;
    use proptest::prelude::*;

    /// A legal game from `start` chosen by `picks` (each pick indexes the
    /// legal moves), ending early only at mate or stalemate.
    fn game(start: &Chess, picks: &[usize]) -> Vec<Move> {
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for &p in picks {
            let legal = pos.legal_moves();
            let Some(&m) = legal.get(p % legal.len().max(1)) else {
                break;
            };
            pos.play_unchecked(m);
            moves.push(m);
        }
        moves
    }

    fn record(moves: &[Move], clocks: &[u64], offers: &[bool], result: u8) -> GameRecord {
        let mut r = GameRecord::new();
        r.tags
            .push(("Annotator".into(), "tactus \"D.2.9\" \\ test".into()));
        r.time_control = Some(TimeControl::from_pgn("40/5400+30:1800+30").unwrap());
        r.moves = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| RecordedMove {
                m,
                clock: clocks.get(i).map(|&ms| Duration::from_millis(ms)),
                draw_offer: offers.get(i).copied().unwrap_or(false),
            })
            .collect();
        r.result = match result % 4 {
            0 => Outcome::Unknown,
            1 => Outcome::Known(KnownOutcome::Draw),
            2 => Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }),
            _ => Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }),
        };
        r
    }

    /// Found by the `pgn` fuzz target: a tag value carried over a line
    /// break by a backslash was read with the line break in it and written
    /// back as two broken tags.
    #[test]
    fn tag_values_with_line_breaks_round_trip() {
        let text = "[Event \"E\"]\n[Date \"??\\\n[Black \"?\"]\n\n1. e4 *\n";
        let record = read_pgn(text).unwrap();
        assert!(
            record.tags.iter().all(|(_, v)| !v.contains('\n')),
            "{record:?}"
        );
        let written = record.to_pgn().unwrap();
        assert_eq!(read_pgn(&written), Ok(record), "{written}");
        let mut by_app = GameRecord::new();
        by_app.tags[0].1 = "Club\nchampionship\t2026".into();
        let back = read_pgn(&by_app.to_pgn().unwrap()).unwrap();
        assert_eq!(back.tag("Event"), Some("Club championship 2026"));
    }

    #[test]
    fn a_written_game_reads_back_the_same() {
        let moves = game(&Chess::default(), &[3, 7, 1, 12, 5, 9, 2, 4, 8, 6]);
        let r = record(
            &moves,
            &[5_399_000, 5_398_500, 5_300_250],
            &[false, true],
            1,
        );
        let pgn = r.to_pgn().unwrap();
        assert!(
            pgn.contains("[TimeControl \"40/5400+30:1800+30\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("{[%clk 1:29:59]}"), "{pgn}");
        assert!(pgn.contains("{[%clk 1:29:58.5] (=)}"), "{pgn}");
        assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
        assert!(pgn.trim_end().ends_with("1/2-1/2"), "{pgn}");
        assert_eq!(read_pgn(&pgn).unwrap(), r);
    }

    #[test]
    fn games_from_another_start_keep_it() {
        let start: Chess = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut r = record(&game(&start, &[0, 1, 2]), &[], &[], 0);
        r.start = Some(fen_of(&start));
        let pgn = r.to_pgn().unwrap();
        assert!(
            pgn.contains("[SetUp \"1\"]") && pgn.contains("40... "),
            "{pgn}"
        );
        assert_eq!(read_pgn(&pgn).unwrap(), r);
        let sheet = r.to_sheet_text(Lang::En).unwrap();
        assert!(sheet.starts_with(" 40. ..."), "{sheet}");
        assert_eq!(read_sheet(&start, &sheet, Lang::En).moves.len(), 3);
    }

    #[test]
    fn other_writers_draw_marks_and_clocks_are_read() {
        let r = read_pgn(
            "[Event \"x\"]\n\n1. e4 {[%clk 0:05:00]} e5 {[%draw offer] [%clk 4:59]} 2. Nf3 (2. f4) *",
        )
        .unwrap();
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[0].clock, Some(Duration::from_secs(300)));
        assert_eq!(r.moves[1].clock, Some(Duration::from_secs(299)));
        assert!(r.moves[1].draw_offer && !r.moves[0].draw_offer);
        assert_eq!(r.tag("Event"), Some("x"));
    }

    #[test]
    fn bad_pgn_is_an_error_naming_what() {
        assert_eq!(
            read_pgn("1. e4 e5 2. Ke3 *"),
            Err(PgnError::Illegal {
                ply: 3,
                san: "Ke3".into()
            })
        );
        assert!(matches!(
            read_pgn("[TimeControl \"40/abc\"]\n\n1. e4 *"),
            Err(PgnError::TimeControl(_))
        ));
        assert!(matches!(
            read_pgn("[FEN \"nonsense\"]\n\n*"),
            Err(PgnError::Fen(_))
        ));
        assert!(matches!(
            read_pgn("1. e4 {[%clk 1:99:00]} *"),
            Err(PgnError::Clock(_))
        ));
        assert_eq!(read_pgn(""), Err(PgnError::Empty));
        for tc in ["5400+30", "40/7200:3600", "300"] {
            let pgn = format!("[TimeControl \"{tc}\"]\n\n1. e4 *");
            let record = read_pgn(&pgn).unwrap();
            assert_eq!(record.time_control.as_ref().unwrap().to_pgn(), tc);
        }
        for raw in ["?", "-"] {
            let pgn = format!("[TimeControl \"{raw}\"]\n\n1. e4 *");
            let record = read_pgn(&pgn).unwrap();
            assert_eq!(record.time_control, None);
            assert_eq!(record.tag("TimeControl"), Some(raw));
            assert!(
                record
                    .to_pgn()
                    .unwrap()
                    .contains(&format!("[TimeControl \"{raw}\"]"))
            );
        }
        for bad in ["+5", "40/", "a:b"] {
            let pgn = format!("[TimeControl \"{bad}\"]\n\n1. e4 *");
            assert!(
                matches!(read_pgn(&pgn), Err(PgnError::TimeControl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_sheet_text_is_two_numbered_columns() {
        let moves = game(&Chess::default(), &[0; 5]);
        let mut r = record(&moves, &[], &[false, false, true], 2);
        r.moves.truncate(5);
        let text = r.to_sheet_text(Lang::De).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("  1. "), "{text}");
        assert!(lines[1].contains("(=)"), "{text}");
        assert_eq!(lines[3], "1-0");
        let back = read_sheet(&Chess::default(), &text, Lang::De);
        assert_eq!(back.moves, moves[..5]);
        assert_eq!(back.draw_offers, [3]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn pgn_round_trips(
            picks in prop::collection::vec(0usize..64, 0..120),
            clocks in prop::collection::vec(0u64..36_000_000, 0..120),
            offers in prop::collection::vec(any::<bool>(), 0..120),
            result in 0u8..4,
        ) {
            let moves = game(&Chess::default(), &picks);
            let r = record(&moves, &clocks, &offers, result);
            let pgn = r.to_pgn().unwrap();
            prop_assert_eq!(read_pgn(&pgn).unwrap(), r);
        }

        #[test]
        fn sheet_text_reads_back_in_every_language(
            picks in prop::collection::vec(0usize..64, 0..80),
            lang in prop::sample::select(Lang::AUTO_ORDER.to_vec()),
        ) {
            let moves = game(&Chess::default(), &picks);
            let r = record(&moves, &[], &[], 0);
            let text = r.to_sheet_text(lang).unwrap();
            let back = read_sheet(&Chess::default(), &text, lang);
            prop_assert!(back.complete(), "{:?} in {}", back.stop, text);
            prop_assert_eq!(back.moves, moves);
        }
    }
}
