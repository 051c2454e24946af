//! Chess moves in braille, as the UK's braille chess code writes them:
//! *Braille Chess Code and Layout*, UKAAF (formerly BAUK), 2015 edition for
//! Unified English Braille. `docs/braille.md` says what is taken from where.
//!
//! A cell is a byte whose bit `n - 1` is dot `n` (Unicode braille's order).
//! Nothing here reads or writes anything: moves in, cells out.
//!
//! - Pieces: king `k` (1-3), queen `q` (1-2-3-4-5), rook `r` (1-2-3-5),
//!   bishop `l` (1-2-3), knight `s` (2-3-4); a pawn has no letter.
//! - Squares: the file's letter, then the rank as a *lower* digit (the
//!   digit's letter moved down a row: 1 is dot 2, 4 is dots 2-5-6), with no
//!   numeric indicator.
//! - Capture: dots 5-6 before the square; check: dots 4-5 before the square;
//!   a capture with check: dots 4-5-6 before the square (the code's signs
//!   inside a game move, its section 3); mate: dots 3-4-5 and `m` after the
//!   move (an abbreviation of its section 2.2). Running text transcribed
//!   from print writes print's `+` after the move instead (2.2's dots 3-4-5
//!   and `p`, the code's example to 1.4): not a game record's form.
//! - Move numbers: lower digits, then a space; a record that starts with
//!   Black's move marks it with dots 3-6.
//! - Castling: `0-0`, `0-0-0` with lower zeros (3-5-6) and hyphens (3-6).
//! - Promotion: the new piece's letter right after the square.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Role};

/// One braille cell: bit `n - 1` is dot `n`.
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::{Cell, dots};
///
/// let m: Cell = dots(&[1, 3, 4]);
/// assert_eq!(char::from_u32(0x2800 + u32::from(m)), Some('⠍')); // Unicode's braille block
/// ```
pub type Cell = u8;

/// A cell from its dot numbers, e.g. `dots(&[1, 3, 4])` is `m`.
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::dots;
///
/// assert_eq!(dots(&[1, 3, 4]), 0b0000_1101);
/// assert_eq!(dots(&[]), 0);
/// ```
pub const fn dots(numbers: &[u8]) -> Cell {
    let mut cell = 0u8;
    let mut i = 0;
    while i < numbers.len() {
        cell |= 1 << (numbers[i] - 1);
        i += 1;
    }
    cell
}

/// A space between moves.
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::SPACE;
///
/// assert_eq!(char::from_u32(0x2800 + u32::from(SPACE)), Some('⠀')); // the blank cell
/// ```
pub const SPACE: Cell = 0;
/// Dots 5-6: a capture, before the square.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{CAPTURE, san_cells};
///
/// assert_eq!(san_cells(&"Nxe5".parse::<SanPlus>().unwrap())[1], CAPTURE);
/// ```
pub const CAPTURE: Cell = dots(&[5, 6]);
/// Dots 4-5: check, before the square.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{CHECK, san_cells};
///
/// assert_eq!(san_cells(&"Bb5+".parse::<SanPlus>().unwrap())[1], CHECK);
/// ```
pub const CHECK: Cell = dots(&[4, 5]);
/// Dots 4-5-6: a capture with check, before the square.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{CAPTURE_CHECK, san_cells};
///
/// assert_eq!(san_cells(&"Bxf7+".parse::<SanPlus>().unwrap())[1], CAPTURE_CHECK);
/// ```
pub const CAPTURE_CHECK: Cell = dots(&[4, 5, 6]);
/// Dots 3-4-5 then `m`: mate, after the move.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{MATE, san_cells};
///
/// assert!(san_cells(&"Qxf7#".parse::<SanPlus>().unwrap()).ends_with(&MATE));
/// ```
pub const MATE: [Cell; 2] = [dots(&[3, 4, 5]), dots(&[1, 3, 4])];
/// Dots 3-6: the hyphen of castling; before a numbered series's first
/// move, that the move is Black's.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{HYPHEN, san_cells};
///
/// assert_eq!(san_cells(&"O-O".parse::<SanPlus>().unwrap())[1], HYPHEN);
/// ```
pub const HYPHEN: Cell = dots(&[3, 6]);
/// Dots 3-6 before the first move of a numbered series that is Black's.
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::{BLACK_FIRST, dots};
///
/// assert_eq!(BLACK_FIRST, dots(&[3, 6]));
/// ```
pub const BLACK_FIRST: Cell = HYPHEN;

const LETTERS: [Cell; 8] = [
    dots(&[1]),
    dots(&[1, 2]),
    dots(&[1, 4]),
    dots(&[1, 4, 5]),
    dots(&[1, 5]),
    dots(&[1, 2, 4]),
    dots(&[1, 2, 4, 5]),
    dots(&[1, 2, 5]),
];

/// Lower digits 0–9.
const LOWER: [Cell; 10] = [
    dots(&[3, 5, 6]),
    dots(&[2]),
    dots(&[2, 3]),
    dots(&[2, 5]),
    dots(&[2, 5, 6]),
    dots(&[2, 6]),
    dots(&[2, 3, 5]),
    dots(&[2, 3, 5, 6]),
    dots(&[2, 3, 6]),
    dots(&[3, 5]),
];

