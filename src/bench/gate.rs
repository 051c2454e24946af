//! `tactus bench gate`: the assistant's move answer time at a real
//! `tactus serve` (one table, `board = "none"`), quiet and under each of the
//! floods of issue 43 that once silenced a hall, each from four loopback
//! source addresses (127.0.0.2–5) as a visitor's laptop can:
//!
//! - `streams`: 4 × 256 token-less live streams (`GET
//!   /api/tables/1/events`), held and read;
//! - `idle`: 4 × 256 connections that never send a byte;
//! - `slow_heads`: 4 × 256 connections trickling a request head, a byte a
//!   second.
//!
//! A flood's connection that the server closes is opened again a second
//! later, as the visitor's laptop would. Each condition has a server of its
//! own (a fresh data folder, a new game). Once the flood is in place, the
//! assistant sends the moves of one game (a seeded random legal game that
//! does not end), each on a fresh connection from 127.0.0.1; a move's time
//! runs from before its connection is opened (its request is written at
//! once) to its answer's last byte. A move answered otherwise than 200 is
//! counted by its status and sent again as the next one. The figures are
//! those of the machine the benchmark runs on: the floods, the moves and
//! the server share its cores.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{Chess, Position};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use super::e2e::long_algebraic;
use super::error::BenchError;
use super::serve::{Spread, scratch};

/// How the gate benchmark runs.
#[derive(Debug, Clone)]
pub struct GateOptions {
    /// The `tactus` executable started as the server (another build's, to
    /// compare).
    pub exe: PathBuf,
    /// Moves sent in each condition.
    pub moves: usize,
    /// A flood's connections from each of its four addresses.
    pub per_address: usize,
    /// The pause between two moves: the moves span the floods' coming and
    /// going (a connection closed by the server is opened again a second
    /// later; a head not complete in 5 s is closed).
    pub interval: Duration,
    pub voice: String,
}

/// A condition the moves are measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Quiet,
    Streams,
    Idle,
    SlowHeads,
}

impl Condition {
    pub const ALL: [Condition; 4] = [
        Condition::Quiet,
        Condition::Streams,
        Condition::Idle,
        Condition::SlowHeads,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Condition::Quiet => "quiet",
            Condition::Streams => "streams",
            Condition::Idle => "idle",
            Condition::SlowHeads => "slow_heads",
        }
    }
}

/// The moves in one condition.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionReport {
    pub condition: Condition,
    /// The flood's connections asked for (0 when quiet).
    pub flood: usize,
    /// The flood's connections open when the first move was sent.
    pub flood_open: usize,
    /// Flood connections the server closed while the moves were sent (and
    /// that were opened again).
    pub flood_closed: usize,
    /// Live streams answered 200 (held) and 503 (refused), while the
    /// flood lasted (`streams` only; 0 otherwise).
    pub streams_held: usize,
    pub streams_refused: usize,
    /// Moves sent, and how they were answered.
    pub moves: usize,
    pub answered_200: usize,
    pub answered_503: usize,
    pub answered_other: usize,
    /// Cut, or no answer within 10 s.
    pub no_answer: usize,
    /// The share of moves answered 503.
    pub share_503: f64,
    /// The answer time of the moves answered 200.
    pub answer: Spread,
    /// The answer time of every move answered at all (a 503 too).
    pub every_answer: Spread,
}

/// What the gate benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct GateReport {
    pub exe: String,
    pub per_address: usize,
    pub addresses: usize,
    pub interval_ms: u64,
    pub conditions: Vec<ConditionReport>,
}

/// The flood's source addresses.
const SOURCES: [Ipv4Addr; 4] = [
    Ipv4Addr::new(127, 0, 0, 2),
    Ipv4Addr::new(127, 0, 0, 3),
    Ipv4Addr::new(127, 0, 0, 4),
    Ipv4Addr::new(127, 0, 0, 5),
];

const ANSWER: Duration = Duration::from_secs(10);

pub fn run_gate(options: &GateOptions) -> Result<GateReport, BenchError> {
    if options.moves == 0 {
        return Err(BenchError::Option("--moves must be at least 1"));
    }
    // This process holds the floods' thousands of sockets.
    tactus::service::web::listener::raise_descriptor_limit();
    let mut conditions = Vec::new();
    for (n, condition) in Condition::ALL.into_iter().enumerate() {
        let data = scratch(100 + n)?;
        let result = GateServer::start(&options.exe, &options.voice, &data)
            .and_then(|server| measure(&server, condition, options));
        let _ = std::fs::remove_dir_all(&data);
        conditions.push(result?);
    }
    Ok(GateReport {
        exe: options.exe.display().to_string(),
        per_address: options.per_address,
        addresses: SOURCES.len(),
        interval_ms: options.interval.as_millis() as u64,
        conditions,
    })
}

