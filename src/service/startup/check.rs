//! The hall before round 1 (`tactus check`): every part of every table
//! tried as the server will use it, one line each, so that a board on the
//! wrong port, a headset not plugged in or a braille display that is off is
//! found before the players sit down, not at the first move.
//!
//! Each check is bounded: a board has [`Wait::board`] to send its position,
//! a sound device [`Wait::sound`] to start playing; nothing is retried. A
//! check changes nothing: it reads the boards' positions, plays one short
//! phrase, shows one line on a display, and writes one probe file in the
//! data folder that it removes.

use std::collections::BTreeSet;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{Board, Position, Square};

use crate::table::display::BrailleSpec;
use crate::table::id::TableId;
use tactus_board::event::{BoardEvent, Decoded, decoder};
use tactus_board::link;
use tactus_braille::brlapi::BrlapiError;
use tactus_rules::token::{Token, Word};
use tactus_speech::device::AudioState;
use tactus_speech::sink::{Sink, SinkError};
use tactus_speech::sink_alsa::{DeviceError, DeviceSink, Persistence};
use tactus_speech::voice_pack::{LoadOptions, PackError, UnknownVoice, VoicePack, find_pack};

use crate::service::startup::config::{AudioOut, BoardSpec, Config, TableConfig};

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
fn noise(unreadable: u64) -> String {
    if unreadable > 0 {
        format!(" ({unreadable} unreadable pieces of input so far)")
    } else {
        String::new()
    }
}

/// One checked part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The table (`null`: the venue as a whole).
    pub table: Option<TableId>,
    /// What was checked.
    pub part: Part,
    /// Whether the part is ready for play.
    pub ok: bool,
    /// What was found, in words: what works, or what is wrong and where.
    pub text: String,
}

/// A part of the hall `tactus check` tries; written in the JSON and on the
/// arbiter's page as its words (`opponent board`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Part {
    #[serde(rename = "board")]
    Board,
    #[serde(rename = "opponent board")]
    OpponentBoard,
    #[serde(rename = "sound")]
    Sound,
    #[serde(rename = "braille")]
    Braille,
    #[serde(rename = "voice")]
    Voice,
    #[serde(rename = "data")]
    Data,
    #[serde(rename = "listen")]
    Listen,
    #[serde(rename = "pages")]
    Pages,
    #[serde(rename = "https")]
    Https,
}

impl Part {
    /// The part in words, as the JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Board => "board",
            Part::OpponentBoard => "opponent board",
            Part::Sound => "sound",
            Part::Braille => "braille",
            Part::Voice => "voice",
            Part::Data => "data",
            Part::Listen => "listen",
            Part::Pages => "pages",
            Part::Https => "https",
        }
    }
}

impl Line {
    fn new(table: Option<&TableId>, part: Part, result: Finding) -> Line {
        let (ok, text) = match result {
            Ok(t) => (true, t),
            Err(fault) => (false, fault.to_string()),
        };
        Line {
            table: table.cloned(),
            part,
            ok,
            text,
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scope = match &self.table {
            Some(t) => format!("table {t}"),
            None => "venue".to_owned(),
        };
        let verdict = if self.ok { "ok" } else { "FAIL" };
        write!(
            f,
            "{scope:<10} {:<15} {verdict:<5} {}",
            self.part.as_str(),
            self.text
        )
    }
}

/// How long each part may take to answer.
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// For a board's position after the host's start requests.
    pub board: Duration,
    /// For a sound device to start playing.
    pub sound: Duration,
}

impl Default for Wait {
    fn default() -> Wait {
        Wait {
            board: Duration::from_secs(3),
            sound: Duration::from_secs(3),
        }
    }
}

/// Every line for the venue: each table's parts in order, then the voice
/// packs, the data folder, the listen address and the page addresses.
pub fn venue(config: &Config, wait: Wait) -> Vec<Line> {
    let mut lines = Vec::new();
    for t in &config.tables {
        lines.extend(table(config, t, wait));
    }
    // A listed player's own display, which follows them.
    for p in config
        .players
        .iter()
        .filter(|p| p.braille != BrailleSpec::None)
    {
        let whose = format!("player {}", p.start_rank);
        lines.push(Line::new(
            None,
            Part::Braille,
            match braille(&p.braille, &whose) {
                Ok(ok) => Ok(format!("{whose} ({}): {ok}", p.name)),
                Err(fault) => Err(Fault::PlayersDisplay {
                    whose: whose.clone(),
                    name: p.name.clone(),
                    fault,
                }),
            },
        ));
    }
    let mut voices: BTreeSet<&str> = BTreeSet::new();
    voices.insert(&config.speech.voice);
    for t in &config.tables {
        if let Some(v) = &t.voice {
            voices.insert(v);
        }
    }
    for v in voices {
        lines.push(Line::new(
            None,
            Part::Voice,
            voice(v)
                .map(|_| format!("`{v}` passes voices check"))
                .map_err(Fault::from),
        ));
    }
    lines.push(Line::new(
        None,
        Part::Data,
        data_folder(&config.server.data).map_err(Fault::from),
    ));
    lines.extend(listen(config.server.listen));
    if let Some(line) = https(config) {
        lines.push(line);
    }
    lines
}

