//! The competition's views: a round's games and where they stand, a team
//! event's match scores, who got no game. They are the competition's own
//! types (serialized as the API gives them: the web layer passes them on),
//! so that the domain never imports the web layer's.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::table::round::Round;

/// Who is blind in a round's game: `white`, `black` or `both`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlindSeat {
    White,
    Black,
    /// Both players are blind: the table needs a second tactile board.
    Both,
}

/// One game of a round as the arbiter (or the pairing program's file)
/// gives it: `POST /api/rounds`'s games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundGame {
    /// The table it is played at; left out, a listed player's own table
    /// (`[[player]] table`), or else the next free table in board order
    /// (the venue's tables in file order are boards 1, 2, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<crate::table::id::TableId>,
    /// Its place in the round's board order (1 first); left out, its
    /// place in the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's start rank; left out, the listed player of that name, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_rank: Option<u16>,
    /// Black's start rank; left out, the listed player of that name, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_rank: Option<u16>,
    /// The blind player's side; left out, the side of the listed player
    /// (`[[player]]`) in the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind: Option<BlindSeat>,
    /// The time control; left out, the table's `control`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
    /// Chess960 tables: the round's start position (0 to 959); left out,
    /// the table's `start_position`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_position: Option<u32>,
}

/// The answer to `POST /api/rounds`: what was set up, and who got no game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSetUp {
    pub round: Round,
    /// Each table set up, with the number of its new game.
    pub games: Vec<GameListed>,
    /// Listed players without a game this round (a bye, not paired), with
    /// why.
    pub unpaired: Vec<Unpaired>,
}

/// A listed player who has no game in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unpaired {
    pub name: String,
    pub start_rank: u16,
    /// Why, in English words (`bye (H)`, `not paired in round 3`).
    pub why: String,
    /// Why, as the pages' message `js-unpaired-{key}` (`not-paired`,
    /// `bye`, `bye-letter`, `no-colour`) with its `args` (`round`,
    /// `letter`), so each page says it in its own language.
    pub key: String,
    pub args: BTreeMap<String, String>,
}

/// `GET /api/rounds`: every round with its games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundsView {
    pub rounds: Vec<RoundView>,
}

/// One round of [`RoundsView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    pub round: Round,
    pub games: Vec<GameListed>,
    /// A team event's: each match's score so far (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<MatchScore>,
}

/// A team event's match in a round, with its score so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchScore {
    /// The first-named team (board 1's colour of `352`).
    pub first: TeamRef,
    /// The second team; `null` for a bye.
    pub second: Option<TeamRef>,
    /// Game points so far as the TRF writes points (`2.5`), the first
    /// team's then the second's.
    pub score: [String; 2],
    /// Every board has its result.
    pub finished: bool,
}

/// A team as the round's view names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRef {
    pub number: u16,
    pub name: String,
}

/// One game at a tactus table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameListed {
    pub table: crate::table::id::TableId,
    /// The number of the table's game (1, 2, …).
    pub game: u32,
    pub round: Round,
    pub white: String,
    pub black: String,
    /// The blind player's side.
    #[serde(with = "tactus_rules::side")]
    pub blind: Color,
    /// `not_begun`, `under_way` or `finished`.
    pub state: GameState,
    /// The result (`1-0`, `0-1`, `1/2-1/2`) once finished.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "tactus_rules::result::opt_score"
    )]
    pub result: Option<shakmaty::KnownOutcome>,
    /// Moves made (plies): a game decided without one was not played.
    pub plies: u32,
    /// The players' start ranks, when the round's pairings gave them.
    #[serde(
        default,
        skip_serializing_if = "crate::table::setup::unnamed",
        with = "tactus_rules::side::by_color_sparse"
    )]
    pub ranks: crate::table::setup::Ranks,
    /// The player who did not come, when the arbiter recorded a forfeit.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "tactus_rules::side::option"
    )]
    pub forfeit: Option<Color>,
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    NotBegun,
    UnderWay,
    Finished,
}
