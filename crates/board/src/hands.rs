//! A model of a player's hands on a board, seeded and reproducible: how a
//! move is carried out by someone who feels the pieces. It turns a legal
//! move into lifts and puts with their timing, mixing in, at rates chosen
//! to be frequent enough to test and near what players do:
//!
//! - touches of one's own pieces before, during and after the move (lifted,
//!   held, put back in their holes);
//! - contact bounce on puts and lifts (a hole empty then filled within a few
//!   milliseconds);
//! - the captured piece removed first or last (and held in the hand);
//! - castling king first or rook first, with a pause between;
//! - a piece put into a wrong hole and moved on to the right one, and a move
//!   taken back before it was complete;
//! - on boards that identify pieces (a sighted player's electronic board),
//!   a piece slid at human speed over one to six squares, 30–250 ms a
//!   square, the board reporting it arriving on and leaving each square it
//!   crosses: slid along the board (now and then on two squares at once as
//!   it straddles them), or lifted on the way and set down further on; a
//!   capture's victim sometimes taken off while the slider rests next to it;
//!   a king slid over its neighbour to castle; and a full dump in the
//!   middle of a move;
//! - on a DGT board, the DGT clock pressed 100–600 ms after the piece
//!   arrives (Article 6.2.1).
//!
//! Timing rules that follow from the Laws (see `infer.rs`): a piece resting
//! in a hole where it makes a legal move has made it, so a wrong hole that
//! makes a legal move is left at once ("pushed on"), and a slide crosses
//! squares quickly; a wrong hole that makes no legal move may be left after
//! any pause. Steps closer than [`BATCH`] are meant to reach the host
//! together (one write), as a board's scan sends them.

use std::time::Duration;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Piece, Position, Role, Square};

use super::event::Protocol;
use crate::rng::Rng;

/// Steps closer together than this are sent in one write.
pub const BATCH: Duration = Duration::from_millis(15);

/// A duration drawn in `lo..=hi` milliseconds.
fn ms(rng: &mut Rng, (lo, hi): (u64, u64)) -> Duration {
    Duration::from_millis(rng.range(lo, hi))
}

/// What a hand does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Lift(Square),
    /// A piece into a hole (the piece, for boards that identify pieces).
    Put(Square, Piece),
    /// A frame button (naming a peg-board promotion).
    Button(u8),
    /// The board sends a full dump (a DGT board asked by its host).
    Dump,
    /// The player of this colour presses their side of the DGT clock on
    /// the board (boards without a reporting clock ignore it).
    Clock(Color),
}

/// One step: the pause before it, and the act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub gap: Duration,
    pub act: Act,
}

/// A move as the hands carry it out.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// The squares touched (lifted and put back after longer than a
    /// bounce), in order.
    pub touches: Vec<Square>,
    /// The step after which the board shows the move complete (named, for
    /// a peg promotion): latency is measured from it.
    pub completes: usize,
    /// The step that presses the clock after the move, if one does.
    pub pressed: Option<usize>,
}

/// Pauses in milliseconds (lowest, highest) of each kind.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// A contact bouncing.
    pub bounce: (u64, u64),
    /// A slide across a square, a peg pushed on from a wrong hole.
    pub quick: (u64, u64),
    /// The hand travelling from one hole to another.
    pub travel: (u64, u64),
    /// Holding a touched piece; a pause in the middle of a move.
    pub pause: (u64, u64),
    /// Between the rook and the king of a castling (below `CASTLE_WAIT`).
    pub castle: (u64, u64),
    /// A piece slid by hand: from arriving on one square to arriving on
    /// the next.
    pub slide: (u64, u64),
    /// From the piece arriving to the clock pressed.
    pub press: (u64, u64),
}

impl Timing {
    /// As players' hands do it.
    pub fn human() -> Timing {
        Timing {
            bounce: (1, 6),
            quick: (2, 10),
            travel: (80, 400),
            pause: (200, 900),
            castle: (100, 800),
            slide: (30, 250),
            press: (100, 600),
        }
    }

    /// The same kinds, the long pauses shortened (still several settling
    /// times), for test suites that play hundreds of games in real time.
    pub fn brisk() -> Timing {
        Timing {
            bounce: (1, 6),
            quick: (2, 10),
            travel: (20, 60),
            pause: (90, 160),
            castle: (40, 300),
            // Slides and presses keep human speed: they are what an
            // electronic board's settling time must survive.
            slide: (30, 250),
            press: (100, 600),
        }
    }
}

/// The hands of one player (or both, at a board where both play).
#[derive(Debug, Clone)]
pub struct Hands {
    rng: Rng,
    timing: Timing,
}

struct Builder<'a> {
    rng: &'a mut Rng,
    timing: Timing,
    board: Board,
    plan: Plan,
    identifies: bool,
    /// A DGT clock on the board, which reports its presses.
    clock: bool,
}

