//! What a check finds wrong: one type per kind of part, each variant one
//! way it fails, its text the line the arbiter reads; and the few words
//! those lines share.

use std::net::SocketAddr;
use std::path::PathBuf;

use tactus_braille::brlapi::BrlapiError;
use tactus_speech::device::AudioState;
use tactus_speech::sink::SinkError;
use tactus_speech::sink_alsa::DeviceError;
use tactus_speech::voice_pack::{PackError, UnknownVoice};

use super::board::GARBAGE_LIMIT;

/// What checking one part found: `Ok` what works, in words for the
/// arbiter; `Err` what is wrong and where, a [`Fault`] whose text is the
/// line the arbiter reads.
pub type Finding = Result<String, Fault>;

/// What is wrong with a part: one type per kind of part, each variant one
/// way it fails, its text a sentence for the arbiter that names the cure
/// where there is one.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// A board (the blind player's or the opponent's).
    #[error(transparent)]
    Board(#[from] BoardFault),
    /// A table's sound output.
    #[error(transparent)]
    Sound(#[from] SoundFault),
    /// A braille display.
    #[error(transparent)]
    Braille(#[from] BrailleFault),
    /// A listed player's own braille display, named with its player.
    #[error("{whose} ({name}): {fault}")]
    PlayersDisplay {
        whose: String,
        name: String,
        fault: BrailleFault,
    },
    /// A voice pack.
    #[error(transparent)]
    Voice(#[from] VoiceFault),
    /// The data folder.
    #[error(transparent)]
    Data(#[from] DataFault),
    /// The listen address.
    #[error(transparent)]
    Listen(#[from] ListenFault),
    /// Plain HTTP beyond this computer: every token in clear.
    #[error(
        "plain HTTP on {0}: every token crosses the hall's network in clear, and the \
         venue arbiter's token works only on this computer; make a certificate with \
         `tactus tls self-signed --out DIR` and set tls_cert and tls_key (docs/https.md)"
    )]
    PlainHttp(SocketAddr),
    /// A part of a running table, as it reports itself.
    #[error(transparent)]
    Live(#[from] LiveFault),
}

/// Why a board did not show the start position.
#[derive(Debug, thiserror::Error)]
pub enum BoardFault {
    #[error("{name}: cannot open: {source}")]
    Open {
        name: String,
        source: std::io::Error,
    },
    #[error("{name}: cannot write to the board: {source}")]
    Write {
        name: String,
        source: std::io::Error,
    },
    #[error("{name}: the connection closed")]
    Closed { name: String },
    #[error("{name}: cannot read: {source}")]
    Read {
        name: String,
        source: std::io::Error,
    },
    #[error(
        "{name}: silent: no answer in {secs:.0} s (is the board switched on, on this port, \
         with this protocol?)"
    )]
    Silent { name: String, secs: f32 },
    /// Unreadable pieces and no position: counted up to a limit (64), the
    /// first one kept.
    #[error(
        "{name}: sends garbage: {} unreadable pieces in {secs:.0} s, no position (first: \
         {first}); wrong protocol or speed?",
        pieces_counted(*.pieces)
    )]
    Garbage {
        name: String,
        pieces: usize,
        secs: f32,
        first: String,
    },
    #[error("{name}: answered ({bytes} bytes) but sent no position in {secs:.0} s")]
    NoPosition {
        name: String,
        bytes: usize,
        secs: f32,
    },
    /// The squares that differ from the start, each in words (`e4
    /// filled`).
    #[error("{name}: not the start position: {}", some_squares(.differs))]
    NotStart { name: String, differs: Vec<String> },
}

/// Why a table's sound output did not play the test phrase.
#[derive(Debug, thiserror::Error)]
pub enum SoundFault {
    #[error("no voice to play with: {0}")]
    NoVoice(VoiceFault),
    #[error("wav: {}: {fault}", .dir.display())]
    Wav { dir: PathBuf, fault: ProbeFault },
    #[error("{shown}: cannot play: {source}")]
    Open { shown: String, source: DeviceError },
    #[error("{shown}: the test phrase did not play: {source}")]
    Say { shown: String, source: SinkError },
    /// Played, but the output's state is not `playing` afterwards; the
    /// output's own error, if it has one.
    #[error(
        "{shown}: audio.state {} after the test phrase{}",
        state_word(*.state),
        with_cause(.error)
    )]
    NotPlaying {
        shown: String,
        state: AudioState,
        error: Option<String>,
    },
}

