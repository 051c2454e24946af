//! Which legal moves the board and the record fit: one move, two in a
//! row, a castling under way, a piece that may be travelling on.

use super::*;

impl Inference {
    pub(super) fn lifted_and_unused(&self, m: Move) -> Bitboard {
        // Squares emptied by the move are not placements.
        let (lifts, puts) = move_squares(&self.pos, m);
        lifts & !puts
    }

    /// Whether the piece of `m`, resting on its destination, may be on its
    /// way further: another legal move of the same piece from the same
    /// square passes over that destination (a bishop f1 on d3 on its way
    /// to c4, a pawn on e3 on its way to e4, a king on f1 on its way to
    /// castle). Never on a peg board (a peg is put into a hole, not slid),
    /// nor for the move being followed (the one move expected).
    pub(super) fn may_travel_on(&self, m: Move) -> bool {
        if matches!(self.physical, Physical::Holes(_)) || self.following.is_some() {
            return false;
        }
        travels_on(&self.pos, m)
    }

    /// A rook (or, in Chess960, king) move that may be the first half of a
    /// castling with the same pieces, the other piece not yet lifted.
    pub(super) fn castling_prefix(&self, m: Move) -> bool {
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
    pub(super) fn complete_move(&self) -> Option<Move> {
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
    pub(super) fn fits(&self) -> Vec<Move> {
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
    pub(super) fn two_fits(&self) -> Vec<(Move, Move)> {
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

    /// Whether the lifts and puts since the position showed include the
    /// move's own (peg boards only; a DGT board identifies pieces).
    pub(super) fn record_allows(&self, m: Move) -> bool {
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
}

/// Whether the piece of `m` (in `pos`), resting on its destination, may be
/// on its way further along its line ([`Inference::may_travel_on`]).
pub(super) fn travels_on(pos: &Chess, m: Move) -> bool {
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
