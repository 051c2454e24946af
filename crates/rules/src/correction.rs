//! Which squares of a physical board differ from the game, and how to say
//! the fix (D.2.9 rulings, following the opponent's move on the tactile
//! board). Used by the reconcile ruling and by the board follower alike.

use serde::{Serialize, Serializer};
use shakmaty::{Bitboard, Board, Piece, Square};

use super::announce::push_square;
use super::token::{Token, Word};

/// One square where a board differs from the position it should show.
///
/// # Examples
///
/// ```
/// use shakmaty::{Piece, Square, Color, Role};
/// use tactus_rules::correction::SquareFix;
///
/// let fix = SquareFix {
///     square: Square::E4,
///     expected: None,
///     found: Some(Piece { color: Color::White, role: Role::Pawn }),
/// };
/// let json = serde_json::to_string(&fix).unwrap();
/// assert_eq!(json, r#"{"square":"e4","expected":null,"found":"P"}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SquareFix {
    /// The square.
    #[serde(serialize_with = "super::side::serialize_square")]
    pub square: Square,
    /// What belongs there (`None`: the square must be empty).
    #[serde(serialize_with = "ser_piece")]
    pub expected: Option<Piece>,
    /// What is there now (`None`: empty).
    #[serde(serialize_with = "ser_piece")]
    pub found: Option<Piece>,
}

/// Every square where `found` differs from `expected`, a1 to h8.
///
/// # Examples
///
/// ```
/// use shakmaty::{Board, Square};
/// use tactus_rules::correction::diff_boards;
///
/// let mut found = Board::default();
/// let pawn = found.remove_piece_at(Square::E2).unwrap();
/// found.set_piece_at(Square::E4, pawn);
/// let fixes = diff_boards(&Board::default(), &found);
/// let squares: Vec<Square> = fixes.iter().map(|f| f.square).collect();
/// assert_eq!(squares, [Square::E2, Square::E4]);
/// assert_eq!(fixes[0].expected, Some(pawn));
/// ```
pub fn diff_boards(expected: &Board, found: &Board) -> Vec<SquareFix> {
    let mut fixes = Vec::new();
    for square in expected.occupied() | found.occupied() {
        let (e, f) = (expected.piece_at(square), found.piece_at(square));
        if e != f {
            fixes.push(SquareFix {
                square,
                expected: e,
                found: f,
            });
        }
    }
    fixes
}

/// A hole of a peg board that is wrong. A peg board senses occupancy only,
/// so it can say "empty this hole" or "a piece belongs here", never which
/// piece stands in a hole.
///
/// # Examples
///
/// ```
/// use shakmaty::Square;
/// use tactus_rules::correction::HoleFix;
///
/// let fix = HoleFix { square: Square::D5, expected: None };
/// assert_eq!(serde_json::to_string(&fix).unwrap(), r#"{"square":"d5","expected":null}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HoleFix {
    /// The hole, by its square.
    #[serde(serialize_with = "super::side::serialize_square")]
    pub square: Square,
    /// The piece that belongs in the hole, or `None` if it must be emptied.
    #[serde(serialize_with = "ser_piece")]
    pub expected: Option<Piece>,
}

/// Every hole whose occupancy differs from `expected`, a1 to h8.
///
/// # Examples
///
/// ```
/// use shakmaty::{Board, Square};
/// use tactus_rules::correction::diff_holes;
///
/// let start = Board::default();
/// // A peg left on e2 is no fault; a piece missing from g1 and a peg on f3 are.
/// let sensed = start.occupied().without(Square::G1).with(Square::F3);
/// let fixes = diff_holes(&start, sensed);
/// assert_eq!(fixes.len(), 2);
/// assert_eq!((fixes[0].square, fixes[0].expected.is_some()), (Square::G1, true));
/// assert_eq!((fixes[1].square, fixes[1].expected), (Square::F3, None));
/// ```
pub fn diff_holes(expected: &Board, occupied: Bitboard) -> Vec<HoleFix> {
    (expected.occupied() ^ occupied)
        .into_iter()
        .map(|square| HoleFix {
            square,
            expected: expected.piece_at(square),
        })
        .collect()
}