/// Beyond this computer, whether the pages are served over HTTPS: plain
/// HTTP carries every token across the hall's network in clear (and the
/// venue arbiter's token is then refused from other devices). `None` on
/// loopback, where nothing crosses a network.
pub fn https(config: &Config) -> Option<Line> {
    let addr = config.server.listen;
    if addr.ip().is_loopback() {
        return None;
    }
    let result = match &config.server.tls_cert {
        Some(cert) => Ok(format!("HTTPS with {}", cert.display())),
        None => Err(Fault::PlainHttp(addr)),
    };
    Some(Line::new(None, Part::Https, result))
}

/// The lines of one table: its boards, its sound, its braille display.
pub fn table(config: &Config, t: &TableConfig, wait: Wait) -> Vec<Line> {
    let id = &t.id;
    let mut lines = Vec::new();
    let start = start_board(t);
    lines.push(Line::new(
        Some(id),
        Part::Board,
        board(&t.board, &start, wait.board).map_err(Fault::from),
    ));
    if t.opponent_board != BoardSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            board(&t.opponent_board, &start, wait.board).map_err(Fault::from),
        ));
    }
    let name = t.voice.as_ref().unwrap_or(&config.speech.voice);
    let sound_line = match voice(name) {
        Ok(pack) => sound(
            t.audio_or(&config.speech.audio),
            &pack,
            id.as_str(),
            wait.sound,
        ),
        Err(e) => Err(SoundFault::NoVoice(e)),
    };
    lines.push(Line::new(
        Some(id),
        Part::Sound,
        sound_line.map_err(Fault::from),
    ));
    if t.braille != BrailleSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            braille(&t.braille, &format!("table {id}")).map_err(Fault::from),
        ));
    }
    lines
}

/// The pieces the table's boards must show before the first move.
fn start_board(t: &TableConfig) -> Board {
    t.start.position().board().clone()
}

/// How long one read of a board waits before the deadline is looked at.
const BOARD_POLL: Duration = Duration::from_millis(50);
/// Unreadable pieces a board may send before the check gives up on it:
/// a board at the wrong speed sends nothing else.
const GARBAGE_LIMIT: usize = 64;
/// Squares named in a "not the start position" line, at most.
const SQUARES_NAMED: usize = 8;

