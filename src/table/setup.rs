//! How a table's game is set up: journaled as the game's first entry.

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{ByColor, Color};

use super::id::TableId;
use super::round::Round;
use tactus_rules::result::FlagRule;
use tactus_rules::time_control::TimeControl;

/// How a table is set up; journaled as its first entry so that a restart
/// keeps the game's time control and players even if the config changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub id: TableId,
    #[serde(with = "tactus_rules::side")]
    pub blind: Color,
    pub control: TimeControl,
    pub white: String,
    pub black: String,
    pub event: String,
    pub round: Round,
    /// The start position if not the standard one.
    pub fen: Option<Fen>,
    /// What a clock reaching zero does (6.8); journals from before this
    /// setting read as the default, `claim`.
    #[serde(default)]
    pub flag: FlagRule,
    /// The players' start ranks in the competition (the pairing program's
    /// numbers), when the round's pairings gave them: a listed player's own
    /// token acts here for their side, in this game only. Journals from
    /// before read as none.
    #[serde(
        default,
        skip_serializing_if = "unnamed",
        with = "tactus_rules::side::by_color_sparse"
    )]
    pub ranks: Ranks,
    /// Set up by the competition's round: no move is made until the clock
    /// is started (the arbiter's start of the round, or of this table), so
    /// a player cannot start a round the arbiter may still re-pair. A table
    /// outside a competition starts at its first move, as always.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held_for_start: bool,
}

/// Which player of the competition plays each side of a game, by start
/// rank; `None` for a side the pairing did not name by number. Written
/// `{"white": 3, "black": 8}`, a side not named left out
/// (`tactus_rules::side::by_color_sparse`); the side a rank plays is
/// `ranks.find(|r| *r == Some(rank))`.
pub type Ranks = ByColor<Option<u16>>;

/// Neither side named (what is left out of the JSON).
pub fn unnamed(ranks: &Ranks) -> bool {
    ranks.iter().all(Option::is_none)
}
