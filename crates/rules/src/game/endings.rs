//! How a game ends or is drawn: offers and claims, a flag fall shown or
//! checked, the ends the rules make at once, and a result set.

use super::*;

impl Game {
    /// `side` offers a draw; it stands until the opponent moves.
    pub(super) fn offer_draw(
        &mut self,
        side: Color,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        self.draw_offer = Some(side);
        notices.push(Notice {
            kind: NoticeKind::Draw,
            tokens: vec![side_word(side), Word::DrawOffered.into()],
        });
        Ok(())
    }

    /// `side` declines the opponent's standing offer.
    pub(super) fn decline_draw(
        &mut self,
        side: Color,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        if self.draw_offer != Some(!side) {
            return Err(GameError::NoOfferToDecline { side });
        }
        self.draw_offer = None;
        notices.push(Notice {
            kind: NoticeKind::Draw,
            tokens: vec![Word::DrawDeclined.into()],
        });
        Ok(())
    }

    /// A clock at zero shown at once (6.8), before anyone claims it.
    pub(super) fn show_fall(
        &mut self,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        if matches!(self.clock.state(), ClockState::Flagged(_)) {
            return Err(GameError::FallAlreadyShown);
        }
        let Some(flag) = self.clock.record_flag(at)? else {
            return Err(GameError::NoClockAtZero);
        };
        notices.push(clock_notice(vec![
            side_word(flag.side),
            Word::FlagFell.into(),
        ]));
        Ok(())
    }

    /// The arbiter's result, replacing any the game had, with their reason.
    pub(super) fn set_result(
        &mut self,
        outcome: KnownOutcome,
        reason: &str,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        self.result = None;
        let reason = reason.trim();
        let result = GameResult {
            outcome,
            ending: Ending::Arbiter,
            detail: (!reason.is_empty()).then(|| reason.to_string()),
        };
        self.finish_with(at, result, vec![outcome_word(outcome)], notices)
    }

    /// If the running side's flag has fallen by `at`, ends the game by 6.9
    /// and says so; `false` if no flag has fallen.
    pub(super) fn flag_check(
        &mut self,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<bool, GameError> {
        let Some(flag) = self.clock.flag(at) else {
            return Ok(false);
        };
        let outcome = flag_result(flag.side, &self.position);
        self.finish_with(
            at,
            GameResult::new(outcome, Ending::FlagFell),
            vec![
                side_word(flag.side),
                Word::FlagFell.into(),
                outcome_word(outcome),
            ],
            notices,
        )?;
        Ok(true)
    }

    /// Checkmate, stalemate, dead position, fivefold repetition and the
    /// 75-move rule end the game by themselves (5.1.1, 5.2.1, 5.2.2, 9.6).
    pub(super) fn automatic_end(&mut self, at: Duration, notices: &mut Vec<Notice>) {
        let end = match self.position.outcome() {
            Outcome::Known(KnownOutcome::Decisive { winner }) => Some((
                GameResult::win(winner, Ending::Checkmate),
                vec![outcome_word(KnownOutcome::Decisive { winner })],
            )),
            Outcome::Known(KnownOutcome::Draw) if self.position.is_stalemate() => Some((
                GameResult::new(KnownOutcome::Draw, Ending::Stalemate),
                vec![Word::Draw.into()],
            )),
            Outcome::Known(KnownOutcome::Draw) => Some((
                GameResult::new(KnownOutcome::Draw, Ending::DeadPosition),
                vec![Word::Draw.into(), Word::DeadPosition.into()],
            )),
            Outcome::Unknown if self.repetitions() >= 5 => Some((
                GameResult::new(KnownOutcome::Draw, Ending::FivefoldRepetition),
                vec![Word::Draw.into(), Word::Fivefold.into()],
            )),
            Outcome::Unknown if self.position.halfmoves() >= 150 => Some((
                GameResult::new(KnownOutcome::Draw, Ending::SeventyFiveMoves),
                vec![Word::Draw.into(), Word::SeventyFiveMoves.into()],
            )),
            Outcome::Unknown => None,
        };
        if let Some((result, tokens)) = end {
            // The clock of a finished game stops; it cannot be refused here
            // because the move has just pressed it (or the clock is stopped
            // at a fall nobody claimed).
            let _ = self.clock.pause(at);
            self.result = Some(result);
            notices.push(Notice {
                kind: NoticeKind::Result,
                tokens,
            });
        }
    }

    /// A draw claim under 9.2 or 9.3 (see [`GameEvent::DrawClaimed`]).
    pub(super) fn draw_claim(
        &mut self,
        at: Duration,
        side: Color,
        claim: DrawClaim,
        declared: Option<UciMove>,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        let on_move = self.position.turn();
        if side != on_move {
            return Err(GameError::ClaimNotOnMove { on_move });
        }
        // 9.4: touching a piece (4.3; on the tactile board, lifting it from
        // its hole, D.2.2) loses the right to claim on this move.
        if self
            .touched
            .iter()
            .any(|t| t.side == side && t.ply == self.plies.len())
        {
            return Err(GameError::ClaimAfterTouch { side });
        }
        let declared = match declared {
            Some(uci) => Some((uci_move(&self.position, &uci)?, uci)),
            None => None,
        };
        // The position the claim is about: as it stands, or after the
        // declared move (written, not yet played).
        let (repetitions, halfmoves, written) = match declared {
            None => (self.repetitions(), self.position.halfmoves(), None),
            Some((m, _)) => {
                let mut after = self.position.clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut after, m).to_string();
                let now = hash(&after);
                let reps = self.hashes.iter().filter(|&&h| h == now).count() + 1;
                (reps, after.halfmoves(), Some(san))
            }
        };
        let correct = match claim {
            DrawClaim::Threefold => repetitions >= 3,
            DrawClaim::FiftyMoves => halfmoves >= 100,
        };
        if correct {
            let (ending, word) = match claim {
                DrawClaim::Threefold => (Ending::ThreefoldRepetition, Word::Threefold),
                DrawClaim::FiftyMoves => (Ending::FiftyMoves, Word::FiftyMoves),
            };
            let result = GameResult {
                outcome: KnownOutcome::Draw,
                ending,
                detail: written.map(|san| format!("claimed with {san} written, not played")),
            };
            return self.finish_with(at, result, vec![Word::Draw.into(), word.into()], notices);
        }
        // 9.5.3 (one minute in rapid and blitz, A.3); the claim stands as a
        // draw offer the opponent may accept (9.1.2.3).
        self.clock
            .adjust(!side, Adjustment::Add(self.kind.penalty()), at)?;
        self.draw_offer = Some(side);
        notices.push(Notice {
            kind: NoticeKind::Draw,
            tokens: vec![Word::ClaimRejected.into(), Word::ClockAdjusted.into()],
        });
        // A claim on a declared move: that move is now made (9.5.3).
        if let Some((_, uci)) = declared {
            // The penalty may have paused a flagged clock: then the move is
            // made without a press, as after any pause.
            let mut more = self.apply_in_place(at, &GameEvent::MovePlayed { uci })?;
            notices.append(&mut more);
        }
        Ok(())
    }

    pub(super) fn finish_with(
        &mut self,
        at: Duration,
        result: GameResult,
        tokens: Vec<Token>,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        if let ClockState::Running { .. } = self.clock.state() {
            match self.clock.pause(at) {
                Ok(()) | Err(ClockError::FlagFell(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.result = Some(result);
        notices.push(Notice {
            kind: NoticeKind::Result,
            tokens,
        });
        Ok(())
    }
}
