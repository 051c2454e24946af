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
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{Board, Position, Square};

use crate::table::display::BrailleSpec;
use crate::table::id::TableId;
use tactus_board::event::{BoardEvent, Decoded, decoder};
use tactus_board::link;
use tactus_rules::token::{Token, Word};
use tactus_speech::device::AudioState;
use tactus_speech::sink::Sink;
use tactus_speech::sink_alsa::{DeviceSink, Persistence};
use tactus_speech::voice_pack::{LoadOptions, VoicePack, find_pack};

use super::config::{AudioOut, BoardSpec, Config, TableConfig};

/// What checking one part found, in words for the arbiter: `Ok` what
/// works, `Err` what is wrong and where. Both are sentences; the line's
/// `ok` is which of the two it is.
pub type Finding = Result<String, String>;

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
            Err(t) => (false, t),
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
            braille(&p.braille, &whose)
                .map(|ok| format!("{whose} ({}): {ok}", p.name))
                .map_err(|e| format!("{whose} ({}): {e}", p.name)),
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
                .map(|_| ())
                .map(|()| format!("`{v}` passes voices check")),
        ));
    }
    lines.push(Line::new(
        None,
        Part::Data,
        data_folder(&config.server.data),
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
        None => Err(format!(
            "plain HTTP on {addr}: every token crosses the hall's network in clear, and the \
             venue arbiter's token works only on this computer; make a certificate with \
             `tactus tls self-signed --out DIR` and set tls_cert and tls_key (docs/https.md)"
        )),
    };
    Some(Line::new(None, Part::Https, result))
}

/// The lines of one table: its boards, its sound, its braille display.
pub fn table(config: &Config, t: &TableConfig, wait: Wait) -> Vec<Line> {
    let id = &t.id;
    let mut lines = Vec::new();
    let start = start_board(t);
    let start = start.as_ref();
    lines.push(Line::new(
        Some(id),
        Part::Board,
        start
            .map_err(Clone::clone)
            .and_then(|b| board(&t.board, b, wait.board)),
    ));
    if t.opponent_board != BoardSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            start
                .map_err(Clone::clone)
                .and_then(|b| board(&t.opponent_board, b, wait.board)),
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
        Err(e) => Err(format!("no voice to play with: {e}")),
    };
    lines.push(Line::new(Some(id), Part::Sound, sound_line));
    if t.braille != BrailleSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            braille(&t.braille, &format!("table {id}")),
        ));
    }
    lines
}

/// The pieces the table's boards must show before the first move.
fn start_board(t: &TableConfig) -> Result<Board, String> {
    Ok(t.start.position().board().clone())
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
pub fn board(spec: &BoardSpec, start: &Board, wait: Duration) -> Finding {
    let Some((protocol, port, baud)) = spec.wired() else {
        return Ok(match spec {
            BoardSpec::Sim => "simulated peg board (sim): nothing to check".into(),
            _ => "none: moves are entered on the pages".into(),
        });
    };
    let name = format!("{} {port}", protocol.name());
    let mut link = link::open(port, protocol.framing(baud), BOARD_POLL)
        .map_err(|e| format!("{name}: cannot open: {e}"))?;
    let mut decoder = decoder(protocol);
    link.write_all(decoder.start_requests())
        .map_err(|e| format!("{name}: cannot write to the board: {e}"))?;
    let deadline = Instant::now() + wait;
    let mut buf = [0u8; 1024];
    let mut out = Vec::new();
    let mut bytes = 0usize;
    let mut garbage: Vec<String> = Vec::new();
    while Instant::now() < deadline {
        match link.read(&mut buf) {
            Ok(0) => return Err(format!("{name}: the connection closed")),
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
            Err(e) => return Err(format!("{name}: cannot read: {e}")),
        }
    }
    let secs = wait.as_secs_f32();
    if bytes == 0 {
        Err(format!(
            "{name}: silent: no answer in {secs:.0} s (is the board switched on, on this port, with this protocol?)"
        ))
    } else if let Some(first) = garbage.first() {
        let count = if garbage.len() >= GARBAGE_LIMIT {
            format!("{GARBAGE_LIMIT} or more")
        } else {
            garbage.len().to_string()
        };
        Err(format!(
            "{name}: sends garbage: {count} unreadable pieces in {secs:.0} s, no position (first: {first}); wrong protocol or speed?"
        ))
    } else {
        Err(format!(
            "{name}: answered ({bytes} bytes) but sent no position in {secs:.0} s"
        ))
    }
}

/// A peg board's holes against the start position's.
fn occupancy(name: &str, found: shakmaty::Bitboard, start: &Board) -> Finding {
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
    Err(not_start(name, diffs))
}

/// An electronic board's pieces against the start position's.
fn pieces(name: &str, found: &Board, start: &Board) -> Finding {
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
        Err(not_start(name, diffs))
    }
}