/// Why a braille display did not show the test line.
#[derive(Debug, thiserror::Error)]
pub enum BrailleFault {
    #[error("{shown}: cannot connect: {source} (is brltty running, and the display on?)")]
    Connect { shown: String, source: BrlapiError },
    #[error("{shown}: cannot write: {source}")]
    Write { shown: String, source: BrlapiError },
}

/// Why a voice pack cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum VoiceFault {
    #[error(transparent)]
    Unknown(#[from] UnknownVoice),
    /// The pack loads with problems: how many, and the first.
    #[error(
        "`{name}` ({}): {} problems, first: {}",
        .pack.dir.display(),
        .pack.problems.len(),
        .pack.problems.first().map(ToString::to_string).unwrap_or_default()
    )]
    Problems { name: String, pack: PackError },
}

/// Why a folder cannot be written in, or made.
#[derive(Debug, thiserror::Error)]
pub enum ProbeFault {
    #[error("{} is not a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error("{}: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("not writable: {0}")]
    NotWritable(#[source] std::io::Error),
    #[error("cannot remove the probe file: {0}")]
    CannotRemove(#[source] std::io::Error),
}

/// Why the data folder is not fit for the server.
#[derive(Debug, thiserror::Error)]
pub enum DataFault {
    #[error("{} does not exist and cannot be made: {fault}", .dir.display())]
    CannotMake { dir: PathBuf, fault: ProbeFault },
    #[error("{}: {source}", .dir.display())]
    Unreadable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a folder", .dir.display())]
    NotAFolder { dir: PathBuf },
    #[error(
        "{} belongs to user {owner} , not to you ({me}): run the check as the server's user \
         (sudo -u tactus tactus check)",
        .dir.display()
    )]
    NotYours { dir: PathBuf, owner: u32, me: u32 },
    #[error(
        "{} is mode {mode:03o}: others can read the access tokens; chmod 700 {}",
        .dir.display(),
        .dir.display()
    )]
    OthersRead { dir: PathBuf, mode: u32 },
    #[error("{}: {fault}", .dir.display())]
    Probe { dir: PathBuf, fault: ProbeFault },
}

/// Why the server could not listen where it is told to.
#[derive(Debug, thiserror::Error)]
pub enum ListenFault {
    #[error("{0} is in use: another program (a running tactus?) listens there")]
    InUse(SocketAddr),
    #[error("{addr}: cannot listen: {source}")]
    Cannot {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// What a running table's part reports that is not ready for play.
#[derive(Debug, thiserror::Error)]
pub enum LiveFault {
    #[error("{device}: text only{}", with_cause(.error))]
    TextOnly {
        device: String,
        error: Option<String>,
    },
    #[error("{device}: no sound, being reopened{}", with_cause(.error))]
    SoundFailed {
        device: String,
        error: Option<String>,
    },
    #[error("{device}: not yet proven to play")]
    SoundStarting { device: String },
    #[error("not connected (is brltty running, and the display on?)")]
    DisplayDisconnected,
    #[error("cannot be reached: tried again and again (is brltty running, and the display on?)")]
    DisplayFailing,
    #[error("its thread failed and is being started again")]
    DisplayFailed,
    #[error("not connected{}", noise(*.unreadable))]
    BoardDisconnected { unreadable: u64 },
    #[error(
        "connected, differs from the game on {}{}",
        some_squares(.differs),
        noise(*.unreadable)
    )]
    BoardDiffers {
        differs: Vec<String>,
        unreadable: u64,
    },
}

/// Squares named in a "not the start position" line, at most.
const SQUARES_NAMED: usize = 8;

/// The first [`SQUARES_NAMED`] squares, and how many more.
fn some_squares(differs: &[String]) -> String {
    let more = differs.len().saturating_sub(SQUARES_NAMED);
    let mut shown = differs
        .iter()
        .take(SQUARES_NAMED)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        shown.push_str(&format!(" and {more} more"));
    }
    shown
}

/// Unreadable pieces as counted: the count stops at [`GARBAGE_LIMIT`].
fn pieces_counted(pieces: usize) -> String {
    if pieces >= GARBAGE_LIMIT {
        format!("{GARBAGE_LIMIT} or more")
    } else {
        pieces.to_string()
    }
}

/// An output's state as the JSON writes it (`failed`).
fn state_word(state: AudioState) -> String {
    serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `: cause`, or nothing.
fn with_cause(error: &Option<String>) -> String {
    error.as_ref().map(|e| format!(": {e}")).unwrap_or_default()
}

/// A board's unreadable input so far, or nothing.
pub(super) fn noise(unreadable: u64) -> String {
    if unreadable > 0 {
        format!(" ({unreadable} unreadable pieces of input so far)")
    } else {
        String::new()
    }
}
