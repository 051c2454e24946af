//! `tactus bench serve`: a real `tactus serve` process measured from outside.
//! Start-up time (process start to the "serving on" line, each time with a
//! fresh data folder), and the time from a board event's last byte, written
//! by a simulated peg board on a pseudo-terminal that this process owns, to
//! its announcement arriving on the table's SSE stream over loopback.
//!
//! The server's boards settle for the default 200 ms before a move is read,
//! so a move's figure includes it; a frame button (the clock announcement)
//! is not settled and shows the service alone.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{Board, Chess, Color, Position};

use super::e2e::long_algebraic;
use super::error::BenchError;
use tactus_board::event::Protocol;
use tactus_board::infer::DEFAULT_SETTLE;
use tactus_board::sim::Simulator;

/// How the server benchmark runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The `tactus` executable to start.
    pub exe: PathBuf,
    /// How many times the server is started (start-up figures).
    pub runs: usize,
    /// Plies played in the measured game.
    pub plies: usize,
    pub voice: String,
}

/// Milliseconds: least, median, 99th percentile, most.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Spread {
    pub n: usize,
    pub min_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// `n 40, min 1.0 ms, p50 2.0 ms, p99 3.0 ms, max 4.0 ms`.
impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n {}, min {:.1} ms, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            self.n, self.min_ms, self.p50_ms, self.p99_ms, self.max_ms
        )
    }
}

impl Spread {
    pub(crate) fn of(mut v: Vec<Duration>) -> Spread {
        v.sort_unstable();
        let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        let at = |p: usize| ms(v.get((v.len() * p).div_ceil(100).saturating_sub(1)));
        Spread {
            n: v.len(),
            min_ms: ms(v.first()),
            p50_ms: at(50),
            p99_ms: at(99),
            max_ms: ms(v.last()),
        }
    }
}

/// What the server benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct ServeReport {
    /// Process start to the "serving on" line.
    pub startup: Spread,
    /// A move's completing board event to its announcement on SSE
    /// (includes the settling time).
    pub move_to_sse: Spread,
    /// A frame button press to its clock announcement on SSE.
    pub button_to_sse: Spread,
    pub settle_ms: u64,
    /// The server's peak resident memory (one table), MB.
    pub server_rss_mb: f64,
}

const WAIT: Duration = Duration::from_secs(10);

/// Starts the server `runs` times, then plays one game against the last.
pub fn run_serve(options: &ServeOptions) -> Result<ServeReport, BenchError> {
    if options.runs == 0 {
        return Err(BenchError::Option("--runs must be at least 1"));
    }
    let mut startups = Vec::new();
    let mut last = None;
    for run in 0..options.runs {
        let data = scratch(run)?;
        let mut sim =
            Simulator::new(Protocol::Peg, Board::default(), None).map_err(BenchError::Simulator)?;
        let started = Instant::now();
        let mut server = Server::start(&options.exe, &options.voice, &data, Some(&sim.path()))?;
        startups.push(started.elapsed());
        if run + 1 == options.runs {
            let measured = play(&mut server, &mut sim, options.plies, &options.voice);
            let rss = peak_rss_of(server.child.id());
            last = Some((measured, rss));
        }
        drop(server);
        let _ = std::fs::remove_dir_all(&data);
    }
    let (measured, rss) = last.ok_or_else(|| BenchError::Missing("no run".into()))?;
    let (moves, buttons) = measured?;
    Ok(ServeReport {
        startup: Spread::of(startups),
        move_to_sse: Spread::of(moves),
        button_to_sse: Spread::of(buttons),
        settle_ms: DEFAULT_SETTLE.as_millis() as u64,
        server_rss_mb: rss,
    })
}

