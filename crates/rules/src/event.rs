//! The journal's event format: everything that can happen at a table, as
//! the table journals it before applying it to the [`Game`](super::game::Game).
//! Journals written by earlier versions must keep reading: fields are only
//! ever added, with defaults.

use serde::{Deserialize, Serialize};
use shakmaty::uci::UciMove;
use shakmaty::{Color, KnownOutcome, Square};

use super::clock::ClockSetting;

/// What can happen at a table. Serialised into the journal, one JSON
/// object per event, tagged by `type`.
///
/// # Examples
///
/// ```
/// use shakmaty::Color;
/// use tactus_rules::event::GameEvent;
///
/// let e = GameEvent::MovePlayed { uci: "e2e4".parse().unwrap() };
/// let json = serde_json::to_string(&e).unwrap();
/// assert_eq!(json, r#"{"type":"move_played","uci":"e2e4"}"#);
/// let back: GameEvent = serde_json::from_str(r#"{"type":"resigned","side":"black"}"#).unwrap();
/// assert_eq!(back, GameEvent::Resigned { side: Color::Black });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// White's clock starts (6.6).
    ClockStarted,
    /// A move is made (D.2.3) and the clock pressed at this instant.
    MovePlayed {
        /// The move in UCI (`e2e4`, `e7e8q`; castling as the king's move,
        /// or king onto rook in Chess960).
        uci: UciMove,
    },
    /// A piece was touched: on the tactile board, lifted from its hole
    /// (D.2.2); on the sighted side, reported by the assistant (D.2.10.5).
    Touched {
        /// The player whose piece it was.
        #[serde(with = "super::side")]
        side: Color,
        /// The square it was touched on, by name (`e2`).
        #[serde(with = "super::as_text")]
        square: Square,
    },
    /// A move that is not legal was attempted (on a board or typed); it was
    /// not made. On the record for the arbiter (7.5).
    IllegalAttempt {
        /// The player who attempted it.
        #[serde(with = "super::side")]
        side: Color,
        /// The move as it was attempted (UCI from a board, or as typed).
        text: String,
    },
    /// The clock is stopped: by the arbiter, or by a player to call the
    /// arbiter (Article 6).
    ClockPaused,
    /// The stopped clock runs again.
    ClockResumed,
    /// Time added (positive) or taken (negative) by the arbiter.
    ClockAdjusted {
        /// The side whose clock changes.
        #[serde(with = "super::side")]
        side: Color,
        /// How much, in milliseconds: positive adds, negative takes.
        millis: i64,
        /// Why, as the arbiter gave it.
        reason: String,
    },
    /// A player offered a draw (9.1.2).
    DrawOffered {
        /// The player who offered.
        #[serde(with = "super::side")]
        side: Color,
    },
    /// A player declined the draw offered to them.
    DrawDeclined {
        /// The player who declined.
        #[serde(with = "super::side")]
        side: Color,
    },
    /// The offer was accepted: the game is drawn by agreement (9.1).
    DrawAgreed,
    /// A claim under Article 9.2 / 9.3 by the player on move, on the
    /// position as it stands or declaring (UCI) the move that brings it
    /// about. A correct claim draws (the declared move is written, not
    /// played); an incorrect one gives the opponent the penalty time and the
    /// declared move is then made (9.5.3).
    DrawClaimed {
        /// The player who claims.
        #[serde(with = "super::side")]
        side: Color,
        /// Which rule the claim is under.
        claim: DrawClaim,
        /// The move (UCI) the player writes and declares they will make,
        /// if the claim is on the position after it (9.2.1.1, 9.3.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declared: Option<UciMove>,
    },
    /// A player resigned (5.1.2).
    Resigned {
        /// The player who resigned.
        #[serde(with = "super::side")]
        side: Color,
    },
    /// The running side's time is up and the fall is claimed or observed
    /// (6.8): the game ends by 6.9. Also journaled by itself under
    /// [`FlagRule::Auto`](super::result::FlagRule::Auto).
    FlagFell,
    /// The running clock reached zero: shown and said at once, the clock
    /// stops; under [`FlagRule::Claim`](super::result::FlagRule::Claim) the game goes on until the fall is
    /// claimed (a mate before that still ends it, 6.9).
    TimeExpired,
    /// The arbiter rules that an illegal move of `side` was completed
    /// (7.5.1–7.5.4, after the position before it was restored): the first
    /// gives the opponent the penalty time, the second loses the game unless
    /// the opponent cannot mate (7.5.5).
    IllegalMoveCompleted {
        /// The player whose illegal move it was.
        #[serde(with = "super::side")]
        side: Color,
    },
    /// The arbiter's decision, e.g. after a second illegal move (7.5.5) or a
    /// penalty (12.9).
    ResultSet {
        /// The score as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
        #[serde(with = "super::as_text")]
        result: KnownOutcome,
        /// The arbiter's reason, in their words.
        reason: String,
    },
    /// The D.2.9 ruling: back to the position after `plies` half-moves, the
    /// clocks restored (or left as they are).
    Retracted {
        /// Half-moves kept from the start of the game.
        plies: usize,
        /// The clocks as the arbiter sets them; `None` leaves them as they
        /// are.
        clock: Option<ClockSetting>,
        /// Not a ruling but a correction: the last move was read from an
        /// electronic board while its piece was sliding on, and the move
        /// journaled next (the same piece further along the same line)
        /// replaces it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        slid: bool,
    },
    /// The service restarted: the clock that was running is paused at
    /// `paused_at_ms` (the last instant it was known to run), so the downtime
    /// is not charged.
    ServiceRestarted {
        /// Milliseconds of game time at which the clock stopped.
        paused_at_ms: u64,
    },
}

