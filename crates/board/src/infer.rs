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

    /// Whether the piece of `m`, resting on its destination, may be on its
    /// way further: another legal move of the same piece from the same
    /// square passes over that destination (a bishop f1 on d3 on its way
    /// to c4, a pawn on e3 on its way to e4, a king on f1 on its way to
    /// castle). Never on a peg board (a peg is put into a hole, not slid),
    /// nor for the move being followed (the one move expected).
    fn may_travel_on(&self, m: Move) -> bool {
        if matches!(self.physical, Physical::Holes(_)) || self.following.is_some() {
            return false;
        }
        travels_on(&self.pos, m)
    }
}

/// Whether the piece of `m` (in `pos`), resting on its destination, may be
/// on its way further along its line ([`Inference::may_travel_on`]).
fn travels_on(pos: &Chess, m: Move) -> bool {
    {
        let (Some(from), to) = (m.from(), m.to()) else {
            return false;
        };
        if m.is_castle() {
            return false;
        }
        let turn = pos.turn();
        pos.legal_moves().iter().any(|o| {
            if o.from() != Some(from) || *o == m {
                return false;
            }
            let dest = match o.castling_side() {
                Some(side) if o.is_castle() => side.king_to(turn),
                _ => o.to(),
            };
            shakmaty::attacks::between(from, dest).contains(to)
        })
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

    /// A lift of a piece only the other side may move: the move shown
    /// complete is at rest, and made before the lift is read.
    fn lift_only_the_other_side_makes(
        &mut self,
        event: &BoardEvent,
        now: Duration,
    ) -> Vec<Inferred> {
        let lifted_square = match (event, &self.physical) {
            (BoardEvent::Lifted(sq), Physical::Holes(occ)) if occ.contains(*sq) => Some(*sq),
            (
                BoardEvent::Field {
                    square,
                    piece: None,
                },
                Physical::Pieces(b),
            ) if b.piece_at(*square).is_some() => Some(*square),
            _ => None,
        };
        match lifted_square {
            Some(sq) if self.others_lift(sq) => self.conclude_snapshot(now),
            _ => Vec::new(),
        }
    }

    /// The board as read changed by `event`: what changed, for the record
    /// of steps; what an event concludes at once (a touch, a promotion
    /// named, a move read at a button or a clock press) goes to `out`.
    fn read_event(
        &mut self,
        event: &BoardEvent,
        now: Duration,
        unsure: Duration,
        out: &mut Vec<Inferred>,
    ) -> Change {
        match (event, &mut self.physical) {
            (BoardEvent::Lifted(sq), Physical::Holes(occ)) => {
                occ.discard(*sq);
                self.note_lift(*sq, None, now, unsure);
                Change::Step(true, *sq)
            }
            (BoardEvent::Put(sq), Physical::Holes(occ)) => {
                occ.add(*sq);
                self.note_put(*sq, None, now, out);
                Change::Step(false, *sq)
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
                Change::Whole
            }
            (BoardEvent::Field { square, piece }, Physical::Pieces(board)) => {
                let old = board.piece_at(*square);
                match piece {
                    Some(p) => board.set_piece_at(*square, *p),
                    None => board.discard_piece_at(*square),
                }
                match piece {
                    Some(p) => {
                        self.note_put(*square, Some(*p), now, out);
                        Change::Step(false, *square)
                    }
                    None => {
                        self.note_lift(*square, old, now, unsure);
                        Change::Step(true, *square)
                    }
                }
            }
            (BoardEvent::Dump(new), Physical::Pieces(_)) => self.read_dump(new),
            (BoardEvent::Button(n), _) => {
                if let Some(role) = promotion_button(*n) {
                    // A hand on a button is off the pieces: read the board now.
                    if self.promotion.is_none() {
                        out.extend(self.read_now(now));
                    }
                    if self.promotion.is_some() {
                        out.extend(self.name_promotion(role).unwrap_or_default());
                    }
                }
                Change::Judged
            }
            (BoardEvent::Clock(ClockMessage::Time(t)), _) => {
                // A DGT clock on the board: the side to move changing is a
                // press, and a player presses having made the move (Article
                // 6.2.1), so the board shows it complete: read it now.
                let turn = (t.right_to_move, t.left_to_move);
                let pressed = self.clock_turn.is_some_and(|was| was != turn);
                self.clock_turn = Some(turn);
                if pressed {
                    out.extend(self.read_now(now));
                }
                Change::Judged
            }
            // Link events, hello, clock acknowledgements, and events of the
            // other protocol change nothing on the board.
            _ => Change::Judged,
        }
    }

    /// A whole board sent by an electronic board: the squares that differ
    /// from the board as read are lifts and puts.
    fn read_dump(&mut self, new: &Board) -> Change {
        let Physical::Pieces(board) = &mut self.physical else {
            return Change::Judged;
        };
        let mut changed = false;
        for sq in board.occupied() | new.occupied() {
            let (old, now_piece) = (board.piece_at(sq), new.piece_at(sq));
            if old != now_piece {
                changed = true;
                if now_piece.is_some() {
                    self.put.add(sq);
                    self.last_put = Some(sq);
                } else {
                    self.lifted.add(sq);
                }
            }
        }
        *board = new.clone();
        if changed {
            Change::Whole
        } else {
            // A dump in the middle of a move that only repeats what the
            // field updates said changes nothing.
            Change::Judged
        }
    }

    /// The move shown complete stays the snapshot while only lifts of
    /// other squares follow it; a new complete move replaces it.
    fn keep_or_drop_snapshot(&mut self, step: Option<(bool, Square)>) {
        match self.complete_move() {
            Some(m) => self.snapshot = Some((m, self.steps.len())),
            None => {
                let keeps = match (step, self.snapshot) {
                    (Some((true, sq)), Some((m, _))) => !move_squares(&self.pos, m).1.contains(sq),
                    _ => false,
                };
                if !keeps {
                    self.snapshot = None;
                }
            }
        }
    }

    /// A reply made before the move was read (both players' hands on one
    /// board, a quick reply while the first piece still counted as perhaps
    /// sliding on): the other side has moved, so the first move is at rest
    /// and made now. The reply is then judged as any move is, so a third
    /// move begun before it was read is still one move after one move,
    /// never three at once.
    fn reply_made_before_the_move_was_read(&mut self, now: Duration) -> Vec<Inferred> {
        match self.two_fits().as_slice() {
            [(first, second)] => self.make_first_of_pair(*first, *second, now),
            _ => Vec::new(),
        }
    }

    fn note_lift(&mut self, sq: Square, piece: Option<Piece>, now: Duration, unsure: Duration) {
        self.lifted.add(sq);
        self.lift_unsure[usize::from(sq)] = unsure;
        // A quick return lifted again stays in question: back in its hole
        // when the board is read (a touch whose put bounced), a touch; gone
        // (a lift that bounced, the piece moving on), not.
        self.from_rest.set(sq, !self.fresh.contains(sq));
        self.lift_time[usize::from(sq)] = Some(now);
        self.lift_piece[usize::from(sq)] = piece;
    }

    /// A put; a piece back in its own hole after longer than a bounce is a
    /// touch (D.2.2), on the record at once.
    fn note_put(
        &mut self,
        sq: Square,
        piece: Option<Piece>,
        now: Duration,
        out: &mut Vec<Inferred>,
    ) {
        self.put.add(sq);
        self.fresh.add(sq);
        let i = usize::from(sq);
        let home = self.pos.board().piece_at(sq);
        let back = match (self.lift_time[i].take(), home) {
            (Some(t), Some(h)) => {
                let same = match piece {
                    Some(p) => p == h && self.lift_piece[i] == Some(h),
                    // A peg: the opponent's piece's hole filled while a piece
                    // that can take on it is out of its own is a capture.
                    None => h.color == self.pos.turn() || !self.capture_arrival(sq),
                };
                Some((t, same))
            }
            _ => None,
        };
        match back {
            Some((t, true)) => {
                let held = now.saturating_sub(t);
                let bounce = self.bounce();
                if held >= bounce {
                    // The same square's quick return was this touch's lift
                    // bouncing: one touch.
                    self.returned.discard(sq);
                    // Quick returns still in their holes came first: the
                    // record keeps the order the hands touched in.
                    out.extend(self.judge_returns(None));
                    out.push(self.touch(sq));
                } else if held + self.lift_unsure[i] >= bounce && self.from_rest.contains(sq) {
                    // Read late: held or bounced? Whether it stays decides.
                    self.returned.add(sq);
                }
            }
            _ => self.last_put = Some(sq),
        }
    }

    /// Whether a legal move captures on `sq` with a piece lifted and not
    /// back in its hole.
    fn capture_arrival(&self, sq: Square) -> bool {
        let out = self.lifted & !self.physical.occupied();
        self.pos
            .legal_moves()
            .iter()
            .any(|m| m.is_capture() && m.to() == sq && m.from().is_some_and(|f| out.contains(f)))
    }

    /// Whether lifting `sq` now is something only the side not making the
    /// move shown complete can do: lifting one of its own pieces.
    fn others_lift(&self, sq: Square) -> bool {
        let Some((m, at)) = self.snapshot else {
            return false;
        };
        if !self.steps[at..].iter().all(|(lift, _)| *lift) {
            return false;
        }
        // Not a piece the moving piece, resting on its way, is about to
        // take further along its line: the mover takes the victim off.
        let victim = m.from().is_some_and(|from| {
            self.may_travel_on(m)
                && self.pos.legal_moves().iter().any(|c| {
                    c.is_capture()
                        && c.from() == Some(from)
                        && c.to() == sq
                        && shakmaty::attacks::between(from, sq).contains(m.to())
                })
        });
        !victim
            && after(&self.pos, m)
                .board()
                .piece_at(sq)
                .is_some_and(|p| p.color != self.pos.turn())
    }

    /// Makes `first` of a pair the board shows; `second`'s lifts and puts
    /// begin the next record, as a move shown complete.
    fn make_first_of_pair(&mut self, first: Move, second: Move, now: Duration) -> Vec<Inferred> {
        let (lifts, puts) = move_squares(&after(&self.pos, first), second);
        let last_put = self.last_put.filter(|sq| puts.contains(*sq));
        let out = self.make_carrying(first, lifts, now);
        for sq in puts {
            self.put.add(sq);
            self.steps.push((false, sq));
        }
        self.last_put = last_put.or(puts.into_iter().last());
        if let Some(m) = self.complete_move() {
            self.snapshot = Some((m, self.steps.len()));
        }
        out
    }

    /// Makes the move of the snapshot; lifts after it begin the next record.
    fn conclude_snapshot(&mut self, now: Duration) -> Vec<Inferred> {
        let Some((m, at)) = self.snapshot else {
            return Vec::new();
        };
        let lifts: Vec<Square> = self.steps[at..].iter().map(|&(_, sq)| sq).collect();
        let out = self.make_carrying(m, lifts, now);
        if !self.steps.is_empty() {
            self.changed_at = Some(now);
        }
        out
    }

    /// Makes `m`, then begins the next record with `lifts` (made after `m`
    /// was complete: the next move's), each with what was noted of it.
    fn make_carrying(
        &mut self,
        m: Move,
        lifts: impl IntoIterator<Item = Square>,
        now: Duration,
    ) -> Vec<Inferred> {
        let carried: Vec<(Square, Option<Duration>, Option<Piece>, Duration)> = lifts
            .into_iter()
            .map(|sq| {
                let i = usize::from(sq);
                (
                    sq,
                    self.lift_time[i],
                    self.lift_piece[i],
                    self.lift_unsure[i],
                )
            })
            .collect();
        let out = self.make(m, now);
        for (sq, t, p, u) in carried {
            let i = usize::from(sq);
            self.lifted.add(sq);
            self.lift_time[i] = t;
            self.lift_piece[i] = p;
            self.lift_unsure[i] = u;
            self.steps.push((true, sq));
        }
        out
    }

    /// A rook (or, in Chess960, king) move that may be the first half of a
    /// castling with the same pieces, the other piece not yet lifted.
    fn castling_prefix(&self, m: Move) -> bool {
        let Move::Normal { role, from, to, .. } = m else {
            return false;
        };
        if !matches!(role, Role::Rook | Role::King) || self.following.is_some() {
            return false;
        }
        let turn = self.pos.turn();
        self.pos.legal_moves().iter().any(|c| match *c {
            Move::Castle { king, rook } => {
                let Some(side) = c.castling_side() else {
                    return false;
                };
                (role == Role::Rook && from == rook && to == side.rook_to(turn))
                    || (role == Role::King && from == king && to == side.king_to(turn))
            }
            _ => false,
        })
    }

    /// The one move the board and the record show complete now, if any.
    fn complete_move(&self) -> Option<Move> {
        if self.promotion.is_some() {
            return None;
        }
        match self.fits().as_slice() {
            [m] if !(m.is_promotion() && matches!(self.physical, Physical::Holes(_))) => Some(*m),
            _ => None,
        }
    }

    /// Moves whose result the board shows and whose lifts and puts the
    /// record holds (the last put deciding between several).
    fn fits(&self) -> Vec<Move> {
        let candidates: Vec<Move> = match self.following {
            Some(m) => vec![m],
            None => self.pos.legal_moves().into_iter().collect(),
        };
        let occupied = self.physical.occupied();
        let mut fits: Vec<Move> = candidates
            .into_iter()
            .filter(|&m| {
                self.record_allows(m) && {
                    let (lifts, puts) = move_squares(&self.pos, m);
                    // Cheap before playing the move: the holes it fills.
                    puts.is_subset(occupied) && (lifts & !puts & occupied).is_empty()
                }
            })
            .filter(|&m| self.physical.shows(after(&self.pos, m).board()))
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
        fits
    }

    /// Pairs of moves (the move followed, or any legal move, then any legal
    /// reply) whose result the board shows and whose lifts and puts the
    /// record holds. Moves that promote on a peg board are left out: the
    /// piece must be named.
    fn two_fits(&self) -> Vec<(Move, Move)> {
        let firsts: Vec<Move> = match self.following {
            Some(m) => vec![m],
            None => self.pos.legal_moves().into_iter().collect(),
        };
        let peg = matches!(self.physical, Physical::Holes(_));
        let occupied = self.physical.occupied();
        let mut fits = Vec::new();
        for m1 in firsts {
            if peg && m1.is_promotion() {
                continue;
            }
            // Both moves' own lifts and puts on the record, on every
            // board: a board that knows its pieces, with two in the hand,
            // can show two captures on a square nobody touched.
            let (lifts1, puts1) = move_squares(&self.pos, m1);
            if !(lifts1.is_subset(self.lifted) && puts1.is_subset(self.put)) {
                continue;
            }
            let pos1 = after(&self.pos, m1);
            for m2 in pos1.legal_moves() {
                if peg && m2.is_promotion() {
                    continue;
                }
                let (lifts2, puts2) = move_squares(&pos1, m2);
                if !(lifts2.is_subset(self.lifted) && puts2.is_subset(self.put)) {
                    continue;
                }
                // Cheap before playing it: the holes the second fills.
                if !puts2.is_subset(occupied) {
                    continue;
                }
                if self.physical.shows(after(&pos1, m2).board()) {
                    fits.push((m1, m2));
                }
            }
        }
        fits
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

    fn reset_record(&mut self) {
        self.lifted = Bitboard::EMPTY;
        self.put = Bitboard::EMPTY;
        self.last_put = None;
        self.lift_time = [None; 64];
        self.lift_piece = [None; 64];
        self.lift_unsure = [Duration::ZERO; 64];
        self.steps.clear();
        self.snapshot = None;
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

    fn make(&mut self, mv: Move, now: Duration) -> Vec<Inferred> {
        // Touches first: they happened during the move about to be made.
        let mut out = self.judge_returns(Some(mv));
        let before = self.pos.clone();
        self.provisional = self.may_travel_on(mv).then_some((before, mv, now));
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv);
        out.push(if self.following.take().is_some() {
            Inferred::Confirmed { mv, san }
        } else {
            Inferred::Moved { mv, san }
        });
        self.reset_record();
        self.promotion = None;
        self.reported = None;
        self.changed_at = None;
        out
    }

    /// Touches among the quick returns: pieces back in their own holes and
    /// still there now that the board is read (none of them a square of
    /// `made`, the move about to be made, whose pieces it moves).
    fn judge_returns(&mut self, made: Option<Move>) -> Vec<Inferred> {
        let mut returned = std::mem::take(&mut self.returned);
        if let Some(m) = made {
            let (lifts, puts) = move_squares(&self.pos, m);
            returned &= !(lifts | puts);
        }
        let mut out = Vec::new();
        for sq in returned {
            let home = self.pos.board().piece_at(sq);
            let back = match &self.physical {
                Physical::Holes(occ) => occ.contains(sq),
                Physical::Pieces(board) => home.is_some() && board.piece_at(sq) == home,
            };
            if back {
                out.push(self.touch(sq));
            }
        }
        out
    }

    /// Reads the board, still for the settling time (or at a button).
    fn evaluate(&mut self, now: Duration) -> Vec<Inferred> {
        let mut out = self.evaluate_still(now);
        // A move made judged the returns already; if none was made, the
        // pieces back in their holes are judged as the board stands.
        out.extend(self.judge_returns(None));
        // Everything put has now rested.
        self.fresh = Bitboard::EMPTY;
        out
    }

    /// The board judged at rest, in order: a Chess960 swap being
    /// followed, a slide that rested on its way, the position itself, the
    /// one move it shows (or a promotion to name), a move shown earlier
    /// and left, two moves, and otherwise what differs, unless a move is
    /// still under way.
    fn evaluate_still(&mut self, now: Duration) -> Vec<Inferred> {
        self.changed_at = None;
        if let Some(out) = self.followed_swap_castling(now) {
            return out;
        }
        if let Some(out) = self.slide_correction(now) {
            return out;
        }
        if self.physical.shows(self.pos.board()) {
            return self.back_at_the_position();
        }
        if let Some(out) = self.judge_fits(now) {
            return out;
        }
        self.promotion = None;
        if let Some(out) = self.snapshot_at_rest(now) {
            return out;
        }
        // Two moves, the second begun before the first was seen at rest (a
        // host that read late, a reply on the same board within the
        // settling time): the board shows both, so both were made.
        if let [(first, second)] = self.two_fits().as_slice() {
            let (first, second) = (*first, *second);
            let mut out = self.make(first, now);
            out.extend(self.make(second, now));
            return out;
        }
        if self.move_in_progress() {
            return Vec::new();
        }
        self.report_differences()
    }

    /// A Chess960 castling in which king and rook trade squares (king f1,
    /// rook g1) leaves the same holes filled: when it is the move being
    /// followed, both lifted and both put again is what carried it out.
    fn followed_swap_castling(&mut self, now: Duration) -> Option<Vec<Inferred>> {
        let m = self.following?;
        (m.is_castle()
            && matches!(self.physical, Physical::Holes(_))
            && self.record_allows(m)
            && self.physical.shows(after(&self.pos, m).board()))
        .then(|| self.make(m, now))
    }

    /// The board shows the game's position: a difference reported before
    /// is gone, and the record of steps starts again.
    fn back_at_the_position(&mut self) -> Vec<Inferred> {
        let mut out = Vec::new();
        if self.reported.take().is_some() {
            out.push(Inferred::Agrees);
        }
        self.promotion = None;
        self.reset_record();
        out
    }

    /// The legal moves whose result the board shows: one is made; the
    /// promotions of one pawn to one square wait for the piece to be
    /// named; several others wait. `None`: no move fits.
    fn judge_fits(&mut self, now: Duration) -> Option<Vec<Inferred>> {
        let fits = self.fits();
        let mut out = Vec::new();
        match fits.as_slice() {
            [mv] if !(mv.is_promotion() && matches!(self.physical, Physical::Holes(_))) => {
                Some(self.make(*mv, now))
            }
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
                Some(out)
            }
            [] => None,
            _ => {
                tracing::warn!(
                    count = fits.len(),
                    "board shows several moves' result; waiting"
                );
                Some(out)
            }
        }
    }

    /// A move shown complete, then only lifts of other pieces: the move is
    /// at rest and the hands have moved on (a touch after it, the other
    /// side starting). Not a rook whose king has since been lifted: that
    /// is a castling under way.
    fn snapshot_at_rest(&mut self, now: Duration) -> Option<Vec<Inferred>> {
        let (m, at) = self.snapshot?;
        if !self.steps[at..].iter().all(|(lift, _)| *lift) {
            return None;
        }
        let king_lifted = self.castling_prefix(m)
            && self.steps[at..]
                .iter()
                .any(|&(_, sq)| self.pos.board().king_of(self.pos.turn()) == Some(sq));
        (!king_lifted).then(|| self.conclude_snapshot(now))
    }

    /// Pieces in hand and nothing put anywhere yet: a move in progress, no
    /// difference to report. (A peg put proves nothing about which peg, so
    /// after any put a peg board is judged as it stands.) Nor while a
    /// castling is half done.
    fn move_in_progress(&self) -> bool {
        let nothing_put = matches!(self.physical, Physical::Pieces(_)) || self.put.is_empty();
        let castling = self.following.is_none()
            && self.pos.legal_moves().iter().any(|c| {
                c.is_castle()
                    && between(
                        &self.physical,
                        self.pos.board(),
                        after(&self.pos, *c).board(),
                    )
            });
        castling
            || nothing_put
                && (self.physical.is_subset_of(self.pos.board())
                    || self.following.is_some_and(|_| {
                        let expected = self.expected_board();
                        self.physical.is_subset_of(&expected) && !self.physical.shows(&expected)
                    }))
    }

    /// The board differs from the game: said once per state of the board,
    /// with the fix to make when the table corrects by itself.
    fn report_differences(&mut self) -> Vec<Inferred> {
        let mut out = Vec::new();
        if self.reported.as_ref() == Some(&self.physical) {
            return out;
        }
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
        out
    }
}

impl Inference {
    /// The last move read was a slide that rested on its way: the same
    /// piece left that square within [`SLIDE_WINDOW`] and the board shows
    /// it further along the same line, the result of one legal move from
    /// the position before. That move replaces it.
    fn slide_correction(&mut self, now: Duration) -> Option<Vec<Inferred>> {
        let (before, prev, at) = self.provisional.clone()?;
        if self.following.is_some() || now.saturating_sub(at) > SLIDE_WINDOW + self.settings.settle
        {
            self.provisional = None;
            return None;
        }
        let (from, rested) = (prev.from()?, prev.to());
        let left = self.lift_time[usize::from(rested)]?;
        if left.saturating_sub(at) > SLIDE_WINDOW || self.physical.occupied().contains(rested) {
            return None;
        }
        let onward: Vec<Move> = before
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.from() == Some(from)
                    && *m != prev
                    && !m.is_castle()
                    && shakmaty::attacks::between(from, m.to()).contains(rested)
                    && self.physical.shows(after(&before, *m).board())
            })
            .collect();
        let [mv] = onward.as_slice() else {
            return None;
        };
        let mv = *mv;
        self.pos = before;
        let mut out = self.make(mv, now);
        if let Some(Inferred::Moved { san, .. }) = out.pop() {
            out.push(Inferred::Corrected {
                retracted: prev,
                mv,
                san,
            });
        }
        self.provisional = None;
        Some(out)
    }
}

/// Whether every square of the board shows what `a` or `b` has there: a
/// change from `a` to `b` under way.
fn between(physical: &Physical, a: &Board, b: &Board) -> bool {
    match physical {
        Physical::Holes(occ) => (*occ & !(a.occupied() | b.occupied())).is_empty(),
        Physical::Pieces(board) => (board.occupied() | a.occupied() | b.occupied())
            .into_iter()
            .all(|sq| {
                let p = board.piece_at(sq);
                p == a.piece_at(sq) || p == b.piece_at(sq)
            }),
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
