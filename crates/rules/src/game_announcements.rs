//! The announcements of a whole game (from PGN) or of one move (from a FEN
//! and a SAN or UCI move), validated in full before anything is said.
//!
//! PGN is read by [`super::pgn`] and every move is checked by shakmaty; the
//! SAN reported is shakmaty's (normalised, with `+`/`#`).

use pgn_reader::SanPlus;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, FromSetup, Move, Position};

use super::announce::{Style, announce};
use super::pgn::{GameRecord, PgnError, read_games};
use super::token::Token;

/// One announced half-move.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
/// use tactus_rules::announce::Style;
/// use tactus_rules::game_announcements::announce_pgn;
///
/// let plies = announce_pgn(b"1. e4 e5 2. Nf3 *", Style::Standard).unwrap();
/// assert_eq!(plies[2].ply, 3);
/// assert_eq!((plies[2].move_number, plies[2].color), (2, Color::White));
/// assert_eq!(plies[2].san, "Nf3");
/// assert_eq!(plies[2].tokens.len(), 3); // Springer Felix drei
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnouncedPly {
    /// 1 for the game's first half-move.
    pub ply: u32,
    /// Move number as a scoresheet writes it (1 for White's and Black's
    /// first moves).
    pub move_number: u32,
    /// Who moved.
    pub color: Color,
    /// The move in SAN, as shakmaty writes it.
    pub san: String,
    /// What is said.
    pub tokens: Vec<Token>,
}

impl AnnouncedPly {
    /// The move as a scoresheet line starts: `12. Nf3` or `12... Nf6`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::game_announcements::announce_pgn;
    ///
    /// let plies = announce_pgn(b"1. e4 e5 *", Style::Standard).unwrap();
    /// assert_eq!(plies[0].label(), "1. e4");
    /// assert_eq!(plies[1].label(), "1... e5");
    /// ```
    pub fn label(&self) -> String {
        match self.color {
            Color::White => format!("{}. {}", self.move_number, self.san),
            Color::Black => format!("{}... {}", self.move_number, self.san),
        }
    }
}

/// Why a game or move cannot be announced. The messages name the ply and
/// the move; the caller adds the file name.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::Style;
/// use tactus_rules::game_announcements::{AnnounceError, announce_pgn};
///
/// let err = announce_pgn(b"1. e4 e5 2. Ke3 *", Style::Standard).unwrap_err();
/// assert!(matches!(err, AnnounceError::Pgn(_)));
/// assert!(err.to_string().contains("Ke3"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnnounceError {
    /// The PGN could not be read, or holds a move that is not legal.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// The FEN of a single move's position is not a position.
    #[error("invalid FEN `{fen}`: {reason}")]
    Fen {
        /// The FEN as given.
        fen: String,
        /// shakmaty's reason.
        reason: String,
    },
    /// A move is not legal, or not a move.
    #[error("ply {ply} (`{san}`): {reason}")]
    Move {
        /// Which half-move, 1 for the first.
        ply: u32,
        /// The move as given (or in UCI, if it was not given as text).
        san: String,
        /// Why it cannot be made.
        reason: String,
    },
}

/// Announces one move, given in SAN or UCI, in the position `fen`.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::Style;
/// use tactus_rules::game_announcements::announce_move;
///
/// let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
/// let by_san = announce_move(fen, "Nf3", Style::Standard).unwrap();
/// let by_uci = announce_move(fen, "g1f3", Style::Standard).unwrap();
/// assert_eq!(by_san, by_uci);
/// assert_eq!(by_san.label(), "2. Nf3");
/// assert!(announce_move(fen, "Nf4", Style::Standard).is_err());
/// ```
pub fn announce_move(fen: &str, mv: &str, style: Style) -> Result<AnnouncedPly, AnnounceError> {
    let pos = position_from_fen(fen.trim())?;
    let ply = ply_of(&pos);
    let fail = |reason: String| AnnounceError::Move {
        ply: 1,
        san: mv.to_owned(),
        reason,
    };
    // "g1f3" also parses as SAN (a pawn from g1), so a move is tried as SAN
    // and then as UCI; the SAN reason is given if neither fits.
    let mv_trim = mv.trim();
    let by_uci = || {
        mv_trim
            .parse::<UciMove>()
            .ok()
            .and_then(|uci| uci.to_move(&pos).ok())
    };
    let m = match mv_trim.parse::<SanPlus>() {
        Ok(san) => match san.san.to_move(&pos) {
            Ok(m) => m,
            Err(e) => by_uci().ok_or_else(|| fail(e.to_string()))?,
        },
        Err(_) => match mv_trim.parse::<UciMove>() {
            Ok(uci) => uci.to_move(&pos).map_err(|e| fail(e.to_string()))?,
            Err(_) => return Err(fail("neither SAN nor UCI".to_owned())),
        },
    };
    Ok(AnnouncedPly {
        ply: 1,
        ..ply_record(&pos, m, style, ply)
    })
}