pub(crate) fn scratch(run: usize) -> Result<PathBuf, BenchError> {
    let dir = std::env::temp_dir().join(format!("tactus-bench-serve-{}-{run}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .map_err(BenchError::io(format!("cannot create {}", dir.display())))?;
    Ok(dir)
}

pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
    pub(crate) id: String,
    pub(crate) assistant: String,
    /// The blind player's token (their page's link).
    pub(crate) player: String,
}

impl Server {
    /// Starts `tactus serve` (one table, the blind player White on the peg
    /// board at `board` if given) and returns once it says where it
    /// listens.
    pub(crate) fn start(
        exe: &Path,
        voice: &str,
        data: &Path,
        board: Option<&Path>,
    ) -> Result<Server, BenchError> {
        let mut command = Command::new(exe);
        command
            .arg("serve")
            .args([
                "--listen",
                "127.0.0.1:0",
                "--audio",
                "none",
                "--blind",
                "white",
            ])
            .args(["--control", "3+2", "--voice", voice, "--data"])
            .arg(data);
        if let Some(board) = board {
            command
                .arg("--board")
                .arg(format!("peg:{}", board.display()));
        }
        Server::launch(command, exe, data)
    }

    /// Starts `tactus serve` on the venue file `config` (its tables' sound
    /// devices, their boards), with `env` added to its environment (a
    /// private sound server's), and the data folder `data`.
    pub(crate) fn start_venue(
        exe: &Path,
        config: &Path,
        data: &Path,
        env: &[(String, String)],
    ) -> Result<Server, BenchError> {
        let mut command = Command::new(exe);
        command
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--config"])
            .arg(config)
            .arg("--data")
            .arg(data)
            .envs(env.iter().map(|(k, v)| (k, v)));
        Server::launch(command, exe, data)
    }

    /// Runs `command` (a `tactus serve` with its data folder `data`) and
    /// returns once it says where it listens, with table 1's links.
    fn launch(mut command: Command, exe: &Path, data: &Path) -> Result<Server, BenchError> {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(BenchError::io(format!("cannot start {}", exe.display())))?;
        let missing = |what: &str| BenchError::Missing(what.into());
        let stdout = child.stdout.take().ok_or_else(|| missing("no stdout"))?;
        let (tx, rx) = mpsc::channel();
        // Read every line, always: a full pipe would stall the server, and
        // a closed one would fail its next print. Lines that come once the
        // start is read (nobody receives them) are read and dropped.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send((Instant::now(), line));
            }
        });
        let mut server = Server {
            child,
            addr: String::new(),
            id: String::new(),
            assistant: String::new(),
            player: String::new(),
        };
        let deadline = Instant::now() + WAIT;
        while server.addr.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            let (_, line) = rx
                .recv_timeout(left)
                .map_err(|_| missing(&format!("tactus serve did not start within {WAIT:?}")))?;
            if let Some(rest) = line.strip_prefix("tactus is serving on http://") {
                server.addr = rest.trim_end_matches('/').to_owned();
            }
        }
        // Its output is a pipe: the links are in the data folder's
        // links.txt, written before it says it is serving.
        let links = std::fs::read_to_string(data.join(tactus::service::startup::links::LINKS_FILE))
            .map_err(BenchError::io("no links.txt in the data folder".to_owned()))?;
        for line in links.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("player:") {
                let (_, token) = rest
                    .trim()
                    .split_once("#token=")
                    .ok_or_else(|| missing("no token"))?;
                server.player = token.to_owned();
            } else if let Some(rest) = line.strip_prefix("assistant:") {
                // http://ADDR/table/ID/assistant#token=T
                let url = rest.trim();
                let (path, token) = url
                    .split_once("#token=")
                    .ok_or_else(|| missing("no token"))?;
                server.assistant = token.to_owned();
                server.id = path
                    .rsplit('/')
                    .nth(1)
                    .ok_or_else(|| missing("no table id in the link"))?
                    .to_owned();
            }
            if !server.assistant.is_empty() && !server.player.is_empty() {
                break;
            }
        }
        if server.assistant.is_empty() || server.player.is_empty() {
            return Err(missing("no assistant's or player's link in links.txt"));
        }
        Ok(server)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One SSE event: when it arrived, its name and data.
pub(crate) type Sse = (Instant, String, serde_json::Value);