/// The draw claims a player can make.
///
/// # Examples
///
/// ```
/// use tactus_rules::event::DrawClaim;
///
/// let claim: DrawClaim = serde_json::from_str(r#""fifty_moves""#).unwrap();
/// assert_eq!(claim, DrawClaim::FiftyMoves);
/// ```
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
            GameEvent::MovePlayed {
                uci: "e2e4".parse().unwrap(),
            },
            GameEvent::Touched {
                side: Color::White,
                square: Square::G1,
            },
            GameEvent::ResultSet {
                result: KnownOutcome::Draw,
                reason: "12.9".into(),
            },
            GameEvent::DrawClaimed {
                side: Color::Black,
                claim: DrawClaim::FiftyMoves,
                declared: None,
            },
            GameEvent::DrawClaimed {
                side: Color::White,
                claim: DrawClaim::Threefold,
                declared: Some("g1f3".parse().unwrap()),
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

    /// The journal's text is the text earlier versions wrote (those fields
    /// were strings): every line of that form reads into the typed event and
    /// writes back the same.
    #[test]
    fn journal_lines_of_string_fields_read_and_write_the_same() {
        for line in [
            r#"{"type":"move_played","uci":"e7e8q"}"#,
            r#"{"type":"move_played","uci":"e1h1"}"#,
            r#"{"type":"touched","side":"black","square":"h8"}"#,
            r#"{"type":"draw_claimed","side":"white","claim":"threefold","declared":"g1f3"}"#,
            r#"{"type":"draw_claimed","side":"white","claim":"fifty_moves"}"#,
            r#"{"type":"result_set","result":"1/2-1/2","reason":"12.9"}"#,
            r#"{"type":"result_set","result":"0-1","reason":"7.5.5"}"#,
        ] {
            let event: GameEvent = serde_json::from_str(line).expect(line);
            assert_eq!(serde_json::to_string(&event).unwrap(), line);
        }
        // Text that is none of these is refused when read, not later.
        for bad in [
            r#"{"type":"move_played","uci":"zz"}"#,
            r#"{"type":"touched","side":"black","square":"i9"}"#,
            r#"{"type":"result_set","result":"1-1","reason":""}"#,
            r#"{"type":"draw_claimed","side":"white","claim":"threefold","declared":"Nf3"}"#,
        ] {
            assert!(serde_json::from_str::<GameEvent>(bad).is_err(), "{bad}");
        }
    }
}
