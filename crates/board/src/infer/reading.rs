//! Reading the board: each event (or dump) into the physical board and
//! the record of lifts and puts, and what a lift or put tells at once.

use super::*;

impl Inference {
    /// A lift of a piece only the other side may move: the move shown
    /// complete is at rest, and made before the lift is read.
    pub(super) fn lift_only_the_other_side_makes(
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
    pub(super) fn read_event(
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
    pub(super) fn read_dump(&mut self, new: &Board) -> Change {
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
    pub(super) fn keep_or_drop_snapshot(&mut self, step: Option<(bool, Square)>) {
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
    pub(super) fn reply_made_before_the_move_was_read(&mut self, now: Duration) -> Vec<Inferred> {
        match self.two_fits().as_slice() {
            [(first, second)] => self.make_first_of_pair(*first, *second, now),
            _ => Vec::new(),
        }
    }

    pub(super) fn note_lift(
        &mut self,
        sq: Square,
        piece: Option<Piece>,
        now: Duration,
        unsure: Duration,
    ) {
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
    pub(super) fn note_put(
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
    pub(super) fn capture_arrival(&self, sq: Square) -> bool {
        let out = self.lifted & !self.physical.occupied();
        self.pos
            .legal_moves()
            .iter()
            .any(|m| m.is_capture() && m.to() == sq && m.from().is_some_and(|f| out.contains(f)))
    }

    /// Whether lifting `sq` now is something only the side not making the
    /// move shown complete can do: lifting one of its own pieces.
    pub(super) fn others_lift(&self, sq: Square) -> bool {
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
}