impl Builder<'_> {
    fn step(&mut self, gap: Duration, act: Act) {
        match act {
            Act::Lift(sq) => {
                self.board.discard_piece_at(sq);
            }
            Act::Put(sq, p) => self.board.set_piece_at(sq, p),
            _ => {}
        }
        self.plan.steps.push(Step { gap, act });
    }

    fn lift(&mut self, gap: Duration, sq: Square) -> Piece {
        let piece = self.board.piece_at(sq).expect("a piece to lift");
        self.step(gap, Act::Lift(sq));
        if self.rng.chance(0.12) {
            // The contact bounces as the piece leaves.
            let b = ms(self.rng, self.timing.bounce);
            self.step(b, Act::Put(sq, piece));
            let b = ms(self.rng, self.timing.bounce);
            self.step(b, Act::Lift(sq));
        }
        piece
    }

    fn put(&mut self, gap: Duration, sq: Square, piece: Piece) {
        self.step(gap, Act::Put(sq, piece));
        if self.rng.chance(0.25) {
            let b = ms(self.rng, self.timing.bounce);
            self.step(b, Act::Lift(sq));
            let b = ms(self.rng, self.timing.bounce);
            self.step(b, Act::Put(sq, piece));
        }
    }

    fn travel(&mut self) -> Duration {
        ms(self.rng, self.timing.travel)
    }

    fn pause(&mut self) -> Duration {
        ms(self.rng, self.timing.pause)
    }

    /// Slides `piece` (lifted, in the hand) over `squares` in order, at one
    /// speed drawn for the slide, 30–250 ms a square: the board reports it
    /// arriving on and leaving each. Along the board, now and then on two
    /// squares at once as it straddles them; lifted on the way, set down on
    /// only some squares. `last` runs while the piece rests on the last
    /// square (taking a capture's victim off). Returns the pause before
    /// the piece arrives on its destination.
    fn slide(
        &mut self,
        piece: Piece,
        squares: &[Square],
        mut last: impl FnMut(&mut Self),
    ) -> Duration {
        let speed = self.rng.range(self.timing.slide.0, self.timing.slide.1);
        let lifting = self.rng.chance(0.4);
        let (lo, hi) = self.timing.slide;
        // Each square's time varies a little around the slide's speed.
        let square_time = |rng: &mut Rng| {
            let jitter = speed / 6;
            Duration::from_millis(rng.range(
                speed.saturating_sub(jitter).max(lo),
                (speed + jitter).min(hi),
            ))
        };
        let mut on: Option<Square> = None;
        // Time since the piece last arrived on a square (or left `from`).
        let mut since = Duration::ZERO;
        let mut first = true;
        for (i, &sq) in squares.iter().enumerate() {
            let is_last = i + 1 == squares.len();
            let t = square_time(self.rng);
            if lifting && !is_last && !first && self.rng.chance(0.5) {
                // In the air over this square.
                since += t;
                continue;
            }
            let arrive = if first {
                // From lifting it off its square to the first arrival.
                ms(self.rng, (10, 60))
            } else {
                t
            };
            first = false;
            // Straddling: arrives on the next square before leaving this one.
            let straddle = !lifting && on.is_some() && self.rng.chance(0.2);
            let transit = if lifting {
                Duration::from_millis(self.rng.range(20, (arrive.as_millis() as u64 / 2).max(21)))
            } else {
                ms(self.rng, (1, 8))
            };
            let leave_at = (since + arrive).saturating_sub(transit);
            if let Some(prev) = on.filter(|_| !straddle) {
                // Leaves the previous square, then arrives on this one.
                let gap = leave_at.saturating_sub(since.min(leave_at));
                self.step(gap.max(Duration::from_millis(1)), Act::Lift(prev));
                self.step(transit, Act::Put(sq, piece));
            } else if let Some(prev) = on {
                self.step(since + arrive, Act::Put(sq, piece));
                let q = ms(self.rng, (1, 8));
                self.step(q, Act::Lift(prev));
            } else {
                self.step(since + arrive, Act::Put(sq, piece));
            }
            since = Duration::ZERO;
            on = Some(sq);
            if is_last {
                let before = self.plan.steps.len();
                last(self);
                // Whatever `last` did took some of the rest on this square.
                let spent: Duration = self.plan.steps[before..].iter().map(|s| s.gap).sum();
                since = spent;
            }
        }
        let t = square_time(self.rng);
        match on {
            Some(prev) => {
                let transit = ms(self.rng, (1, 8));
                let gap = t.saturating_sub(since).saturating_sub(transit);
                self.step(gap.max(Duration::from_millis(1)), Act::Lift(prev));
                transit
            }
            None => since + t,
        }
    }

    /// Lifts one of `own` pieces, holds it, puts it back: a touch.
    fn touch(&mut self, gap: Duration, color: Color, avoid: Bitboard) {
        let own: Vec<Square> = (self.board.by_color(color) & !avoid).into_iter().collect();
        let Some(sq) = self.rng.pick(&own).copied() else {
            return;
        };
        let piece = self.lift(gap, sq);
        let hold = self.pause();
        self.put(hold, sq, piece);
        self.plan.touches.push(sq);
    }
}

