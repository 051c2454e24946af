//! Move inference: from a board's event sequence to the moves made on it.
//! Pure: no I/O, time is passed in as the `Duration` since any fixed epoch.
//!
//! The engine keeps what the board senses ([`Physical`]) and the record of
//! lifts and puts since the game's position last showed. When the board has
//! been still for the settling time it compares the board with the result
//! of every legal move (from shakmaty). A peg board senses occupancy only,
//! so a capture's result is the same for every capture by the same piece:
//! the lifts and puts tell them apart (a move needs its own squares lifted
//! and its destination put; with several candidates the last put decides).
//!
//! Castling rook first is recognised when the king follows within the
//! settling time; a rook left alone longer than that is a rook move, which is
//! also what Article 4.4.2 makes of a rook touched first.

use std::time::Duration;

use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, Move, Piece, Position, Role, Square};
use thiserror::Error;

use super::event::{BoardEvent, Protocol};
use super::follow::{Fixes, Physical};

/// The default settling time: long enough for bouncing contacts, short
/// enough to feel immediate (the protocols spec asks for at most 300 ms).
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(200);

/// Inference settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// How long the board must be still before it is read (may be zero).
    pub settle: Duration,
    /// Emit [`Inferred::Correction`] with every [`Inferred::Differs`].
    pub auto_correct: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            settle: DEFAULT_SETTLE,
            auto_correct: false,
        }
    }
}

/// What the engine concluded from the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inferred {
    /// The side to move made `mv` on the board.
    Moved { mv: Move, san: SanPlus },
    /// The announced move being followed now shows on the board.
    Confirmed { mv: Move, san: SanPlus },
    /// A piece was lifted and is back in its own hole, or was lifted
    /// besides the move made: a touch for the arbiter (D.2.2, Art. 4.3).
    Touched {
        square: Square,
        piece: Option<Piece>,
    },
    /// A peg-board promotion: the piece must be named
    /// ([`Inference::name_promotion`]) before the move is made.
    PromotionPending { from: Square, to: Square },
    /// The board has been still and differs from the position (or, when
    /// following, from the position after the announced move).
    Differs(Fixes),
    /// The spoken correction for the last `Differs` (auto-correct setting).
    Correction(Vec<crate::rules::token::Token>),
    /// After a difference, the board shows the position again.
    Agrees,
}

impl Inferred {
    /// The `event` name used by `tactus board watch --json`.
    pub fn name(&self) -> &'static str {
        match self {
            Inferred::Moved { .. } => "move",
            Inferred::Confirmed { .. } => "confirmed",
            Inferred::Touched { .. } => "touched",
            Inferred::PromotionPending { .. } => "promotion",
            Inferred::Differs(_) => "differs",
            Inferred::Correction(_) => "correction",
            Inferred::Agrees => "agrees",
        }
    }
}

/// Why a request to the engine was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InferError {
    #[error("no promotion is waiting for its piece")]
    NoPromotionPending,
    #[error("a pawn cannot promote to {0:?}")]
    BadPromotion(Role),
    #[error("{0} is not a legal move in the current position")]
    IllegalMove(String),
}

/// The frame-button mapping for naming a promotion: 1 queen, 2 rook,
/// 3 bishop, 4 knight.
pub fn promotion_button(n: u8) -> Option<Role> {
    match n {
        1 => Some(Role::Queen),
        2 => Some(Role::Rook),
        3 => Some(Role::Bishop),
        4 => Some(Role::Knight),
        _ => None,
    }
}

/// The inference engine for one board.
#[derive(Debug, Clone)]
pub struct Inference {
    pos: Chess,
    settings: Settings,
    physical: Physical,
    /// Squares emptied / filled since the position last showed.
    lifted: Bitboard,
    put: Bitboard,
    last_put: Option<Square>,
    /// Lifted squares that count as touches (bounces excluded).
    touched: Bitboard,
    lift_time: [Option<Duration>; 64],
    /// Time of the last change not yet evaluated.
    changed_at: Option<Duration>,
    promotion: Option<(Square, Square)>,
    following: Option<Move>,
    reported: Option<Physical>,
    touches: Vec<Touch>,
}

