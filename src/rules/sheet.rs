//! Scoresheets as people write them (`docs/ruling.md`): piece
//! letters of several languages, figurines, short and long algebraic, the
//! usual capture, en passant, promotion, check and annotation marks, move
//! numbers, the draw-offer mark `(=)` and results.
//!
//! Each entry is read into a pattern (piece, origin file/rank, target,
//! promotion, or castling side) and matched against shakmaty's legal moves,
//! so the rules are shakmaty's: no move generation or SAN is written here.
//!
//! Marks that never change which move is meant (capture `x`/`:`, `e.p.`,
//! `+`, `#`, `!`, `?`) are accepted and not checked against the move: a
//! player who wrote `Nxe4` for a quiet knight move still meant that move.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, File, Move, Outcome, Position, Rank, Role, Square};

/// The piece letters a sheet is written in. [`Lang::Auto`] picks, per sheet,
/// the language under which the sheet reads furthest as legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// Try every language; see [`Lang::AUTO_ORDER`] for ties.
    #[default]
    Auto,
    /// K Q R B N (pawn `P` optional).
    En,
    /// K D T L S (also Swedish, Danish, Norwegian).
    De,
    /// R D T A C (Spanish and Italian; pawn `P` optional).
    Es,
    /// R D T F C (pawn `P` optional).
    Fr,
    /// K D T L P (`P` is the knight, "paard").
    Nl,
    /// R D T B C (Portuguese; pawn `P` optional).
    Pt,
    /// K H W G S (Polish).
    Pl,
    /// K D V S J (Czech).
    Cs,
}

impl Lang {
    /// The languages [`Lang::Auto`] tries. When two read a sheet equally far,
    /// the one earlier in this list wins: English first (PGN's letters), then
    /// German (the default voice pack's language), then Spanish/Italian
    /// before French (they share `R D T C`), then the others.
    pub const AUTO_ORDER: [Lang; 8] = [
        Lang::En,
        Lang::De,
        Lang::Es,
        Lang::Fr,
        Lang::Nl,
        Lang::Pt,
        Lang::Pl,
        Lang::Cs,
    ];

    /// The short code used on the command line and in JSON (`en`, `de`, ...).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Auto => "auto",
            Lang::En => "en",
            Lang::De => "de",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::Nl => "nl",
            Lang::Pt => "pt",
            Lang::Pl => "pl",
            Lang::Cs => "cs",
        }
    }

    /// Letters for king, queen, rook, bishop, knight, and the optional pawn
    /// letter.
    const fn letters(self) -> ([char; 5], Option<char>) {
        match self {
            Lang::Auto | Lang::En => (['K', 'Q', 'R', 'B', 'N'], Some('P')),
            Lang::De => (['K', 'D', 'T', 'L', 'S'], None),
            Lang::Es => (['R', 'D', 'T', 'A', 'C'], Some('P')),
            Lang::Fr => (['R', 'D', 'T', 'F', 'C'], Some('P')),
            Lang::Nl => (['K', 'D', 'T', 'L', 'P'], None),
            Lang::Pt => (['R', 'D', 'T', 'B', 'C'], Some('P')),
            Lang::Pl => (['K', 'H', 'W', 'G', 'S'], None),
            Lang::Cs => (['K', 'D', 'V', 'S', 'J'], None),
        }
    }

    /// The letter this language writes for `role` (`None` for the pawn,
    /// which is written without a letter).
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

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "auto" => Lang::Auto,
            "en" => Lang::En,
            "de" | "sv" | "da" | "no" => Lang::De,
            "es" | "it" => Lang::Es,
            "fr" => Lang::Fr,
            "nl" => Lang::Nl,
            "pt" => Lang::Pt,
            "pl" => Lang::Pl,
            "cs" => Lang::Cs,
            _ => {
                return Err(format!(
                    "unknown sheet language `{s}`: expected auto, en, de, es, it, fr, nl, pt, pl or cs"
                ));
            }
        })
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
    pub const fn code(&self) -> &'static str {
        match self {
            StopReason::Unreadable => "unreadable",
            StopReason::Illegal => "illegal",
            StopReason::Ambiguous(_) => "ambiguous",
        }
    }
}

