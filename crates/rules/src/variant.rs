//! The games the FIDE Laws cover: standard chess and Chess960 (Guidelines
//! III). A PGN's `Variant` tag is read here, and a Chess960 start position
//! is made from its number.

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, EnPassantMode, FromSetup, Rank, Setup};

/// A game under the Laws.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::Variant;
///
/// assert_eq!("chess960".parse(), Ok(Variant::Chess960));
/// assert_eq!(Variant::default(), Variant::Standard);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// Chess from the usual start position (the default).
    #[default]
    Standard,
    /// Fischer random chess, FIDE Laws Guidelines III.
    Chess960,
}

/// A variant's name in a venue configuration that is neither `standard`
/// nor `chess960`.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::{UnknownVariant, Variant};
///
/// assert_eq!("Chess960".parse::<Variant>(), Err(UnknownVariant("Chess960".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant `{0}`: expected `standard` or `chess960` (the games \
     the FIDE Laws cover)"
)]
pub struct UnknownVariant(pub String);

/// A PGN `Variant` tag naming a game that is not under the Laws
/// (crazyhouse, atomic, …), with the tag's value as written.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::{NotUnderTheLaws, Variant};
///
/// assert_eq!(Variant::from_tag(" Atomic "), Err(NotUnderTheLaws("Atomic".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("variant `{0}` is not a game under the FIDE Laws")]
pub struct NotUnderTheLaws(pub String);

/// Why a Chess960 start position cannot be made.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::{Chess960Error, chess960_start};
///
/// assert_eq!(chess960_start(960).unwrap_err(), Chess960Error::NoSuchStart(960));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Chess960Error {
    /// The numbering runs from 0 to 959.
    #[error("Chess960 start position {0} does not exist: 0 to 959")]
    NoSuchStart(u32),
    /// shakmaty refused the set-up (never for a number under 960; kept so
    /// that no input can panic).
    #[error("Chess960 start position {number}: {reason}")]
    Setup {
        /// The start position's number.
        number: u32,
        /// shakmaty's reason.
        reason: String,
    },
}

impl std::str::FromStr for Variant {
    type Err = UnknownVariant;

    /// `standard` or `chess960`, as a venue configuration names them.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s {
            "standard" => Ok(Variant::Standard),
            "chess960" => Ok(Variant::Chess960),
            other => Err(UnknownVariant(other.to_owned())),
        }
    }
}

/// The standard start position's number in the Chess960 numbering.
const STANDARD_START: u32 = 518;

impl Variant {
    /// The variant a PGN `Variant` tag names, as other programs write it
    /// (case ignored): standard chess under its usual names, Chess960 as
    /// `Chess960`, `Chess 960`, `fischerandom` (cutechess),
    /// `fischerrandom`, `Fischer Random`. Anything else (crazyhouse,
    /// antichess, atomic, …) is not a game under the Laws: `Err` with the
    /// tag's value.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::Variant;
    ///
    /// assert_eq!(Variant::from_tag("fischerandom"), Ok(Variant::Chess960));
    /// assert_eq!(Variant::from_tag("From Position"), Ok(Variant::Standard));
    /// assert!(Variant::from_tag("crazyhouse").is_err());
    /// ```
    pub fn from_tag(value: &str) -> Result<Variant, NotUnderTheLaws> {
        let name = value.trim().to_ascii_lowercase();
        match name.as_str() {
            "" | "standard" | "chess" | "classical" | "normal" | "from position" => {
                Ok(Variant::Standard)
            }
            "chess960" | "chess 960" | "chess-960" | "fischerandom" | "fischerrandom"
            | "fischer random" | "960" => Ok(Variant::Chess960),
            _ => Err(NotUnderTheLaws(value.trim().to_owned())),
        }
    }