/// A piece's letter; a pawn has none.
///
/// # Examples
///
/// ```
/// use shakmaty::Role;
/// use tactus_rules::braille_chess::{dots, piece};
///
/// assert_eq!(piece(Role::Knight), Some(dots(&[2, 3, 4]))); // s, for Springer
/// assert_eq!(piece(Role::Pawn), None);
/// ```
pub fn piece(role: Role) -> Option<Cell> {
    match role {
        Role::King => Some(dots(&[1, 3])),
        Role::Queen => Some(dots(&[1, 2, 3, 4, 5])),
        Role::Rook => Some(dots(&[1, 2, 3, 5])),
        Role::Bishop => Some(dots(&[1, 2, 3])),
        Role::Knight => Some(dots(&[2, 3, 4])),
        Role::Pawn => None,
    }
}

/// A number in lower digits, no numeric indicator (move numbers, ranks).
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::{dots, lower_number};
///
/// assert_eq!(lower_number(10), [dots(&[2]), dots(&[3, 5, 6])]);
/// ```
pub fn lower_number(n: u32) -> Vec<Cell> {
    n.to_string()
        .bytes()
        .map(|b| LOWER[usize::from(b - b'0')])
        .collect()
}

/// A file's letter (0 = a; past 7, h).
///
/// # Examples
///
/// ```
/// use tactus_rules::braille_chess::{dots, file};
///
/// assert_eq!(file(0), dots(&[1]));
/// assert_eq!(file(7), dots(&[1, 2, 5]));
/// ```
pub fn file(index: u32) -> Cell {
    LETTERS[index.min(7) as usize]
}

/// A square: its file's letter, its rank in a lower digit.
///
/// # Examples
///
/// ```
/// use shakmaty::Square;
/// use tactus_rules::braille_chess::{dots, square};
///
/// assert_eq!(square(Square::E4), [dots(&[1, 5]), dots(&[2, 5, 6])]);
/// ```
pub fn square(sq: shakmaty::Square) -> [Cell; 2] {
    [
        file(u32::from(sq.file())),
        LOWER[usize::from(sq.rank()) + 1],
    ]
}

/// One move in braille.
///
/// # Examples
///
/// ```
/// use shakmaty::san::SanPlus;
/// use tactus_rules::braille_chess::{CAPTURE, CHECK, HYPHEN, MATE, dots, san_cells};
///
/// let cells = |san: &str| san_cells(&san.parse::<SanPlus>().unwrap());
/// let e = dots(&[1, 5]);
/// let q = dots(&[1, 2, 3, 4, 5]);
/// assert_eq!(cells("exd5"), [e, CAPTURE, dots(&[1, 4, 5]), dots(&[2, 6])]);
/// assert_eq!(cells("Qe4+"), [q, CHECK, e, dots(&[2, 5, 6])]);
/// assert_eq!(cells("Qh4#")[3..], MATE);
/// let zero = dots(&[3, 5, 6]);
/// assert_eq!(cells("O-O-O"), [zero, HYPHEN, zero, HYPHEN, zero]);
/// ```
pub fn san_cells(san: &SanPlus) -> Vec<Cell> {
    let mut out = Vec::with_capacity(8);
    let check = san.suffix == Some(Suffix::Check);
    match san.san {
        San::Normal {
            role,
            file: from_file,
            rank: from_rank,
            capture,
            to,
            promotion,
        } => {
            out.extend(piece(role));
            if let Some(f) = from_file {
                out.push(file(u32::from(f)));
            }
            if let Some(r) = from_rank {
                out.push(LOWER[usize::from(r) + 1]);
            }
            match (capture, check) {
                (true, true) => out.push(CAPTURE_CHECK),
                (true, false) => out.push(CAPTURE),
                (false, true) => out.push(CHECK),
                (false, false) => {}
            }
            out.extend(square(to));
            if let Some(p) = promotion {
                out.extend(piece(p));
            }
        }
        San::Castle(side) => {
            if check {
                out.push(CHECK);
            }
            out.push(LOWER[0]);
            out.push(HYPHEN);
            out.push(LOWER[0]);
            if side == CastlingSide::QueenSide {
                out.push(HYPHEN);
                out.push(LOWER[0]);
            }
        }
        // Neither stands on a board under the Laws; the PGN reader stops
        // at a null move and refuses drop variants, so these never come.
        San::Put { role, to } => {
            out.extend(piece(role));
            out.extend(square(to));
        }
        San::Null => {
            out.extend([HYPHEN, HYPHEN]);
        }
    }
    if san.suffix == Some(Suffix::Checkmate) {
        out.extend(MATE);
    }
    out
}