/// The entry where reading a sheet stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// Ply number of the entry, from 1 at the start position.
    pub ply: usize,
    /// The entry as written (with its marks).
    pub text: String,
    /// Why it is not one legal move.
    #[serde(rename = "reason", serialize_with = "ser_reason")]
    pub reason: StopReason,
    /// The legal moves that fit an ambiguous entry, in SAN (empty otherwise).
    pub candidates: Vec<String>,
}

fn ser_reason<S: Serializer>(r: &StopReason, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.code())
}

/// A sheet read against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The language the sheet was read in (never [`Lang::Auto`]).
    pub lang: Lang,
    /// The legal moves read, from the start position.
    pub moves: Vec<Move>,
    /// The text of each entry read, parallel to `moves`.
    pub entries: Vec<String>,
    /// Plies (from 1) whose entry carries the draw-offer mark `(=)`.
    pub draw_offers: Vec<usize>,
    /// The first entry that is not one legal move, if any.
    pub stop: Option<Stop>,
    /// The result written at the end, if any.
    pub result: Option<Outcome>,
}

impl Sheet {
    /// Whether every entry was read as a legal move.
    pub fn complete(&self) -> bool {
        self.stop.is_none()
    }

    /// The entry text at ply `ply` (from 1): a read entry, the stopping
    /// entry, or `None` past the sheet's end.
    pub fn entry_at(&self, ply: usize) -> Option<&str> {
        let i = ply.checked_sub(1)?;
        if let Some(text) = self.entries.get(i) {
            return Some(text);
        }
        self.stop
            .as_ref()
            .filter(|s| s.ply == ply)
            .map(|s| s.text.as_str())
    }
}

/// A single move that could not be read (see [`parse_move`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a move")]
    Unreadable(String),
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
    #[error("`{text}` fits several legal moves: {}", candidates.join(", "))]
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

/// One entry of a sheet before it is matched: its text and its core (the
/// move itself without number and marks).
#[derive(Debug, Clone)]
struct RawEntry {
    text: String,
    core: String,
    draw_offer: bool,
}

