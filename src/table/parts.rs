//! Everything a table needs to start (`TableActor::start`): its setup,
//! voice, speaker, journal and history, boards, display and time.

use std::sync::Arc;

use super::boards::BoardLink;
use super::journal::{Record, TableJournal};
use super::round::Round;
use super::setup::Setup;
use super::speaker::Speaker;
use super::timebase::Timebase;
use tactus_rules::announce::Style;
use tactus_rules::clock_announce::Shown;
use tactus_rules::notation::Lang;
use tactus_speech::voice_pack::VoicePack;

/// Everything a table needs to start.
pub struct TableParts {
    pub setup: Setup,
    pub voice: Arc<VoicePack>,
    pub speaker: Speaker,
    pub journal: Arc<dyn TableJournal>,
    /// The journal's records of the table's latest game (empty for a new
    /// table).
    pub history: Vec<Record>,
    /// The rounds of the table's earlier games: a configuration that
    /// names one of them never starts it again.
    pub earlier_rounds: Vec<Round>,
    /// The last instant the table was seen alive before a restart.
    pub last_alive_ms: Option<u64>,
    /// The blind player's tactile board.
    pub board: Option<BoardLink>,
    /// The opponent's board: an electronic board for a sighted opponent, a
    /// second tactile board when both players are blind.
    pub opponent_board: Option<BoardLink>,
    /// How clock times are told (time left or time used).
    pub shown: Shown,
    /// How moves are said.
    pub style: Style,
    /// The piece letters of moves entered without a language (`notation`).
    pub notation: Lang,
    /// The service's time (never the system clock).
    pub time: Timebase,
    /// The braille display's state, if the table has a display: its
    /// thread (`display::attach`) writes it, the table's view reads it.
    pub display: Option<super::display::DisplayStatus>,
}

impl TableParts {
    /// A new table's parts: no history, no board, no display, the time
    /// left told, standard moves, any piece letters. Set the others with
    /// struct update syntax: `TableParts { board, ..TableParts::new(…) }`.
    pub fn new(
        setup: Setup,
        voice: Arc<VoicePack>,
        speaker: Speaker,
        journal: Arc<dyn TableJournal>,
        time: Timebase,
    ) -> TableParts {
        TableParts {
            setup,
            voice,
            speaker,
            journal,
            history: Vec::new(),
            earlier_rounds: Vec::new(),
            last_alive_ms: None,
            board: None,
            opponent_board: None,
            shown: Shown::Remaining,
            style: Style::Standard,
            notation: Lang::Auto,
            time,
            display: None,
        }
    }
}
