//! The announcements of a whole game (from PGN) or of one move (from a FEN
//! and a SAN or UCI move), validated in full before anything is said.
//!
//! PGN is read with pgn-reader and every move is checked by shakmaty; the
//! SAN reported is shakmaty's (normalised, with `+`/`#`).

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::announce::{Style, announce};
use super::token::Token;

/// One announced half-move.
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
    pub fn label(&self) -> String {
        match self.color {
            Color::White => format!("{}. {}", self.move_number, self.san),
            Color::Black => format!("{}... {}", self.move_number, self.san),
        }
    }
}

/// Why a game or move cannot be announced. The messages name the ply and
/// the move; the caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("cannot read PGN: {0}")]
    Unreadable(String),
    #[error("no game in the PGN")]
    NoGame,
    #[error("invalid FEN `{fen}`: {reason}")]
    Fen { fen: String, reason: String },
    #[error("ply {ply} (`{san}`): {reason}")]
    Move {
        ply: u32,
        san: String,
        reason: String,
    },
}

/// Announces one move, given in SAN or UCI, in the position `fen`.
pub fn announce_move(fen: &str, mv: &str, style: Style) -> Result<AnnouncedPly, GameError> {
    let pos = position_from_fen(fen.trim())?;
    let ply = ply_of(&pos);
    let fail = |reason: String| GameError::Move {
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

/// Announces every move of the first game in `pgn` (following a `FEN` tag
/// if there is one). Fails on the first unreadable or illegal move, naming
/// its ply; nothing is returned for a partly valid game.
pub fn announce_pgn(pgn: &[u8], style: Style) -> Result<Vec<AnnouncedPly>, GameError> {
    let mut reader = Reader::new(pgn);
    let mut visitor = GameVisitor { style };
    let plies = match reader.read_game(&mut visitor) {
        Err(e) => Err(GameError::Unreadable(e.to_string())),
        Ok(None) => Err(GameError::NoGame),
        Ok(Some(result)) => result,
    }?;
    // pgn-reader skips a token that is not SAN ("Qxe9", "e4e5x"); such a
    // game must not be announced as if the move were not there.
    if let Some((ply, token)) = first_non_move(pgn) {
        return Err(GameError::Move {
            ply,
            san: token,
            reason: "not a move".to_owned(),
        });
    }
    Ok(plies)
}

/// The first token of the first game's main line that is neither a move
/// (SAN), a move number, a result, a NAG nor an annotation mark, with the
/// ply it stands at. Comments and variations are passed over.
fn first_non_move(pgn: &[u8]) -> Option<(u32, String)> {
    let text = String::from_utf8_lossy(pgn);
    let mut plies = 0u32;
    let mut in_movetext = false;
    let mut depth = 0usize;
    let mut in_brace = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if !in_brace && depth == 0 && trimmed.starts_with('[') {
            if in_movetext {
                return None; // the next game's tags
            }
            continue;
        }
        if trimmed.starts_with('%') {
            continue;
        }
        // Separate brackets from neighbouring text so they split as tokens.
        let spaced = line
            .replace('{', " { ")
            .replace('}', " } ")
            .replace('(', " ( ")
            .replace(')', " ) ")
            .replace(';', " ; ");
        for token in spaced.split_whitespace() {
            if in_brace {
                in_brace = token != "}";
                continue;
            }
            match token {
                "{" => in_brace = true,
                ";" => break,
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                "1-0" | "0-1" | "1/2-1/2" | "*" => return None,
                _ => {
                    in_movetext = true;
                    let marked = token.trim_end_matches(['!', '?']);
                    // "0-0" is castling (as pgn-reader reads it), not a
                    // move number.
                    let castle = marked.starts_with("0-0").then(|| marked.replace('0', "O"));
                    if castle
                        .as_deref()
                        .unwrap_or(marked)
                        .parse::<SanPlus>()
                        .is_ok()
                    {
                        plies += 1;
                        continue;
                    }
                    let body = marked
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim_start_matches('.');
                    if body.is_empty() || token.starts_with('$') {
                        continue;
                    }
                    if body.parse::<SanPlus>().is_err() {
                        return Some((plies + 1, token.to_owned()));
                    }
                    plies += 1;
                }
            }
        }
    }
    None
}

fn position_from_fen(fen: &str) -> Result<Chess, GameError> {
    let err = |reason: String| GameError::Fen {
        fen: fen.to_owned(),
        reason,
    };
    let parsed: Fen = fen
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| err(e.to_string()))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| err(e.to_string()))
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

struct Game {
    pos: Chess,
    plies: Vec<AnnouncedPly>,
}

struct GameVisitor {
    style: Style,
}

type GameResult = Result<Vec<AnnouncedPly>, GameError>;

impl Visitor for GameVisitor {
    type Tags = Option<Result<Chess, GameError>>;
    type Movetext = Game;
    type Output = GameResult;

    fn begin_tags(&mut self) -> ControlFlow<GameResult, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<GameResult> {
        if name == b"FEN" {
            let fen = String::from_utf8_lossy(value.as_bytes()).into_owned();
            *tags = Some(position_from_fen(&fen));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<GameResult, Game> {
        match tags {
            Some(Err(e)) => ControlFlow::Break(Err(e)),
            Some(Ok(pos)) => ControlFlow::Continue(Game {
                pos,
                plies: Vec::new(),
            }),
            None => ControlFlow::Continue(Game {
                pos: Chess::default(),
                plies: Vec::new(),
            }),
        }
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<GameResult> {
        let ply = game.plies.len() as u32 + 1;
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                let record = ply_record(&game.pos, m, self.style, ply_of(&game.pos));
                game.plies.push(AnnouncedPly { ply, ..record });
                game.pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(GameError::Move {
                ply,
                san: san_plus.to_string(),
                reason: e.to_string(),
            })),
        }
    }

    fn end_game(&mut self, game: Game) -> GameResult {
        Ok(game.plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            matches!(&err, GameError::Move { ply: 3, san, .. } if san == "Ke3"),
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
        assert!(matches!(bad, Err(GameError::Fen { .. })), "{bad:?}");
    }

    #[test]
    fn a_token_that_is_not_a_move_names_its_ply() {
        let err = announce_pgn(b"1. e4 e5 2. Qh5 Ke7 3. Qxe9 *", Style::Standard).unwrap_err();
        assert_eq!(
            err,
            GameError::Move {
                ply: 5,
                san: "Qxe9".into(),
                reason: "not a move".into()
            }
        );
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
        assert_eq!(announce_pgn(b"", Style::Standard), Err(GameError::NoGame));
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
            Err(GameError::Move { .. })
        ));
        assert!(matches!(
            announce_move(start, "zz", Style::Standard),
            Err(GameError::Move { .. })
        ));
        assert!(matches!(
            announce_move("8/8 w", "e4", Style::Standard),
            Err(GameError::Fen { .. })
        ));
    }
}