enum Item {
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

fn tokenize(text: &str) -> Vec<Item> {
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
    let castle: String = core
        .chars()
        .map(|c| match c {
            '0' | 'o' => 'O',
            '–' | '—' => '-',
            c => c,
        })
        .collect();
    match castle.as_str() {
        "O-O" | "OO" => return Some(Pattern::Castle(CastlingSide::KingSide)),
        "O-O-O" | "OOO" => return Some(Pattern::Castle(CastlingSide::QueenSide)),
        _ => {}
    }

    let mut chars: Vec<char> = core.chars().collect();
    let mut role = None;
    if let Some(&first) = chars.first()
        && (first.is_uppercase() || figurine(first).is_some())
    {
        role = Some(lang.role(first)?);
        chars.remove(0);
    }

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
fn match_core(pos: &Chess, legal: &[Move], core: &str, lang: Lang) -> Result<Move, StopReason> {
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
pub fn parse_move(pos: &Chess, text: &str, lang: Lang) -> Result<Move, MoveError> {
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

/// One language's reading of a sheet while it is under way.
struct Reading {
    langs: Vec<Lang>,
    pos: Chess,
    moves: Vec<Move>,
}

/// Reads a whole sheet from `start`. With [`Lang::Auto`] the sheet is read
/// in every language of [`Lang::AUTO_ORDER`] and the one reading furthest
/// wins (ties: the earlier in that order). Languages that read an entry as
/// the same move share one position, so auto costs little more than one
/// reading.
pub fn read_sheet(start: &Chess, text: &str, lang: Lang) -> Sheet {
    let items = tokenize(text);
    let langs: Vec<Lang> = match lang {
        Lang::Auto => Lang::AUTO_ORDER.to_vec(),
        one => vec![one],
    };
    // Each language's end: moves read and where it stopped.
    let mut ended: Vec<(Lang, Vec<Move>, Option<Stop>)> = Vec::new();
    let mut readings = vec![Reading {
        langs,
        pos: start.clone(),
        moves: Vec::new(),
    }];
    let mut entries: Vec<&RawEntry> = Vec::new();
    let mut result = None;

    for item in &items {
        let entry = match item {
            Item::Result(outcome, _) if result.is_none() => {
                result = Some(*outcome);
                continue;
            }
            Item::Entry(e) if result.is_none() => e,
            Item::Entry(RawEntry { text, .. }) | Item::Result(_, text) => {
                // Anything after the result: the sheet is not what it seems.
                let ply = entries.len() + 1;
                for r in readings.drain(..) {
                    for l in r.langs {
                        let s = stop(ply, text, StopReason::Unreadable);
                        ended.push((l, r.moves.clone(), Some(s)));
                    }
                }
                break;
            }
        };
        let ply = entries.len() + 1;
        entries.push(entry);
        let mut next: Vec<Reading> = Vec::with_capacity(readings.len());
        for Reading { langs, pos, moves } in readings.drain(..) {
            let legal = pos.legal_moves();
            let mut by_move: Vec<(Move, Vec<Lang>)> = Vec::new();
            for &l in &langs {
                match match_core(&pos, &legal, &entry.core, l) {
                    Ok(m) => match by_move.iter_mut().find(|(bm, _)| *bm == m) {
                        Some((_, ls)) => ls.push(l),
                        None => by_move.push((m, vec![l])),
                    },
                    Err(reason) => {
                        let candidates = match &reason {
                            StopReason::Ambiguous(c) => c.clone(),
                            _ => Vec::new(),
                        };
                        let stop = Stop {
                            ply,
                            text: entry.text.clone(),
                            reason,
                            candidates,
                        };
                        ended.push((l, moves.clone(), Some(stop)));
                    }
                }
            }
            // The last reading takes the position and moves over; only a
            // split (languages reading different moves) copies them.
            let mut base = Some((pos, moves));
            let n = by_move.len();
            for (i, (m, ls)) in by_move.into_iter().enumerate() {
                let taken = if i + 1 == n {
                    base.take()
                } else {
                    base.clone()
                };
                let Some((mut pos, mut moves)) = taken else {
                    continue;
                };
                pos.play_unchecked(m);
                moves.push(m);
                next.push(Reading {
                    langs: ls,
                    pos,
                    moves,
                });
            }
        }
        readings = next;
        if readings.is_empty() {
            break;
        }
    }
    for r in readings {
        for l in r.langs {
            ended.push((l, r.moves.clone(), None));
        }
    }

    let rank = |l: Lang| Lang::AUTO_ORDER.iter().position(|&x| x == l);
    ended.sort_by(|a, b| {
        b.1.len()
            .cmp(&a.1.len())
            .then_with(|| a.2.is_some().cmp(&b.2.is_some()))
            .then_with(|| rank(a.0).cmp(&rank(b.0)))
    });
    let (lang, moves, stop) = ended.into_iter().next().unwrap_or((
        match lang {
            Lang::Auto => Lang::En,
            l => l,
        },
        Vec::new(),
        None,
    ));
    let n = moves.len();
    Sheet {
        lang,
        entries: entries.iter().take(n).map(|e| e.text.clone()).collect(),
        draw_offers: entries
            .iter()
            .take(n)
            .enumerate()
            .filter(|(_, e)| e.draw_offer)
            .map(|(i, _)| i + 1)
            .collect(),
        moves,
        stop,
        result,
    }
}

fn stop(ply: usize, text: &str, reason: StopReason) -> Stop {
    Stop {
        ply,
        text: text.to_string(),
        reason,
        candidates: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn san(p: &Chess, text: &str, lang: Lang) -> String {
        let m = parse_move(p, text, lang).unwrap_or_else(|e| panic!("{text}: {e}"));
        San::from_move(p, m).to_string()
    }

    fn after(moves: &str) -> Chess {
        let sheet = read_sheet(&Chess::default(), moves, Lang::En);
        assert!(sheet.complete(), "{:?}", sheet.stop);
        let mut p = Chess::default();
        for m in sheet.moves {
            p.play_unchecked(m);
        }
        p
    }

    #[test]
    fn every_language_names_the_knight_and_bishop() {
        let p = after("e4 e5");
        for (lang, knight, bishop) in [
            (Lang::En, "Nf3", "Bc4"),
            (Lang::De, "Sf3", "Lc4"),
            (Lang::Es, "Cf3", "Ac4"),
            (Lang::Fr, "Cf3", "Fc4"),
            (Lang::Nl, "Pf3", "Lc4"),
            (Lang::Pt, "Cf3", "Bc4"),
            (Lang::Pl, "Sf3", "Gc4"),
            (Lang::Cs, "Jf3", "Sc4"),
        ] {
            assert_eq!(san(&p, knight, lang), "Nf3", "{lang}");
            assert_eq!(san(&p, bishop, lang), "Bc4", "{lang}");
        }
        for fig in ["♘f3", "♞f3", "♘g1-f3"] {
            assert_eq!(san(&p, fig, Lang::De), "Nf3");
        }
    }

    #[test]
    fn queen_rook_and_king_letters() {
        let p = pos("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1");
        for (lang, k, q, r) in [
            (Lang::En, "Kf2", "Qd4", "Ra7"),
            (Lang::De, "Kf2", "Dd4", "Ta7"),
            (Lang::Es, "Rf2", "Dd4", "Ta7"),
            (Lang::Fr, "Rf2", "Dd4", "Ta7"),
            (Lang::Nl, "Kf2", "Dd4", "Ta7"),
            (Lang::Pl, "Kf2", "Hd4", "Wa7"),
            (Lang::Cs, "Kf2", "Dd4", "Va7"),
        ] {
            assert_eq!(san(&p, k, lang), "Kf2", "{lang}");
            assert_eq!(san(&p, q, lang), "Qd4", "{lang}");
            assert_eq!(san(&p, r, lang), "Ra7", "{lang}");
        }
        assert_eq!(san(&p, "♔f2", Lang::Auto), "Kf2");
        assert_eq!(san(&p, "♕d1-d4", Lang::Auto), "Qd4");
        assert_eq!(san(&p, "♜a1a7", Lang::Auto), "Ra7");
    }

    #[test]
    fn long_algebraic_and_capture_marks() {
        let p = after("e4 d5");
        for text in [
            "exd5", "e4xd5", "e4:d5", "ed5", "e:d5", "exd", "ed", "e4d5", "e4×d5", "Pe4xd5", "ed5:",
        ] {
            assert_eq!(san(&p, text, Lang::En), "exd5", "{text}");
        }
        for text in ["e2e4", "e2-e4"] {
            assert_eq!(san(&Chess::default(), text, Lang::En), "e4", "{text}");
        }
        for (text, lang) in [
            ("Ng1-f3", Lang::En),
            ("Cg1f3", Lang::Es),
            ("g1f3", Lang::En),
            ("Sg1:f3", Lang::De),
        ] {
            assert_eq!(san(&Chess::default(), text, lang), "Nf3", "{text}");
        }
    }

    #[test]
    fn castling_in_letters_and_digits() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "o-o", "O-O+", "Ke1-g1", "e1g1", "Kg1"] {
            assert_eq!(san(&p, text, Lang::En), "O-O", "{text}");
        }
        for text in ["O-O-O", "0-0-0", "0-0-0!"] {
            assert_eq!(san(&p, text, Lang::Es), "O-O-O", "{text}");
        }
    }

    #[test]
    fn en_passant_marks() {
        let p = after("e4 a6 e5 d5");
        for text in [
            "exd6",
            "exd6 e.p.",
            "exd6e.p.",
            "exd6 ep",
            "exd6 a.p.",
            "e5xd6",
            "e5:d6 e.p.",
        ] {
            assert_eq!(san(&p, text, Lang::De), "exd6", "{text}");
        }
    }

    #[test]
    fn promotions_in_every_form_and_language() {
        let p = pos("3r3k/2P5/8/8/8/8/8/4K3 w - - 0 1");
        for (text, lang, want) in [
            ("c8=Q", Lang::En, "c8=Q"),
            ("c8Q", Lang::En, "c8=Q"),
            ("c8/Q", Lang::En, "c8=Q"),
            ("c8(Q)", Lang::En, "c8=Q"),
            ("c7c8q", Lang::En, "c8=Q"),
            ("c8=D", Lang::De, "c8=Q"),
            ("c8S", Lang::De, "c8=N"),
            ("c8(P)", Lang::Nl, "c8=N"),
            ("c8=C", Lang::Fr, "c8=N"),
            ("c8=F", Lang::Fr, "c8=B"),
            ("c8=A", Lang::Es, "c8=B"),
            ("c8=♖", Lang::En, "c8=R"),
            ("cxd8=T", Lang::De, "cxd8=R+"),
            ("c7:d8D+", Lang::De, "cxd8=Q+"),
        ] {
            let m = parse_move(&p, text, lang).unwrap_or_else(|e| panic!("{text}: {e}"));
            let plus = shakmaty::san::SanPlus::from_move(p.clone(), m).to_string();
            assert_eq!(plus, want, "{text} in {lang}");
        }
        // No piece written: four promotions fit.
        match parse_move(&p, "c8", Lang::En) {
            Err(MoveError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, ["c8=Q", "c8=R", "c8=B", "c8=N"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_move(&p, "c8=P", Lang::En),
            Err(MoveError::Illegal(_))
        ));
    }

    #[test]
    fn marks_numbers_and_draw_offers() {
        let sheet = read_sheet(
            &Chess::default(),
            "1.e4! e5?! 2) Nf3 (=) 2... Nc6 3. Bb5+? a6!! 4.Ba4†  Nf6‡ 5. O-O(=) ... Be7 1/2-1/2",
            Lang::Auto,
        );
        assert!(sheet.complete(), "{:?}", sheet.stop);
        assert_eq!(sheet.moves.len(), 10);
        assert_eq!(sheet.draw_offers, [3, 9]);
        assert_eq!(sheet.entries.get(2).map(String::as_str), Some("Nf3 (=)"));
        assert_eq!(
            sheet.result,
            Some(Outcome::Known(shakmaty::KnownOutcome::Draw))
        );
        for result in ["1-0", "0-1", "½-½", "*", "1:0"] {
            let s = read_sheet(&Chess::default(), &format!("1. e4 {result}"), Lang::En);
            assert!(s.result.is_some() && s.complete(), "{result}");
        }
    }

    #[test]
    fn ambiguous_entries_list_the_candidates() {
        let p = pos("4k3/8/8/8/8/8/8/N3K1N1 w - - 0 1");
        let sheet = read_sheet(&p, "1. Nf3", Lang::En);
        assert!(sheet.complete());
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        let sheet = read_sheet(&p, "1. Nd2", Lang::En);
        let stop = sheet.stop.unwrap();
        assert_eq!((stop.ply, stop.text.as_str()), (1, "Nd2"));
        assert_eq!(stop.reason.code(), "ambiguous");
        assert_eq!(stop.candidates, ["Nbd2", "Nfd2"]);
        assert_eq!(san(&p, "Nbd2", Lang::En), "Nbd2");
        assert_eq!(san(&p, "Nb1-d2", Lang::En), "Nbd2");
        assert!(matches!(
            parse_move(&p, "N1d2", Lang::En),
            Err(MoveError::Ambiguous { .. })
        ));
    }

    #[test]
    fn illegal_and_unreadable_entries_stop_the_sheet() {
        let sheet = read_sheet(&Chess::default(), "1. e4 e5 2. Ke3 Nc6", Lang::En);
        assert_eq!(sheet.moves.len(), 2);
        let stop = sheet.stop.unwrap();
        assert_eq!(
            (stop.ply, stop.text.as_str(), stop.reason),
            (3, "Ke3", StopReason::Illegal)
        );
        for bad in ["Qd9", "Zf3", "e4e", "xx", "Nf3-", "e2--e4", "(Q)"] {
            let sheet = read_sheet(&Chess::default(), bad, Lang::En);
            let stop = sheet.stop.unwrap_or_else(|| panic!("{bad} read"));
            assert_eq!(stop.reason, StopReason::Unreadable, "{bad}");
        }
        let sheet = read_sheet(&Chess::default(), "1. e4 e5 1-0 2. Nf3", Lang::En);
        assert_eq!(
            sheet.stop.map(|s| (s.ply, s.text)),
            Some((3, "Nf3".to_string()))
        );
        assert!(matches!(
            parse_move(&Chess::default(), "e4 e5", Lang::En),
            Err(MoveError::Unreadable(_))
        ));
        assert!(matches!(
            parse_move(&Chess::default(), "", Lang::En),
            Err(MoveError::Unreadable(_))
        ));
    }

    #[test]
    fn auto_picks_the_language_that_reads_furthest() {
        let start = Chess::default();
        // `R` is a rook in English and a king in Spanish.
        let es = read_sheet(&start, "1. e4 e5 2. Re2 Cc6 3. Rf3 Ac5", Lang::Auto);
        assert_eq!(es.lang, Lang::Es);
        assert!(es.complete());
        let de = read_sheet(
            &start,
            "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. O-O Le7",
            Lang::Auto,
        );
        assert_eq!((de.lang, de.moves.len()), (Lang::De, 10));
        let nl = read_sheet(&start, "1. e4 e5 2. Pf3 Pc6 3. Lb5", Lang::Auto);
        assert_eq!(nl.lang, Lang::Nl);
        // Pawn moves only: every language reads it; English wins the tie.
        let tie = read_sheet(&start, "1. e4 e5", Lang::Auto);
        assert_eq!(tie.lang, Lang::En);
        // A single move read differently by two languages is ambiguous.
        let p = after("e4 e5 Nf3 Nc6 Bc4 Nf6");
        let m = parse_move(&p, "Rf1", Lang::Auto);
        assert!(matches!(m, Err(MoveError::Ambiguous { .. })), "{m:?}");
    }

    #[test]
    fn sheets_read_from_another_start() {
        let p = pos("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
        let sheet = read_sheet(&p, "40... Kd7 41. e4 Kd6", Lang::En);
        assert!(sheet.complete(), "{:?}", sheet.stop);
        let mut end = p.clone();
        for m in &sheet.moves {
            end.play_unchecked(*m);
        }
        assert_eq!(
            Fen::from_position(&end, EnPassantMode::Legal).to_string(),
            "8/8/3k4/8/4P3/8/8/4K3 w - - 1 42"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Any text, and text made of the notation's own characters: the
        /// reader never panics and reads only legal moves.
        #[test]
        fn reading_never_panics(
            any_text in "\\PC{0,60}",
            notation in "[KQRBNDTLSACFPkqrbnx:=/()+#!?.0-9a-hOo \\-♔♕♖♗♘♞†‡½*]{0,80}",
        ) {
            for text in [&any_text, &notation] {
                for lang in [Lang::Auto, Lang::En, Lang::De, Lang::Nl] {
                    let sheet = read_sheet(&Chess::default(), text, lang);
                    let mut p = Chess::default();
                    for &m in &sheet.moves {
                        proptest::prop_assert!(p.is_legal(m));
                        p.play_unchecked(m);
                    }
                    let _ = parse_move(&p, text, lang);
                }
            }
        }
    }
}