/// Opens a board's port, sends the host's start requests and waits at most
/// `wait` for its position: a peg board's occupancy scan, a DGT board's
/// dump, a ChessLink board's status.
pub fn board(spec: &BoardSpec, start: &Board, wait: Duration) -> Result<String, BoardFault> {
    let Some((protocol, port, baud)) = spec.wired() else {
        return Ok(match spec {
            BoardSpec::Sim => "simulated peg board (sim): nothing to check".into(),
            _ => "none: moves are entered on the pages".into(),
        });
    };
    let name = format!("{} {port}", protocol.name());
    let mut link = match link::open(port, protocol.framing(baud), BOARD_POLL) {
        Ok(link) => link,
        Err(source) => return Err(BoardFault::Open { name, source }),
    };
    let mut decoder = decoder(protocol);
    if let Err(source) = link.write_all(decoder.start_requests()) {
        return Err(BoardFault::Write { name, source });
    }
    let deadline = Instant::now() + wait;
    let mut buf = [0u8; 1024];
    let mut out = Vec::new();
    let mut bytes = 0usize;
    let mut garbage: Vec<String> = Vec::new();
    while Instant::now() < deadline {
        match link.read(&mut buf) {
            Ok(0) => return Err(BoardFault::Closed { name }),
            Ok(n) => {
                bytes += n;
                out.clear();
                decoder.feed(&buf[..n], &mut out);
                for d in &out {
                    match d {
                        Decoded::Event(BoardEvent::Scan(occupied)) => {
                            return occupancy(&name, *occupied, start);
                        }
                        Decoded::Event(BoardEvent::Dump(found)) => {
                            return pieces(&name, found, start);
                        }
                        Decoded::Unreadable(u) if garbage.len() < GARBAGE_LIMIT => {
                            garbage.push(u.what.clone());
                        }
                        _ => {}
                    }
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut
                        | std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::Interrupted
                ) => {}
            Err(source) => return Err(BoardFault::Read { name, source }),
        }
    }
    let secs = wait.as_secs_f32();
    Err(if bytes == 0 {
        BoardFault::Silent { name, secs }
    } else if let Some(first) = garbage.first() {
        BoardFault::Garbage {
            pieces: garbage.len(),
            first: first.clone(),
            name,
            secs,
        }
    } else {
        BoardFault::NoPosition { name, bytes, secs }
    })
}

/// A peg board's holes against the start position's.
fn occupancy(name: &str, found: shakmaty::Bitboard, start: &Board) -> Result<String, BoardFault> {
    let wanted = start.occupied();
    if found == wanted {
        return Ok(format!("{name}: answers, start position"));
    }
    let mut diffs: Vec<String> = Vec::new();
    for sq in (found ^ wanted).into_iter() {
        diffs.push(if found.contains(sq) {
            format!("{sq} filled")
        } else {
            format!("{sq} empty")
        });
    }
    Err(BoardFault::NotStart {
        name: name.to_owned(),
        differs: diffs,
    })
}

/// An electronic board's pieces against the start position's.
fn pieces(name: &str, found: &Board, start: &Board) -> Result<String, BoardFault> {
    let mut diffs = Vec::new();
    for sq in Square::ALL {
        let (want, got) = (start.piece_at(sq), found.piece_at(sq));
        if want != got {
            diffs.push(match got {
                Some(p) => format!("{sq} {} {:?}", p.color, p.role).to_lowercase(),
                None => format!("{sq} empty"),
            });
        }
    }
    if diffs.is_empty() {
        Ok(format!("{name}: answers, start position"))
    } else {
        Err(BoardFault::NotStart {
            name: name.to_owned(),
            differs: diffs,
        })
    }
}

/// The table's test phrase: its number in the pack's words ("eins" for
/// table 1), or "board connected" for a table whose id is not a number.
pub fn test_phrase(id: &str) -> Vec<Token> {
    match id.parse::<u32>() {
        Ok(n) if n <= 999 => Token::number(n),
        _ => vec![Token::Word(Word::BoardConnected)],
    }
}

/// Plays the table's test phrase on its sound output and reads the
/// output's state afterwards: `playing` passes.
pub fn sound(
    out: &AudioOut,
    voice: &Arc<VoicePack>,
    id: &str,
    wait: Duration,
) -> Result<String, SoundFault> {
    let pcm = match out {
        AudioOut::None => return Ok("none: text only, nothing is heard".into()),
        AudioOut::Wav(dir) => {
            // `tactus serve` makes the folder (and any parents): one it
            // would make is no failure.
            let made = if dir.exists() {
                probe_dir(dir).map(|()| "")
            } else {
                creatable(dir).map(|()| ", created at start")
            };
            return made
                .map(|note| {
                    format!(
                        "wav: announcements are written to WAV files in {}{note} (nothing is heard)",
                        dir.display()
                    )
                })
                .map_err(|fault| SoundFault::Wav {
                    dir: dir.clone(),
                    fault,
                });
        }
        AudioOut::Default => "default",
        AudioOut::Device(name) => name.as_str(),
    };
    let shown = out.to_string();
    let mut sink = match DeviceSink::open(Arc::clone(voice), pcm, &shown, Persistence::GiveUp, wait)
    {
        Ok(sink) => sink,
        Err(source) => return Err(SoundFault::Open { shown, source }),
    };
    let tokens = test_phrase(id);
    let text = voice.text(&tokens);
    if let Err(source) = sink.say(&tokens, &text) {
        return Err(SoundFault::Say { shown, source });
    }
    let state = sink.status().get();
    let _ = sink.finish();
    match state.state {
        AudioState::Playing => Ok(format!(
            "{shown}: played \u{201c}{text}\u{201d}, audio.state playing"
        )),
        other => Err(SoundFault::NotPlaying {
            shown,
            state: other,
            error: state.error,
        }),
    }
}

/// Connects to a display's brltty and shows a test line on it; `whose`
/// names it there (`table 1`, `player 3`).
pub fn braille(spec: &BrailleSpec, whose: &str) -> Result<String, BrailleFault> {
    let BrailleSpec::Brlapi(host) = spec else {
        return Ok("none".into());
    };
    let shown = spec.to_string();
    let mut conn = match tactus_braille::brlapi::Connection::open(host.as_deref(), None) {
        Ok(conn) => conn,
        Err(source) => return Err(BrailleFault::Connect { shown, source }),
    };
    let line = format!("tactus {whose} check");
    if let Err(source) = conn.write_text(&line) {
        return Err(BrailleFault::Write { shown, source });
    }
    Ok(format!(
        "{shown}: connected, {} cells, showed \u{201c}{line}\u{201d}",
        conn.width() * conn.height()
    ))
}

/// Loads a voice pack as the server will; any problem fails.
pub fn voice(name: &str) -> Result<Arc<VoicePack>, VoiceFault> {
    let dir = find_pack(name)?;
    VoicePack::load(&dir, &LoadOptions::default())
        .map(Arc::new)
        .map_err(|pack| VoiceFault::Problems {
            name: name.to_owned(),
            pack,
        })
}

/// The data folder: there (or creatable), writable, the user's alone.
pub fn data_folder(dir: &Path) -> Result<String, DataFault> {
    use std::os::unix::fs::MetadataExt;
    let shown = dir.display();
    let owned = || dir.to_path_buf();
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return creatable(dir)
                .map(|()| format!("{shown} does not exist yet: tactus serve creates it"))
                .map_err(|fault| DataFault::CannotMake {
                    dir: owned(),
                    fault,
                });
        }
        Err(source) => {
            return Err(DataFault::Unreadable {
                dir: owned(),
                source,
            });
        }
    };
    if !meta.is_dir() {
        return Err(DataFault::NotAFolder { dir: owned() });
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(DataFault::NotYours {
            dir: owned(),
            owner: meta.uid(),
            me,
        });
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(DataFault::OthersRead { dir: owned(), mode });
    }
    probe_dir(dir).map_err(|fault| DataFault::Probe {
        dir: owned(),
        fault,
    })?;
    Ok(format!("{shown}: writable, owner only (700)"))
}