/// A touch on the record for the arbiter (Article 4.3, D.2.10.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Touch {
    /// The ply (half-moves played) during which the piece was touched.
    pub ply: u32,
    #[serde(serialize_with = "ser_square")]
    pub square: Square,
    /// FEN letter of the piece touched.
    #[serde(serialize_with = "ser_piece")]
    pub piece: Option<Piece>,
}

fn ser_square<S: serde::Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(sq)
}

fn ser_piece<S: serde::Serializer>(p: &Option<Piece>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => s.serialize_char(p.char()),
        None => s.serialize_none(),
    }
}

impl Inference {
    /// An engine for a board of `protocol` that should show `pos`. Until the
    /// board reports (a scan or a dump), it is assumed to show `pos`.
    pub fn new(pos: Chess, protocol: Protocol, settings: Settings) -> Inference {
        let physical = match protocol {
            Protocol::Peg => Physical::Holes(pos.board().occupied()),
            Protocol::Dgt | Protocol::Millennium => Physical::Pieces(pos.board().clone()),
        };
        Inference {
            pos,
            settings,
            physical,
            lifted: Bitboard::EMPTY,
            put: Bitboard::EMPTY,
            last_put: None,
            touched: Bitboard::EMPTY,
            lift_time: [None; 64],
            changed_at: None,
            promotion: None,
            following: None,
            reported: None,
            touches: Vec::new(),
        }
    }

    /// The game position.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// What the board senses now.
    pub fn physical(&self) -> &Physical {
        &self.physical
    }

    /// Every touch reported so far, in order (the record for the arbiter).
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The announced move being followed, if any.
    pub fn following(&self) -> Option<Move> {
        self.following
    }

    /// The promotion waiting for its piece, if any (from, to).
    pub fn promotion_pending(&self) -> Option<(Square, Square)> {
        self.promotion
    }

    /// When [`Inference::tick`] should next be called (a change waits for
    /// the settling time), if at all.
    pub fn deadline(&self) -> Option<Duration> {
        self.changed_at.map(|t| t + self.settings.settle)
    }

    /// The board the physical board should show now.
    pub fn expected_board(&self) -> Board {
        match self.following {
            Some(m) => after(&self.pos, m).board().clone(),
            None => self.pos.board().clone(),
        }
    }

    /// Which holes or squares differ from what the board should show now
    /// (on request: "which holes differ?").
    pub fn fixes(&self) -> Fixes {
        let extra = match (self.following, &self.physical) {
            (Some(m), Physical::Holes(_)) if !self.record_allows(m) => {
                // Right holes, wrong pegs: the move's squares and every hole
                // refilled on the way need the named pieces.
                let (lifts, puts) = move_squares(&self.pos, m);
                (lifts | puts | self.put) & !self.lifted_and_unused(m)
            }
            _ => Bitboard::EMPTY,
        };
        Fixes::compare(&self.expected_board(), &self.physical, extra)
    }

    fn lifted_and_unused(&self, m: Move) -> Bitboard {
        // Squares emptied by the move are not placements.
        let (lifts, puts) = move_squares(&self.pos, m);
        lifts & !puts
    }

    /// Follow the announced move `mv` (the opponent's): the blind player is
    /// to carry it out on the board; [`Inferred::Confirmed`] when it shows.
    pub fn expect(&mut self, mv: Move, now: Duration) -> Result<(), InferError> {
        if !self.pos.is_legal(mv) {
            return Err(InferError::IllegalMove(
                UciMove::from_move(mv, CastlingMode::Standard).to_string(),
            ));
        }
        self.following = Some(mv);
        self.promotion = None;
        self.reset_record();
        self.changed_at = Some(now);
        Ok(())
    }

