//! How one move is written on a scoresheet or typed on a page: the piece
//! letters of several languages (Appendix C.3), figurines, short and long
//! algebraic, the usual capture, en passant, promotion, check and
//! annotation marks, move numbers, the draw-offer mark `(=)` and results.
//!
//! Each entry is read into a pattern (piece, origin file/rank, target,
//! promotion, or castling side) and matched against shakmaty's legal moves,
//! so the rules are shakmaty's: no move generation or SAN is written here.
//!
//! Marks that never change which move is meant (capture `x`/`:`, `e.p.`,
//! `+`, `#`, `!`, `?`) are accepted and not checked against the move: a
//! player who wrote `Nxe4` for a quiet knight move still meant that move.
//! Whole sheets are read in [`super::sheet`].

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::language::Language;
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, File, Move, Outcome, Position, Rank, Role, Square};

/// The piece letters a sheet is written in. [`Lang::Auto`] picks, per sheet,
/// the language under which the sheet reads furthest as legal moves.
///
/// # Examples
///
/// ```
/// use shakmaty::Role;
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::Lang;
///
/// let lang: Lang = "it".parse().unwrap(); // Italian writes as Spanish does
/// assert_eq!(lang, Lang::Of(Language::Es));
/// assert_eq!(lang.letter(Role::Bishop), Some('A'));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// Try every language; see [`Lang::AUTO_ORDER`] for ties.
    #[default]
    Auto,
    /// The letters of one language: English K Q R B N (pawn `P` optional);
    /// German K D T L S (also Swedish, Danish, Norwegian); Spanish R D T A C
    /// (also Italian; pawn `P` optional); French R D T F C (pawn `P`
    /// optional); Dutch K D T L P (`P` is the knight, "paard"); Portuguese
    /// R D T B C (pawn `P` optional); Polish K H W G S; Czech K D V S J.
    Of(Language),
}

impl From<Language> for Lang {
    fn from(language: Language) -> Lang {
        Lang::Of(language)
    }
}

impl Lang {
    /// The languages [`Lang::Auto`] tries. When two read a sheet equally far,
    /// the one earlier in this list wins: English first (PGN's letters), then
    /// German (the default voice pack's language), then Spanish/Italian
    /// before French (they share `R D T C`), then the others.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    ///
    /// assert_eq!(Lang::AUTO_ORDER[..2], [Lang::Of(Language::En), Lang::Of(Language::De)]);
    /// assert!(!Lang::AUTO_ORDER.contains(&Lang::Auto));
    /// ```
    pub const AUTO_ORDER: [Lang; 8] = [
        Lang::Of(Language::En),
        Lang::Of(Language::De),
        Lang::Of(Language::Es),
        Lang::Of(Language::Fr),
        Lang::Of(Language::Nl),
        Lang::Of(Language::Pt),
        Lang::Of(Language::Pl),
        Lang::Of(Language::Cs),
    ];