fn not_start(name: &str, diffs: Vec<String>) -> String {
    let more = diffs.len().saturating_sub(SQUARES_NAMED);
    let mut shown = diffs
        .into_iter()
        .take(SQUARES_NAMED)
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        shown.push_str(&format!(" and {more} more"));
    }
    format!("{name}: not the start position: {shown}")
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
pub fn sound(out: &AudioOut, voice: &Arc<VoicePack>, id: &str, wait: Duration) -> Finding {
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
                .map_err(|e| format!("wav: {}: {e}", dir.display()));
        }
        AudioOut::Default => "default",
        AudioOut::Device(name) => name.as_str(),
    };
    let shown = out.to_string();
    let mut sink = DeviceSink::open(Arc::clone(voice), pcm, &shown, Persistence::GiveUp, wait)
        .map_err(|e| format!("{shown}: cannot play: {e}"))?;
    let tokens = test_phrase(id);
    let text = voice.text(&tokens);
    sink.say(&tokens, &text)
        .map_err(|e| format!("{shown}: the test phrase did not play: {e}"))?;
    let state = sink.status().get();
    let _ = sink.finish();
    match state.state {
        AudioState::Playing => Ok(format!(
            "{shown}: played \u{201c}{text}\u{201d}, audio.state playing"
        )),
        other => Err(format!(
            "{shown}: audio.state {} after the test phrase{}",
            serde_json::to_value(other)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            state.error.map(|e| format!(": {e}")).unwrap_or_default()
        )),
    }
}

/// Connects to a display's brltty and shows a test line on it; `whose`
/// names it there (`table 1`, `player 3`).
pub fn braille(spec: &BrailleSpec, whose: &str) -> Finding {
    let BrailleSpec::Brlapi(host) = spec else {
        return Ok("none".into());
    };
    let shown = spec.to_string();
    let mut conn =
        tactus_braille::brlapi::Connection::open(host.as_deref(), None).map_err(|e| {
            format!("{shown}: cannot connect: {e} (is brltty running, and the display on?)")
        })?;
    let line = format!("tactus {whose} check");
    conn.write_text(&line)
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    Ok(format!(
        "{shown}: connected, {} cells, showed \u{201c}{line}\u{201d}",
        conn.width() * conn.height()
    ))
}

/// Loads a voice pack as the server will; any problem fails.
pub fn voice(name: &str) -> Result<Arc<VoicePack>, String> {
    let dir = find_pack(name).map_err(|e| e.to_string())?;
    VoicePack::load(&dir, &LoadOptions::default())
        .map(Arc::new)
        .map_err(|e| {
            let first = e
                .problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default();
            format!(
                "`{name}` ({}): {} problems, first: {first}",
                dir.display(),
                e.problems.len()
            )
        })
}

/// The data folder: there (or creatable), writable, the user's alone.
pub fn data_folder(dir: &Path) -> Finding {
    use std::os::unix::fs::MetadataExt;
    let shown = dir.display();
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return creatable(dir)
                .map(|()| format!("{shown} does not exist yet: tactus serve creates it"))
                .map_err(|e| format!("{shown} does not exist and cannot be made: {e}"));
        }
        Err(e) => return Err(format!("{shown}: {e}")),
    };
    if !meta.is_dir() {
        return Err(format!("{shown} is not a folder"));
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(format!(
            "{shown} belongs to user {} , not to you ({me}): run the check as the server's user (sudo -u tactus tactus check)",
            meta.uid()
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "{shown} is mode {mode:03o}: others can read the access tokens; chmod 700 {shown}"
        ));
    }
    probe_dir(dir).map_err(|e| format!("{shown}: {e}"))?;
    Ok(format!("{shown}: writable, owner only (700)"))
}

