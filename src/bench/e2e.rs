//! `tactus bench e2e`: many tables in one process, each with a simulated peg
//! board on a real pseudo-terminal, playing real games at a fixed pace, with
//! the journal (SQLite, `synchronous=FULL` as the server uses it) and audio
//! rendered to samples and discarded. Measures the latency from the last
//! byte of a board event written to the pseudo-terminal to its announcement
//! on the table's live stream, plus CPU time and peak memory.
//!
//! Moves are chosen by a deterministic pseudo-random pick among shakmaty's
//! legal moves; the blind side's moves are made on the board, the sighted
//! side's through the table's handle (as the assistant's page does) and then
//! carried out on the board by the blind player. A finished game is followed
//! by a new one (a new table id, a fresh board).
//!
//! With `--board tcp` or `--board rfc2217` every board is put behind its own
//! Debian `ser2net` on loopback, as a table computer in the hall would serve
//! it, and the driver reaches it over TCP: the latency then includes the
//! relay, and the report adds ser2net's CPU time.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{Board, Chess, Color, Position};
use tokio::sync::broadcast;

use crate::bench::error::BenchError;
use tactus::service::store::journal::{Durability, Journal, JournalHandle};
use tactus::table::actions::Action;
use tactus::table::actions::PersonRole;
use tactus::table::actor::TableActor;
use tactus::table::boards::BoardLink;
use tactus::table::handle::TableHandle;
use tactus::table::parts::TableParts;
use tactus::table::setup::Setup;
use tactus::table::speaker::Speaker;
use tactus::table::view::{Announcement, LiveEvent};
use tactus_board::event::Protocol;
use tactus_board::infer::Settings;
use tactus_board::link::Port;
use tactus_board::rng::Rng;
use tactus_board::serial::{Driver, DriverConfig};
use tactus_board::sim::Simulator;
use tactus_rules::game::NoticeKind;
use tactus_rules::token::Token;
use tactus_speech::render::RatePack;
use tactus_speech::sink::{Sink, SinkError};
use tactus_speech::voice_pack::VoicePack;
use tactus_testkit::ser2net::{self, Kind, Ser2net};

/// How the end-to-end benchmark runs.
#[derive(Debug, Clone)]
pub struct E2eOptions {
    pub tables: usize,
    /// How long the games are played (set-up not counted).
    pub seconds: f64,
    /// Time between two plies at one table.
    pub ply: Duration,
    /// The boards' settling time.
    pub settle: Duration,
    /// The voice pack whose clips are rendered.
    pub voice: String,
    /// Where the journal goes (a fresh temporary folder if `None`).
    pub data: Option<PathBuf>,
    /// How the server reaches the boards.
    pub transport: Transport,
}

/// How the server reaches the simulated boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// The pseudo-terminal itself, as a board on a USB cable.
    Pty,
    /// Through ser2net's raw TCP accepter on loopback.
    Tcp,
    /// Through ser2net's telnet RFC 2217 accepter on loopback.
    Rfc2217,
}

impl Transport {
    fn relay(self) -> Option<Kind> {
        match self {
            Transport::Pty => None,
            Transport::Tcp => Some(Kind::Raw),
            Transport::Rfc2217 => Some(Kind::Rfc2217),
        }
    }
}

/// A `--board` that names no transport, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a board transport: pty, tcp or rfc2217")]
pub struct UnknownTransport(pub String);

impl std::str::FromStr for Transport {
    type Err = UnknownTransport;
    fn from_str(s: &str) -> Result<Transport, UnknownTransport> {
        match s {
            "pty" => Ok(Transport::Pty),
            "tcp" => Ok(Transport::Tcp),
            "rfc2217" => Ok(Transport::Rfc2217),
            _ => Err(UnknownTransport(s.to_owned())),
        }
    }
}

/// What the benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct E2eReport {
    pub tables: usize,
    /// Board events measured: each completes a move (or a promotion's
    /// naming) and is announced.
    pub events: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Peak resident memory of the process.
    pub rss_mb: f64,
    /// CPU time (user + system) while the games were played.
    pub cpu_s: f64,
    /// Wall time the games were played.
    pub seconds: f64,
    pub plies: usize,
    pub games: usize,
    /// Board events whose announcement did not come within 5 s.
    pub lost: usize,
    pub settle_ms: u64,
    pub ply_ms: u64,
    pub transport: Transport,
    /// CPU time of the ser2net relays while the games were played (they
    /// are processes of their own, not in `cpu_s`); 0 without them.
    pub relay_cpu_s: f64,
}