    /// Feeds one board event received at `now`; returns what it completes.
    /// With a settling time, conclusions come from [`Inference::tick`].
    pub fn event(&mut self, event: &BoardEvent, now: Duration) -> Vec<Inferred> {
        let settle = self.settings.settle;
        match (event, &mut self.physical) {
            (BoardEvent::Lifted(sq), Physical::Holes(occ)) => {
                occ.discard(*sq);
                self.lifted.add(*sq);
                self.touched.add(*sq);
                self.lift_time[usize::from(*sq)] = Some(now);
            }
            (BoardEvent::Put(sq), Physical::Holes(occ)) => {
                occ.add(*sq);
                self.note_put(*sq, now, settle);
            }
            (BoardEvent::Scan(bb), Physical::Holes(occ)) => {
                let emptied = *occ & !*bb;
                let filled = *bb & !*occ;
                *occ = *bb;
                self.lifted |= emptied;
                self.put |= filled;
                if !filled.is_empty() {
                    self.last_put = filled.single_square();
                }
            }
            (BoardEvent::Field { square, piece }, Physical::Pieces(board)) => {
                match piece {
                    Some(p) => board.set_piece_at(*square, *p),
                    None => board.discard_piece_at(*square),
                }
                if piece.is_some() {
                    self.note_put(*square, now, settle);
                } else {
                    self.lifted.add(*square);
                    self.touched.add(*square);
                    self.lift_time[usize::from(*square)] = Some(now);
                }
            }
            (BoardEvent::Dump(new), Physical::Pieces(board)) => {
                for sq in board.occupied() | new.occupied() {
                    let (old, now_piece) = (board.piece_at(sq), new.piece_at(sq));
                    if old != now_piece {
                        if now_piece.is_some() {
                            self.put.add(sq);
                        } else {
                            self.lifted.add(sq);
                        }
                    }
                }
                *board = new.clone();
            }
            (BoardEvent::Button(n), _) => {
                if self.promotion.is_some()
                    && let Some(role) = promotion_button(*n)
                {
                    return self.name_promotion(role).unwrap_or_default();
                }
                return Vec::new();
            }
            // Link events, hello, clock, and events of the other protocol
            // change nothing on the board.
            _ => return Vec::new(),
        }
        self.changed_at = Some(now);
        if settle.is_zero() {
            self.evaluate()
        } else {
            Vec::new()
        }
    }

    fn note_put(&mut self, sq: Square, now: Duration, settle: Duration) {
        self.put.add(sq);
        self.last_put = Some(sq);
        // A lift and a put on the same hole within the settling time is a
        // bouncing contact, not a touch.
        if let Some(t) = self.lift_time[usize::from(sq)]
            && now.saturating_sub(t) < settle
        {
            self.touched.discard(sq);
        }
    }

    /// Reads the board if it has been still for the settling time.
    pub fn tick(&mut self, now: Duration) -> Vec<Inferred> {
        match self.deadline() {
            Some(d) if now >= d => self.evaluate(),
            _ => Vec::new(),
        }
    }

    /// Names the piece of a pending peg-board promotion and makes the move.
    pub fn name_promotion(&mut self, role: Role) -> Result<Vec<Inferred>, InferError> {
        let (from, to) = self.promotion.ok_or(InferError::NoPromotionPending)?;
        let mv = self
            .pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
            .ok_or(InferError::BadPromotion(role))?;
        self.promotion = None;
        Ok(self.make(mv))
    }

    fn reset_record(&mut self) {
        self.lifted = Bitboard::EMPTY;
        self.put = Bitboard::EMPTY;
        self.last_put = None;
        self.touched = Bitboard::EMPTY;
        self.lift_time = [None; 64];
    }

    /// Whether the lifts and puts since the position showed include the
    /// move's own (peg boards only; a DGT board identifies pieces).
    fn record_allows(&self, m: Move) -> bool {
        let (lifts, puts) = move_squares(&self.pos, m);
        // Cheap before playing the move: the holes it empties are empty.
        let vacated_empty = (lifts & !puts & self.physical.occupied()).is_empty();
        match self.physical {
            Physical::Pieces(_) => vacated_empty,
            Physical::Holes(_) => {
                vacated_empty && lifts.is_subset(self.lifted) && puts.is_subset(self.put)
            }
        }
    }

