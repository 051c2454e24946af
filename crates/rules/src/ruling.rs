//! The D.2.9 ruling on diverging boards, exactly as
//! `docs/ruling.md` describes it: from both scoresheets, the
//! position to play on, each board's fixes and the clocks.

use std::time::Duration;

use serde::{Serialize, Serializer};
use shakmaty::fen::Fen;
use shakmaty::{Board, ByColor, Chess, Color, EnPassantMode, Position};

use super::correction::{SquareFix, diff_boards, say_fixes};
use super::notation::Lang;
use super::sheet::{Sheet, Stop, read_sheet};
use super::token::{Token, Word};

/// Whether the sheets agree (spec: "Case `agree`" / "Case `differ`").
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let start = Chess::default();
/// let same = reconcile(&start, "1. e4 e5", "1. e4 e5", Lang::Of(Language::En), none, None);
/// assert_eq!(same.case, Case::Agree);
/// let other = reconcile(&start, "1. e4 e5", "1. e4 c5", Lang::Of(Language::En), none, None);
/// assert_eq!(other.case, Case::Differ);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Case {
    /// Both sheets read in full and hold the same moves: boards are adjusted
    /// to the sheets, nothing is retracted.
    Agree,
    /// Anything else: play goes back to the last ply both sheets agree on.
    Differ,
}

/// The first ply where the sheets part, and what each holds there (`None`:
/// that sheet ends before it).
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3", "1. e4 c5", Lang::Of(Language::En), none, None);
/// let d = r.first_difference.unwrap();
/// assert_eq!(d.ply, 2);
/// assert_eq!((d.entries.white.as_deref(), d.entries.black.as_deref()), (Some("e5"), Some("c5")));
/// let json = serde_json::to_string(&d).unwrap();
/// assert_eq!(json, r#"{"ply":2,"white":"e5","black":"c5"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The ply, from 1 at the start position.
    pub ply: usize,
    /// Each sheet's entry there, written as `"white"` and `"black"` beside
    /// the ply.
    #[serde(flatten, with = "crate::side::by_color")]
    pub entries: ByColor<Option<String>>,
}

/// A sheet that only lags behind the other (8.1.3): the side whose sheet is
/// short and the plies (numbered from 1) it still has to write.
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess, Color};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// // Black has not yet written White's 2. Nf3: the sheets still agree.
/// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3", "1. e4 e5", Lang::Of(Language::En), none, None);
/// assert_eq!(r.case, Case::Agree);
/// let lag = r.incomplete.unwrap();
/// assert_eq!((lag.side, lag.plies), (Color::Black, vec![3]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Incomplete {
    /// The player whose sheet is short.
    #[serde(serialize_with = "super::side::serialize")]
    pub side: Color,
    /// The plies it has still to write.
    pub plies: Vec<usize>,
}

/// How many plies a sheet may lag behind the other and still agree with it
/// (`reconcile.md`: a player answers a move before writing it and writes
/// their own before the next, so at most three plies can be unwritten).
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let long = "1. e4 e5 2. Nf3 Nc6 3. Bb5";
/// let lagging = reconcile(&Chess::default(), long, "1. e4 e5", Lang::Of(Language::En), none, None);
/// assert_eq!(lagging.case, Case::Agree); // three plies behind
/// let behind = reconcile(&Chess::default(), long, "1. e4", Lang::Of(Language::En), none, None);
/// assert_eq!(behind.case, Case::Differ); // four: more than MAX_LAG_PLIES
/// # assert_eq!(tactus_rules::ruling::MAX_LAG_PLIES, 3);
/// ```
pub const MAX_LAG_PLIES: usize = 3;