/// A score: `1-0`, `0-1`, `1/2-1/2` in lower digits (halves with the slash,
/// dots 3-4), as a record ends.
///
/// # Examples
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
/// use tactus_rules::braille_chess::{HYPHEN, dots, score};
///
/// let (zero, one) = (dots(&[3, 5, 6]), dots(&[2]));
/// assert_eq!(score(KnownOutcome::Decisive { winner: Color::Black }), [zero, HYPHEN, one]);
/// assert_eq!(score(KnownOutcome::Draw).len(), 7); // 1/2-1/2
/// ```
pub fn score(outcome: shakmaty::KnownOutcome) -> Vec<Cell> {
    const SLASH: Cell = dots(&[3, 4]);
    let half = [LOWER[1], SLASH, LOWER[2]];
    match outcome {
        shakmaty::KnownOutcome::Decisive { winner } => {
            let (w, b) = if winner == shakmaty::Color::White {
                (1, 0)
            } else {
                (0, 1)
            };
            vec![LOWER[w], HYPHEN, LOWER[b]]
        }
        shakmaty::KnownOutcome::Draw => {
            let mut v = half.to_vec();
            v.push(HYPHEN);
            v.extend(half);
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn u(cells: &[Cell]) -> String {
        cells
            .iter()
            .map(|&c| char::from_u32(0x2800 + u32::from(c)).unwrap())
            .collect()
    }

    fn m(s: &str) -> String {
        u(&san_cells(&SanPlus::from_str(s).unwrap()))
    }

    /// The code's printed examples of sections 1.3 and 1.4, cell by cell,
    /// as far as they are moves (`docs/braille.md`).
    #[test]
    fn the_codes_printed_examples() {
        // 1.3: `2.♘f3` is ⠆ ⠎⠋⠒.
        assert_eq!(format!("{} {}", u(&lower_number(2)), m("Nf3")), "⠆ ⠎⠋⠒");
        // 1.4: `8. ♘e4)` is ⠦ ⠎⠑⠲ and then UEB's bracket (⠐⠜; the page
        // we read shows its first cell).
        assert!("⠦ ⠎⠑⠲⠐".starts_with(&format!("{} {}", u(&lower_number(8)), m("Ne4"))));
        // 1.4: `a1:` is ⠁⠂, the separating sign ⠜, the colon ⠒.
        assert!("⠁⠂⠜⠒".starts_with(&u(&square(shakmaty::Square::A1))));
        // 1.4: `6. e4+.` is ⠖ ⠑⠲⠜⠏⠲: the number and the move are ours; the
        // rest is print's `+` as 2.2's abbreviation (dots 3-4-5, `p`) and
        // the full stop, the form of running text. In a game move section
        // 3's sign is used instead, before the square (`f5+` below).
        let printed = "⠖ ⠑⠲⠜⠏⠲";
        let ours = format!("{} {}", u(&lower_number(6)), m("e4"));
        assert_eq!(&printed[..ours.len()], ours);
        assert_eq!(&printed[ours.len()..], "⠜⠏⠲");
        // The separating sign is the first cell of mate's abbreviation.
        assert_eq!(u(&MATE[..1]), "⠜");
    }

    /// The algebraic examples of section 3 as a published implementation
    /// of the code quotes them (`docs/braille.md`).
    #[test]
    fn the_codes_examples() {
        assert_eq!(u(&lower_number(2)), "⠆");
        assert_eq!(m("Nf3"), "⠎⠋⠒");
        assert_eq!(u(&lower_number(8)), "⠦");
        assert_eq!(m("Ne4"), "⠎⠑⠲");
        assert_eq!(u(&lower_number(6)), "⠖");
        assert_eq!(m("e4"), "⠑⠲");
        assert_eq!(m("Rf4"), "⠗⠋⠲");
        assert_eq!(m("d5"), "⠙⠢");
        assert_eq!(m("cxd5"), "⠉⠰⠙⠢");
        assert_eq!(m("f5+"), "⠘⠋⠢");
        assert_eq!(m("Rxf4+"), "⠗⠸⠋⠲");
        assert_eq!(m("Nce5"), "⠎⠉⠑⠢");
        assert_eq!(m("Nb1c3"), "⠎⠃⠂⠉⠒");
        assert_eq!(m("N1c3"), "⠎⠂⠉⠒");
        assert_eq!(m("Re8#"), "⠗⠑⠦⠜⠍");
    }

    #[test]
    fn castling_promotion_and_numbers() {
        assert_eq!(m("O-O"), "⠴⠤⠴");
        assert_eq!(m("O-O-O+"), "⠘⠴⠤⠴⠤⠴");
        assert_eq!(m("e8=Q"), "⠑⠦⠟");
        assert_eq!(m("exd8=N+"), "⠑⠸⠙⠦⠎");
        assert_eq!(m("Bb5"), "⠇⠃⠢");
        assert_eq!(m("Kxh2"), "⠅⠰⠓⠆");
        assert_eq!(u(&lower_number(40)), "⠲⠴");
        assert_eq!(
            u(&score(shakmaty::KnownOutcome::Decisive {
                winner: shakmaty::Color::Black
            })),
            "⠴⠤⠂"
        );
        assert_eq!(u(&score(shakmaty::KnownOutcome::Draw)), "⠂⠌⠆⠤⠂⠌⠆");
    }
}
