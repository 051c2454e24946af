//! How a game ended: the score (shakmaty's [`KnownOutcome`]) and why, as a
//! type, so that nothing is decided by comparing words a person typed.

use serde::{Deserialize, Serialize, Serializer};
use shakmaty::{Color, KnownOutcome};

/// What happens when a clock reaches zero. Under 6.8 a flag has fallen only
/// when the arbiter observes it or a player claims it (for the blind player,
/// the assistant: D.2.10.5), so by default the table shows the fall at once
/// and the game ends on the claim; an organiser may have it end at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlagRule {
    /// Shown and announced at once; the game ends when it is claimed (6.8).
    #[default]
    Claim,
    /// The game ends the moment the clock reaches zero.
    Auto,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Checkmate,
    Stalemate,
    /// No sequence of legal moves can mate (5.2.2).
    DeadPosition,
    /// The same position five times (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without pawn move or capture (9.6.2).
    SeventyFiveMoves,
    Agreement,
    /// A correct claim under 9.2.
    ThreefoldRepetition,
    /// A correct claim under 9.3.
    FiftyMoves,
    Resignation,
    /// A flag fell and was claimed or observed (6.8, 6.9).
    FlagFell,
    /// The arbiter's decision (7.5.5, 12.9 …), with their reason.
    Arbiter,
}

impl Ending {
    /// The words shown for it (the PGN's `Termination` too).
    pub fn words(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::DeadPosition => "dead position",
            Ending::FivefoldRepetition => "fivefold repetition",
            Ending::SeventyFiveMoves => "seventy-five-move rule",
            Ending::Agreement => "agreement",
            Ending::ThreefoldRepetition => "threefold repetition",
            Ending::FiftyMoves => "fifty-move rule",
            Ending::Resignation => "resignation",
            Ending::FlagFell => "flag fell",
            Ending::Arbiter => "arbiter's decision",
        }
    }
}

/// The result of a finished game.
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
/// use tactus::rules::result::{Ending, GameResult};
///
/// let r = GameResult::new(KnownOutcome::Decisive { winner: Color::White }, Ending::FlagFell);
/// assert_eq!(r.score(), "1-0");
/// assert_eq!(r.reason(), "flag fell");
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["result"], "1-0");
/// assert_eq!(json["ending"], "flag_fell");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: KnownOutcome,
    pub ending: Ending,
    /// More words: the arbiter's reason, or the move written with a claim.
    pub detail: Option<String>,
}

impl GameResult {
    pub fn new(outcome: KnownOutcome, ending: Ending) -> GameResult {
        GameResult {
            outcome,
            ending,
            detail: None,
        }
    }

    /// A win for `winner`.
    pub fn win(winner: Color, ending: Ending) -> GameResult {
        GameResult::new(KnownOutcome::Decisive { winner }, ending)
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> String {
        self.outcome.to_string()
    }

    /// Why, in words: the ending, and any detail.
    pub fn reason(&self) -> String {
        match (&self.detail, self.ending) {
            (Some(d), Ending::Arbiter) => d.clone(),
            (Some(d), e) => format!("{}, {d}", e.words()),
            (None, e) => e.words().to_string(),
        }
    }
}

impl Serialize for GameResult {
    /// `{"result": "1-0", "reason": "flag fell", "ending": "flag_fell"}`:
    /// the pages show `result` and `reason`; `ending` is for programs.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("GameResult", 3)?;
        st.serialize_field("result", &self.score())?;
        st.serialize_field("reason", &self.reason())?;
        st.serialize_field("ending", &self.ending)?;
        st.end()
    }
}