/// One physical board against the position to play on.
///
/// # Examples
///
/// ```
/// use shakmaty::Board;
/// use tactus_rules::ruling::BoardRuling;
///
/// let ok = BoardRuling::new(&Board::default(), &Board::default());
/// assert!(ok.matches && ok.fixes.is_empty());
/// assert_eq!(serde_json::to_value(&ok).unwrap()["spoken"][0], "board.correct");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardRuling {
    /// Whether the board shows the position.
    pub matches: bool,
    /// Every wrong square, a1 to h8, with the piece expected and found.
    pub fixes: Vec<SquareFix>,
    /// What the player hears: `board.correct`, or `board.differs` and the
    /// fixes (removals first), as pack keys.
    #[serde(serialize_with = "ser_tokens")]
    pub spoken: Vec<Token>,
}

impl BoardRuling {
    /// Compares `found` with the position to play on.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Board, Square};
    /// use tactus_rules::ruling::BoardRuling;
    ///
    /// let mut found = Board::default();
    /// found.remove_piece_at(Square::D1);
    /// let r = BoardRuling::new(&Board::default(), &found);
    /// assert!(!r.matches);
    /// assert_eq!(r.fixes[0].square, Square::D1);
    /// assert_eq!(r.spoken[0].key(), "board.differs");
    /// ```
    pub fn new(expected: &Board, found: &Board) -> BoardRuling {
        let fixes = diff_boards(expected, found);
        let matches = fixes.is_empty();
        let mut spoken = vec![Token::Word(if matches {
            Word::BoardCorrect
        } else {
            Word::BoardDiffers
        })];
        spoken.extend(say_fixes(&fixes));
        BoardRuling {
            matches,
            fixes,
            spoken,
        }
    }
}

/// Clock times known to the ruling.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{ClockRecord, ClockRuling, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let min = |m: u64| Duration::from_secs(60 * m);
/// let both = |m| ByColor { white: min(m), black: min(m) };
/// // Times after 0, 1 and 2 plies; the sheets agree on one ply.
/// let times = ClockRecord::Recorded(vec![both(10), both(9), both(8)]);
/// let r = reconcile(&Chess::default(), "1. e4 e5", "1. e4 c5", Lang::Of(Language::En), none, Some(&times));
/// assert_eq!(r.clocks, ClockRuling::Recorded { white_ms: min(9), black_ms: min(9) });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockRecord {
    /// Remaining times recorded by the server: index 0 at the start
    /// position, index `n` after ply `n`.
    Recorded(Vec<ByColor<Duration>>),
    /// Only the times at the start and now.
    Running {
        /// Each player's time at the start position.
        start: ByColor<Duration>,
        /// Each player's time now.
        now: ByColor<Duration>,
    },
}

/// What happens to the clocks.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{ClockRecord, ClockRuling, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let min = |m: u64| Duration::from_secs(60 * m);
/// // 4 plies played, each player used 10 minutes; 2 plies stay: 5 minutes back.
/// let times = ClockRecord::Running {
///     start: ByColor { white: min(30), black: min(30) },
///     now: ByColor { white: min(20), black: min(20) },
/// };
/// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Nc3 Nc6", Lang::Of(Language::En), none, Some(&times));
/// assert_eq!(r.clocks, ClockRuling::Proposal { white_ms: min(25), black_ms: min(25) });
/// let json = serde_json::to_value(&r.clocks).unwrap();
/// assert_eq!((json["kind"].as_str(), json["white_ms"].as_u64()), (Some("proposal"), Some(1_500_000)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockRuling {
    /// Case agree: nothing is retracted, the clocks run on.
    Unchanged,
    /// The times the server recorded at the agreed ply.
    Recorded {
        /// White's time left (milliseconds in JSON).
        #[serde(serialize_with = "ser_ms")]
        white_ms: Duration,
        /// Black's time left (milliseconds in JSON).
        #[serde(serialize_with = "ser_ms")]
        black_ms: Duration,
    },
    /// A proposal only (Article 7.1 leaves it to the arbiter): each player
    /// gets back the share of their used time that the retracted moves
    /// stand for, as if every move took as long. Increments are ignored.
    Proposal {
        /// White's proposed time left (milliseconds in JSON).
        #[serde(serialize_with = "ser_ms")]
        white_ms: Duration,
        /// Black's proposed time left (milliseconds in JSON).
        #[serde(serialize_with = "ser_ms")]
        black_ms: Duration,
    },
    /// No times known: the arbiter decides.
    ArbiterDecides,
}