/// The spoken fix for each square: first every removal ("Entferne Eva
/// vier"), then every placement ("Setze weiße Dame auf Eva vier"), so the
/// player frees squares before filling them.
///
/// # Examples
///
/// ```
/// use shakmaty::{Board, Square};
/// use tactus_rules::correction::{diff_boards, say_fixes};
///
/// let mut found = Board::default();
/// let pawn = found.remove_piece_at(Square::E2).unwrap();
/// found.set_piece_at(Square::E4, pawn);
/// let keys: Vec<String> = say_fixes(&diff_boards(&Board::default(), &found))
///     .iter()
///     .map(|t| t.key())
///     .collect();
/// assert_eq!(
///     keys,
///     ["board.remove", "file.e", "rank.4", "board.put", "piece.white.pawn", "board.on", "file.e", "rank.2"]
/// );
/// ```
pub fn say_fixes(fixes: &[SquareFix]) -> Vec<Token> {
    let mut tokens = Vec::new();
    for fix in fixes.iter().filter(|f| f.found.is_some()) {
        say_remove(&mut tokens, fix.square);
    }
    for fix in fixes {
        if let Some(piece) = fix.expected {
            say_put(&mut tokens, fix.square, piece);
        }
    }
    tokens
}

/// The spoken fix for each wrong hole, removals first as in [`say_fixes`].
///
/// # Examples
///
/// ```
/// use shakmaty::{Board, Square};
/// use tactus_rules::correction::{diff_holes, say_hole_fixes};
///
/// let start = Board::default();
/// let fixes = diff_holes(&start, start.occupied().with(Square::E4));
/// let keys: Vec<String> = say_hole_fixes(&fixes).iter().map(|t| t.key()).collect();
/// assert_eq!(keys, ["board.remove", "file.e", "rank.4"]);
/// ```
pub fn say_hole_fixes(fixes: &[HoleFix]) -> Vec<Token> {
    let mut tokens = Vec::new();
    for fix in fixes.iter().filter(|f| f.expected.is_none()) {
        say_remove(&mut tokens, fix.square);
    }
    for fix in fixes {
        if let Some(piece) = fix.expected {
            say_put(&mut tokens, fix.square, piece);
        }
    }
    tokens
}

fn say_remove(tokens: &mut Vec<Token>, square: Square) {
    tokens.push(Token::Word(Word::Remove));
    push_square(tokens, square);
}

fn say_put(tokens: &mut Vec<Token>, square: Square, piece: Piece) {
    tokens.push(Token::Word(Word::Put));
    tokens.push(Token::ColoredPiece(piece.color, piece.role));
    tokens.push(Token::Word(Word::On));
    push_square(tokens, square);
}

/// FEN letters: upper case white, lower case black, `null` for empty.
fn ser_piece<S: Serializer>(piece: &Option<Piece>, s: S) -> Result<S::Ok, S::Error> {
    match piece {
        Some(p) => s.serialize_char(p.char()),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role};

    fn board(placement: &str) -> Board {
        placement.parse().unwrap()
    }

    #[test]
    fn diff_finds_missing_extra_and_wrong_pieces() {
        let expected = Board::default();
        let found = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
        let fixes = diff_boards(&expected, &found);
        assert_eq!(
            fixes,
            vec![
                SquareFix {
                    square: Square::E2,
                    expected: Some(Color::White.pawn()),
                    found: None
                },
                SquareFix {
                    square: Square::E4,
                    expected: None,
                    found: Some(Color::White.pawn())
                },
            ]
        );
        assert_eq!(
            serde_json::to_string(&fixes[0]).unwrap(),
            r#"{"square":"e2","expected":"P","found":null}"#
        );
        let swapped = board("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        let fixes = diff_boards(&expected, &swapped);
        assert_eq!(fixes.len(), 2);
        assert_eq!(fixes[0].found, Some(Color::Black.king()));
        assert!(diff_boards(&expected, &expected).is_empty());
    }

    #[test]
    fn fixes_are_said_removals_first() {
        let expected = Board::default();
        let found = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
        let keys: Vec<String> = say_fixes(&diff_boards(&expected, &found))
            .iter()
            .map(Token::key)
            .collect();
        assert_eq!(
            keys.join(" "),
            "board.remove file.e rank.4 board.put piece.white.pawn board.on file.e rank.2"
        );
    }

    #[test]
    fn holes_compare_occupancy_only() {
        let expected = Board::default();
        // e2 emptied, e4 filled: a peg board cannot tell which piece.
        let occupied = (expected.occupied() ^ Bitboard::from(Square::E2)) | Square::E4;
        let fixes = diff_holes(&expected, occupied);
        assert_eq!(fixes.len(), 2);
        let keys: Vec<String> = say_hole_fixes(&fixes).iter().map(Token::key).collect();
        assert_eq!(
            keys.join(" "),
            "board.remove file.e rank.4 board.put piece.white.pawn board.on file.e rank.2"
        );
        assert_eq!(fixes[0].expected.map(|p| p.role), Some(Role::Pawn));
        assert!(diff_holes(&expected, expected.occupied()).is_empty());
    }
}