/// Reads the table's live stream on a thread of its own.
pub(crate) fn subscribe(addr: &str, id: &str) -> Result<mpsc::Receiver<Sse>, BenchError> {
    let mut stream = TcpStream::connect(addr).map_err(BenchError::io("cannot connect for SSE"))?;
    stream
        .set_nodelay(true)
        .and_then(|()| {
            write!(
                stream,
                "GET /api/tables/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
            )
        })
        .map_err(BenchError::io("cannot ask for the live stream"))?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut event = String::new();
        // Chunk-size lines of the chunked encoding are neither `event:` nor
        // `data:` lines and are passed over; one event is one chunk.
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if let Some(name) = line.strip_prefix("event:") {
                event = name.trim().to_owned();
            } else if let Some(data) = line.strip_prefix("data:") {
                let at = Instant::now();
                let value = serde_json::from_str(data.trim()).unwrap_or_default();
                if tx.send((at, std::mem::take(&mut event), value)).is_err() {
                    break;
                }
            }
        }
    });
    Ok(rx)
}

/// Waits for an event `want` accepts; returns when it arrived.
pub(crate) fn wait(
    rx: &mpsc::Receiver<Sse>,
    what: &str,
    want: impl Fn(&str, &serde_json::Value) -> bool,
) -> Result<Instant, BenchError> {
    Ok(wait_for(rx, what, want)?.0)
}

/// As [`wait`], with the event's data.
pub(crate) fn wait_for(
    rx: &mpsc::Receiver<Sse>,
    what: &str,
    want: impl Fn(&str, &serde_json::Value) -> bool,
) -> Result<(Instant, serde_json::Value), BenchError> {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (at, name, data) = rx.recv_timeout(left).map_err(|_| {
            BenchError::Missing(format!("no {what} on the SSE stream within {WAIT:?}"))
        })?;
        if want(&name, &data) {
            return Ok((at, data));
        }
    }
}

/// The words of an announcement's data (its clip keys); a key the rules
/// do not know is left out.
pub(crate) fn tokens_of(data: &serde_json::Value) -> Vec<tactus_rules::token::Token> {
    data["tokens"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|k| k.as_str())
        .filter_map(tactus_rules::token::Token::from_key)
        .collect()
}

pub(crate) fn announcement(kind: &'static str) -> impl Fn(&str, &serde_json::Value) -> bool {
    move |name, data| name == "announcement" && data["kind"] == kind
}

/// Plays `plies` (the blind player White on the board, Black through the
/// API) and measures board events to SSE announcements.
fn play(
    server: &mut Server,
    sim: &mut Simulator,
    plies: usize,
    voice: &str,
) -> Result<(Vec<Duration>, Vec<Duration>), BenchError> {
    let mut game = Measured {
        pack: tactus::service::startup::serve::load_voice(voice, 1.0)?,
        free_at: [Instant::now(); 2],
        next_button: 0,
        rx: subscribe(&server.addr, &server.id)?,
        moves: Vec::new(),
        buttons: Vec::new(),
    };
    wait(&game.rx, "connected board", |name, data| {
        name == "state" && data["board"]["connected"] == true
    })?;
    let mut pos = Chess::default();
    let mut rng = 0x5EED_u64;
    // Let each move settle on the board before the next one starts.
    let still = DEFAULT_SETTLE + Duration::from_millis(100);
    for _ in 0..plies {
        let Some(m) = random_move(&mut rng, &pos) else {
            break;
        };
        // What earlier plies caused is behind us: only what this one causes counts.
        while game.rx.try_recv().is_ok() {}
        if pos.turn() == Color::White {
            game.board_move(sim, m)?;
            game.clock_button(sim)?;
        } else {
            post_move(
                &server.addr,
                &server.id,
                &server.assistant,
                &long_algebraic(m),
            )?;
            sim.play(&UciMove::from_standard(m).to_string(), false)
                .map_err(BenchError::Board)?;
        }
        std::thread::sleep(still);
        pos.play_unchecked(m);
        if pos.is_game_over() {
            break;
        }
    }
    Ok((game.moves, game.buttons))
}

