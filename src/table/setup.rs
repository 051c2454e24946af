//! How a table's game is set up: journaled as the game's first entry.

use serde::{Deserialize, Serialize};
use shakmaty::Color;
use shakmaty::fen::Fen;

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
    #[serde(default, skip_serializing_if = "Ranks::is_empty")]
    pub ranks: Ranks,
    /// Set up by the competition's round: no move is made until the clock
    /// is started (the arbiter's start of the round, or of this table), so
    /// a player cannot start a round the arbiter may still re-pair. A table
    /// outside a competition starts at its first move, as always.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held_for_start: bool,
}

/// Which player of the competition plays each side of a game, by start
/// rank; `None` for a side the pairing did not name by number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranks {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<u16>,
}

impl Ranks {
    /// Neither side named.
    pub fn is_empty(&self) -> bool {
        self.white.is_none() && self.black.is_none()
    }

    /// The side start rank `rank` plays, if it plays here.
    pub fn side_of(&self, rank: u16) -> Option<Color> {
        if self.white == Some(rank) {
            Some(Color::White)
        } else if self.black == Some(rank) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The start rank playing `side`.
    pub fn of(&self, side: Color) -> Option<u16> {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}
