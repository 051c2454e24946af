//! What happens at the board: a move played, a piece touched, an illegal
//! move attempted or completed, and the game taken back to a position (the
//! D.2.9 ruling).

use super::*;

impl Game {
    /// A move on the board: the clock pressed (or started by it, or the
    /// fall recorded under a claim rule), the position, the record and the
    /// draw offer moved on, the move announced, and the endings the rules
    /// make automatic checked.
    pub(super) fn play_move(
        &mut self,
        at: Duration,
        uci: &UciMove,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        let m = uci_move(&self.position, uci)?;
        if self.clock.state() == ClockState::NotStarted {
            // A game whose clock nobody started starts with its first
            // move: the clock cannot be behind the board.
            self.clock.start(at)?;
        }
        // A move after the clock reached zero: under FlagRule::Auto
        // the clock refuses it and the table records the fall
        // instead; under Claim the game goes on until the fall is
        // claimed, on a clock that stays stopped at the fall.
        let flagged = self.flag_rule == FlagRule::Claim && self.clock.flag(at).is_some();
        if flagged {
            self.clock.record_flag(at)?;
        } else {
            self.clock.press(at)?;
        }
        let tokens = announce(&self.position, m, self.style);
        let mover = self.position.turn();
        let san = SanPlus::from_move_and_play_unchecked(&mut self.position, m);
        self.hashes.push(hash(&self.position));
        let draw_offer = self.draw_offer == Some(mover);
        // An offer not accepted before the opponent moves lapses.
        if self.draw_offer == Some(!mover) {
            self.draw_offer = None;
        }
        self.plies.push(Ply {
            uci: *uci,
            san,
            left: ByColor::new_with(|c| self.clock.remaining(c, at)),
            at,
            draw_offer,
        });
        notices.push(Notice {
            kind: NoticeKind::Move,
            tokens,
        });
        self.automatic_end(at, notices);
        Ok(())
    }

    /// A touched piece on the record (4.3), said as the piece and its
    /// square.
    pub(super) fn record_touch(
        &mut self,
        side: Color,
        square: Square,
        at_ms: u64,
        notices: &mut Vec<Notice>,
    ) {
        self.touched.push(TouchedPiece {
            side,
            square,
            ply: self.plies.len(),
            at_ms,
        });
        let mut tokens = Vec::new();
        if let Some(piece) = self.position.board().piece_at(square) {
            tokens.push(Token::ColoredPiece(piece.color, piece.role));
        }
        crate::announce::push_square(&mut tokens, square);
        tokens.push(Word::Touched.into());
        notices.push(Notice {
            kind: NoticeKind::Touched,
            tokens,
        });
    }

    /// An illegal move attempted (not completed) on the record.
    pub(super) fn record_illegal_attempt(
        &mut self,
        side: Color,
        text: &str,
        at_ms: u64,
        notices: &mut Vec<Notice>,
    ) {
        self.irregularities.push(Irregularity {
            side,
            text: text.to_owned(),
            ply: self.plies.len(),
            at_ms,
        });
        notices.push(Notice {
            kind: NoticeKind::Illegal,
            tokens: vec![Word::IllegalMove.into()],
        });
    }

    /// An illegal move by `side` the arbiter ruled completed (7.5.5): the
    /// first gives the opponent the penalty time, the second loses.
    pub(super) fn complete_illegal_move(
        &mut self,
        side: Color,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        self.completed_illegal[side] += 1;
        if self.completed_illegal[side] < 2 {
            self.clock
                .adjust(!side, Adjustment::Add(self.kind.penalty()), at)?;
            notices.push(Notice {
                kind: NoticeKind::Illegal,
                tokens: vec![Word::IllegalMove.into(), Word::ClockAdjusted.into()],
            });
            return Ok(());
        }
        // 7.5.5: the second loses, unless the opponent cannot mate.
        let outcome = flag_result(side, &self.position);
        let word = outcome_word(outcome);
        self.finish_with(
            at,
            GameResult {
                outcome,
                ending: Ending::Arbiter,
                detail: Some(format!(
                    "second completed illegal move by {} (7.5.5)",
                    side::name(side)
                )),
            },
            vec![Word::IllegalMove.into(), word],
            notices,
        )
    }

    /// The D.2.9 ruling: back to the position after `plies` half-moves
    /// (replayed from the start), no result nor offer, the clocks set if
    /// the arbiter set them.
    pub(super) fn retract(
        &mut self,
        plies: usize,
        clock: Option<&ClockSetting>,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        if plies > self.plies.len() {
            return Err(GameError::BeyondTheGame {
                plies,
                played: self.plies.len(),
            });
        }
        let keep: Vec<Ply> = self.plies[..plies].to_vec();
        let mut position = self.start.clone();
        for ply in &keep {
            let m = uci_move(&position, &ply.uci)?;
            position.play_unchecked(m);
        }
        self.position = position;
        self.hashes.truncate(plies + 1);
        self.plies = keep;
        self.result = None;
        self.draw_offer = None;
        if let Some(setting) = clock {
            self.clock.set(*setting, at)?;
        }
        notices.push(Notice {
            kind: NoticeKind::Ruling,
            tokens: vec![Word::BoardDiffers.into()],
        });
        Ok(())
    }
}
