//! What people at a table can ask of it, and who may ask what
//! ([`Action`], [`PersonRole`]), and the D.2.9 ruling from both
//! scoresheets (`ruling.rs`). The table's actor does each action (its
//! `act`); what an action needs of a part (the clock read out, a board's
//! differences) that part does.

pub mod ruling;

use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Color, KnownOutcome, Role, Square};

use tactus_rules::clock_announce::Shown;
use tactus_rules::event::DrawClaim;
use tactus_rules::language::Language;
use tactus_rules::notation::Lang;

/// Who is acting at a table: a person's role there (not a piece's role,
/// which is shakmaty's `Role`). The service grants one per access token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PersonRole {
    /// The blind player: acts for the table's `blind` side.
    Player,
    /// The second blind player, when both are: acts for the other side.
    Opponent,
    Assistant,
    Arbiter,
}

impl PersonRole {
    /// The side a player acts for at a table whose blind player plays
    /// `blind`; `None` for the assistant and the arbiter, who act for both.
    pub fn plays(self, blind: shakmaty::Color) -> Option<shakmaty::Color> {
        match self {
            PersonRole::Player => Some(blind),
            PersonRole::Opponent => Some(!blind),
            PersonRole::Assistant | PersonRole::Arbiter => None,
        }
    }
}

impl fmt::Display for PersonRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PersonRole::Player => "player",
            PersonRole::Opponent => "opponent",
            PersonRole::Assistant => "assistant",
            PersonRole::Arbiter => "arbiter",
        })
    }
}

/// A request from a page or the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A move in any notation the sheet reader takes, read with the piece
    /// letters of `lang` (`None`: the table's `notation`; `Auto`: any
    /// language that reads it one way only, or else the one of `page_lang`,
    /// the language of the page it was typed on).
    Move {
        text: String,
        lang: Option<Lang>,
        page_lang: Option<Language>,
    },
    /// The clock announcement (D.2.6, D.2.10.4): the time left or the time
    /// used (`None`: the table's setting).
    SayClock {
        time: Option<Shown>,
    },
    /// The last announcement again, in full.
    Repeat,
    /// Which holes of the tactile board differ, in the pack's words.
    BoardDifferences,
    StartClock,
    PauseClock,
    ResumeClock,
    AdjustClock {
        side: Color,
        millis: i64,
        reason: String,
    },
    Touched {
        side: Color,
        square: Square,
    },
    OfferDraw {
        side: Color,
    },
    DeclineDraw {
        side: Color,
    },
    AcceptDraw,
    /// A draw claim by the player on move (9.2, 9.3), on the position as
    /// it stands or declaring the move (any notation, read with `lang`) that
    /// brings it about.
    ClaimDraw {
        side: Color,
        claim: DrawClaim,
        declared: Option<String>,
        lang: Option<Lang>,
        page_lang: Option<Language>,
    },
    /// The arbiter rules an illegal move of `side` completed (7.5.5).
    IllegalCompleted {
        side: Color,
    },
    Resign {
        side: Color,
    },
    ClaimFlag,
    SetResult {
        result: KnownOutcome,
        reason: String,
    },
    /// The D.2.9 ruling from both scoresheets; applied if `apply`.
    Ruling {
        sheets: ByColor<String>,
        apply: bool,
    },
    /// Names the piece of a pending peg-board promotion.
    NamePromotion(Role),
}

impl Action {
    /// Whether `role` may ask for this at a table whose blind player plays
    /// `blind`, with `to_move` to move.
    ///
    /// A player acts for their own side only (the player for `blind`, the
    /// second blind player for the other); the assistant (D.2.10) for either
    /// side and the clock; the arbiter for everything, and alone for clock
    /// adjustments, results and rulings. Which board's promotion a player
    /// may name (their own) the table checks, as it knows the boards.
    pub fn allowed(&self, role: PersonRole, blind: Color, to_move: Color) -> bool {
        use Action::*;
        let Some(own) = role.plays(blind) else {
            return match role {
                PersonRole::Assistant => !matches!(
                    self,
                    AdjustClock { .. } | SetResult { .. } | Ruling { .. } | IllegalCompleted { .. }
                ),
                _ => true,
            };
        };
        match self {
            Move { .. } => to_move == own,
            OfferDraw { side }
            | DeclineDraw { side }
            | ClaimDraw { side, .. }
            | Resign { side } => *side == own,
            // Accepting a draw offered to them (the table checks the offer
            // is the other side's).
            SayClock { .. }
            | Repeat
            | BoardDifferences
            | ClaimFlag
            | NamePromotion(_)
            | AcceptDraw => true,
            StartClock
            | PauseClock
            | ResumeClock
            | AdjustClock { .. }
            | Touched { .. }
            | SetResult { .. }
            | IllegalCompleted { .. }
            | Ruling { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_acts_for_the_blind_side_only() {
        let mv = Action::Move {
            text: "e4".into(),
            lang: Some(Lang::Auto),
            page_lang: None,
        };
        assert!(mv.allowed(PersonRole::Player, Color::White, Color::White));
        assert!(!mv.allowed(PersonRole::Player, Color::Black, Color::White));
        assert!(mv.allowed(PersonRole::Assistant, Color::Black, Color::White));
        let resign = Action::Resign { side: Color::White };
        assert!(!resign.allowed(PersonRole::Player, Color::Black, Color::White));
        assert!(resign.allowed(PersonRole::Player, Color::White, Color::Black));
        // The second blind player, for the other side.
        assert!(mv.allowed(PersonRole::Opponent, Color::Black, Color::White));
        assert!(!mv.allowed(PersonRole::Opponent, Color::White, Color::White));
        assert!(!resign.allowed(PersonRole::Opponent, Color::White, Color::Black));
        assert!(resign.allowed(PersonRole::Opponent, Color::Black, Color::Black));
    }

    #[test]
    fn only_the_arbiter_adjusts_sets_results_and_rules() {
        let acts = [
            Action::AdjustClock {
                side: Color::White,
                millis: 1,
                reason: String::new(),
            },
            Action::SetResult {
                result: KnownOutcome::Decisive {
                    winner: Color::White,
                },
                reason: String::new(),
            },
            Action::Ruling {
                sheets: ByColor::new_with(|_| String::new()),
                apply: true,
            },
        ];
        for a in acts {
            assert!(a.allowed(PersonRole::Arbiter, Color::White, Color::White));
            assert!(!a.allowed(PersonRole::Assistant, Color::White, Color::White));
            assert!(!a.allowed(PersonRole::Player, Color::White, Color::White));
        }
        let say = Action::SayClock { time: None };
        assert!(say.allowed(PersonRole::Player, Color::White, Color::Black));
        let completed = Action::IllegalCompleted { side: Color::White };
        assert!(completed.allowed(PersonRole::Arbiter, Color::White, Color::White));
        assert!(!completed.allowed(PersonRole::Assistant, Color::White, Color::White));
        assert!(!completed.allowed(PersonRole::Player, Color::White, Color::White));
    }
}