/// What the ruling says about one sheet.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::SheetSummary;
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// let s = SheetSummary::of(&read_sheet(&Chess::default(), "1. e4 e5 2. Sf3", Lang::Auto));
/// assert_eq!((s.language, s.plies_read, s.unreadable), (Lang::Of(Language::De), 3, None));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetSummary {
    /// The language the sheet was read in.
    pub language: Lang,
    /// How many plies were read as legal moves.
    pub plies_read: usize,
    /// The entry where reading stopped (unreadable, illegal or ambiguous).
    pub unreadable: Option<Stop>,
}

impl SheetSummary {
    /// Summarises a sheet as read.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Chess;
    /// use tactus_rules::language::Language;
    /// use tactus_rules::ruling::SheetSummary;
    /// use tactus_rules::notation::Lang;
    /// use tactus_rules::sheet::read_sheet;
    ///
    /// let s = SheetSummary::of(&read_sheet(&Chess::default(), "1. e4 Ke7", Lang::Of(Language::En)));
    /// assert_eq!(s.plies_read, 1);
    /// assert_eq!(s.unreadable.unwrap().text, "Ke7");
    /// ```
    pub fn of(sheet: &Sheet) -> SheetSummary {
        SheetSummary {
            language: sheet.lang,
            plies_read: sheet.moves.len(),
            unreadable: sheet.stop.clone(),
        }
    }
}

/// The D.2.9 ruling.
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess, Position, Square};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3", "1. e4 e5 2. Nc3", Lang::Of(Language::En), none, None);
/// assert_eq!((r.case, r.agreed_plies), (Case::Differ, 2));
/// assert!(r.position.board().piece_at(Square::G1).is_some()); // back before 2. N…
/// assert_eq!((r.retracted.white, r.retracted.black), (1, 1));
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["position"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// Whether the sheets agree.
    pub case: Case,
    /// Plies from the start that both sheets hold as the same moves.
    pub agreed_plies: usize,
    /// The position to play on (FEN in JSON).
    #[serde(serialize_with = "ser_fen")]
    pub position: Chess,
    /// Where the sheets part, when the case is `differ`.
    pub first_difference: Option<Difference>,
    /// A sheet that only lags behind the other, when the case is `agree`
    /// because of it.
    pub incomplete: Option<Incomplete>,
    /// Plies each sheet holds beyond the agreed ones (retracted when the
    /// case is `differ`).
    #[serde(with = "crate::side::by_color")]
    pub retracted: ByColor<usize>,
    /// Each board given, against the position to play on (`null`: not
    /// given).
    #[serde(with = "crate::side::by_color")]
    pub boards: ByColor<Option<BoardRuling>>,
    /// What happens to the clocks.
    pub clocks: ClockRuling,
    /// How each sheet was read.
    #[serde(with = "crate::side::by_color")]
    pub sheets: ByColor<SheetSummary>,
}

impl Ruling {
    /// How many plies the position to play on stands after: the agreed
    /// ones, and those a lagging sheet has yet to write (8.1.3).
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{ByColor, Chess};
    /// use tactus_rules::language::Language;
    /// use tactus_rules::ruling::reconcile;
    /// use tactus_rules::notation::Lang;
    ///
    /// let none = ByColor { white: None, black: None };
    /// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3", "1. e4 e5", Lang::Of(Language::En), none, None);
    /// assert_eq!((r.agreed_plies, r.plies_played_on()), (2, 3));
    /// ```
    pub fn plies_played_on(&self) -> usize {
        self.agreed_plies + self.incomplete.as_ref().map_or(0, |i| i.plies.len())
    }
}

