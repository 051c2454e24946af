//! Move inference: from a board's event sequence to the moves made on it.
//! Pure: no I/O, time is passed in as the `Duration` since any fixed epoch.
//!
//! The engine keeps what the board senses ([`Physical`]) and the record of
//! lifts and puts since the game's position last showed. A move is decided
//! as Appendix D.2.3 makes it: the captured piece off the board and the
//! moving piece in a different hole (castling with the rook too; a peg-board
//! promotion named), that is, the board shows the result of a legal move
//! (from shakmaty) and the record holds the move's own lifts and puts. A
//! peg board senses occupancy only, so a capture's result is the same for
//! every capture by the same piece: the last put decides.
//!
//! Hands are not clean, so:
//! - a move shown complete is made when the board has been still for the
//!   settling time, which only absorbs contact bounce and a piece slid or
//!   pushed on through holes; a lift that only the other side can make
//!   (one of its own pieces) makes it at once, and so do lifts of other
//!   pieces while it rests (a touch after the move);
//! - a piece taken out and put back in its own hole after longer than a
//!   bounce is a touch (D.2.2), on the record at once, never a move;
//! - a rook move that may be the first half of a castling waits
//!   [`CASTLE_WAIT`] for the king (a lift by the other side ends the wait);
//! - what the board leaves ambiguous is never guessed: the engine waits, and
//!   [`Inference::fixes`] says which holes differ.

use std::time::Duration;

use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, Move, Piece, Position, Role, Square};
use thiserror::Error;

use super::event::{BoardEvent, ClockMessage, Protocol};
use super::follow::{Fixes, Physical};

// The engine's inner steps, each an `impl Inference` of its own: reading
// events into the record, which moves fit it, and deciding.
mod deciding;
mod fits;
mod reading;

/// The peg board's settling time, which only absorbs contact bounce and a
/// peg pushed on through holes: contacts bounce for a few milliseconds, a
/// peg cannot slide (it is lifted and pressed into a hole), and events on a
/// 9600-baud line are at least 5 ms apart. 20 ms covers these twice over
/// and leaves 30 ms of the 50 ms target for a loaded host. It is also the
/// longest a lift and put back on one square may take to be a bounce on
/// any board, not a touch.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(20);

/// The settling time of a peg board that debounces its own switches and
/// says so in its hello ([`crate::peg::debounced`], the project's
/// firmware): none. Its lines are changes that held (10 ms on the
/// firmware), never contact bounce, and a peg cannot slide, so waiting out
/// a bounce again only delays every move; a lift and put back it reports
/// is a touch however quick. Events that come in one read are still judged
/// one by one, and a move half made (pegs in hand, nothing put, a castling
/// half done) is still a move in progress, not a difference.
pub const DEBOUNCED_SETTLE: Duration = Duration::ZERO;

/// The settling time of a board that senses pieces (DGT, Millennium): a
/// piece slid by hand rests on each square it crosses for up to a quarter
/// of a second (30–250 ms a square, measured as the hands model slides),
/// so a position must stay the same longer than that before a move that
/// can still travel on is believed. Chosen from `tactus bench hands` (see
/// `docs/board-protocols.md`): the slowest slide's rest on a square plus
/// room for a host that reads late. A move whose piece cannot travel on,
/// and every move ended by a press of a DGT clock, is made sooner.
pub const SLIDE_SETTLE: Duration = Duration::from_millis(400);

/// How long after a move read on a board that senses pieces the same
/// piece moving on along the same line is still the same move (a slide
/// that rested longer than the settling time): the move is then corrected
/// ([`Inferred::Corrected`]) rather than a second move of one side made.
pub const SLIDE_WINDOW: Duration = Duration::from_millis(1500);

/// How long a rook move that may be the first half of a castling (rook
/// first, then the king) waits for the king before it is a rook move.
pub const CASTLE_WAIT: Duration = Duration::from_millis(1200);

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

/// The default settling time of a kind of board: the peg board's for a
/// peg board, which cannot slide; [`SLIDE_SETTLE`] for a board that
/// senses pieces, on which a sighted player slides them.
pub fn default_settle(protocol: Protocol) -> Duration {
    match protocol {
        Protocol::Peg => DEFAULT_SETTLE,
        Protocol::Dgt | Protocol::Millennium => SLIDE_SETTLE,
    }
}

