//! Deciding: when the board is still (or a deadline passes), making the
//! move the board shows, calling a touch, waiting, or telling the holes
//! that differ; a slide read too early corrected.

use super::*;

impl Inference {
    /// Makes `first` of a pair the board shows; `second`'s lifts and puts
    /// begin the next record, as a move shown complete.
    pub(super) fn make_first_of_pair(
        &mut self,
        first: Move,
        second: Move,
        now: Duration,
    ) -> Vec<Inferred> {
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
    pub(super) fn conclude_snapshot(&mut self, now: Duration) -> Vec<Inferred> {
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
    pub(super) fn make_carrying(
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

    pub(super) fn reset_record(&mut self) {
        self.lifted = Bitboard::EMPTY;
        self.put = Bitboard::EMPTY;
        self.last_put = None;
        self.lift_time = [None; 64];
        self.lift_piece = [None; 64];
        self.lift_unsure = [Duration::ZERO; 64];
        self.steps.clear();
        self.snapshot = None;
    }

    pub(super) fn touch(&mut self, square: Square) -> Inferred {
        let piece = self.pos.board().piece_at(square);
        let ply = (self.pos.fullmoves().get() - 1) * 2 + u32::from(self.pos.turn().is_black());
        self.touches.push(Touch { ply, square, piece });
        Inferred::Touched { square, piece }
    }

    pub(super) fn make(&mut self, mv: Move, now: Duration) -> Vec<Inferred> {
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
    pub(super) fn judge_returns(&mut self, made: Option<Move>) -> Vec<Inferred> {
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
    pub(super) fn evaluate(&mut self, now: Duration) -> Vec<Inferred> {
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
    pub(super) fn evaluate_still(&mut self, now: Duration) -> Vec<Inferred> {
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
    pub(super) fn followed_swap_castling(&mut self, now: Duration) -> Option<Vec<Inferred>> {
        let m = self.following?;
        (m.is_castle()
            && matches!(self.physical, Physical::Holes(_))
            && self.record_allows(m)
            && self.physical.shows(after(&self.pos, m).board()))
        .then(|| self.make(m, now))
    }

    /// The board shows the game's position: a difference reported before
    /// is gone, and the record of steps starts again.
    pub(super) fn back_at_the_position(&mut self) -> Vec<Inferred> {
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
    pub(super) fn judge_fits(&mut self, now: Duration) -> Option<Vec<Inferred>> {
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
    pub(super) fn snapshot_at_rest(&mut self, now: Duration) -> Option<Vec<Inferred>> {
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
    pub(super) fn move_in_progress(&self) -> bool {
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
    pub(super) fn report_differences(&mut self) -> Vec<Inferred> {
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

    /// The last move read was a slide that rested on its way: the same
    /// piece left that square within [`SLIDE_WINDOW`] and the board shows
    /// it further along the same line, the result of one legal move from
    /// the position before. That move replaces it.
    pub(super) fn slide_correction(&mut self, now: Duration) -> Option<Vec<Inferred>> {
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
pub(super) fn between(physical: &Physical, a: &Board, b: &Board) -> bool {
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