    /// What the `Variant` tag says when written (none for standard chess).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::Variant;
    ///
    /// assert_eq!(Variant::Chess960.tag(), Some("Chess960"));
    /// assert_eq!(Variant::Standard.tag(), None);
    /// ```
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }

    /// How castling moves are written in UCI and set up from a FEN.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::CastlingMode;
    /// use tactus_rules::variant::Variant;
    ///
    /// assert_eq!(Variant::Chess960.castling_mode(), CastlingMode::Chess960);
    /// ```
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// The start position when a game has no `FEN` tag: for Chess960, the
    /// standard arrangement (number 518) with Chess960 castling.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Chess, Position};
    /// use tactus_rules::variant::Variant;
    ///
    /// let start = Variant::Chess960.initial();
    /// assert_eq!(start.board(), Chess::default().board());
    /// assert!(start.castles().mode().is_chess960());
    /// ```
    pub fn initial(self) -> Chess {
        match self {
            Variant::Standard => Chess::default(),
            Variant::Chess960 => chess960_start(STANDARD_START).unwrap_or_default(),
        }
    }
}

/// Chess960 start position `number` (0 to 959, Scharnagl's numbering as
/// FIDE and every Chess960 program use it: 518 is the standard position,
/// 0 is `BBQNNRKR`), White to move, every castling right.
///
/// # Examples
///
/// ```
/// use shakmaty::{Position, Role, Square};
/// use tactus_rules::variant::chess960_start;
///
/// let pos = chess960_start(0).unwrap();
/// assert_eq!(pos.board().role_at(Square::A1), Some(Role::Bishop));
/// assert_eq!(pos.board().role_at(Square::G1), Some(Role::King));
/// assert!(chess960_start(960).is_err());
/// ```
pub fn chess960_start(number: u32) -> Result<Chess, Chess960Error> {
    if number >= 960 {
        return Err(Chess960Error::NoSuchStart(number));
    }
    let board = Board::chess960(number);
    let mut setup = Setup::initial();
    setup.castling_rights = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
    setup.board = board;
    Chess::from_setup(setup, CastlingMode::Chess960).map_err(|e| Chess960Error::Setup {
        number,
        reason: e.to_string(),
    })
}

/// A checked Chess960 start: its number (0 to 959) and the position made
/// from it, so a table that has one cannot lack its position.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::Chess960Start;
///
/// assert_eq!(Chess960Start::new(518).unwrap().number(), 518);
/// assert!(Chess960Start::new(960).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Chess960Start {
    number: u32,
    position: Chess,
}

impl Chess960Start {
    /// Start position `number`, or why there is none.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::Chess960Start;
    ///
    /// assert!(Chess960Start::new(959).is_ok());
    /// assert_eq!(
    ///     Chess960Start::new(960).unwrap_err().to_string(),
    ///     "Chess960 start position 960 does not exist: 0 to 959"
    /// );
    /// ```
    pub fn new(number: u32) -> Result<Chess960Start, Chess960Error> {
        Ok(Chess960Start {
            number,
            position: chess960_start(number)?,
        })
    }

    /// Its number, 0 to 959.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::Chess960Start;
    ///
    /// assert_eq!(Chess960Start::new(0).unwrap().number(), 0);
    /// ```
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The position, White to move, every castling right.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Position, Role, Square};
    /// use tactus_rules::variant::Chess960Start;
    ///
    /// let s = Chess960Start::new(0).unwrap();
    /// assert_eq!(s.position().board().role_at(Square::A1), Some(Role::Bishop));
    /// ```
    pub fn position(&self) -> &Chess {
        &self.position
    }
}

impl PartialEq for Chess960Start {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number
    }
}

impl Eq for Chess960Start {}

/// Where a table's games start: the standard position, or a Chess960 one
/// (Guidelines III) with its number.
///
/// # Examples
///
/// ```
/// use tactus_rules::variant::{Chess960Start, Start, Variant};
///
/// assert_eq!(Start::default().variant(), Variant::Standard);
/// let s = Start::Chess960(Chess960Start::new(0).unwrap());
/// assert_eq!(s.variant(), Variant::Chess960);
/// assert_ne!(s.position(), shakmaty::Chess::default());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Start {
    /// The usual start position.
    #[default]
    Standard,
    /// A Chess960 start position.
    Chess960(Chess960Start),
}