/// Announces every move of the first game in `pgn` (read by
/// [`read_games`], as every PGN in tactus is). Fails on the first
/// unreadable or illegal move, naming its ply; nothing is returned for a
/// partly valid game. A null move ends the game's moves (see
/// [`GameRecord::null_move`]): the plies before it are announced.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::Style;
/// use tactus_rules::game_announcements::announce_pgn;
///
/// let plies = announce_pgn(b"1. f3 e5 2. g4 Qh4# 0-1", Style::Standard).unwrap();
/// let last: Vec<String> = plies[3].tokens.iter().map(|t| t.key()).collect();
/// assert_eq!(last, ["piece.queen", "file.h", "rank.4", "word.mate"]);
/// ```
pub fn announce_pgn(pgn: &[u8], style: Style) -> Result<Vec<AnnouncedPly>, AnnounceError> {
    let record = read_games(pgn)
        .into_iter()
        .next()
        .unwrap_or(Err(PgnError::Empty))?;
    announce_record(&record, style)
}

/// Announces every move of a game record, from its start position.
///
/// # Examples
///
/// ```
/// use tactus_rules::announce::Style;
/// use tactus_rules::game_announcements::announce_record;
/// use tactus_rules::pgn::read_pgn;
///
/// let record = read_pgn("1. e4 c5 *").unwrap();
/// let plies = announce_record(&record, Style::Long).unwrap();
/// let first: Vec<String> = plies[0].tokens.iter().map(|t| t.key()).collect();
/// assert_eq!(first, ["piece.pawn", "file.e", "rank.2", "file.e", "rank.4"]);
/// ```
pub fn announce_record(
    record: &GameRecord,
    style: Style,
) -> Result<Vec<AnnouncedPly>, AnnounceError> {
    let mut pos = record.start_position()?;
    let mut plies = Vec::with_capacity(record.moves.len());
    for (i, rm) in record.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        // A record read from PGN holds legal moves only; one made otherwise
        // is checked.
        if !pos.is_legal(rm.m) {
            return Err(AnnounceError::Move {
                ply,
                san: UciMove::from_move(rm.m, pos.castles().mode()).to_string(),
                reason: "not a legal move in the position".to_owned(),
            });
        }
        let record = ply_record(&pos, rm.m, style, ply_of(&pos));
        plies.push(AnnouncedPly { ply, ..record });
        pos.play_unchecked(rm.m);
    }
    Ok(plies)
}

fn position_from_fen(fen: &str) -> Result<Chess, AnnounceError> {
    let err = |reason: String| AnnounceError::Fen {
        fen: fen.to_owned(),
        reason,
    };
    let parsed: Fen = fen
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| err(e.to_string()))?;
    // Castling rights that only Chess960 has (X-FEN, Shredder-FEN) make a
    // Chess960 position.
    let setup = parsed.into_setup();
    let mode = CastlingMode::detect(&setup);
    Chess::from_setup(setup, mode).map_err(|e| err(e.to_string()))
}

/// (move number, colour) of the move to be played in `pos`.
fn ply_of(pos: &Chess) -> (u32, Color) {
    (pos.fullmoves().get(), pos.turn())
}