    /// The short code used on the command line and in JSON (`en`, `de`, ...).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    ///
    /// assert_eq!(Lang::Of(Language::Cs).code(), "cs");
    /// assert_eq!(serde_json::to_string(&Lang::Auto).unwrap(), r#""auto""#);
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Auto => "auto",
            Lang::Of(language) => language.code(),
        }
    }

    /// The language of these letters; `None` for [`Lang::Auto`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    ///
    /// assert_eq!("it".parse::<Lang>().unwrap().language(), Some(Language::Es));
    /// assert_eq!(Lang::Auto.language(), None);
    /// ```
    pub const fn language(self) -> Option<Language> {
        match self {
            Lang::Auto => None,
            Lang::Of(language) => Some(language),
        }
    }

    /// Letters for king, queen, rook, bishop, knight, and the optional pawn
    /// letter.
    const fn letters(self) -> ([char; 5], Option<char>) {
        match self {
            Lang::Auto | Lang::Of(Language::En) => (['K', 'Q', 'R', 'B', 'N'], Some('P')),
            Lang::Of(Language::De) => (['K', 'D', 'T', 'L', 'S'], None),
            Lang::Of(Language::Es) => (['R', 'D', 'T', 'A', 'C'], Some('P')),
            Lang::Of(Language::Fr) => (['R', 'D', 'T', 'F', 'C'], Some('P')),
            Lang::Of(Language::Nl) => (['K', 'D', 'T', 'L', 'P'], None),
            Lang::Of(Language::Pt) => (['R', 'D', 'T', 'B', 'C'], Some('P')),
            Lang::Of(Language::Pl) => (['K', 'H', 'W', 'G', 'S'], None),
            Lang::Of(Language::Cs) => (['K', 'D', 'V', 'S', 'J'], None),
        }
    }

    /// The letter this language writes for `role` (`None` for the pawn,
    /// which is written without a letter).
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Role;
    /// use tactus_rules::language::Language;
    /// use tactus_rules::notation::Lang;
    ///
    /// assert_eq!(Lang::Of(Language::De).letter(Role::Knight), Some('S'));
    /// assert_eq!(Lang::Of(Language::Nl).letter(Role::Knight), Some('P'));
    /// assert_eq!(Lang::Of(Language::En).letter(Role::Pawn), None);
    /// ```
    pub const fn letter(self, role: Role) -> Option<char> {
        let (l, _) = self.letters();
        match role {
            Role::King => Some(l[0]),
            Role::Queen => Some(l[1]),
            Role::Rook => Some(l[2]),
            Role::Bishop => Some(l[3]),
            Role::Knight => Some(l[4]),
            Role::Pawn => None,
        }
    }

    /// The piece an upper-case letter or a figurine stands for.
    fn role(self, c: char) -> Option<Role> {
        if let Some(role) = figurine(c) {
            return Some(role);
        }
        let (l, pawn) = self.letters();
        const ROLES: [Role; 5] = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ];
        if let Some(i) = l.iter().position(|&x| x == c) {
            return ROLES.get(i).copied();
        }
        (pawn == Some(c)).then_some(Role::Pawn)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Lang {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A sheet language's code that tactus does not know.
///
/// # Examples
///
/// ```
/// use tactus_rules::notation::{Lang, UnknownLang};
///
/// assert_eq!("ru".parse::<Lang>(), Err(UnknownLang("ru".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sheet language `{0}`: expected auto, en, de, es, it, fr, nl, pt, pl or cs")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        // Aliases: languages that write another's letters.
        let code = match s.to_ascii_lowercase().as_str() {
            "auto" => return Ok(Lang::Auto),
            "sv" | "da" | "no" => "de",
            "it" => "es",
            _ => s,
        };
        code.parse::<Language>()
            .map(Lang::Of)
            .map_err(|_| UnknownLang(s.to_owned()))
    }
}

fn figurine(c: char) -> Option<Role> {
    Some(match c {
        '♔' | '♚' => Role::King,
        '♕' | '♛' => Role::Queen,
        '♖' | '♜' => Role::Rook,
        '♗' | '♝' => Role::Bishop,
        '♘' | '♞' => Role::Knight,
        '♙' | '♟' => Role::Pawn,
        _ => return None,
    })
}

/// Why a sheet entry is not one legal move.
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::{Lang, StopReason};
/// use tactus_rules::sheet::read_sheet;
///
/// let sheet = read_sheet(&Chess::default(), "1. e4 e5 2. Ke3", Lang::Of(Language::En));
/// assert_eq!(sheet.stop.unwrap().reason, StopReason::Illegal);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// Not a move in the sheet's notation (`Qd9`, a letter that is no piece).
    Unreadable,
    /// Readable, but no legal move fits it.
    Illegal,
    /// Several legal moves fit it; their SAN.
    Ambiguous(Vec<String>),
}