/// How long a board event may wait for its announcement before it counts
/// as lost.
const ANNOUNCE_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs the benchmark on a runtime of its own (as `tactus serve` does).
pub fn run_e2e(options: &E2eOptions) -> Result<E2eReport, BenchError> {
    if options.tables == 0 {
        return Err(BenchError::Option("--tables must be at least 1"));
    }
    if !(options.seconds.is_finite() && options.seconds > 0.0) {
        return Err(BenchError::Option("--seconds must be more than 0"));
    }
    // Each table holds a pseudo-terminal pair (master, its clone, slave), the
    // driver's open port, and a few descriptors of its own besides.
    ensure_file_limit(options.tables as u64 * 6 + 64)?;
    let runtime =
        tokio::runtime::Runtime::new().map_err(BenchError::io("cannot start the runtime"))?;
    runtime.block_on(e2e(options))
}

struct Shared {
    transport: Transport,
    /// Where each game's ser2net configuration goes.
    data: PathBuf,
    voice: Arc<VoicePack>,
    rate_pack: Arc<RatePack>,
    journal: JournalHandle,
    settings: Settings,
    ply: Duration,
    start: Instant,
    end: Instant,
}

#[derive(Default)]
struct TableStats {
    latencies: Vec<Duration>,
    plies: usize,
    games: usize,
    lost: usize,
    relay_cpu_s: f64,
}

async fn e2e(options: &E2eOptions) -> Result<E2eReport, BenchError> {
    let (data, temporary) = match &options.data {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!(
                "tactus-bench-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_nanos()
            )),
            true,
        ),
    };
    std::fs::create_dir_all(&data)
        .map_err(BenchError::io(format!("cannot create {}", data.display())))?;
    let result = e2e_in(options, &data).await;
    if temporary {
        let _ = std::fs::remove_dir_all(&data);
    }
    result
}

async fn e2e_in(options: &E2eOptions, data: &std::path::Path) -> Result<E2eReport, BenchError> {
    let journal = Journal::open(&data.join("journal.sqlite"), Durability::Full)?;
    let journal = JournalHandle::spawn(journal);
    let voice = tactus::service::startup::serve::load_voice(&options.voice, 1.0)?;
    let rate_pack = voice.at_rate(voice.sample_rate())?;
    // Every table starts playing at the same instant, after all are set up;
    // their plies are spread over the first ply interval.
    // A ser2net per board takes longer to start than a pseudo-terminal.
    let per_table = if options.transport == Transport::Pty {
        10
    } else {
        50
    };
    let setup_time = Duration::from_millis(500 + per_table * options.tables as u64);
    let start = Instant::now() + setup_time;
    let end = start + Duration::from_secs_f64(options.seconds);
    let shared = Arc::new(Shared {
        transport: options.transport,
        data: data.to_path_buf(),
        voice,
        rate_pack,
        journal,
        settings: Settings {
            settle: options.settle,
            auto_correct: false,
        },
        ply: options.ply,
        start,
        end,
    });
    let mut tasks = Vec::with_capacity(options.tables);
    for i in 0..options.tables {
        let shared = shared.clone();
        tasks.push(tokio::spawn(async move { play_table(i, shared).await }));
    }
    tokio::time::sleep_until(start.into()).await;
    let cpu_start = cpu_seconds();
    let mut stats = TableStats::default();
    for task in tasks {
        let s = task.await.map_err(|error| BenchError::Task {
            what: "a table task failed",
            error,
        })??;
        stats.latencies.extend(s.latencies);
        stats.plies += s.plies;
        stats.games += s.games;
        stats.lost += s.lost;
        stats.relay_cpu_s += s.relay_cpu_s;
    }
    let cpu = cpu_seconds() - cpu_start;
    let seconds = start.elapsed().as_secs_f64();
    stats.latencies.sort_unstable();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    let at = |p: usize| {
        let n = stats.latencies.len();
        // Nearest rank.
        ms(stats.latencies.get((n * p).div_ceil(100).saturating_sub(1)))
    };
    Ok(E2eReport {
        tables: options.tables,
        events: stats.latencies.len(),
        p50_ms: at(50),
        p99_ms: at(99),
        max_ms: ms(stats.latencies.last()),
        rss_mb: peak_rss_mb(),
        cpu_s: cpu,
        seconds,
        plies: stats.plies,
        games: stats.games,
        lost: stats.lost,
        settle_ms: options.settle.as_millis() as u64,
        ply_ms: options.ply.as_millis() as u64,
        transport: options.transport,
        relay_cpu_s: stats.relay_cpu_s,
    })
}