impl Hands {
    pub fn new(seed: u64, timing: Timing) -> Hands {
        Hands {
            rng: Rng::new(seed),
            timing,
        }
    }

    /// The generator (to draw other choices from the same seed).
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// How the hands carry out `m` in `pos` on a board of `protocol`.
    /// `touches`: whether this is the player's own move, so they may touch
    /// pieces and, on a DGT board, press the clock after it (not while
    /// carrying out the opponent's announced move).
    ///
    /// The steps draw from one generator in a fixed order, so a seed
    /// replays the same hands: a step added or moved changes every plan
    /// after it.
    pub fn plan(&mut self, pos: &Chess, m: Move, protocol: Protocol, touches: bool) -> Plan {
        let mut b = Builder {
            rng: &mut self.rng,
            timing: self.timing,
            board: pos.board().clone(),
            plan: Plan::default(),
            identifies: protocol.identifies_pieces(),
            clock: protocol == Protocol::Dgt,
        };
        let me = pos.turn();
        let involved = crate::infer::move_squares(pos, m);
        let involved = involved.0 | involved.1;
        if touches {
            b.hesitate(m, me);
        }
        match m {
            Move::Normal { .. } => b.normal(pos, m, involved, touches),
            Move::EnPassant { from, to } => b.en_passant(from, to),
            Move::Castle { king, rook } => b.castle(m, me, king, rook),
            Move::Put { .. } => {}
        }
        if b.clock && touches {
            // Having made the move, the player stops their clock (6.2.1).
            let gap = ms(b.rng, b.timing.press);
            b.step(gap, Act::Clock(me));
            b.plan.pressed = Some(b.plan.steps.len() - 1);
        }
        if touches && b.rng.chance(0.06) {
            // After the move, a touch of another piece (not the one moved).
            let p = b.pause();
            b.touch(p, me, involved);
        }
        b.plan
    }
}

