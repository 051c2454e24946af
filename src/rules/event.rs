//! The journal's event format: everything that can happen at a table, as
//! the table journals it before applying it to the [`Game`](super::game::Game).
//! Journals written by earlier versions must keep reading: fields are only
//! ever added, with defaults.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::clock::ClockSetting;

/// What can happen at a table. Serialised into the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// White's clock starts (6.6).
    ClockStarted,
    /// A move is made (D.2.3) and the clock pressed at this instant.
    MovePlayed {
        uci: String,
    },
    /// A piece was touched: on the tactile board, lifted from its hole
    /// (D.2.2); on the sighted side, reported by the assistant (D.2.10.5).
    Touched {
        #[serde(with = "super::side")]
        side: Color,
        square: String,
    },
    /// A move that is not legal was attempted (on a board or typed); it was
    /// not made. On the record for the arbiter (7.5).
    IllegalAttempt {
        #[serde(with = "super::side")]
        side: Color,
        text: String,
    },
    ClockPaused,
    ClockResumed,
    /// Time added (positive) or taken (negative) by the arbiter.
    ClockAdjusted {
        #[serde(with = "super::side")]
        side: Color,
        millis: i64,
        reason: String,
    },
    DrawOffered {
        #[serde(with = "super::side")]
        side: Color,
    },
    DrawDeclined {
        #[serde(with = "super::side")]
        side: Color,
    },
    DrawAgreed,
    /// A claim under Article 9.2 / 9.3 by the player on move, on the
    /// position as it stands or declaring (UCI) the move that brings it
    /// about. A correct claim draws (the declared move is written, not
    /// played); an incorrect one gives the opponent the penalty time and the
    /// declared move is then made (9.5.3).
    DrawClaimed {
        #[serde(with = "super::side")]
        side: Color,
        claim: DrawClaim,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declared: Option<String>,
    },
    Resigned {
        #[serde(with = "super::side")]
        side: Color,
    },
    /// The running side's time is up and the fall is claimed or observed
    /// (6.8): the game ends by 6.9. Also journaled by itself under
    /// [`FlagRule::Auto`].
    FlagFell,
    /// The running clock reached zero: shown and said at once, the clock
    /// stops; under [`FlagRule::Claim`] the game goes on until the fall is
    /// claimed (a mate before that still ends it, 6.9).
    TimeExpired,
    /// The arbiter rules that an illegal move of `side` was completed
    /// (7.5.1–7.5.4, after the position before it was restored): the first
    /// gives the opponent the penalty time, the second loses the game unless
    /// the opponent cannot mate (7.5.5).
    IllegalMoveCompleted {
        #[serde(with = "super::side")]
        side: Color,
    },
    /// The arbiter's decision, e.g. after a second illegal move (7.5.5) or a
    /// penalty (12.9).
    ResultSet {
        result: String,
        reason: String,
    },
    /// The D.2.9 ruling: back to the position after `plies` half-moves, the
    /// clocks restored (or left as they are).
    Retracted {
        plies: usize,
        clock: Option<ClockSetting>,
    },
    /// The service restarted: the clock that was running is paused at
    /// `paused_at_ms` (the last instant it was known to run), so the downtime
    /// is not charged.
    ServiceRestarted {
        paused_at_ms: u64,
    },
}

/// The draw claims a player can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawClaim {
    /// The same position for the third time (9.2).
    Threefold,
    /// Fifty moves by each side without a pawn move or capture (9.3).
    FiftyMoves,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_through_json() {
        let events = vec![
            GameEvent::ClockStarted,
            GameEvent::MovePlayed { uci: "e2e4".into() },
            GameEvent::DrawClaimed {
                side: Color::Black,
                claim: DrawClaim::FiftyMoves,
                declared: None,
            },
            GameEvent::DrawClaimed {
                side: Color::White,
                claim: DrawClaim::Threefold,
                declared: Some("g1f3".into()),
            },
            GameEvent::TimeExpired,
            GameEvent::IllegalMoveCompleted { side: Color::White },
            GameEvent::ServiceRestarted { paused_at_ms: 7 },
        ];
        for e in events {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(
                serde_json::from_str::<GameEvent>(&json).unwrap(),
                e,
                "{json}"
            );
        }
        assert_eq!(
            serde_json::to_string(&GameEvent::Resigned { side: Color::White }).unwrap(),
            r#"{"type":"resigned","side":"white"}"#
        );
    }
}