/// A table's games until the end of the run.
async fn play_table(i: usize, shared: Arc<Shared>) -> Result<TableStats, BenchError> {
    let mut stats = TableStats::default();
    let mut rng = Rng::new(0x7AC7_0500 + i as u64);
    // Tables take turns within the ply interval, so load is even.
    let offset = shared.ply.mul_f64(i as f64 / 997.0 % 1.0);
    let mut next_ply = shared.start + offset;
    let mut game = 0usize;
    while Instant::now() < shared.end {
        let id = format!("t{i}-g{game}");
        game += 1;
        let blind = if i.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        play_game(&id, blind, &shared, &mut rng, &mut next_ply, &mut stats)
            .await
            .map_err(|error| BenchError::Game {
                table: id.clone(),
                error: Box::new(error),
            })?;
        stats.games += 1;
    }
    Ok(stats)
}

/// One game at a table: its board (behind a relay if the run asks for
/// one) and table started, its plies played, then all of it stopped.
async fn play_game(
    id: &str,
    blind: Color,
    shared: &Shared,
    rng: &mut Rng,
    next_ply: &mut Instant,
    stats: &mut TableStats,
) -> Result<(), BenchError> {
    let mut sim =
        Simulator::new(Protocol::Peg, Board::default(), None).map_err(BenchError::Simulator)?;
    let relay = start_relay(shared, &sim).await?;
    let port: Port = match (&relay, shared.transport.relay()) {
        (Some(r), Some(kind)) => kind.url(r.port).parse()?,
        _ => sim.path().into(),
    };
    let (actor, handle) = start_table(id, blind, shared, port).await?;
    let mut live = handle.subscribe();
    let running = tokio::spawn(actor.run());
    // The board says hello first; moves before that would race its scan.
    next_of(&mut live, |a| a.kind == NoticeKind::Board)
        .await
        .ok_or_else(|| BenchError::Missing("the board did not connect".into()))?;
    handle
        .act(PersonRole::Assistant, Action::StartClock)
        .await
        .map_err(|error| BenchError::Refused {
            what: "start clock".into(),
            error,
        })?;
    let mut game = Game {
        sim: &mut sim,
        live: &mut live,
        handle: &handle,
        stats,
    };
    game.plies(blind, shared, rng, next_ply).await?;
    // The table (and its board driver) stops before the board and its
    // relay go away, so that the end of a run is not a board unplugged.
    drop(handle);
    let _ = running.await;
    if let Some(relay) = relay {
        // The relay's CPU time counts from its start: set-up included, as
        // small as it is against a game.
        stats.relay_cpu_s += relay.cpu_seconds().unwrap_or(0.0);
        tokio::task::spawn_blocking(move || drop(relay));
    }
    // Closing a pseudo-terminal joins its thread: not on the runtime.
    tokio::task::spawn_blocking(move || drop(sim));
    Ok(())
}

/// The board `sim`'s own ser2net, if the run puts the boards behind one.
async fn start_relay(shared: &Shared, sim: &Simulator) -> Result<Option<Ser2net>, BenchError> {
    let relay = match shared.transport.relay() {
        None => None,
        Some(kind) => {
            let (data, device) = (shared.data.clone(), sim.path());
            let line = ser2net::line(Protocol::Peg.framing(Protocol::Peg.default_baud()));
            Some(
                tokio::task::spawn_blocking(move || Ser2net::start(&data, &device, &line, kind))
                    .await
                    .map_err(|error| BenchError::Task {
                        what: "the ser2net start task failed",
                        error,
                    })?
                    .map_err(BenchError::io("cannot start ser2net"))?,
            )
        }
    };
    Ok(relay)
}

