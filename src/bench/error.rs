//! Why a benchmark could not run: its own steps (the open-file limit, a
//! scratch folder, a process, a relay, a live stream), and the service's
//! own errors as they are.

use tactus::service::startup::serve_error::VoiceError;
use tactus::service::store::journal::JournalError;
use tactus::table::error::{TableError, TableStartError};
use tactus::table::id::BadTableId;
use tactus_board::link::PortError;
use tactus_board::sim::SimError;
use tactus_rules::time_control::TimeControlError;
use tactus_speech::dsp::ResampleError;

/// Why a benchmark could not run or stopped. A variant with a `#[source]`
/// says what step failed and keeps the cause; the others carry the cause
/// in their message.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// An option out of range (`--tables 0`).
    #[error("{0}")]
    Option(&'static str),
    /// The open-file limit could not be read.
    #[error("cannot read the open-file limit: {0}")]
    ReadFileLimit(std::io::Error),
    /// The run needs more open files than the hard limit allows.
    #[error("this needs about {needed} open files but the hard limit is {hard} (ulimit -Hn)")]
    HardFileLimit { needed: u64, hard: u64 },
    /// The soft open-file limit could not be raised.
    #[error("cannot raise the open-file limit to {needed}: {error}")]
    RaiseFileLimit { needed: u64, error: std::io::Error },
    /// A step of the benchmark's own failed on I/O: `what` names it
    /// (`cannot create /tmp/…`, `cannot start ser2net`, …).
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        error: std::io::Error,
    },
    /// A task of the benchmark ended without its result.
    #[error("{what}")]
    Task {
        what: &'static str,
        #[source]
        error: tokio::task::JoinError,
    },
    /// Something the benchmark waits for or reads did not come, in words
    /// (`tactus serve did not start within 30s`, `no token`).
    #[error("{0}")]
    Missing(String),
    /// The peg board's firmware or its emulator is not built.
    #[error(transparent)]
    FirmwareParts(#[from] tactus_testkit::peg_firmware::MissingPart),
    /// The journal could not be opened.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The voice pack could not be loaded.
    #[error(transparent)]
    Voice(#[from] VoiceError),
    /// The voice pack could not be rendered at its rate.
    #[error(transparent)]
    Resample(#[from] ResampleError),
    /// A simulated board could not be made.
    #[error("simulated board: {0}")]
    Simulator(SimError),
    /// The simulated board could not carry out a move or press a button.
    #[error(transparent)]
    Board(SimError),
    /// A relay's address did not read as a board port.
    #[error(transparent)]
    Port(#[from] PortError),
    /// A benchmark table's id did not read.
    #[error(transparent)]
    TableId(#[from] BadTableId),
    /// A benchmark table's time control did not read.
    #[error(transparent)]
    Control(#[from] TimeControlError),
    /// A benchmark table could not start.
    #[error(transparent)]
    Table(#[from] TableStartError),
    /// A table refused what the benchmark asked for (`what`).
    #[error("{what}: {error}")]
    Refused { what: String, error: TableError },
    /// `tactus serve` refused the assistant's move (its HTTP status).
    #[error("the assistant's move was refused ({0})")]
    MoveRefused(u16),
    /// `tactus serve` closed the connection without an answer.
    #[error("no HTTP status")]
    NoStatus,
    /// A request body could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A game of one of the benchmark's tables failed.
    #[error("table {table}")]
    Game {
        table: String,
        #[source]
        error: Box<BenchError>,
    },
}

impl BenchError {
    /// An I/O failure of the step `what`.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BenchError {
        let what = what.into();
        move |error| BenchError::Io { what, error }
    }
}
