//! Following a move on the physical board: which holes or squares differ
//! from the position the board should show, and how to say the fix in the
//! pack's words (via `rules::correction`). The inference engine
//! ([`super::infer::Inference::expect`]) uses this while the blind player
//! carries out the opponent's announced move.

use serde::Serialize;
use shakmaty::{Bitboard, Board, Square};

use tactus_rules::correction::{
    HoleFix, SquareFix, diff_boards, diff_holes, say_fixes, say_hole_fixes,
};
use tactus_rules::token::Token;

/// What a board senses: occupancy only (peg) or every piece (DGT).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Physical {
    /// Peg board: which holes hold a peg.
    Holes(Bitboard),
    /// DGT board: which piece stands on each square.
    Pieces(Board),
}

impl Physical {
    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        match self {
            Physical::Holes(bb) => *bb,
            Physical::Pieces(board) => board.occupied(),
        }
    }

    /// Whether the board shows `board`, as far as it can sense.
    pub fn shows(&self, board: &Board) -> bool {
        match self {
            Physical::Holes(bb) => *bb == board.occupied(),
            Physical::Pieces(b) => b == board,
        }
    }

    /// Whether everything on the board stands where `board` has it, with
    /// some pieces off the board: a move in progress (pieces in hand).
    pub fn is_subset_of(&self, board: &Board) -> bool {
        match self {
            Physical::Holes(bb) => (*bb & !board.occupied()).is_empty(),
            Physical::Pieces(b) => b.iter().all(|(sq, p)| board.piece_at(sq) == Some(p)),
        }
    }
}

/// The squares that differ from what the board should show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Fixes {
    Holes(Vec<HoleFix>),
    Squares(Vec<SquareFix>),
}

impl Fixes {
    /// Compares `physical` with `expected`. `extra` are peg holes whose
    /// occupancy is right but whose peg is known (from lifts and puts) to be
    /// the wrong piece; they are said as placements.
    pub fn compare(expected: &Board, physical: &Physical, extra: Bitboard) -> Fixes {
        match physical {
            Physical::Holes(occ) => {
                let mut fixes = diff_holes(expected, *occ);
                for square in extra & *occ & expected.occupied() {
                    fixes.push(HoleFix {
                        square,
                        expected: expected.piece_at(square),
                    });
                }
                fixes.sort_by_key(|f| f.square);
                Fixes::Holes(fixes)
            }
            Physical::Pieces(found) => Fixes::Squares(diff_boards(expected, found)),
        }
    }

    /// No difference.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many squares differ.
    pub fn len(&self) -> usize {
        match self {
            Fixes::Holes(f) => f.len(),
            Fixes::Squares(f) => f.len(),
        }
    }

    /// The squares that differ, a1 to h8.
    pub fn squares(&self) -> Vec<Square> {
        match self {
            Fixes::Holes(f) => f.iter().map(|f| f.square).collect(),
            Fixes::Squares(f) => f.iter().map(|f| f.square).collect(),
        }
    }

    /// The spoken correction: removals first, then placements.
    pub fn tokens(&self) -> Vec<Token> {
        match self {
            Fixes::Holes(f) => say_hole_fixes(f),
            Fixes::Squares(f) => say_fixes(f),
        }
    }
}
