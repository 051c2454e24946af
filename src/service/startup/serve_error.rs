//! Why `tactus serve` could not start or stopped: each step of the
//! start-up named, with its cause.

use std::net::SocketAddr;

use crate::service::security::access::TokenError;
use crate::service::security::data_lock::LockError;
use crate::service::store::journal::JournalError;
use crate::table::error::TableStartError;
use crate::table::id::TableId;
use tactus_board::sim::SimError;
use tactus_speech::sink::SinkError;
use tactus_speech::sink_alsa::DeviceError;
use tactus_speech::voice_pack::{PackError, UnknownVoice};

/// Why `tactus serve` could not start or stopped serving. Where the cause
/// is the message (`transparent`) it already names what failed; the others
/// say which table and what, with the cause as their source or in their
/// message.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The HTTPS certificate or key cannot be used.
    #[error(transparent)]
    Tls(#[from] crate::service::security::tls::TlsError),
    /// The port is taken or not ours to take.
    #[error("cannot listen on {addr}")]
    Listen {
        addr: SocketAddr,
        #[source]
        error: std::io::Error,
    },
    /// The listening socket has no address.
    #[error(transparent)]
    Address(std::io::Error),
    /// The data folder is locked by another server, or cannot be.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The journal cannot be opened or read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The tokens file cannot be read or written.
    #[error(transparent)]
    Tokens(#[from] TokenError),
    /// The venue's voice pack cannot be loaded.
    #[error(transparent)]
    Voice(#[from] VoiceError),
    /// A table's own voice pack cannot be loaded.
    #[error("table {table}: voice")]
    TableVoice {
        table: TableId,
        #[source]
        error: VoiceError,
    },
    /// A table's simulated board cannot be made.
    #[error("table {table}: simulated board: {error}")]
    Simulator { table: TableId, error: SimError },
    /// A table's board driver cannot be started.
    #[error("table {table}: cannot start the board driver")]
    Driver {
        table: TableId,
        #[source]
        error: std::io::Error,
    },
    /// A table's WAV file cannot be made.
    #[error(transparent)]
    Wav(#[from] SinkError),
    /// A table's own sound device cannot be opened.
    #[error("table {table}: {error}")]
    Device { table: String, error: DeviceError },
    /// A table's speaker thread cannot be started.
    #[error(transparent)]
    Speaker(std::io::Error),
    /// A table cannot start (its journal, its setup).
    #[error(transparent)]
    Table(#[from] TableStartError),
    /// A table's braille display cannot be attached.
    #[error(transparent)]
    Braille(std::io::Error),
    /// The web server failed.
    #[error("web server")]
    Web(#[source] std::io::Error),
}

/// Why a voice pack cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    /// No pack by that name or path.
    #[error("{0}")]
    Unknown(UnknownVoice),
    /// The pack is there but has problems.
    #[error("{0}")]
    Pack(PackError),
}