    fn touch(&mut self, square: Square) -> Inferred {
        let piece = self.pos.board().piece_at(square);
        let ply = (self.pos.fullmoves().get() - 1) * 2 + u32::from(self.pos.turn().is_black());
        self.touches.push(Touch { ply, square, piece });
        Inferred::Touched { square, piece }
    }

    fn make(&mut self, mv: Move) -> Vec<Inferred> {
        let mut out = Vec::new();
        let (lifts, _) = move_squares(&self.pos, mv);
        // Only a square that held a piece can have been touched; a slide's
        // contact on an empty hole is not a touch.
        for square in self.touched & !lifts & self.pos.board().occupied() {
            out.push(self.touch(square));
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv);
        out.push(if self.following.take().is_some() {
            Inferred::Confirmed { mv, san }
        } else {
            Inferred::Moved { mv, san }
        });
        self.reset_record();
        self.reported = None;
        self.changed_at = None;
        out
    }

    fn evaluate(&mut self) -> Vec<Inferred> {
        self.changed_at = None;
        // A Chess960 castling in which king and rook trade squares (king f1,
        // rook g1) leaves the same holes filled: when it is the move being
        // followed, both lifted and both put again is what carried it out.
        if let Some(m) = self.following
            && m.is_castle()
            && matches!(self.physical, Physical::Holes(_))
            && self.record_allows(m)
            && self.physical.shows(after(&self.pos, m).board())
        {
            return self.make(m);
        }
        let mut out = Vec::new();
        if self.physical.shows(self.pos.board()) {
            for square in self.touched & self.pos.board().occupied() {
                let t = self.touch(square);
                out.push(t);
            }
            if self.reported.take().is_some() {
                out.push(Inferred::Agrees);
            }
            self.promotion = None;
            self.reset_record();
            return out;
        }
        let candidates: Vec<Move> = match self.following {
            Some(m) => vec![m],
            None => self.pos.legal_moves().into_iter().collect(),
        };
        let mut fits: Vec<Move> = candidates
            .into_iter()
            .filter(|&m| self.record_allows(m) && self.physical.shows(after(&self.pos, m).board()))
            .collect();
        if fits.len() > 1
            && let Some(last) = self.last_put
        {
            let by_last: Vec<Move> = fits
                .iter()
                .copied()
                .filter(|&m| move_squares(&self.pos, m).1.contains(last))
                .collect();
            if !by_last.is_empty() {
                fits = by_last;
            }
        }
        match fits.as_slice() {
            [mv] => return self.make(*mv),
            [first, rest @ ..]
                if first.is_promotion()
                    && rest
                        .iter()
                        .all(|m| m.from() == first.from() && m.to() == first.to()) =>
            {
                if let Some(from) = first.from() {
                    if self.promotion != Some((from, first.to())) {
                        out.push(Inferred::PromotionPending {
                            from,
                            to: first.to(),
                        });
                    }
                    self.promotion = Some((from, first.to()));
                }
                return out;
            }
            [] => {}
            _ => {
                tracing::warn!(
                    count = fits.len(),
                    "board shows several moves' result; waiting"
                );
                return out;
            }
        }
        self.promotion = None;
        // Pieces in hand and nothing put anywhere yet: a move in progress,
        // no difference to report. (A peg put proves nothing about which
        // peg, so after any put a peg board is judged as it stands.)
        let nothing_put = matches!(self.physical, Physical::Pieces(_)) || self.put.is_empty();
        let in_progress = nothing_put
            && (self.physical.is_subset_of(self.pos.board())
                || self.following.is_some_and(|_| {
                    let expected = self.expected_board();
                    self.physical.is_subset_of(&expected) && !self.physical.shows(&expected)
                }));
        if !in_progress && self.reported.as_ref() != Some(&self.physical) {
            let fixes = self.fixes();
            if !fixes.is_empty() {
                self.reported = Some(self.physical.clone());
                if self.settings.auto_correct {
                    let tokens = fixes.tokens();
                    out.push(Inferred::Differs(fixes));
                    out.push(Inferred::Correction(tokens));
                } else {
                    out.push(Inferred::Differs(fixes));
                }
            }
        }
        out
    }
}