/// Writes and removes a probe file in `dir`.
/// A folder that does not exist can be made, as `create_dir_all` makes
/// it: its nearest existing ancestor is a folder we may write in.
fn creatable(dir: &Path) -> Result<(), ProbeFault> {
    let mut up = dir;
    loop {
        up = match up.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        match std::fs::metadata(up) {
            Ok(m) if m.is_dir() => return probe_dir(up),
            Ok(_) => return Err(ProbeFault::NotAFolder(up.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && up != Path::new(".") => {}
            Err(source) => {
                return Err(ProbeFault::Unreadable {
                    path: up.to_path_buf(),
                    source,
                });
            }
        }
    }
}

fn probe_dir(dir: &Path) -> Result<(), ProbeFault> {
    let probe = dir.join(format!(".tactus-check-{}", std::process::id()));
    std::fs::write(&probe, b"check").map_err(ProbeFault::NotWritable)?;
    std::fs::remove_file(&probe).map_err(ProbeFault::CannotRemove)
}

/// The listen address is free, and where the pages will be reached.
pub fn listen(addr: SocketAddr) -> Vec<Line> {
    let free = match TcpListener::bind(addr) {
        Ok(_) => Ok(format!("{addr} is free")),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(ListenFault::InUse(addr)),
        Err(source) => Err(ListenFault::Cannot { addr, source }),
    };
    let mut lines = vec![Line::new(None, Part::Listen, free.map_err(Fault::from))];
    for a in crate::service::startup::addresses::page_addresses(addr) {
        let note = if a.ip().is_loopback() {
            " (this computer only: listen on 0.0.0.0 for the phones in the hall)"
        } else {
            ""
        };
        lines.push(Line::new(
            None,
            Part::Pages,
            Ok(format!("http://{a}/{note}")),
        ));
    }
    lines
}

/// The lines of a table that is running (the arbiter page's check): what
/// its parts report now. The server holds the boards' ports and the sound
/// devices, so nothing is opened again: a board is connected and shows
/// what it should, the sound output is `playing`, the display is
/// connected.
pub fn live(view: &crate::table::view::TableView) -> Vec<Line> {
    let id = &view.id;
    let mut lines = vec![Line::new(
        Some(id),
        Part::Board,
        live_board(view.board.as_ref(), view.moves.is_empty()).map_err(Fault::from),
    )];
    if view.opponent_board.is_some() {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            live_board(view.opponent_board.as_ref(), view.moves.is_empty()).map_err(Fault::from),
        ));
    }
    let audio = &view.audio;
    let (device, error) = (audio.device.clone(), audio.error.clone());
    let sound = match audio.state {
        AudioState::Playing => Ok(format!("{device}: playing")),
        AudioState::TextOnly if error.is_none() => {
            Ok(format!("{device}: text only, nothing is heard"))
        }
        AudioState::TextOnly => Err(LiveFault::TextOnly { device, error }),
        AudioState::Failed => Err(LiveFault::SoundFailed { device, error }),
        AudioState::Starting => Err(LiveFault::SoundStarting { device }),
    };
    lines.push(Line::new(Some(id), Part::Sound, sound.map_err(Fault::from)));
    if let Some(state) = view.braille {
        use crate::table::display::DisplayState;
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            match state {
                DisplayState::Connected => Ok("connected".into()),
                DisplayState::Disconnected => Err(LiveFault::DisplayDisconnected.into()),
                DisplayState::Failing => Err(LiveFault::DisplayFailing.into()),
                DisplayState::Failed => Err(LiveFault::DisplayFailed.into()),
            },
        ));
    }
    lines
}