impl Start {
    /// The variant the table plays.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::{Start, Variant};
    ///
    /// assert_eq!(Start::Standard.variant(), Variant::Standard);
    /// ```
    pub fn variant(&self) -> Variant {
        match self {
            Start::Standard => Variant::Standard,
            Start::Chess960(_) => Variant::Chess960,
        }
    }

    /// The position each game starts from.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::variant::Start;
    ///
    /// assert_eq!(Start::Standard.position(), shakmaty::Chess::default());
    /// ```
    pub fn position(&self) -> Chess {
        match self {
            Start::Standard => Chess::default(),
            Start::Chess960(s) => s.position().clone(),
        }
    }
}

/// The number of the Chess960 start position `pos` is, if it is one (the
/// standard position is 518).
///
/// # Examples
///
/// ```
/// use shakmaty::Chess;
/// use tactus_rules::variant::{chess960_number, chess960_start};
///
/// assert_eq!(chess960_number(&Chess::default()), Some(518));
/// assert_eq!(chess960_number(&chess960_start(7).unwrap()), Some(7));
/// ```
pub fn chess960_number(pos: &Chess) -> Option<u32> {
    // By FEN: the same position set up with standard castling (king on e1,
    // rooks on a1 and h1) is the same start.
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    (0..960).find(|&n| chess960_fen(n).is_ok_and(|start| start == fen))
}

/// The FEN (X-FEN castling) of Chess960 start position `number`.
fn chess960_fen(number: u32) -> Result<String, Chess960Error> {
    chess960_start(number).map(|pos| Fen::from_position(&pos, EnPassantMode::Legal).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    fn back_rank(number: u32) -> String {
        let fen = chess960_fen(number).unwrap();
        fen.split('/')
            .next_back()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn start_positions_follow_the_usual_numbering() {
        // Known numbers (Scharnagl's, as python-chess's
        // `Board.from_chess960_pos` gives them).
        for (n, rank) in [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (100, "QBBNRNKR"),
            (518, "RNBQKBNR"),
            (534, "RNBKQBNR"),
            (700, "RBQKNNBR"),
            (959, "RKRNNQBB"),
        ] {
            assert_eq!(back_rank(n), rank, "{n}");
        }
        assert_eq!(
            chess960_start(518).unwrap().board(),
            Chess::default().board()
        );
        assert_eq!(
            chess960_start(960).unwrap_err(),
            Chess960Error::NoSuchStart(960)
        );
        assert!(
            chess960_start(960)
                .unwrap_err()
                .to_string()
                .contains("0 to 959")
        );
    }

    #[test]
    fn every_start_position_is_legal_with_four_castling_rights() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let pos = chess960_start(n).unwrap();
            assert_eq!(pos.castles().castling_rights().count(), 4, "{n}");
            assert!(seen.insert(back_rank(n)), "{n} twice");
            // The FEN reads back as the same position.
            let fen: Fen = chess960_fen(n).unwrap().parse().unwrap();
            let back: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
            assert_eq!(back, pos, "{n}");
        }
    }

    #[test]
    fn variant_tags_as_programs_write_them() {
        for v in ["Chess960", "chess 960", "fischerandom", "Fischer Random"] {
            assert_eq!(Variant::from_tag(v), Ok(Variant::Chess960), "{v}");
        }
        for v in ["Standard", "", "From Position"] {
            assert_eq!(Variant::from_tag(v), Ok(Variant::Standard), "{v}");
        }
        for v in [
            "Crazyhouse",
            "Antichess",
            "Atomic",
            "King of the Hill",
            "Three-check",
        ] {
            assert_eq!(Variant::from_tag(v), Err(NotUnderTheLaws(v.to_owned())));
        }
    }
}