fn after(pos: &Chess, m: Move) -> Chess {
    let mut p = pos.clone();
    p.play_unchecked(m);
    p
}

/// The holes a move empties at some point (lifts) and fills (puts).
pub fn move_squares(pos: &Chess, m: Move) -> (Bitboard, Bitboard) {
    let turn = pos.turn();
    match m {
        Move::Normal {
            from, capture, to, ..
        } => {
            let mut lifts = Bitboard::from(from);
            if capture.is_some() {
                lifts.add(to);
            }
            (lifts, Bitboard::from(to))
        }
        Move::EnPassant { from, to } => (
            Bitboard::from(from) | Square::from_coords(to.file(), from.rank()),
            Bitboard::from(to),
        ),
        Move::Castle { king, rook } => {
            let puts = m
                .castling_side()
                .map(|side| Bitboard::from(side.king_to(turn)) | side.rook_to(turn))
                .unwrap_or_default();
            (Bitboard::from(king) | rook, puts)
        }
        Move::Put { to, .. } => (Bitboard::EMPTY, Bitboard::from(to)),
    }
}

/// A made move as `tactus board watch --json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveRecord {
    pub san: String,
    pub uci: String,
}

impl MoveRecord {
    /// The SAN and UCI of `mv` with its SAN already computed.
    pub fn new(mv: Move, san: &SanPlus) -> MoveRecord {
        MoveRecord {
            san: san.to_string(),
            uci: UciMove::from_move(mv, CastlingMode::Standard).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn peg_events(script: &str) -> Vec<BoardEvent> {
        script
            .split(',')
            .map(|s| {
                let s = s.trim();
                let sq: Square = s[2..].parse().unwrap();
                match &s[..1] {
                    "L" => BoardEvent::Lifted(sq),
                    "P" => BoardEvent::Put(sq),
                    other => panic!("{other}"),
                }
            })
            .collect()
    }

    /// Feeds a script with settle zero, one event per millisecond.
    fn run(inf: &mut Inference, script: &str) -> Vec<Inferred> {
        let mut out = Vec::new();
        for (i, e) in peg_events(script).iter().enumerate() {
            out.extend(inf.event(e, ms(i as u64)));
        }
        out
    }

    fn zero() -> Settings {
        Settings {
            settle: Duration::ZERO,
            auto_correct: false,
        }
    }

    fn sans(out: &[Inferred]) -> Vec<String> {
        out.iter()
            .filter_map(|i| match i {
                Inferred::Moved { san, .. } | Inferred::Confirmed { san, .. } => {
                    Some(san.to_string())
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_game_with_every_move_kind_on_a_peg_board() {
        let mut inf = Inference::new(Chess::default(), Protocol::Peg, zero());
        let out = run(&mut inf, "L e2,P e4, L d7,P d5, L d5,L e4,P d5, L g8,P f6");
        assert_eq!(sans(&out), ["e4", "d5", "exd5", "Nf6"]);
        let out = run(
            &mut inf,
            "L b1,P c3, L f6,L d5,P d5, L g1,P f3, L e7,P e6, L f1,P c4, L f8,P e7, L e1,P g1,L h1,P f1, L e8,P g8,L h8,P f8",
        );
        assert_eq!(
            sans(&out),
            ["Nc3", "Nxd5", "Nf3", "e6", "Bc4", "Be7", "O-O", "O-O"]
        );
    }

    #[test]
    fn captures_in_both_orders_and_the_put_square_decides() {
        // White queen d1 can take on f3 or on d6.
        let start = pos("4k3/8/3p4/8/8/5p2/8/3QK3 w - - 0 1");
        for script in ["L f3,L d1,P f3", "L d1,L f3,P f3"] {
            let mut inf = Inference::new(start.clone(), Protocol::Peg, zero());
            assert_eq!(sans(&run(&mut inf, script)), ["Qxf3"], "{script}");
        }
        let mut inf = Inference::new(start.clone(), Protocol::Peg, zero());
        assert_eq!(sans(&run(&mut inf, "L d1,L d6,P d6")), ["Qxd6"]);
        // Touch f3 and put it back, then take on d6: the last put decides.
        let mut inf = Inference::new(start, Protocol::Peg, zero());
        let out = run(&mut inf, "L f3,P f3");
        assert_eq!(
            out,
            vec![Inferred::Touched {
                square: Square::F3,
                piece: Some(Color::Black.pawn())
            }]
        );
        assert_eq!(sans(&run(&mut inf, "L d1,L d6,P d6")), ["Qxd6"]);
    }

    #[test]
    fn castling_en_passant_and_promotion() {
        let mut inf = Inference::new(
            pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
            Protocol::Peg,
            zero(),
        );
        assert_eq!(sans(&run(&mut inf, "L e1,P g1,L h1,P f1")), ["O-O"]);
        assert_eq!(sans(&run(&mut inf, "L e8,P c8,L a8,P d8")), ["O-O-O"]);

        let mut inf = Inference::new(
            pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
            Protocol::Peg,
            zero(),
        );
        assert_eq!(sans(&run(&mut inf, "L e5,P d6,L d5")), ["exd6"]);
        let mut inf = Inference::new(
            pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
            Protocol::Peg,
            zero(),
        );
        assert_eq!(sans(&run(&mut inf, "L d5,L e5,P d6")), ["exd6"]);

        let mut inf = Inference::new(
            pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"),
            Protocol::Peg,
            zero(),
        );
        let out = run(&mut inf, "L d8,L e7,P d8");
        assert_eq!(
            out,
            vec![Inferred::PromotionPending {
                from: Square::E7,
                to: Square::D8
            }]
        );
        assert_eq!(inf.position().turn(), Color::White, "not made until named");
        let out = inf.event(&BoardEvent::Button(4), ms(100));
        assert_eq!(sans(&out), ["exd8=N"]);
        assert_eq!(
            inf.name_promotion(Role::Queen),
            Err(InferError::NoPromotionPending)
        );
    }

    #[test]
    fn rook_first_castling_within_the_settling_time() {
        let start = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let settings = Settings {
            settle: ms(300),
            auto_correct: false,
        };
        let mut inf = Inference::new(start.clone(), Protocol::Peg, settings);
        for (t, e) in peg_events("L h1,P f1,L e1,P g1").iter().enumerate() {
            assert!(inf.event(e, ms(t as u64 * 100)).is_empty());
        }
        assert!(inf.tick(ms(400)).is_empty(), "not yet settled");
        assert_eq!(sans(&inf.tick(ms(600))), ["O-O"]);
        // A rook left alone past the settling time is a rook move.
        let mut inf = Inference::new(start, Protocol::Peg, settings);
        for (t, e) in peg_events("L h1,P f1").iter().enumerate() {
            inf.event(e, ms(t as u64 * 10));
        }
        assert_eq!(sans(&inf.tick(ms(400))), ["Rf1"]);
    }

    #[test]
    fn bounces_are_absorbed_and_a_piece_put_back_is_a_touch() {
        let settings = Settings {
            settle: ms(100),
            auto_correct: false,
        };
        let mut inf = Inference::new(Chess::default(), Protocol::Peg, settings);
        // Slide over e3, bounce on e4.
        let script = "L e2,P e3,L e3,P e4,L e4,P e4,L e4,P e4";
        for (t, e) in peg_events(script).iter().enumerate() {
            assert!(inf.event(e, ms(t as u64 * 5)).is_empty());
        }
        assert_eq!(inf.deadline(), Some(ms(135)));
        assert_eq!(sans(&inf.tick(ms(135))), ["e4"]);
        // A quick bounce on g8 is no touch; a real lift-and-return is.
        inf.event(&BoardEvent::Lifted(Square::G8), ms(1000));
        inf.event(&BoardEvent::Put(Square::G8), ms(1010));
        assert!(inf.tick(ms(2000)).is_empty());
        inf.event(&BoardEvent::Lifted(Square::G8), ms(3000));
        inf.event(&BoardEvent::Put(Square::G8), ms(3500));
        assert_eq!(
            inf.tick(ms(3600)),
            vec![Inferred::Touched {
                square: Square::G8,
                piece: Some(Color::Black.knight())
            }]
        );
        assert_eq!(inf.position().turn(), Color::Black);
        assert_eq!(
            inf.touches(),
            [Touch {
                ply: 1,
                square: Square::G8,
                piece: Some(Color::Black.knight())
            }]
        );
    }

    #[test]
    fn an_illegal_result_differs_and_following_confirms_or_corrects() {
        let settings = Settings {
            settle: Duration::ZERO,
            auto_correct: true,
        };
        let mut inf = Inference::new(Chess::default(), Protocol::Peg, settings);
        let out = run(&mut inf, "L e2,P e5");
        assert!(matches!(&out[0], Inferred::Differs(f) if f.squares() == [Square::E2, Square::E5]));
        let keys: Vec<String> = match &out[1] {
            Inferred::Correction(t) => t.iter().map(|t| t.key()).collect(),
            other => panic!("{other:?}"),
        };
        assert_eq!(keys[0], "board.remove");
        let out = run(&mut inf, "L e5,P e2");
        assert!(out.contains(&Inferred::Agrees));

        // Following the opponent's move: black Nf6 announced, player puts it on h6.
        let mut p = Chess::default();
        p.play_unchecked(Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        });
        let mut inf = Inference::new(p.clone(), Protocol::Peg, zero());
        let nf6 = "g8f6".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        inf.expect(nf6, ms(0)).unwrap();
        assert!(run(&mut inf, "L g8").is_empty(), "in progress");
        let out = run(&mut inf, "P h6");
        let Inferred::Differs(fixes) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(fixes.squares(), [Square::F6, Square::H6]);
        let keys: Vec<String> = fixes.tokens().iter().map(|t| t.key()).collect();
        assert_eq!(
            keys.join(" "),
            "board.remove file.h rank.6 board.put piece.black.knight board.on file.f rank.6"
        );
        let out = run(&mut inf, "L h6,P f6");
        assert_eq!(sans(&out), ["Nf6"]);
        assert!(matches!(out.last(), Some(Inferred::Confirmed { .. })));
        assert_eq!(inf.following(), None);
    }

    #[test]
    fn following_a_capture_done_on_the_wrong_square_is_caught() {
        let start = pos("4k3/8/3p4/8/8/5p2/8/3QK3 w - - 0 1");
        let qxd6 = "d1d6".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        let mut inf = Inference::new(start, Protocol::Peg, zero());
        inf.expect(qxd6, ms(0)).unwrap();
        // Same holes filled as Qxd6, but the queen went to f3.
        let out = run(&mut inf, "L f3,L d1,P f3");
        let Inferred::Differs(fixes) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(fixes.squares(), [Square::F3, Square::D6]);
        let e2e4 = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        assert!(matches!(inf.expect(e2e4, ms(1)), Err(InferError::IllegalMove(m)) if m == "e2e4"));
        // Put right: the queen to d6, the pawn back on f3.
        let out = run(&mut inf, "L d6,L f3,P d6,P f3");
        assert_eq!(sans(&out), ["Qxd6"]);
    }

    #[test]
    fn a_dgt_board_identifies_the_promoted_piece() {
        let start = pos("7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
        let mut inf = Inference::new(start, Protocol::Dgt, zero());
        let field = |sq, piece| BoardEvent::Field { square: sq, piece };
        assert!(inf.event(&field(Square::E7, None), ms(0)).is_empty());
        let out = inf.event(&field(Square::E8, Some(Color::White.rook())), ms(1));
        assert_eq!(sans(&out), ["e8=R+"]);
        // A dump showing the next move.
        let mut board = inf.position().board().clone();
        board.discard_piece_at(Square::H8);
        board.set_piece_at(Square::H7, Color::Black.king());
        let out = inf.event(&BoardEvent::Dump(board), ms(2));
        assert_eq!(sans(&out), ["Kh7"]);
    }
}