fn measure(
    server: &GateServer,
    condition: Condition,
    options: &GateOptions,
) -> Result<ConditionReport, BenchError> {
    let flood = match condition {
        Condition::Quiet => None,
        _ => Some(Flood::start(server.addr, condition, options.per_address)?),
    };
    let wanted = flood
        .as_ref()
        .map_or(0, |_| SOURCES.len() * options.per_address);
    let (flood_open, closed_before) = flood.as_ref().map_or((0, 0), |f| f.settle(wanted));
    let mut report = ConditionReport {
        condition,
        flood: wanted,
        flood_open,
        flood_closed: 0,
        streams_held: 0,
        streams_refused: 0,
        moves: options.moves,
        answered_200: 0,
        answered_503: 0,
        answered_other: 0,
        no_answer: 0,
        share_503: 0.0,
        answer: Spread::default(),
        every_answer: Spread::default(),
    };
    let (ok, every) = send_moves(server, options, &mut report)?;
    if let Some(f) = flood {
        report.flood_closed = f.counts.closed.load(Ordering::Relaxed) - closed_before;
        report.streams_held = f.counts.held.load(Ordering::Relaxed);
        report.streams_refused = f.counts.refused.load(Ordering::Relaxed);
        f.stop();
    }
    report.share_503 = report.answered_503 as f64 / options.moves as f64;
    report.answer = Spread::of(ok);
    report.every_answer = Spread::of(every);
    Ok(report)
}

/// Sends the measured game's moves, `options.interval` apart, each counted
/// in `report` by its answer; returns the answer times of those answered
/// 200, and of every one answered at all.
fn send_moves(
    server: &GateServer,
    options: &GateOptions,
    report: &mut ConditionReport,
) -> Result<(Vec<Duration>, Vec<Duration>), BenchError> {
    let (mut ok, mut every) = (Vec::new(), Vec::new());
    let mut game = Game::new();
    let path = "/api/tables/1/move";
    for n in 0..options.moves {
        if n > 0 {
            std::thread::sleep(options.interval);
        }
        let body = serde_json::json!({ "move": game.next()? }).to_string();
        let sent = Instant::now();
        let answer = tactus_testkit::http::request(
            &server.addr.to_string(),
            "POST",
            path,
            Some(&server.assistant),
            Some(&body),
            ANSWER,
        );
        let took = sent.elapsed();
        match answer.map_or(0, |r| r.status) {
            0 => report.no_answer += 1,
            200 => {
                report.answered_200 += 1;
                ok.push(took);
                every.push(took);
                game.played();
            }
            503 => {
                report.answered_503 += 1;
                every.push(took);
            }
            _ => {
                report.answered_other += 1;
                every.push(took);
            }
        }
    }
    Ok((ok, every))
}

/// The measured game: seeded random legal moves, never one that ends it.
struct Game {
    pos: Chess,
    rng: u64,
    next: Option<shakmaty::Move>,
}

impl Game {
    fn new() -> Game {
        Game {
            pos: Chess::default(),
            rng: 0x6A7E,
            next: None,
        }
    }

    /// The move to send (the last one again if it was not played).
    fn next(&mut self) -> Result<String, BenchError> {
        if self.next.is_none() {
            let legal = self.pos.legal_moves();
            // A move that would end the game (mate, stalemate, too little
            // material) is left out while there is another.
            let going_on: Vec<shakmaty::Move> = legal
                .iter()
                .copied()
                .filter(|m| !self.pos.clone().play(*m).is_ok_and(|p| p.is_game_over()))
                .collect();
            let from = if going_on.is_empty() {
                legal.to_vec()
            } else {
                going_on
            };
            if from.is_empty() {
                return Err(BenchError::Missing("the measured game ended".into()));
            }
            self.rng = self
                .rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.next = Some(from[((self.rng >> 33) as usize) % from.len()]);
        }
        Ok(long_algebraic(self.next.expect("drawn above")))
    }

    /// The move sent was answered 200.
    fn played(&mut self) {
        if let Some(m) = self.next.take() {
            self.pos.play_unchecked(m);
        }
    }
}

/// `tactus serve` on loopback with one table whose moves all come through
/// the API.
struct GateServer {
    child: Child,
    addr: SocketAddr,
    assistant: String,
}