/// Writes and removes a probe file in `dir`.
/// A folder that does not exist can be made, as `create_dir_all` makes
/// it: its nearest existing ancestor is a folder we may write in.
fn creatable(dir: &Path) -> Result<(), String> {
    let mut up = dir;
    loop {
        up = match up.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        match std::fs::metadata(up) {
            Ok(m) if m.is_dir() => return probe_dir(up),
            Ok(_) => return Err(format!("{} is not a folder", up.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && up != Path::new(".") => {}
            Err(e) => return Err(format!("{}: {e}", up.display())),
        }
    }
}

fn probe_dir(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!(".tactus-check-{}", std::process::id()));
    std::fs::write(&probe, b"check").map_err(|e| format!("not writable: {e}"))?;
    std::fs::remove_file(&probe).map_err(|e| format!("cannot remove the probe file: {e}"))
}

/// The listen address is free, and where the pages will be reached.
pub fn listen(addr: SocketAddr) -> Vec<Line> {
    let free = match TcpListener::bind(addr) {
        Ok(_) => Ok(format!("{addr} is free")),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(format!(
            "{addr} is in use: another program (a running tactus?) listens there"
        )),
        Err(e) => Err(format!("{addr}: cannot listen: {e}")),
    };
    let mut lines = vec![Line::new(None, Part::Listen, free)];
    for a in super::addresses::page_addresses(addr) {
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
        live_board(view.board.as_ref(), view.moves.is_empty()),
    )];
    if view.opponent_board.is_some() {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            live_board(view.opponent_board.as_ref(), view.moves.is_empty()),
        ));
    }
    let audio = &view.audio;
    let error = audio
        .error
        .as_ref()
        .map(|e| format!(": {e}"))
        .unwrap_or_default();
    let sound = match audio.state {
        AudioState::Playing => Ok(format!("{}: playing", audio.device)),
        AudioState::TextOnly if audio.error.is_none() => {
            Ok(format!("{}: text only, nothing is heard", audio.device))
        }
        AudioState::TextOnly => Err(format!("{}: text only{error}", audio.device)),
        AudioState::Failed => Err(format!("{}: no sound, being reopened{error}", audio.device)),
        AudioState::Starting => Err(format!("{}: not yet proven to play", audio.device)),
    };
    lines.push(Line::new(Some(id), Part::Sound, sound));
    if let Some(state) = view.braille {
        use crate::table::display::DisplayState;
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            match state {
                DisplayState::Connected => Ok("connected".into()),
                DisplayState::Disconnected => {
                    Err("not connected (is brltty running, and the display on?)".into())
                }
                DisplayState::Failing => Err(
                    "cannot be reached: tried again and again (is brltty running, and the display on?)"
                        .into(),
                ),
                DisplayState::Failed => {
                    Err("its thread failed and is being started again".into())
                }
            },
        ));
    }
    lines
}

fn live_board(board: Option<&crate::table::view::BoardView>, at_start: bool) -> Finding {
    let Some(b) = board else {
        return Ok("none: moves are entered on the pages".into());
    };
    let noise = if b.unreadable > 0 {
        format!(" ({} unreadable pieces of input so far)", b.unreadable)
    } else {
        String::new()
    };
    if !b.connected {
        return Err(format!("not connected{noise}"));
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
    let mut diffs = b.differs.clone();
    let more = diffs.len().saturating_sub(SQUARES_NAMED);
    diffs.truncate(SQUARES_NAMED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Err(format!(
        "connected, differs from the game on {}{more}{noise}",
        diffs.join(", ")
    ))
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
        assert_eq!(creatable(&nested), Ok(()));
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
        assert_eq!(e, "peg /dev/x: not the start position: e2 empty, e4 filled");
        assert!(occupancy("p", start.occupied(), &start).is_ok());
    }

    #[test]
    fn many_differences_are_cut_short() {
        let start = Chess::default().board().clone();
        let e = pieces("dgt x", &Board::empty(), &start).unwrap_err();
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