impl StopReason {
    /// `unreadable`, `illegal` or `ambiguous`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::notation::StopReason;
    ///
    /// assert_eq!(StopReason::Ambiguous(vec!["Nbd2".into(), "Nfd2".into()]).code(), "ambiguous");
    /// ```
    pub const fn code(&self) -> &'static str {
        match self {
            StopReason::Unreadable => "unreadable",
            StopReason::Illegal => "illegal",
            StopReason::Ambiguous(_) => "ambiguous",
        }
    }
}

/// A single move that could not be read (see [`parse_move`]).
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::{Lang, MoveError, parse_move};
///
/// let err = parse_move(&Chess::default(), "Nd2", Lang::Of(Language::En)).unwrap_err();
/// assert_eq!(err, MoveError::Illegal("Nd2".into()));
/// assert_eq!(err.to_string(), "`Nd2` is not a legal move here");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in any notation tried; the text as typed.
    #[error("`{0}` is not a move")]
    Unreadable(String),
    /// A move, but not a legal one in the position; the text as typed.
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
    /// It fits several legal moves.
    #[error("`{text}` fits several legal moves: {}", candidates.join(", "))]
    Ambiguous {
        /// The text as typed.
        text: String,
        /// The moves it fits, in SAN.
        candidates: Vec<String>,
    },
}

/// One entry of a sheet before it is matched: its text and its core (the
/// move itself without number and marks).
#[derive(Debug, Clone)]
pub(super) struct RawEntry {
    pub(super) text: String,
    pub(super) core: String,
    pub(super) draw_offer: bool,
}

/// One word group of a sheet: an entry, or a result.
pub(super) enum Item {
    Entry(RawEntry),
    /// A result and its text.
    Result(Outcome, String),
}

fn result_of(word: &str) -> Option<Outcome> {
    use shakmaty::{Color, KnownOutcome};
    Some(match word {
        "1-0" | "1:0" => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::White,
        }),
        "0-1" | "0:1" => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
        "1/2-1/2" | "½-½" | "½:½" | "0.5-0.5" | "1/2" | "½" => {
            Outcome::Known(KnownOutcome::Draw)
        }
        "*" => Outcome::Unknown,
        _ => return None,
    })
}

/// `12.`, `12...`, `12…`, `12)` before a move or alone.
fn strip_move_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return word;
    }
    let rest = word.get(digits..).unwrap_or("");
    let after = rest.trim_start_matches(['.', '…', ')']);
    if after.len() == rest.len() {
        word // digits not followed by a number mark: `0-0`, `1-0`.
    } else {
        after
    }
}

/// Splits the marks off the end of a word: the core, and whether it carries
/// the draw-offer mark.
fn strip_marks(word: &str) -> (&str, bool) {
    let mut core = word;
    let mut draw = false;
    loop {
        let before = core.len();
        core = core.trim_end_matches(['+', '#', '!', '?', '†', '‡']);
        if let Some(c) = core.strip_suffix("(=)") {
            core = c;
            draw = true;
        }
        for ep in ["e.p.", "e.p", "a.p.", "a.p", "ep"] {
            if let Some(c) = core.strip_suffix(ep)
                && (c.is_empty() || c.ends_with(|ch: char| ch.is_ascii_digit()))
            {
                core = c;
                break;
            }
        }
        if core.len() == before {
            return (core, draw);
        }
    }
}

/// Splits a sheet (or one typed move) into entries and results.
pub(super) fn tokenize(text: &str) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    for word in text.split_whitespace() {
        if let Some(outcome) = result_of(word) {
            items.push(Item::Result(outcome, word.to_string()));
            continue;
        }
        let word = strip_move_number(word);
        if word.is_empty() || word.chars().all(|c| c == '.' || c == '…') {
            continue;
        }
        let (core, draw) = strip_marks(word);
        if core.is_empty()
            && let Some(Item::Entry(prev)) = items.last_mut()
        {
            // A mark written apart: `dxe6 e.p.`, `Nf3 (=)`, `Qh5 !?`.
            prev.text.push(' ');
            prev.text.push_str(word);
            prev.draw_offer |= draw;
            continue;
        }
        items.push(Item::Entry(RawEntry {
            text: word.to_string(),
            core: core.to_string(),
            draw_offer: draw,
        }));
    }
    items
}