impl GateServer {
    fn start(exe: &Path, voice: &str, data: &Path) -> Result<GateServer, BenchError> {
        let venue = data.join("venue.toml");
        std::fs::write(&venue, "[[table]]\nid = \"1\"\nboard = \"none\"\n")
            .map_err(BenchError::io(format!("cannot write {}", venue.display())))?;
        let mut child = Command::new(exe)
            .arg("serve")
            .args([
                "--listen",
                "127.0.0.1:0",
                "--audio",
                "none",
                "--voice",
                voice,
            ])
            .arg("--data")
            .arg(data)
            .arg("--config")
            .arg(&venue)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(BenchError::io(format!("cannot start {}", exe.display())))?;
        let missing = |what: &str| BenchError::Missing(what.into());
        let stdout = child.stdout.take().ok_or_else(|| missing("no stdout"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        // Read every line, always: a full pipe would stall the server.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let mut server = GateServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            assistant: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.addr.port() == 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx
                .recv_timeout(left)
                .map_err(|_| missing("tactus serve did not start within 30 s"))?;
            if let Some(rest) = line.strip_prefix("tactus is serving on http://") {
                server.addr = rest
                    .trim_end_matches('/')
                    .parse()
                    .map_err(|_| missing(&format!("no address in {line:?}")))?;
            }
        }
        let tokens = std::fs::read_to_string(data.join("tokens.toml")).map_err(BenchError::io(
            "no tokens.toml in the data folder".to_owned(),
        ))?;
        let tokens: toml::Value =
            toml::from_str(&tokens).map_err(|_| missing("tokens.toml is not TOML"))?;
        server.assistant = tokens["tables"]["1"]["assistant"]
            .as_str()
            .ok_or_else(|| missing("no assistant's token in tokens.toml"))?
            .to_owned();
        Ok(server)
    }
}

impl Drop for GateServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A flood's counts, kept by its connections.
#[derive(Default)]
struct Counts {
    /// Connections opened (again, too), open now, closed by the server.
    opened: AtomicUsize,
    open: AtomicUsize,
    closed: AtomicUsize,
    /// Live streams answered 200, and 503.
    held: AtomicUsize,
    refused: AtomicUsize,
}

/// A flood on a runtime of its own (one thread): its connections close
/// when it stops.
struct Flood {
    runtime: tokio::runtime::Runtime,
    stop: Arc<AtomicBool>,
    counts: Arc<Counts>,
}

impl Flood {
    fn start(addr: SocketAddr, kind: Condition, per_address: usize) -> Result<Flood, BenchError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(BenchError::io(
                "cannot start the flood's runtime".to_owned(),
            ))?;
        let stop = Arc::new(AtomicBool::new(false));
        let counts = Arc::new(Counts::default());
        for source in SOURCES {
            for _ in 0..per_address {
                let (stop, counts) = (Arc::clone(&stop), Arc::clone(&counts));
                runtime.spawn(hold(addr, source, kind, stop, counts));
            }
        }
        Ok(Flood {
            runtime,
            stop,
            counts,
        })
    }

    /// Waits for the flood's `wanted` connections to be in place; returns
    /// those open, and those the server closed so far.
    fn settle(&self, wanted: usize) -> (usize, usize) {
        // Every connection in place (or 15 s), then a moment for the
        // server to take them in.
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.counts.opened.load(Ordering::Relaxed) < wanted && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(500));
        (
            self.counts.open.load(Ordering::Relaxed),
            self.counts.closed.load(Ordering::Relaxed),
        )
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.runtime.shutdown_background();
    }
}

/// One of the flood's connections, opened again a second after the
/// server closes it, until the flood stops.
async fn hold(
    addr: SocketAddr,
    source: Ipv4Addr,
    kind: Condition,
    stop: Arc<AtomicBool>,
    counts: Arc<Counts>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Some(stream) = connect(addr, source).await else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        counts.opened.fetch_add(1, Ordering::Relaxed);
        counts.open.fetch_add(1, Ordering::Relaxed);
        match kind {
            Condition::Quiet => {}
            Condition::Streams => stream_held(stream, &counts).await,
            Condition::Idle => idle(stream).await,
            Condition::SlowHeads => slow_head(stream).await,
        }
        counts.open.fetch_sub(1, Ordering::Relaxed);
        counts.closed.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn connect(addr: SocketAddr, source: Ipv4Addr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::from((source, 0))).ok()?;
    tokio::time::timeout(Duration::from_secs(10), socket.connect(addr))
        .await
        .ok()?
        .ok()
}

/// A token-less live stream, read until the server closes it.
async fn stream_held(mut s: TcpStream, counts: &Counts) {
    let head = b"GET /api/tables/1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n";
    if s.write_all(head).await.is_err() {
        return;
    }
    let mut buf = [0u8; 4096];
    let mut first = true;
    loop {
        match s.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if first {
                    first = false;
                    if buf[..n].starts_with(b"HTTP/1.1 200") {
                        counts.held.fetch_add(1, Ordering::Relaxed);
                    } else if buf[..n].starts_with(b"HTTP/1.1 503") {
                        counts.refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
    }
}

/// A connection that never sends: held until the server closes it.
async fn idle(mut s: TcpStream) {
    let mut buf = [0u8; 1024];
    while let Ok(n) = s.read(&mut buf).await {
        if n == 0 {
            return;
        }
    }
}

/// A request head trickled a byte a second, until the server closes it.
async fn slow_head(mut s: TcpStream) {
    if s.write_all(b"GET /api/tables/1 HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        .await
        .is_err()
    {
        return;
    }
    let mut buf = [0u8; 1024];
    loop {
        tokio::select! {
            read = s.read(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            },
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                if s.write_all(b"a").await.is_err() {
                    return;
                }
            }
        }
    }
}