/// The moves' kinds as hands make them, each a sequence of steps.
impl Builder<'_> {
    /// Before their own move, the player may touch a piece of theirs, or
    /// begin the move and take it back: the piece lifted, held, put back.
    fn hesitate(&mut self, m: Move, me: Color) {
        if self.rng.chance(0.12) {
            let gap = self.travel();
            self.touch(gap, me, Bitboard::EMPTY);
        }
        if self.rng.chance(0.05)
            && let Some(from) = m.from()
        {
            let gap = self.travel();
            let piece = self.lift(gap, from);
            let hold = self.pause();
            self.put(hold, from, piece);
            self.plan.touches.push(from);
        }
    }

    /// An ordinary move, a capture or a promotion: the piece and any victim
    /// picked up, perhaps a fidget, the way there (a slide over the squares
    /// between on a board that identifies pieces, or a wrong hole felt
    /// first), and the landing.
    fn normal(&mut self, pos: &Chess, m: Move, involved: Bitboard, touches: bool) {
        let Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } = m
        else {
            return;
        };
        let me = pos.turn();
        // A slide across the squares between (pieces identified).
        let between: Vec<Square> = (shakmaty::attacks::between(from, to) & !pos.board().occupied())
            .into_iter()
            .collect();
        let slid =
            self.identifies && role != Role::Knight && !between.is_empty() && self.rng.chance(0.6);
        // The victim taken off while the slider rests next to it.
        let victim_late = slid && capture.is_some() && self.rng.chance(0.3);
        let capture_first = capture.is_some() && !victim_late && self.rng.chance(0.5);
        let piece = self.pick_up(from, to, capture.is_some(), capture_first, victim_late);
        if touches && self.rng.chance(0.06) {
            let gap = self.travel();
            self.touch(gap, me, involved);
        }
        if self.identifies && self.rng.chance(0.1) {
            let gap = self.travel();
            self.step(gap, Act::Dump);
        }
        // The slide, or a wrong hole on the way.
        let slide_gap = if slid {
            let mut squares = between;
            if from > to {
                squares.reverse();
            }
            Some(self.slide(piece, &squares, |b| {
                if victim_late {
                    let gap = ms(b.rng, (10, 80));
                    b.lift(gap, to);
                }
            }))
        } else {
            if self.rng.chance(0.1) {
                self.wrong_hole(pos, from, to, piece);
            }
            None
        };
        let landing = match promotion {
            Some(r) => Piece { color: me, role: r },
            None => piece,
        };
        let gap = match slide_gap {
            Some(g) => g,
            None => self.travel(),
        };
        self.put(gap, to, landing);
        self.plan.completes = self.plan.steps.len() - 1;
        if promotion.is_some() && !self.identifies {
            self.name_promotion(promotion);
        }
    }

    /// The moving piece lifted, and a victim on `to` before or after it
    /// (or neither, when it is taken off later, during the slide);
    /// sometimes a pause with the captured piece in the hand.
    fn pick_up(
        &mut self,
        from: Square,
        to: Square,
        captures: bool,
        capture_first: bool,
        victim_late: bool,
    ) -> Piece {
        if capture_first {
            let gap = self.travel();
            self.lift(gap, to);
        }
        let gap = if capture_first && self.rng.chance(0.3) {
            self.pause()
        } else {
            self.travel()
        };
        let piece = self.lift(gap, from);
        if captures && !capture_first && !victim_late {
            let gap = self.travel();
            self.lift(gap, to);
        }
        piece
    }

    /// The piece put on an empty square next to `to` first. A legal move
    /// ending there would be made if it rested: pushed on at once; else
    /// felt and moved.
    fn wrong_hole(&mut self, pos: &Chess, from: Square, to: Square, piece: Piece) {
        let near: Vec<Square> =
            (shakmaty::attacks::king_attacks(to) & !self.board.occupied() & !Bitboard::from(from))
                .into_iter()
                .collect();
        let Some(w) = self.rng.pick(&near).copied() else {
            return;
        };
        let gap = self.travel();
        self.step(gap, Act::Put(w, piece));
        let makes_move = pos
            .legal_moves()
            .iter()
            .any(|l| l.from() == Some(from) && l.to() == w);
        let dwell = if makes_move {
            ms(self.rng, self.timing.quick)
        } else {
            self.pause()
        };
        self.step(dwell, Act::Lift(w));
    }

    /// On a board that cannot see which piece was put down, the frame's
    /// button that names the promotion (1 queen, 2 rook, 3 bishop, 4
    /// knight) completes the move.
    fn name_promotion(&mut self, promotion: Option<Role>) {
        let n = match promotion {
            Some(Role::Rook) => 2,
            Some(Role::Bishop) => 3,
            Some(Role::Knight) => 4,
            _ => 1,
        };
        let gap = self.travel();
        self.step(gap, Act::Button(n));
        self.plan.completes = self.plan.steps.len() - 1;
    }

    /// En passant: the passed pawn taken off before or after the move.
    fn en_passant(&mut self, from: Square, to: Square) {
        let passed = Square::from_coords(to.file(), from.rank());
        let first = self.rng.chance(0.5);
        if first {
            let gap = self.travel();
            self.lift(gap, passed);
        }
        let gap = self.travel();
        let piece = self.lift(gap, from);
        let gap = self.travel();
        self.put(gap, to, piece);
        if !first {
            let gap = self.travel();
            self.lift(gap, passed);
        }
        self.plan.completes = self.plan.steps.len() - 1;
    }

    /// Castling: king or rook first, the second soon after; a king slid
    /// over the squares on its way on a board that identifies pieces.
    fn castle(&mut self, m: Move, me: Color, king: Square, rook: Square) {
        let side = m.castling_side().expect("a castling side");
        let (king_to, rook_to) = (side.king_to(me), side.rook_to(me));
        let order = if self.rng.chance(0.6) {
            [(king, king_to), (rook, rook_to)]
        } else {
            [(rook, rook_to), (king, king_to)]
        };
        for (i, (from, to)) in order.into_iter().enumerate() {
            let gap = if i == 0 {
                self.travel()
            } else {
                ms(self.rng, self.timing.castle)
            };
            let piece = self.lift(gap, from);
            let path: Vec<Square> = (shakmaty::attacks::between(from, to) & !self.board.occupied())
                .into_iter()
                .collect();
            let gap = if self.identifies
                && from == king
                && !path.is_empty()
                && path.len() as u32 == from.distance(to).saturating_sub(1)
                && self.rng.chance(0.4)
            {
                let mut path = path;
                if from > to {
                    path.reverse();
                }
                self.slide(piece, &path, |_| {})
            } else {
                self.travel()
            };
            self.put(gap, to, piece);
        }
        self.plan.completes = self.plan.steps.len() - 1;
    }
}

/// Whether a plan for the next move may start before the last one settled:
/// only when its first act is a lift only its side can make (one of its own
/// pieces), the case the Laws and the engine make unambiguous.
pub fn may_start_early(pos_after: &Chess, plan: &Plan) -> bool {
    match plan.steps.first().map(|s| s.act) {
        Some(Act::Lift(sq)) => pos_after
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == pos_after.turn()),
        _ => false,
    }
}
