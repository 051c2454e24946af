//! Why a table refuses a request, or cannot start or record: one type per
//! question, one variant per answer (the web layer maps each to its HTTP
//! status), each holding its cause.

use std::sync::Arc;

use shakmaty::Color;
use tactus_rules::game::GameError;

use super::actions::PersonRole;
use super::id::TableId;
use super::round::Round;

/// Why a request was refused: one variant per answer (HTTP status), each
/// holding its cause.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TableError {
    /// The role may not do this (HTTP 403).
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// The request does not fit the game (HTTP 422); nothing changed.
    #[error(transparent)]
    Unprocessable(#[from] Unprocessable),
    /// The journal could not record it (HTTP 503); nothing changed.
    #[error("not recorded: {0}")]
    Journal(Arc<RecordError>),
    /// The table's game is under way, so no new game can be set up there
    /// (HTTP 409) until it has a result.
    #[error("table {table}: its game (round {round}) is under way: record its result first")]
    UnderWay { table: TableId, round: Round },
    /// The table has stopped (HTTP 503).
    #[error("the table has stopped")]
    Stopped,
}

impl From<GameError> for TableError {
    fn from(e: GameError) -> TableError {
        TableError::Unprocessable(Unprocessable::Game(e))
    }
}

/// Why a role may not do what it asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// The action is not this role's at this table now.
    #[error("the {role} may not do this at this table now")]
    Role { role: PersonRole },
    /// The promotion waiting is on the other player's board.
    #[error("the promotion waiting is the other player's to name, not the {role}'s")]
    OthersPromotion { role: PersonRole },
    /// A token of one game (the second blind player's) in another: the
    /// table moved on to its next game while the request was on its way.
    #[error("this token is not valid for this table's game now")]
    OtherGame { game: u32 },
}

/// Why a request does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unprocessable {
    /// The game refuses the event.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The typed move does not read, or is not legal.
    #[error(transparent)]
    Move(#[from] tactus_rules::notation::MoveError),
    /// The move declared with a draw claim does not read, or is not legal.
    #[error("the declared move: {0}")]
    DeclaredMove(tactus_rules::notation::MoveError),
    /// A board's move out of its side's turn (or after the result).
    #[error("not {}'s move", tactus_rules::side::name(*side))]
    NotTheirMove { side: Color },
    /// A move in a round whose clocks the arbiter has not started yet.
    #[error(
        "round {round} has not been started: the arbiter starts the clocks, then the first \
         move is made"
    )]
    NotStarted { round: super::round::Round },
    /// A move arrives while the blind player's move is being announced.
    #[error("a move is being announced: wait until it has been made")]
    Announcing,
    /// The side has no board at this table.
    #[error("{} has no board at this table", tactus_rules::side::name(*side))]
    NoBoard { side: Color },
    /// Accepting a draw nobody offered.
    #[error("no draw has been offered")]
    NoDrawOffered,
    /// A player accepting their own draw offer.
    #[error("the draw offer is yours: the other player accepts or declines it")]
    OwnDrawOffer,
    /// Naming a promotion piece with no promotion waiting.
    #[error("no promotion is waiting for its piece")]
    NoPromotionWaiting,
    /// The board refused the promotion's piece.
    #[error(transparent)]
    Promotion(#[from] tactus_board::infer::InferError),
    /// The D.2.9 ruling cannot be made from these scoresheets.
    #[error(transparent)]
    Ruling(#[from] super::actions::ruling::RulingRefused),
    /// A new game's setup that was meant for another table.
    #[error("a setup for table {setup} sent to table {table}")]
    OtherTable { setup: TableId, table: TableId },
    /// A new game's setup that does not start a game.
    #[error(transparent)]
    Start(#[from] super::replay::StartError),
    /// A pack other than the table's own: only its rate may change here.
    #[error("table {table} speaks with its own pack; `{voice}` is another")]
    OtherVoice { table: TableId, voice: String },
}

/// Why a table could not start; the message names the table where the
/// cause does not.
#[derive(Debug, thiserror::Error)]
pub enum TableStartError {
    /// The configured setup does not start a game (a bad start position).
    #[error(transparent)]
    Setup(#[from] super::replay::StartError),
    /// The journal could not be replayed.
    #[error(transparent)]
    Replay(#[from] super::replay::ReplayError),
    /// The configuration disagrees with the journaled game on what defines it.
    #[error("table {table}: {why}")]
    Disagrees {
        table: TableId,
        why: super::replay::Disagreement,
    },
    /// The setup could not be journaled.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The restart (clock paused) could not be journaled.
    #[error("table {table}: {why}")]
    Restart { table: TableId, why: TableError },
}

/// Why an entry could not be written to the journal.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The entry could not be encoded as JSON.
    #[error(transparent)]
    Encode(#[from] serde_json::Error),
    /// The journal did not commit it.
    #[error(transparent)]
    Journal(#[from] super::journal::NotJournaled),
}