fn live_board(
    board: Option<&crate::table::view::BoardView>,
    at_start: bool,
) -> Result<String, LiveFault> {
    let Some(b) = board else {
        return Ok("none: moves are entered on the pages".into());
    };
    let noise = noise(b.unreadable);
    if !b.connected {
        return Err(LiveFault::BoardDisconnected {
            unreadable: b.unreadable,
        });
    }
    if b.in_sync {
        let what = if at_start {
            "shows the start position"
        } else {
            "shows the game's position"
        };
        return Ok(format!("connected, {what}{noise}"));
    }
    if let Some(m) = &b.following {
        return Ok(format!(
            "connected, the announced move {m} is being carried out{noise}"
        ));
    }
    Err(LiveFault::BoardDiffers {
        differs: b.differs.clone(),
        unreadable: b.unreadable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    /// Issue 36, item 6: plain HTTP beyond loopback is a part not ready,
    /// naming the risk and the cure; HTTPS or loopback is not a risk.
    #[test]
    fn plain_http_beyond_this_computer_is_named_with_its_cure() {
        let mut c = Config::default();
        assert_eq!(https(&c), None, "loopback: nothing crosses a network");
        c.server.listen = "0.0.0.0:8080".parse().unwrap();
        let line = https(&c).unwrap();
        assert!(!line.ok);
        assert!(
            line.text.contains("tactus tls self-signed"),
            "{}",
            line.text
        );
        c.server.tls_cert = Some("/etc/tactus/cert.pem".into());
        assert!(https(&c).unwrap().ok);
    }

    /// Issue 36, item 9: the check predicts serve. A `wav:` folder or a data
    /// folder that serve would make (parents and all) passes, saying so; one
    /// under a file cannot be made and fails.
    #[test]
    fn a_folder_serve_would_make_passes_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("not/yet/here");
        assert!(creatable(&nested).is_ok());
        assert!(
            data_folder(&nested)
                .unwrap()
                .ends_with("does not exist yet: tactus serve creates it")
        );
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        assert!(creatable(&file.join("below")).is_err());
        assert!(data_folder(&file.join("below")).is_err());
    }

    #[test]
    fn a_peg_board_off_the_start_names_the_squares() {
        let start = Chess::default().board().clone();
        let mut found = start.occupied();
        found.toggle(Square::E2);
        found.toggle(Square::E4);
        let e = occupancy("peg /dev/x", found, &start).unwrap_err();
        assert_eq!(
            e.to_string(),
            "peg /dev/x: not the start position: e2 empty, e4 filled"
        );
        assert!(occupancy("p", start.occupied(), &start).is_ok());
    }

    #[test]
    fn many_differences_are_cut_short() {
        let start = Chess::default().board().clone();
        let e = pieces("dgt x", &Board::empty(), &start)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("and 24 more"), "{e}");
    }

    #[test]
    fn the_test_phrase_is_the_tables_number() {
        assert_eq!(test_phrase("1"), Token::number(1));
        assert_eq!(
            test_phrase("board-7"),
            vec![Token::Word(Word::BoardConnected)]
        );
    }
}
