//! Move announcements (Appendix D.2.1) as token lists, built from shakmaty's
//! SAN so that disambiguation and check marks are the rules', not ours.
//!
//! Grammar: `docs/announcements.md`. Two styles: `standard` follows
//! the SAN word for word; `long` names the piece (pawns too) and its origin
//! square for players who want every move's origin.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{Chess, Move, Position, Role, Square};

use super::token::{Token, Word};

/// How much of a move is said.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::Style;
///
/// assert_eq!("long".parse(), Ok(Style::Long));
/// assert_eq!(Style::default(), Style::Standard);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// As the SAN is written: `Nf3` → "Springer Felix drei".
    #[default]
    Standard,
    /// Piece and origin always: `Ng1-f3` → "Springer Gustav eins Felix drei".
    Long,
}

/// A style's name that is neither `standard` nor `long`.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::{Style, UnknownStyle};
///
/// assert_eq!("short".parse::<Style>(), Err(UnknownStyle("short".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown announcement style `{0}`: expected `standard` or `long`")]
pub struct UnknownStyle(pub String);

impl FromStr for Style {
    type Err = UnknownStyle;

    fn from_str(s: &str) -> Result<Style, UnknownStyle> {
        match s {
            "standard" => Ok(Style::Standard),
            "long" => Ok(Style::Long),
            other => Err(UnknownStyle(other.to_owned())),
        }
    }
}

/// The announcement of legal move `m` in position `pos`.
///
/// `m` must be legal in `pos` (as every move from `pos.legal_moves()` or a
/// parsed SAN/UCI is); the position is not changed.
///
/// # Examples
///
/// ```
/// use shakmaty::{Chess, san::San};
/// use tactus_rules::announce::{Style, announce};
///
/// let pos = Chess::default();
/// let nf3 = "Nf3".parse::<San>().unwrap().to_move(&pos).unwrap();
/// let keys = |style| -> Vec<String> { announce(&pos, nf3, style).iter().map(|t| t.key()).collect() };
/// assert_eq!(keys(Style::Standard), ["piece.knight", "file.f", "rank.3"]);
/// assert_eq!(keys(Style::Long), ["piece.knight", "file.g", "rank.1", "file.f", "rank.3"]);
/// ```
pub fn announce(pos: &Chess, m: Move, style: Style) -> Vec<Token> {
    let mut after = pos.clone();
    let san_plus = SanPlus::from_move_and_play_unchecked(&mut after, m);
    let mut tokens = Vec::with_capacity(8);
    match (san_plus.san, style) {
        (San::Castle(side), _) => tokens.push(Token::Word(if side.is_king_side() {
            Word::CastleShort
        } else {
            Word::CastleLong
        })),
        (
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            },
            Style::Standard,
        ) => {
            if role != Role::Pawn {
                tokens.push(Token::Piece(role));
            }
            tokens.extend(file.map(Token::File));
            tokens.extend(rank.map(Token::Rank));
            push_move_tail(&mut tokens, capture, to, m.is_en_passant(), promotion);
        }
        (
            San::Normal {
                role,
                capture,
                to,
                promotion,
                ..
            },
            Style::Long,
        ) => {
            tokens.push(Token::Piece(role));
            push_square(&mut tokens, m.from().unwrap_or(to));
            push_move_tail(&mut tokens, capture, to, m.is_en_passant(), promotion);
        }
        // Drops and null moves do not occur in standard chess.
        (San::Put { .. } | San::Null, _) => {}
    }
    match san_plus.suffix {
        Some(Suffix::Checkmate) => tokens.push(Token::Word(Word::Mate)),
        Some(Suffix::Check) => tokens.push(Token::Word(Word::Check)),
        None if after.is_stalemate() => tokens.push(Token::Word(Word::Stalemate)),
        None => {}
    }
    tokens
}

/// `takes`, target square, `en passant`, promotion piece: the part of a
/// move both styles share.
fn push_move_tail(
    tokens: &mut Vec<Token>,
    capture: bool,
    to: Square,
    en_passant: bool,
    promotion: Option<Role>,
) {
    if capture {
        tokens.push(Token::Word(Word::Takes));
    }
    push_square(tokens, to);
    if en_passant {
        tokens.push(Token::Word(Word::EnPassant));
    }
    tokens.extend(promotion.map(Token::Piece));
}