fn ply_record(
    pos: &Chess,
    m: Move,
    style: Style,
    (move_number, color): (u32, Color),
) -> AnnouncedPly {
    AnnouncedPly {
        ply: 0,
        move_number,
        color,
        san: shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string(),
        tokens: announce(pos, m, style),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::Word;

    #[test]
    fn a_game_is_announced_ply_by_ply() {
        let plies = announce_pgn(b"1. e4 e5 2. Nf3 *", Style::Standard).unwrap();
        let sans: Vec<_> = plies.iter().map(|p| p.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3"]);
        assert_eq!(plies[1].ply, 2);
        assert_eq!(plies[1].label(), "1... e5");
        assert_eq!(plies[2].label(), "2. Nf3");
    }

    #[test]
    fn an_illegal_move_names_its_ply() {
        let err = announce_pgn(b"1. e4 e5 2. Ke3 *", Style::Standard).unwrap_err();
        assert!(
            matches!(&err, AnnounceError::Pgn(PgnError::Illegal { ply: 3, san, .. }) if san == "Ke3"),
            "{err}"
        );
        assert!(err.to_string().starts_with("ply 3 (`Ke3`)"), "{err}");
    }

    #[test]
    fn a_fen_tag_sets_the_start() {
        let pgn = b"[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 40\"]\n\n40. O-O *";
        let plies = announce_pgn(pgn, Style::Standard).unwrap();
        assert_eq!(plies[0].label(), "40. O-O");
        let bad = announce_pgn(b"[FEN \"nonsense\"]\n\n1. e4 *", Style::Standard);
        assert!(
            matches!(bad, Err(AnnounceError::Pgn(PgnError::Fen(..)))),
            "{bad:?}"
        );
    }

    #[test]
    fn chess960_castling_is_said_as_castling() {
        // Kings on g1/g8, rooks on b1 and h1, a8 and h8: long castling
        // brings the king to c1, short castling leaves it on g8.
        let fen = "r5kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1";
        let pgn = format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. O-O-O O-O *");
        let plies = announce_pgn(pgn.as_bytes(), Style::Standard).unwrap();
        let words = |p: &AnnouncedPly| p.tokens.clone();
        assert_eq!(plies[0].san, "O-O-O");
        assert_eq!(words(&plies[0]), [Token::Word(Word::CastleLong)]);
        assert_eq!(plies[1].san, "O-O");
        assert_eq!(words(&plies[1]), [Token::Word(Word::CastleShort)]);
        // Shredder-FEN and coordinates: the king onto its own rook.
        let shredder = "r5kr/8/8/8/8/8/8/1R4KR w HBha - 0 1";
        let pgn = format!("[Variant \"fischerandom\"]\n[FEN \"{shredder}\"]\n\ng1b1 g8h8 *");
        let plies = announce_pgn(pgn.as_bytes(), Style::Standard).unwrap();
        assert_eq!(plies[0].san, "O-O-O");
        assert_eq!(plies[1].san, "O-O");
        let one = announce_move(shredder, "O-O-O", Style::Standard).unwrap();
        assert_eq!(words(&one), [Token::Word(Word::CastleLong)]);
    }

    #[test]
    fn a_token_that_is_not_a_move_names_its_ply() {
        let err = announce_pgn(b"1. e4 e5 2. Qh5 Ke7 3. Qxe9 *", Style::Standard).unwrap_err();
        assert_eq!(
            err,
            AnnounceError::Pgn(PgnError::NotAMove {
                ply: 5,
                token: "Qxe9".into(),
            })
        );
        assert_eq!(err.to_string(), "ply 5 (`Qxe9`): not a move");
        // Comments, variations, NAGs and marks are not moves and fine.
        let ok = announce_pgn(
            b"1. e4 {best by test} e5!? (1... c5 2. zz) 2.Nf3 $1 ; rest\n2... Nc6 3. Bc4 Bc5 4. 0-0 1-0",
            Style::Standard,
        )
        .unwrap();
        assert_eq!(ok.len(), 7);
    }

    #[test]
    fn empty_input_is_no_game() {
        assert_eq!(
            announce_pgn(b"", Style::Standard),
            Err(AnnounceError::Pgn(PgnError::Empty))
        );
    }

    #[test]
    fn one_move_in_san_or_uci() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let a = announce_move(start, "Nf3", Style::Standard).unwrap();
        let b = announce_move(start, "g1f3", Style::Standard).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.san, "Nf3");
        assert!(matches!(
            announce_move(start, "Nf6", Style::Standard),
            Err(AnnounceError::Move { .. })
        ));
        assert!(matches!(
            announce_move(start, "zz", Style::Standard),
            Err(AnnounceError::Move { .. })
        ));
        assert!(matches!(
            announce_move("8/8 w", "e4", Style::Standard),
            Err(AnnounceError::Fen { .. })
        ));
    }
}