/// What [`play`]'s measured game keeps between plies: the live stream, the
/// clock buttons' pacing, the times measured.
struct Measured {
    /// The server's pack at its default speed: how long its clock
    /// announcements take to say.
    pack: std::sync::Arc<tactus_speech::voice_pack::VoicePack>,
    /// When each clock button (1: time left, 4: time used) may be pressed
    /// again and be said: a player's clock request is answered but not said
    /// again while their last one of the kind is still being said (the
    /// table's pacing), so a press before then would never reach the stream.
    free_at: [Instant; 2],
    next_button: usize,
    rx: mpsc::Receiver<Sse>,
    /// Board moves to their announcement, and clock presses to theirs.
    moves: Vec<Duration>,
    buttons: Vec<Duration>,
}

impl Measured {
    /// The blind player's move `m` made on the board, timed to its
    /// announcement (a promotion's, named with a frame button, is not).
    fn board_move(&mut self, sim: &mut Simulator, m: shakmaty::Move) -> Result<(), BenchError> {
        // Stamped before the write: the announcement can arrive before
        // a thread that writes, then stamps, is scheduled again, and
        // would read as 0 ms (or be clamped there).
        let written = Instant::now();
        sim.play(&UciMove::from_standard(m).to_string(), false)
            .map_err(BenchError::Board)?;
        if let Some(role) = m.promotion() {
            wait(&self.rx, "promotion question", announcement("board"))?;
            let n = match role {
                shakmaty::Role::Rook => 2,
                shakmaty::Role::Bishop => 3,
                shakmaty::Role::Knight => 4,
                _ => 1,
            };
            sim.button(n).map_err(BenchError::Board)?;
            wait(&self.rx, "move announcement", announcement("move"))?;
        } else {
            let at = wait(&self.rx, "move announcement", announcement("move"))?;
            self.moves.push(at.saturating_duration_since(written));
        }
        Ok(())
    }

    /// A clock button (1 and 4 in turn), timed to its announcement: said at
    /// once (no settling), once its last announcement has been said.
    fn clock_button(&mut self, sim: &mut Simulator) -> Result<(), BenchError> {
        let b = self.next_button;
        self.next_button = 1 - self.next_button;
        std::thread::sleep(
            Duration::from_millis(50)
                .max(self.free_at[b].saturating_duration_since(Instant::now())),
        );
        while self.rx.try_recv().is_ok() {}
        let written = Instant::now();
        sim.button(if b == 0 { 1 } else { 4 })
            .map_err(BenchError::Board)?;
        let (at, words) = wait_for(&self.rx, "clock announcement", announcement("clock"))?;
        self.buttons.push(at.saturating_duration_since(written));
        let said = self.pack.spoken_length(&tokens_of(&words));
        self.free_at[b] = at + said + Duration::from_millis(100);
        Ok(())
    }
}

/// The benchmarks' seeded random game: the next legal move of `pos` drawn
/// with `rng` (a 64-bit LCG), `None` when there is none.
pub(crate) fn random_move(rng: &mut u64, pos: &Chess) -> Option<shakmaty::Move> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    *rng = rng
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    Some(legal[((*rng >> 33) as usize) % legal.len()])
}

/// POSTs a move with `token`; a move the table refuses (anything but 200)
/// stops the benchmark.
pub(crate) fn post_move(addr: &str, id: &str, token: &str, text: &str) -> Result<(), BenchError> {
    let body = serde_json::to_string(&tactus::service::web::api_types::MoveBody {
        text: text.to_owned(),
        lang: None,
        page_lang: None,
    })?;
    let path = format!("/api/tables/{id}/move");
    let r = tactus_testkit::http::request(addr, "POST", &path, Some(token), Some(&body), WAIT)
        .map_err(BenchError::io(format!("cannot POST {path}")))?;
    if r.status == 0 {
        return Err(BenchError::NoStatus);
    }
    if r.status != 200 {
        return Err(BenchError::MoveRefused(r.status));
    }
    Ok(())
}

/// A process's peak resident memory in MB, from /proc (0 if unknown).
pub(crate) fn peak_rss_of(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb * 1024.0 / 1e6)
}