/// The sheet with more moves read (White's on a tie): when the sheets agree
/// the game goes on from its end.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::longer_sheet;
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// let white = read_sheet(&Chess::default(), "1. d4", Lang::Of(Language::En));
/// let black = read_sheet(&Chess::default(), "1. d4 d5", Lang::Of(Language::En));
/// assert_eq!(longer_sheet(&white, &black).moves.len(), 2);
/// ```
pub fn longer_sheet<'a>(white: &'a Sheet, black: &'a Sheet) -> &'a Sheet {
    if white.moves.len() >= black.moves.len() {
        white
    } else {
        black
    }
}

/// Rules on two sheets read from `start`, with the boards as found (when
/// known) and the clock times (when known).
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, ClockRuling, rule};
/// use tactus_rules::notation::Lang;
/// use tactus_rules::sheet::read_sheet;
///
/// let start = Chess::default();
/// let white = read_sheet(&start, "1. e4 e5 2. Nf3", Lang::Of(Language::En));
/// let black = read_sheet(&start, "1. e4 e6", Lang::Of(Language::En));
/// let sheets = ByColor { white: &white, black: &black };
/// let r = rule(&start, sheets, ByColor { white: None, black: None }, None);
/// assert_eq!((r.case, r.agreed_plies), (Case::Differ, 1));
/// assert_eq!(r.clocks, ClockRuling::ArbiterDecides); // no times known
/// ```
pub fn rule(
    start: &Chess,
    sheets: ByColor<&Sheet>,
    boards: ByColor<Option<&Board>>,
    clocks: Option<&ClockRecord>,
) -> Ruling {
    let (white, black) = (sheets.white, sheets.black);
    let agreed = white
        .moves
        .iter()
        .zip(&black.moves)
        .take_while(|(w, b)| w == b)
        .count();
    let incomplete = lagging(white, black, agreed);
    let both_read = white.complete() && black.complete();
    let case = if both_read && (white.moves == black.moves || incomplete.is_some()) {
        Case::Agree
    } else {
        Case::Differ
    };
    // Agreeing sheets play on from the longer one (the short one only lags).
    let longer = longer_sheet(white, black);
    let played_on = if case == Case::Agree {
        longer.moves.len()
    } else {
        agreed
    };
    let mut position = start.clone();
    for &m in longer.moves.iter().take(played_on) {
        position.play_unchecked(m);
    }
    let first_difference = (case == Case::Differ).then(|| {
        let ply = agreed + 1;
        Difference {
            ply,
            entries: sheets.map(|s| s.entry_at(ply).map(str::to_string)),
        }
    });
    let written = |s: &Sheet| s.moves.len() + usize::from(s.stop.is_some());
    let board = position.board();
    let boards = boards.map(|b| b.map(|b| BoardRuling::new(board, b)));
    let played = written(white).max(written(black));
    let clocks = match (case, clocks) {
        (Case::Agree, _) => ClockRuling::Unchanged,
        (Case::Differ, None) => ClockRuling::ArbiterDecides,
        (Case::Differ, Some(ClockRecord::Recorded(times))) => match times.get(agreed) {
            Some(t) => ClockRuling::Recorded {
                white_ms: t.white,
                black_ms: t.black,
            },
            None => ClockRuling::ArbiterDecides,
        },
        (Case::Differ, Some(ClockRecord::Running { start: s, now })) => {
            let turn = start.turn();
            let give_back = |c: Color| {
                let moves = |plies: usize| plies_by(turn, c, plies);
                proportional(s[c], now[c], moves(agreed), moves(played))
            };
            ClockRuling::Proposal {
                white_ms: give_back(Color::White),
                black_ms: give_back(Color::Black),
            }
        }
    };
    Ruling {
        case,
        agreed_plies: agreed,
        position,
        first_difference,
        incomplete: incomplete.filter(|_| case == Case::Agree),
        retracted: if case == Case::Agree {
            ByColor::new_with(|_| 0)
        } else {
            sheets.map(|s| written(s).saturating_sub(agreed))
        },
        boards,
        clocks,
        sheets: sheets.map(SheetSummary::of),
    }
}