impl Settings {
    /// The defaults for a kind of board ([`default_settle`]).
    pub fn for_protocol(protocol: Protocol) -> Settings {
        Settings {
            settle: default_settle(protocol),
            auto_correct: false,
        }
    }

    /// The longest a lift and put back on one square is a bounce, and the
    /// wait before a move whose piece cannot travel on is made: contact
    /// bounce only, however long the settling time for slides.
    pub fn bounce(&self) -> Duration {
        self.settle.min(DEFAULT_SETTLE)
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
    Correction(Vec<tactus_rules::token::Token>),
    /// The move `retracted`, read a moment ago on a board that senses
    /// pieces, was a slide that rested on its way: the same piece went on
    /// along the same line, within [`SLIDE_WINDOW`], to make `mv` instead,
    /// one move. The position is now the one after `mv`.
    Corrected {
        retracted: Move,
        mv: Move,
        san: SanPlus,
    },
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
            Inferred::Corrected { .. } => "corrected",
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

/// What one event did to the board as read.
enum Change {
    /// A lift (`true`) or a put on one square.
    Step(bool, Square),
    /// A scan or dump that changed the whole board: judged anew.
    Whole,
    /// Nothing left to judge: a dump that repeats, a button, the clock, a
    /// link event.
    Judged,
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
    /// The last put that was not a piece going back into its own hole.
    last_put: Option<Square>,
    /// When each square was last emptied, and what stood on it then.
    lift_time: [Option<Duration>; 64],
    lift_piece: [Option<Piece>; 64],
    /// How much earlier than its stamp each lift may have happened (the
    /// host read it late).
    lift_unsure: [Duration; 64],
    /// Squares filled since the board was last still: a lift there is the
    /// put bouncing or the hand moving on, not a resting piece picked up.
    fresh: Bitboard,
    /// Squares whose lift took a resting piece (not a fresh put).
    from_rest: Bitboard,
    /// Resting pieces lifted and back in their own holes sooner than the
    /// settling time, read late: a touch if the piece is in its hole when
    /// the board is read, a bounce if it has left. The order of events
    /// decides what their timing cannot: events are stamped when the host
    /// reads them, and a host that reads late (a busy machine) sees a
    /// touch held for half a second arrive in one read with the move.
    returned: Bitboard,
    /// The lifts (`true`) and puts since the record was last reset.
    steps: Vec<(bool, Square)>,
    /// A move the board showed complete, and how many steps it took: it
    /// stands while only lifts of other pieces follow (the hands moving on).
    snapshot: Option<(Move, usize)>,
    /// Time of the last change not yet evaluated.
    changed_at: Option<Duration>,
    promotion: Option<(Square, Square)>,
    following: Option<Move>,
    reported: Option<Physical>,
    touches: Vec<Touch>,
    /// The last move read on this board whose piece could have travelled
    /// on: the position before it, the move, and when it was made. Within
    /// [`SLIDE_WINDOW`] the same piece going on along its line corrects it.
    provisional: Option<(Chess, Move, Duration)>,
    /// Which side of a DGT clock on the board was to move (right, left),
    /// as its last message said: a change is a press of the clock.
    clock_turn: Option<(bool, bool)>,
}

/// A touch on the record for the arbiter (Article 4.3, D.2.10.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Touch {
    /// The ply (half-moves played) during which the piece was touched.
    pub ply: u32,
    #[serde(serialize_with = "tactus_rules::side::serialize_square")]
    pub square: Square,
    /// FEN letter of the piece touched.
    #[serde(serialize_with = "ser_piece")]
    pub piece: Option<Piece>,
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
            lift_time: [None; 64],
            lift_piece: [None; 64],
            lift_unsure: [Duration::ZERO; 64],
            fresh: Bitboard::EMPTY,
            from_rest: Bitboard::EMPTY,
            returned: Bitboard::EMPTY,
            steps: Vec::new(),
            snapshot: None,
            changed_at: None,
            promotion: None,
            following: None,
            reported: None,
            touches: Vec::new(),
            provisional: None,
            clock_turn: None,
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

    /// Reads the board with another settling time from now on (the board
    /// said in its hello that it debounces: [`DEBOUNCED_SETTLE`]). A change
    /// already waiting is judged by the new one at its next deadline.
    pub fn set_settle(&mut self, settle: Duration) {
        self.settings.settle = settle;
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
    /// the settling time; a rook move that may be the first half of a
    /// castling waits [`CASTLE_WAIT`]), if at all.
    /// A move shown complete whose piece cannot travel on waits only for
    /// contact bounce ([`Settings::bounce`]).
    pub fn deadline(&self) -> Option<Duration> {
        let wait = match self.snapshot {
            Some((m, at)) if at == self.steps.len() && self.castling_prefix(m) => {
                CASTLE_WAIT.max(self.settings.settle)
            }
            Some((m, at))
                if at == self.steps.len()
                    && matches!(self.physical, Physical::Pieces(_))
                    && !self.may_travel_on(m) =>
            {
                self.settings.bounce()
            }
            _ => self.settings.settle,
        };
        self.changed_at.map(|t| t + wait)
    }

    /// The longest a lift and put back on one square is a bounce, not a
    /// touch: the settling time on a peg board (which has no slides), only
    /// contact bounce on a board that senses pieces ([`Settings::bounce`]).
    fn bounce(&self) -> Duration {
        match self.physical {
            Physical::Holes(_) => self.settings.settle,
            Physical::Pieces(_) => self.settings.bounce(),
        }
    }
}

impl Inference {
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
        // The other side has moved: the last move read here stands.
        self.provisional = None;
        // A piece in the hand (a touch under way) stays on the record.
        let in_hand = self.lifted & !self.physical.occupied();
        let (times, pieces, unsure) = (self.lift_time, self.lift_piece, self.lift_unsure);
        self.reset_record();
        for sq in in_hand {
            let i = usize::from(sq);
            self.lifted.add(sq);
            self.lift_time[i] = times[i];
            self.lift_piece[i] = pieces[i];
            self.lift_unsure[i] = unsure[i];
            self.steps.push((true, sq));
        }
        self.changed_at = Some(now);
        Ok(())
    }

    /// Feeds one board event received at `now`; returns what it completes.
    /// A move shows complete at once; it is made when the board has been
    /// still for the settling time ([`Inference::tick`]), or at once when a
    /// lift follows that only the other side can make.
    pub fn event(&mut self, event: &BoardEvent, now: Duration) -> Vec<Inferred> {
        self.event_unsure(event, now, Duration::ZERO)
    }

    /// [`Inference::event`] for an event read late: it may have happened
    /// up to `unsure` before `now` (the driver's [`Stamped::unsure`]).
    /// Whether a piece put back in its hole was held (a touch) or bounced
    /// is then decided by whether it stays, not by the stamps.
    ///
    /// [`Stamped::unsure`]: crate::serial::Stamped::unsure
    pub fn event_unsure(
        &mut self,
        event: &BoardEvent,
        now: Duration,
        unsure: Duration,
    ) -> Vec<Inferred> {
        let mut out = self.lift_only_the_other_side_makes(event, now);
        let step = match self.read_event(event, now, unsure, &mut out) {
            Change::Step(lift, sq) => Some((lift, sq)),
            Change::Whole => None,
            Change::Judged => return out,
        };
        // A scan or dump that changed the board: start judging anew.
        self.steps.push(step.unwrap_or((false, Square::A1)));
        self.keep_or_drop_snapshot(step);
        if self.snapshot.is_none() && matches!(self.physical, Physical::Pieces(_)) {
            out.extend(self.reply_made_before_the_move_was_read(now));
        }
        self.changed_at = Some(now);
        // With no settling time the board is judged at once, unless a wait
        // of its own runs (a rook on its castling square waits
        // CASTLE_WAIT for its king): that is judged at its deadline, by
        // `tick`, as with any settling time. Judged here, a rook-first
        // castling on a board that debounces was the rook's move.
        if self.settings.settle.is_zero() && self.deadline().is_some_and(|d| d <= now) {
            out.extend(self.evaluate(now));
        }
        out
    }

    /// Reads the board if it has been still for the settling time.
    pub fn tick(&mut self, now: Duration) -> Vec<Inferred> {
        match self.deadline() {
            Some(d) if now >= d => self.evaluate(now),
            _ => Vec::new(),
        }
    }

    /// Reads the board now, still or not: a frame button was pressed, so the
    /// hand is off the pieces (a promotion shown is then pending at once).
    pub fn read_now(&mut self, now: Duration) -> Vec<Inferred> {
        if self.changed_at.is_some() {
            self.evaluate(now)
        } else {
            Vec::new()
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
        // A peg board's move: never one a slide may correct, so no instant.
        Ok(self.make(mv, Duration::ZERO))
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
mod tests;

#[cfg(test)]
mod hands_tests;