/// Game `id`'s table, the blind player `blind` on the peg board at `port`,
/// its announcements rendered and dropped.
async fn start_table(
    id: &str,
    blind: Color,
    shared: &Shared,
    port: Port,
) -> Result<(TableActor, TableHandle), BenchError> {
    let driver = Driver::spawn(DriverConfig::new(port, Protocol::Peg))
        .map_err(BenchError::io("cannot start the board driver"))?;
    let sink = RenderSink {
        pack: shared.rate_pack.clone(),
        buf: Vec::new(),
    };
    let table = TableActor::start(TableParts {
        board: Some(BoardLink {
            driver,
            protocol: Protocol::Peg,
            settings: shared.settings,
            mirror: None,
            pin: None,
            // The benchmark's own settling time (0: the service alone).
            settle_chosen: true,
        }),
        ..TableParts::new(
            Setup {
                id: id.parse()?,
                blind,
                control: "3+2".parse()?,
                white: "White".into(),
                black: "Black".into(),
                event: "tactus bench".into(),
                round: "1".parse().unwrap(),
                fen: None,
                flag: tactus_rules::result::FlagRule::Auto,
                ranks: Default::default(),
                held_for_start: false,
            },
            shared.voice.clone(),
            Speaker::spawn(id, Box::new(sink))
                .map_err(BenchError::io("cannot start the speaker"))?,
            Arc::new(shared.journal.clone()),
            tactus::table::timebase::Timebase::monotonic(Duration::ZERO),
        )
    })
    .await?;
    Ok(table)
}

/// A game's board and table, as its plies use them (borrowed: [`play_game`]
/// owns them and stops them in its own order).
struct Game<'a> {
    sim: &'a mut Simulator,
    live: &'a mut broadcast::Receiver<LiveEvent>,
    handle: &'a TableHandle,
    stats: &'a mut TableStats,
}

impl Game<'_> {
    /// Random legal plies at the table's pace until the game is over or
    /// the run ends.
    async fn plies(
        &mut self,
        blind: Color,
        shared: &Shared,
        rng: &mut Rng,
        next_ply: &mut Instant,
    ) -> Result<(), BenchError> {
        let mut pos = Chess::default();
        let mut over = false;
        while !over && Instant::now() < shared.end {
            tokio::time::sleep_until((*next_ply).min(shared.end).into()).await;
            *next_ply += shared.ply;
            if Instant::now() >= shared.end {
                break;
            }
            let legal = pos.legal_moves();
            let Some(&m) = legal.get(rng.below(legal.len() as u64) as usize) else {
                break;
            };
            let uci = UciMove::from_standard(m).to_string();
            if pos.turn() == blind {
                over |= self.blind_move(m, &uci).await?;
            } else {
                over |= self.sighted_move(m, &uci).await?;
            }
            pos.play_unchecked(m);
            self.stats.plies += 1;
            over |= pos.is_game_over();
        }
        Ok(())
    }

    /// The blind player's move `m` made on the board and timed to its
    /// announcement; whether the game ended.
    async fn blind_move(&mut self, m: shakmaty::Move, uci: &str) -> Result<bool, BenchError> {
        let mut over = false;
        // Stamped before the write, as every bench that times a write
        // against its echo: the echo may come before this task runs
        // again.
        let written = Instant::now();
        self.sim.play(uci, false).map_err(BenchError::Board)?;
        if let Some(role) = m.promotion() {
            // A peg board cannot tell the piece: the player names it
            // with a frame button once the table asks.
            over |= measure(self.live, written, self.stats, NoticeKind::Board).await;
            let button = match role {
                shakmaty::Role::Rook => 2,
                shakmaty::Role::Bishop => 3,
                shakmaty::Role::Knight => 4,
                _ => 1,
            };
            let written = Instant::now();
            self.sim.button(button).map_err(BenchError::Board)?;
            over |= measure(self.live, written, self.stats, NoticeKind::Move).await;
        } else {
            over |= measure(self.live, written, self.stats, NoticeKind::Move).await;
        }
        Ok(over)
    }

    /// The sighted player's move `m` sent through the table's handle (as
    /// the assistant's page does), then carried out on the board; whether
    /// the game ended.
    async fn sighted_move(&mut self, m: shakmaty::Move, uci: &str) -> Result<bool, BenchError> {
        let text = long_algebraic(m);
        if let Err(e) = self
            .handle
            .act(
                PersonRole::Assistant,
                Action::Move {
                    text: text.clone(),
                    lang: Some(tactus_rules::notation::Lang::Auto),
                    page_lang: None,
                },
            )
            .await
        {
            return Err(BenchError::Refused {
                what: format!("the assistant's move {text}"),
                error: e,
            });
        }
        // The blind player carries out the announced move.
        self.sim.play(uci, false).map_err(BenchError::Board)?;
        Ok(drain(self.live))
    }
}

