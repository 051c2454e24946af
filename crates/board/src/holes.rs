//! The wiring check of a new board: every hole must be seen closed (a peg
//! in it) and open (none). A builder walks the board, seating a peg in
//! each hole and lifting it again; a hole never seen closed has a switch,
//! a diode or a wire that never conducts, a hole never seen open one that
//! always does (a short, a diode the wrong way round in a board without
//! the others, a magnet left nearby). `tactus board holes` reads a board
//! with it.

use shakmaty::{Bitboard, Square};

use super::event::BoardEvent;

/// What has been seen of each hole.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HoleCheck {
    closed: Bitboard,
    open: Bitboard,
}

/// A change to report: a hole seen in a state for the first time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstSeen {
    pub square: Square,
    pub closed: bool,
}

impl HoleCheck {
    /// Takes one event; the holes it shows in a state for the first time
    /// (a scan shows them all).
    pub fn observe(&mut self, event: &BoardEvent) -> Vec<FirstSeen> {
        let (closed, open) = match event {
            BoardEvent::Put(sq) => (Bitboard::from(*sq), Bitboard::EMPTY),
            BoardEvent::Lifted(sq) => (Bitboard::EMPTY, Bitboard::from(*sq)),
            BoardEvent::Scan(occupied) => (*occupied, !*occupied),
            _ => return Vec::new(),
        };
        let new_closed = closed & !self.closed;
        let new_open = open & !self.open;
        self.closed |= closed;
        self.open |= open;
        new_closed
            .into_iter()
            .map(|square| FirstSeen {
                square,
                closed: true,
            })
            .chain(new_open.into_iter().map(|square| FirstSeen {
                square,
                closed: false,
            }))
            .collect()
    }

    /// Holes never seen with a peg in them.
    pub fn never_closed(&self) -> Bitboard {
        !self.closed
    }

    /// Holes never seen empty.
    pub fn never_open(&self) -> Bitboard {
        !self.open
    }

    /// Every hole seen both ways.
    pub fn done(&self) -> bool {
        self.closed == Bitboard::FULL && self.open == Bitboard::FULL
    }

    /// How many holes have been seen closed, and open.
    pub fn counts(&self) -> (usize, usize) {
        (self.closed.count(), self.open.count())
    }
}

/// Squares as a builder reads them: `a1, c3, h8`.
pub fn names(squares: Bitboard) -> String {
    squares
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square::*;

    #[test]
    fn a_walk_of_every_hole_but_two_names_them() {
        let mut c = HoleCheck::default();
        // The start position: 32 holes closed, 32 open.
        let start = Bitboard(0xffff_0000_0000_ffff);
        assert_eq!(c.observe(&BoardEvent::Scan(start)).len(), 64);
        // Every piece lifted and put back, but the pawn on c2 is never
        // seen lifted (stuck closed); every empty hole but e5 gets a peg.
        for sq in start {
            if sq != C2 {
                c.observe(&BoardEvent::Lifted(sq));
                c.observe(&BoardEvent::Put(sq));
            }
        }
        for sq in !start {
            if sq != E5 {
                let first = c.observe(&BoardEvent::Put(sq));
                assert_eq!(
                    first,
                    [FirstSeen {
                        square: sq,
                        closed: true
                    }]
                );
                assert!(c.observe(&BoardEvent::Lifted(sq)).is_empty());
            }
        }
        assert!(!c.done());
        assert_eq!(c.never_closed(), Bitboard::from(E5));
        assert_eq!(c.never_open(), Bitboard::from(C2));
        assert_eq!(c.counts(), (63, 63));
        c.observe(&BoardEvent::Put(E5));
        c.observe(&BoardEvent::Lifted(C2));
        assert!(c.done());
        assert_eq!(names(Bitboard::from(A1) | Bitboard::from(H8)), "a1, h8");
    }

    #[test]
    fn other_events_change_nothing() {
        let mut c = HoleCheck::default();
        assert!(c.observe(&BoardEvent::Button(1)).is_empty());
        assert!(c.observe(&BoardEvent::Hello("x".into())).is_empty());
        assert_eq!(c, HoleCheck::default());
    }
}