/// What an entry says about its move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pattern {
    Castle(CastlingSide),
    Move {
        /// `None`: any piece (long algebraic without a letter, `g1f3`).
        role: Option<Role>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to_file: File,
        /// `None` only for pawn captures written by files (`ed`, `exd`).
        to_rank: Option<Rank>,
        /// `None`: not written (then any promotion fits, and a bare `e8`
        /// with four promotions is ambiguous).
        promotion: Option<Role>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    F(File),
    R(Rank),
    Sep,
}

/// Reads an entry's core in one language; `None` if it is no move there.
fn parse_core(core: &str, lang: Lang) -> Option<Pattern> {
    if let Some(side) = castling_side(core) {
        return Some(Pattern::Castle(side));
    }
    let mut chars: Vec<char> = core.chars().collect();
    let role = take_role(&mut chars, lang)?;
    let promotion = take_promotion(&mut chars, lang)?;
    let parts = parts_of(chars, core)?;
    move_pattern(role, promotion, &parts)
}

/// The side an entry castles to, with `0` or `o` for `O` and any dash.
fn castling_side(core: &str) -> Option<CastlingSide> {
    let castle: String = core
        .chars()
        .map(|c| match c {
            '0' | 'o' => 'O',
            '–' | '—' => '-',
            c => c,
        })
        .collect();
    match castle.as_str() {
        "O-O" | "OO" => Some(CastlingSide::KingSide),
        "O-O-O" | "OOO" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Takes the leading piece letter (or figurine) off `chars`: `Some(None)`
/// if there is none, `None` if it is no piece letter in `lang`.
fn take_role(chars: &mut Vec<char>, lang: Lang) -> Option<Option<Role>> {
    let mut role = None;
    if let Some(&first) = chars.first()
        && (first.is_uppercase() || figurine(first).is_some())
    {
        role = Some(lang.role(first)?);
        chars.remove(0);
    }
    Some(role)
}

/// Takes a trailing promotion (`e8Q`, `e8=Q`, `e8/Q`, `e8(Q)`) off
/// `chars`: `Some(None)` if there is none, `None` if it is malformed or no
/// piece letter in `lang`.
fn take_promotion(chars: &mut Vec<char>, lang: Lang) -> Option<Option<Role>> {
    let mut promotion = None;
    if chars.last() == Some(&')') {
        let open = chars.iter().rposition(|&c| c == '(')?;
        let inner = chars.get(open + 1..chars.len() - 1)?;
        let [p] = inner else { return None };
        promotion = Some(lang.role(p.to_uppercase().next()?)?);
        chars.truncate(open);
    } else if let [.., before, last] = chars.as_slice()
        && !last.is_ascii_digit()
        && (before.is_ascii_digit() || *before == '=' || *before == '/')
        && !matches!(last, 'x' | 'X' | ':' | '-' | '×')
    {
        promotion = Some(lang.role(last.to_uppercase().next()?)?);
        chars.pop();
    }
    if promotion.is_some() && matches!(chars.last(), Some('=' | '/')) {
        chars.pop();
    }
    Some(promotion)
}

/// What is left of the entry read as files, ranks and separators; `None`
/// if anything else is left.
fn parts_of(chars: Vec<char>, core: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::with_capacity(chars.len());
    for c in chars {
        parts.push(match c {
            'a'..='h' => Part::F(File::from_char(c)?),
            '1'..='8' => Part::R(Rank::from_char(c)?),
            'x' | 'X' | ':' | '-' | '×' => Part::Sep,
            _ => return None,
        });
    }
    // A capture mark may also follow the move (`Lf7:`, old German style).
    if matches!(core.chars().last(), Some(':' | 'x' | '×')) {
        parts.pop();
    }
    Some(parts)
}

/// The move the squares say, with the piece and promotion already read;
/// `None` if the squares or separators make no move.
fn move_pattern(role: Option<Role>, promotion: Option<Role>, parts: &[Part]) -> Option<Pattern> {
    let seps: Vec<usize> = (0..parts.len())
        .filter(|&i| parts.get(i) == Some(&Part::Sep))
        .collect();
    let squares: Vec<Part> = parts.iter().copied().filter(|p| *p != Part::Sep).collect();
    let (from_file, from_rank, to_file, to_rank, to_len) = match squares.as_slice() {
        [Part::F(tf), Part::R(tr)] => (None, None, *tf, Some(*tr), 2),
        [Part::F(ff), Part::F(tf), Part::R(tr)] => (Some(*ff), None, *tf, Some(*tr), 2),
        [Part::R(fr), Part::F(tf), Part::R(tr)] => (None, Some(*fr), *tf, Some(*tr), 2),
        [Part::F(ff), Part::R(fr), Part::F(tf), Part::R(tr)] => {
            (Some(*ff), Some(*fr), *tf, Some(*tr), 2)
        }
        [Part::F(ff), Part::F(tf)] if role.is_none() || role == Some(Role::Pawn) => {
            (Some(*ff), None, *tf, None, 1)
        }
        _ => return None,
    };
    // At most one separator, between origin and target.
    match seps.as_slice() {
        [] => {}
        [i] if *i == squares.len() - to_len => {}
        _ => return None,
    }
    let role = match role {
        Some(r) => Some(r),
        None if from_file.is_some() && from_rank.is_some() => None,
        None => Some(Role::Pawn),
    };
    Some(Pattern::Move {
        role,
        from_file,
        from_rank,
        to_file,
        to_rank,
        promotion,
    })
}

impl Pattern {
    fn fits(self, m: Move) -> bool {
        match self {
            Pattern::Castle(side) => m.castling_side() == Some(side),
            Pattern::Move {
                role,
                from_file,
                from_rank,
                to_file,
                to_rank,
                promotion,
            } => {
                let Some(from) = m.from() else { return false };
                // A castling king move written as one (`Ke1-g1`, `e1g1`).
                let to = match m.castling_side() {
                    Some(side) => Square::from_coords(side.king_to_file(), from.rank()),
                    None => m.to(),
                };
                role.is_none_or(|r| r == m.role())
                    && from_file.is_none_or(|f| f == from.file())
                    && from_rank.is_none_or(|r| r == from.rank())
                    && to.file() == to_file
                    && to_rank.is_none_or(|r| r == to.rank())
                    && promotion.is_none_or(|p| m.promotion() == Some(p))
            }
        }
    }
}

/// Matches one entry core in one language against the legal moves.
pub(super) fn match_core(
    pos: &Chess,
    legal: &[Move],
    core: &str,
    lang: Lang,
) -> Result<Move, StopReason> {
    let pattern = parse_core(core, lang).ok_or(StopReason::Unreadable)?;
    let mut fits = legal.iter().copied().filter(|&m| pattern.fits(m));
    match (fits.next(), fits.next()) {
        (None, _) => Err(StopReason::Illegal),
        (Some(m), None) => Ok(m),
        (Some(a), Some(b)) => {
            let candidates = [a, b]
                .into_iter()
                .chain(fits)
                .map(|m| San::from_move(pos, m).to_string())
                .collect();
            Err(StopReason::Ambiguous(candidates))
        }
    }
}

/// Reads a single move as typed or spoken back by a player: a sheet entry
/// (move number and marks allowed) in `lang`. With [`Lang::Auto`] the move
/// must read the same in every language that reads it as a legal move.
///
/// # Examples
///
/// ```
/// use shakmaty::{Chess, Square};
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::{Lang, MoveError, parse_move};
///
/// let start = Chess::default();
/// let m = parse_move(&start, "1. Sf3", Lang::Of(Language::De)).unwrap();
/// assert_eq!((m.from(), m.to()), (Some(Square::G1), Square::F3));
/// // Long algebraic, a capture mark on a quiet move, a check mark: all read.
/// assert_eq!(parse_move(&start, "Ng1xf3+", Lang::Auto).unwrap(), m);
/// assert!(matches!(parse_move(&start, "e5", Lang::Of(Language::En)), Err(MoveError::Illegal(_))));
/// ```
pub fn parse_move(pos: &Chess, text: &str, lang: Lang) -> Result<Move, MoveError> {
    parse_move_preferring(pos, text, lang, None)
}

/// [`parse_move`], where under [`Lang::Auto`] an entry that several
/// languages read as different legal moves (`Rd1`: a rook in English, a
/// king in Spanish) is settled by `prefer`, the language of the person who
/// typed it, if that language reads it as one of them; otherwise it is
/// refused as ambiguous, as before.
///
/// # Examples
///
/// ```
/// use shakmaty::{Chess, Role, fen::Fen, CastlingMode};
/// use tactus_rules::language::Language;
/// use tactus_rules::notation::{Lang, parse_move, parse_move_preferring};
///
/// // A rook on a1 and the king on e1 can both reach d1.
/// let pos: Chess = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
///     .parse::<Fen>()
///     .unwrap()
///     .into_position(CastlingMode::Standard)
///     .unwrap();
/// assert!(parse_move(&pos, "Rd1", Lang::Auto).is_err()); // rook (en) or king (es)?
/// let m = parse_move_preferring(&pos, "Rd1", Lang::Auto, Some(Language::Es)).unwrap();
/// assert_eq!(m.role(), Role::King);
/// ```
pub fn parse_move_preferring(
    pos: &Chess,
    text: &str,
    lang: Lang,
    prefer: Option<Language>,
) -> Result<Move, MoveError> {
    let result = parse_move_in(pos, text, lang);
    let (Err(MoveError::Ambiguous { .. }), Lang::Auto, Some(p)) = (&result, lang, prefer) else {
        return result;
    };
    match parse_move_in(pos, text, Lang::Of(p)) {
        Ok(m) => Ok(m),
        Err(_) => result,
    }
}

fn parse_move_in(pos: &Chess, text: &str, lang: Lang) -> Result<Move, MoveError> {
    let items = tokenize(text);
    let entry = match items.as_slice() {
        [Item::Entry(e)] => e,
        _ => return Err(MoveError::Unreadable(text.trim().to_string())),
    };
    let legal = pos.legal_moves();
    let langs: &[Lang] = match lang {
        Lang::Auto => &Lang::AUTO_ORDER,
        ref one => std::slice::from_ref(one),
    };
    let mut found: Vec<Move> = Vec::new();
    let mut worst = StopReason::Unreadable;
    for &l in langs {
        match match_core(pos, &legal, &entry.core, l) {
            Ok(m) => {
                if !found.contains(&m) {
                    found.push(m);
                }
            }
            Err(StopReason::Unreadable) => {}
            Err(reason) => {
                // Report the most telling failure: ambiguous over illegal.
                if !matches!(worst, StopReason::Ambiguous(_)) {
                    worst = reason;
                }
            }
        }
    }
    let text = entry.text.clone();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(match worst {
            StopReason::Unreadable => MoveError::Unreadable(text),
            StopReason::Illegal => MoveError::Illegal(text),
            StopReason::Ambiguous(candidates) => MoveError::Ambiguous { text, candidates },
        }),
        several => Err(MoveError::Ambiguous {
            text,
            candidates: several
                .iter()
                .map(|&m| San::from_move(pos, m).to_string())
                .collect(),
        }),
    }
}