/// The move as a sighted player might type it, in long algebraic notation
/// with English letters (`Ng1-f3`, `e7-e8=Q`, `O-O`). The origin makes it
/// unambiguous in every language the sheet reader tries: short SAN is not
/// (`Rc8` is a king move in Spanish or French).
pub(crate) fn long_algebraic(m: shakmaty::Move) -> String {
    if let shakmaty::Move::Castle { king, rook } = m {
        return if rook.file() > king.file() {
            "O-O"
        } else {
            "O-O-O"
        }
        .into();
    }
    let piece = match m.role() {
        shakmaty::Role::Pawn => String::new(),
        r => r.upper_char().to_string(),
    };
    let promotion = m
        .promotion()
        .map(|r| format!("={}", r.upper_char()))
        .unwrap_or_default();
    let from = m.from().map(|s| s.to_string()).unwrap_or_default();
    format!("{piece}{from}-{}{promotion}", m.to())
}

/// Waits for the announcement of kind `kind` that a board event written at
/// `written` causes, records its latency; returns whether the game ended.
async fn measure(
    live: &mut broadcast::Receiver<LiveEvent>,
    written: Instant,
    stats: &mut TableStats,
    kind: NoticeKind,
) -> bool {
    let mut over = false;
    let got = next_of(live, |a| {
        over |= a.kind == NoticeKind::Result;
        a.kind == kind
    })
    .await;
    match got {
        Some(_) => stats.latencies.push(written.elapsed()),
        None => stats.lost += 1,
    }
    over | drain(live)
}

/// The next announcement `want` accepts (others are passed to it and
/// skipped), or `None` after [`ANNOUNCE_TIMEOUT`].
async fn next_of(
    live: &mut broadcast::Receiver<LiveEvent>,
    mut want: impl FnMut(&Announcement) -> bool,
) -> Option<Announcement> {
    let wait = async {
        loop {
            match live.recv().await {
                Ok(LiveEvent::Announcement(a)) if want(&a) => return Some(a),
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    };
    tokio::time::timeout(ANNOUNCE_TIMEOUT, wait)
        .await
        .ok()
        .flatten()
}

/// Takes what is already on the live stream; whether a result was announced.
fn drain(live: &mut broadcast::Receiver<LiveEvent>) -> bool {
    let mut over = false;
    loop {
        match live.try_recv() {
            Ok(LiveEvent::Announcement(a)) => over |= a.kind == NoticeKind::Result,
            Ok(_) | Err(broadcast::error::TryRecvError::Lagged(_)) => {}
            Err(_) => return over,
        }
    }
}

/// Renders every announcement to samples as a sound card sink would, then
/// drops them: the rendering cost is real, nothing is played.
struct RenderSink {
    pack: Arc<RatePack>,
    buf: Vec<f32>,
}

impl Sink for RenderSink {
    fn say(&mut self, tokens: &[Token], _text: &str) -> Result<(), SinkError> {
        self.buf.clear();
        // Tokens without a clip would be synthesised by the card sink; the
        // benchmark leaves synthesis out (it needs speech-dispatcher).
        let _missing = self.pack.render_into(tokens, &mut self.buf);
        std::hint::black_box(&self.buf);
        Ok(())
    }
}

/// User plus system CPU seconds of this process so far.
pub fn cpu_seconds() -> f64 {
    let usage = rusage();
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// Peak resident memory of this process, in MB (10^6 bytes).
pub fn peak_rss_mb() -> f64 {
    // Linux reports ru_maxrss in kilobytes.
    rusage().ru_maxrss as f64 * 1024.0 / 1e6
}

fn rusage() -> libc::rusage {
    // SAFETY: getrusage fills the struct it is given; all-zero is a valid
    // rusage to start from.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    }
}

/// Makes sure this process may open `needed` files, raising the soft limit
/// up to the hard one if it must.
pub fn ensure_file_limit(needed: u64) -> Result<(), BenchError> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read or write the struct given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(BenchError::ReadFileLimit(std::io::Error::last_os_error()));
    }
    // rlim_t is u64 on Linux.
    let (current, hard): (u64, u64) = (limit.rlim_cur, limit.rlim_max);
    if current >= needed {
        return Ok(());
    }
    if hard < needed {
        return Err(BenchError::HardFileLimit { needed, hard });
    }
    let raised = libc::rlimit {
        rlim_cur: needed,
        rlim_max: hard,
    };
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
        return Err(BenchError::RaiseFileLimit {
            needed,
            error: std::io::Error::last_os_error(),
        });
    }
    Ok(())
}