/// Reads both sheets (each in `lang`, `auto` picking per sheet) and rules.
///
/// # Examples
///
/// ```
/// use shakmaty::{ByColor, Chess};
/// use tactus_rules::language::Language;
/// use tactus_rules::ruling::{Case, reconcile};
/// use tactus_rules::notation::Lang;
///
/// let none = ByColor { white: None, black: None };
/// // White writes in English, Black in German: the same moves.
/// let r = reconcile(&Chess::default(), "1. e4 e5 2. Nf3", "1. e4 e5 2. Sf3", Lang::Auto, none, None);
/// assert_eq!(r.case, Case::Agree);
/// assert_eq!(r.sheets.black.language, Lang::Of(Language::De));
/// ```
pub fn reconcile(
    start: &Chess,
    white_sheet: &str,
    black_sheet: &str,
    lang: Lang,
    boards: ByColor<Option<&Board>>,
    clocks: Option<&ClockRecord>,
) -> Ruling {
    let white = read_sheet(start, white_sheet, lang);
    let black = read_sheet(start, black_sheet, lang);
    rule(
        start,
        ByColor {
            white: &white,
            black: &black,
        },
        boards,
        clocks,
    )
}

/// The lagging sheet, when one sheet is the other's beginning and short by
/// one to [`MAX_LAG_PLIES`] plies (8.1.3). Both must have been read in full.
fn lagging(white: &Sheet, black: &Sheet, agreed: usize) -> Option<Incomplete> {
    if !(white.complete() && black.complete()) {
        return None;
    }
    let (short, long, side) = if white.moves.len() < black.moves.len() {
        (white, black, Color::White)
    } else {
        (black, white, Color::Black)
    };
    let lag = long.moves.len() - short.moves.len();
    (agreed == short.moves.len() && (1..=MAX_LAG_PLIES).contains(&lag)).then(|| Incomplete {
        side,
        plies: (short.moves.len() + 1..=long.moves.len()).collect(),
    })
}

/// How many of the first `plies` plies `color` made, `turn` moving first.
fn plies_by(turn: Color, color: Color, plies: usize) -> usize {
    if turn == color {
        plies.div_ceil(2)
    } else {
        plies / 2
    }
}

/// The remaining time if the time used so far (`start - now`) is shared
/// evenly by the `played` moves and only `kept` of them stay.
fn proportional(start: Duration, now: Duration, kept: usize, played: usize) -> Duration {
    let Some(used) = start.checked_sub(now) else {
        return now; // More than at the start (increments): leave it.
    };
    if played == 0 {
        return now;
    }
    let kept_used = used.as_millis() * kept as u128 / played as u128;
    let kept_used = Duration::from_millis(u64::try_from(kept_used).unwrap_or(u64::MAX));
    start.saturating_sub(kept_used)
}

fn ser_fen<S: Serializer>(pos: &Chess, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&Fen::from_position(pos, EnPassantMode::Legal))
}