/// A square as file then rank: "Eva vier".
///
/// # Examples
///
/// ```
/// use shakmaty::{File, Rank, Square};
/// use tactus_rules::announce::push_square;
/// use tactus_rules::token::Token;
///
/// let mut tokens = Vec::new();
/// push_square(&mut tokens, Square::E4);
/// assert_eq!(tokens, [Token::File(File::E), Token::Rank(Rank::Fourth)]);
/// ```
pub fn push_square(tokens: &mut Vec<Token>, sq: Square) {
    tokens.push(Token::File(sq.file()));
    tokens.push(Token::Rank(sq.rank()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn keys(fen: &str, san: &str, style: Style) -> String {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        announce(&pos, m, style)
            .iter()
            .map(Token::key)
            .collect::<Vec<_>>()
            .join(" ")
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn pawn_push() {
        assert_eq!(keys(START, "e4", Style::Standard), "file.e rank.4");
        assert_eq!(
            keys(START, "e4", Style::Long),
            "piece.pawn file.e rank.2 file.e rank.4"
        );
    }

    #[test]
    fn piece_move() {
        assert_eq!(
            keys(START, "Nf3", Style::Standard),
            "piece.knight file.f rank.3"
        );
        assert_eq!(
            keys(START, "Nf3", Style::Long),
            "piece.knight file.g rank.1 file.f rank.3"
        );
    }

    #[test]
    fn capture_with_check() {
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3";
        assert_eq!(
            keys(fen, "Bxf7+", Style::Standard),
            "piece.bishop word.takes file.f rank.7 word.check"
        );
        assert_eq!(
            keys(fen, "Bxf7+", Style::Long),
            "piece.bishop file.c rank.4 word.takes file.f rank.7 word.check"
        );
    }

    #[test]
    fn disambiguation_by_file_rank_and_both() {
        let fen = "4k3/8/8/8/8/5N2/8/RN2K3 w - - 0 1";
        assert_eq!(
            keys(fen, "Nbd2", Style::Standard),
            "piece.knight file.b file.d rank.2"
        );
        let fen = "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1";
        assert_eq!(
            keys(fen, "R1a3", Style::Standard),
            "piece.rook rank.1 file.a rank.3"
        );
        // Queens on e4, h4 and h1 all reach e1: file and rank are needed.
        let fen3 = "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1";
        assert_eq!(
            keys(fen3, "Qh4e1", Style::Standard),
            "piece.queen file.h rank.4 file.e rank.1"
        );
    }

    #[test]
    fn en_passant_and_promotion() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
        assert_eq!(
            keys(fen, "exd6", Style::Standard),
            "file.e word.takes file.d rank.6 word.en_passant"
        );
        let fen = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            keys(fen, "bxa8=N", Style::Standard),
            "file.b word.takes file.a rank.8 piece.knight"
        );
        assert_eq!(
            keys(fen, "b8=Q+", Style::Standard),
            "file.b rank.8 piece.queen word.check"
        );
        assert_eq!(
            keys(fen, "b8=Q+", Style::Long),
            "piece.pawn file.b rank.7 file.b rank.8 piece.queen word.check"
        );
    }

    #[test]
    fn castling_is_the_same_in_both_styles() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for style in [Style::Standard, Style::Long] {
            assert_eq!(keys(fen, "O-O", style), "castle.short");
            assert_eq!(keys(fen, "O-O-O", style), "castle.long");
        }
    }

    #[test]
    fn mate_and_stalemate() {
        let fen = "6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1";
        assert_eq!(
            keys(fen, "Rd8#", Style::Standard),
            "piece.rook file.d rank.8 word.mate"
        );
        let fen = "7k/8/6Q1/8/8/8/8/K7 w - - 0 1";
        assert_eq!(
            keys(fen, "Qf7", Style::Standard),
            "piece.queen file.f rank.7 word.stalemate"
        );
    }

    #[test]
    fn style_parses() {
        assert_eq!("long".parse::<Style>(), Ok(Style::Long));
        assert_eq!("short".parse::<Style>(), Err(UnknownStyle("short".into())));
        assert!(
            "short"
                .parse::<Style>()
                .unwrap_err()
                .to_string()
                .contains("standard")
        );
    }
}