fn ser_ms<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn ser_tokens<S: Serializer>(tokens: &[Token], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(tokens.iter().map(Token::key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::Language;

    fn by(white: u64, black: u64) -> ByColor<Duration> {
        ByColor {
            white: Duration::from_secs(white),
            black: Duration::from_secs(black),
        }
    }

    fn sheets(white: &str, black: &str) -> (Chess, Sheet, Sheet) {
        let start = Chess::default();
        let w = read_sheet(&start, white, Lang::Auto);
        let b = read_sheet(&start, black, Lang::Auto);
        (start, w, b)
    }

    #[test]
    fn agreeing_sheets_leave_the_clocks_alone() {
        let (start, w, b) = sheets("1. e4 e5 2. Nf3", "1. e2-e4 e7-e5 2. Sg1-f3");
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            None,
        );
        assert_eq!((r.case, r.agreed_plies), (Case::Agree, 3));
        assert_eq!(r.clocks, ClockRuling::Unchanged);
        assert_eq!(r.first_difference, None);
        assert_eq!(r.position.turn(), Color::Black);
        assert_eq!(r.sheets.black.language, Lang::Of(Language::De));
    }

    /// 8.1.3: a sheet one to three plies behind the other is incomplete,
    /// not different, on either side and in any notation; four behind differs.
    #[test]
    fn a_sheet_that_only_lags_agrees_up_to_three_plies() {
        let english = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];
        let german = [
            "e2-e4", "e7-e5", "Sg1-f3", "Sb8-c6", "Lf1-b5", "a7-a6", "Lb5-a4", "Sg8-f6",
        ];
        for lag in 1..=4 {
            for short_side in [Color::White, Color::Black] {
                let full = english.join(" ");
                let short = german[..english.len() - lag].join(" ");
                let (w, b) = if short_side.is_white() {
                    (short, full)
                } else {
                    (full, short)
                };
                let (start, ws, bs) = sheets(&w, &b);
                let r = rule(
                    &start,
                    ByColor {
                        white: &ws,
                        black: &bs,
                    },
                    ByColor::new_with(|_| None),
                    None,
                );
                let common = english.len() - lag;
                assert_eq!(r.agreed_plies, common, "lag {lag}");
                if lag <= MAX_LAG_PLIES {
                    assert_eq!(r.case, Case::Agree, "lag {lag} {short_side:?}");
                    let inc = r.incomplete.clone().unwrap();
                    assert_eq!(inc.side, short_side);
                    assert_eq!(inc.plies, (common + 1..=english.len()).collect::<Vec<_>>());
                    // Play goes on after the longer sheet: 8 plies, White to move.
                    assert_eq!(r.position.turn(), Color::White);
                    assert_eq!(r.position.fullmoves().get(), 5);
                    assert_eq!(r.first_difference, None);
                    assert_eq!(r.clocks, ClockRuling::Unchanged);
                    assert_eq!(r.retracted, ByColor { white: 0, black: 0 });
                    let json = serde_json::to_value(&r).unwrap();
                    assert_eq!(
                        json["incomplete"]["side"],
                        if short_side.is_white() {
                            "white"
                        } else {
                            "black"
                        }
                    );
                } else {
                    assert_eq!(r.case, Case::Differ, "lag {lag}");
                    assert_eq!(r.incomplete, None);
                    let d = r.first_difference.unwrap();
                    assert_eq!(d.ply, common + 1);
                    assert_eq!(r.position.fullmoves().get(), 3);
                }
            }
        }
    }

    #[test]
    fn a_lagging_sheet_with_a_different_move_differs() {
        // Black's sheet is shorter but also wrong at ply 3: not a lag.
        let (start, w, b) = sheets("1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Bc4");
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            None,
        );
        assert_eq!((r.case, r.agreed_plies), (Case::Differ, 2));
        assert_eq!(r.incomplete, None);
        let d = r.first_difference.unwrap();
        assert_eq!(
            (
                d.ply,
                d.entries.white.as_deref(),
                d.entries.black.as_deref()
            ),
            (3, Some("Nf3"), Some("Bc4"))
        );
        assert_eq!(r.retracted, ByColor { white: 2, black: 1 });
        // An unreadable entry after the common part is never a mere lag.
        let (start, w, b) = sheets("1. e4 e5 2. Nf3", "1. e4 e5 2. Nf9");
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            None,
        );
        assert_eq!((r.case, r.incomplete), (Case::Differ, None));
    }

    #[test]
    fn recorded_clocks_go_back_to_the_agreed_ply() {
        let (start, w, b) = sheets("1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Bc4 Nc6");
        let times = vec![by(600, 600), by(590, 600), by(590, 580), by(570, 580)];
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            Some(&ClockRecord::Recorded(times)),
        );
        assert_eq!(r.agreed_plies, 2);
        assert_eq!(
            r.clocks,
            ClockRuling::Recorded {
                white_ms: Duration::from_secs(590),
                black_ms: Duration::from_secs(580)
            }
        );
        // Past the record's end: the arbiter decides.
        let short = ClockRecord::Recorded(vec![by(600, 600)]);
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            Some(&short),
        );
        assert_eq!(r.clocks, ClockRuling::ArbiterDecides);
    }

    #[test]
    fn without_a_record_the_clocks_are_a_proportional_proposal() {
        // 8 plies written, 4 agreed: each player keeps 2 of 4 moves.
        let (start, w, b) = sheets(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6",
        );
        let running = ClockRecord::Running {
            start: by(600, 600),
            now: by(400, 200),
        };
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor::new_with(|_| None),
            Some(&running),
        );
        assert_eq!(r.agreed_plies, 4);
        assert_eq!(
            r.clocks,
            ClockRuling::Proposal {
                white_ms: Duration::from_secs(500),
                black_ms: Duration::from_secs(400)
            }
        );
        let json = serde_json::to_value(r.clocks).unwrap();
        assert_eq!(json["kind"], "proposal");
        assert_eq!(json["white_ms"], 500_000);
    }

    #[test]
    fn boards_get_their_fixes_and_spoken_corrections() {
        let (start, w, b) = sheets("1. e4", "1. e4");
        let wrong: Board = "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR"
            .parse()
            .unwrap();
        let right = Board::default();
        let mut after = Chess::default();
        after.play_unchecked(w.moves[0]);
        let r = rule(
            &start,
            ByColor {
                white: &w,
                black: &b,
            },
            ByColor {
                white: Some(after.board()),
                black: Some(&wrong),
            },
            None,
        );
        let white = r.boards.white.unwrap();
        assert!(white.matches && white.fixes.is_empty());
        assert_eq!(white.spoken, [Token::Word(Word::BoardCorrect)]);
        let black = r.boards.black.unwrap();
        assert!(!black.matches);
        let keys: Vec<String> = black.spoken.iter().map(Token::key).collect();
        assert_eq!(
            keys.join(" "),
            "board.differs board.remove file.e rank.3 board.put piece.white.pawn board.on file.e rank.4"
        );
        assert!(!BoardRuling::new(&right, &wrong).matches);
    }

    /// The ruling's JSON, as written before its per-side fields were
    /// `ByColor`s (sheets, boards, retracted plies, the first difference):
    /// the same bytes.
    #[test]
    fn the_ruling_json_keeps_its_shape() {
        let start = Chess::default();
        let mut board = Board::default();
        board.discard_piece_at(shakmaty::Square::D1);
        let boards = ByColor {
            white: Some(&board),
            black: None,
        };
        let r = reconcile(
            &start,
            "1. e4 e5 2. Nf3 Nc6 3. Bb5",
            "1. e4 e5 2. Nf3 Nf6",
            Lang::Of(Language::En),
            boards,
            None,
        );
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"case":"differ","agreed_plies":3,"position":"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2","first_difference":{"ply":4,"white":"Nc6","black":"Nf6"},"incomplete":null,"retracted":{"white":2,"black":1},"boards":{"white":{"matches":false,"fixes":[{"square":"d1","expected":"Q","found":null},{"square":"g1","expected":null,"found":"N"},{"square":"e2","expected":null,"found":"P"},{"square":"f3","expected":"N","found":null},{"square":"e4","expected":"P","found":null},{"square":"e5","expected":"p","found":null},{"square":"e7","expected":null,"found":"p"}],"spoken":["board.differs","board.remove","file.g","rank.1","board.remove","file.e","rank.2","board.remove","file.e","rank.7","board.put","piece.white.queen","board.on","file.d","rank.1","board.put","piece.white.knight","board.on","file.f","rank.3","board.put","piece.white.pawn","board.on","file.e","rank.4","board.put","piece.black.pawn","board.on","file.e","rank.5"]},"black":null},"clocks":{"kind":"arbiter_decides"},"sheets":{"white":{"language":"en","plies_read":5,"unreadable":null},"black":{"language":"en","plies_read":4,"unreadable":null}}}"#
        );
    }
}
