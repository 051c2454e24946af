//! `tactus bench hands` and the hands suite (`tests/hands/board_hands.rs`): whole
//! games carried out by the hands model ([`tactus_board::hands`]) on
//! simulated peg, DGT and Millennium boards, through real pseudo-terminals
//! and the real serial driver, read by the inference engine as a host reads
//! it, with each kind of board's default settling time. One board where
//! both sides play (as `tactus board watch` follows it), or one player's
//! board at a table, on either colour (the blind player's peg board, or a
//! sighted opponent's electronic board): their own moves made, the other
//! side's announced moves carried out and followed.
//!
//! Every game is checked (every move found, in order, none invented, every
//! touch recorded) and timed: from the instant the simulator wrote the
//! event that completes a move (the piece's last arrival) to the instant
//! the host knows the move, and on a DGT board from the press of its clock.
//! A game is chosen, played and timed from its number and the run's seed
//! alone, so a failing game is replayed by its seed and number.
//!
//! It lives here, in the harness, and not in `tactus bench` (a module of
//! the `tactus` binary, which no test can import): it needs only the board
//! and rules crates, never the server, so the hands suite plays its games
//! in its own process through the very code `tactus bench hands` runs, and
//! a failure keeps the host's whole log.

use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};
use thiserror::Error;

use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::hands::{Act, Hands, Plan, Step, Timing, may_start_early};
use tactus_board::infer::{CASTLE_WAIT, Inference, Inferred, SLIDE_WINDOW, Settings};
use tactus_board::rng::Rng;
use tactus_board::serial::{Driver, DriverConfig, DriverEvent};
use tactus_board::sim::{SimError, Simulator};
use tactus_rules::pgn::read_games;
use tactus_rules::variant::Variant;

/// Whose hands are on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Both sides play on this board.
    Watch,
    /// One player's board at a table (the blind player's tactile board, or
    /// a sighted opponent's electronic one): `player`'s moves are made on
    /// it, the other side's are announced and carried out on it.
    Table { player: Color },
}

/// A game to play: a start and legal moves from it.
#[derive(Debug, Clone)]
pub struct HandsGame {
    pub name: String,
    pub start: Chess,
    pub moves: Vec<Move>,
}

/// The standard-chess games of a PGN file (`name` names them in reports);
/// games that cannot be read are left out.
pub fn games_from_pgn(name: &str, pgn: &[u8]) -> Vec<HandsGame> {
    let mut games = Vec::new();
    for (i, g) in read_games(pgn).into_iter().enumerate() {
        let Ok(g) = g else { continue };
        if g.variant != Variant::Standard || g.moves.is_empty() {
            continue;
        }
        let Ok(start) = g.start_position() else {
            continue;
        };
        let end = g.null_move.unwrap_or(g.moves.len()).min(g.moves.len());
        games.push(HandsGame {
            name: format!("{name} game {}", i + 1),
            start,
            moves: g.moves[..end].iter().map(|r| r.m).collect(),
        });
    }
    games
}

/// Whether `found` is the touches of `made` (one list per move), move by
/// move, each move's in any order.
fn same_touches(found: &[Square], made: &[Vec<Square>]) -> bool {
    let mut rest = found;
    for group in made {
        let Some((these, after)) = rest.split_at_checked(group.len()) else {
            return false;
        };
        let (mut a, mut b) = (these.to_vec(), group.clone());
        a.sort();
        b.sort();
        if a != b {
            return false;
        }
        rest = after;
    }
    rest.is_empty()
}

/// A random legal game of 20 to 79 plies from the start.
pub fn random_game(seed: u64) -> HandsGame {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let plies = 20 + rng.below(60);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        pos.play_unchecked(m);
        moves.push(m);
    }
    HandsGame {
        name: format!("random game {seed}"),
        start: Chess::default(),
        moves,
    }
}

/// Which boards and ways of play a run uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mix {
    /// Kinds of board, in turn by pairs of games.
    pub boards: Vec<Protocol>,
    /// One board where both sides play.
    pub watch: bool,
    /// One player's board at a table, White's or Black's.
    pub table: bool,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            boards: vec![Protocol::Peg, Protocol::Dgt, Protocol::Millennium],
            watch: true,
            table: true,
        }
    }
}

/// Game `n` of a run: even numbers from `corpus` (if any), odd ones random;
/// the mix's boards in turn by pairs; its ways of play in turn (shifted
/// each round of boards, so each board meets each way).
pub fn nth_game(
    corpus: &[HandsGame],
    seed: u64,
    n: usize,
    mix: &Mix,
) -> (HandsGame, Protocol, Mode) {
    let game = match corpus.get((n / 2) % corpus.len().max(1)) {
        Some(g) if n.is_multiple_of(2) => g.clone(),
        _ => random_game(seed.wrapping_add(n as u64)),
    };
    let boards = if mix.boards.is_empty() {
        &[Protocol::Peg][..]
    } else {
        &mix.boards[..]
    };
    let protocol = boards[(n / 2) % boards.len()];
    let mut modes = Vec::new();
    if mix.watch || !mix.table {
        modes.push(Mode::Watch);
    }
    if mix.table {
        modes.push(Mode::Table {
            player: Color::White,
        });
        modes.push(Mode::Table {
            player: Color::Black,
        });
    }
    let mode = modes[(n + n / (2 * boards.len())) % modes.len()];
    (game, protocol, mode)
}

/// How one game went wrong.
#[derive(Debug, Error)]
pub enum HandsFailure {
    #[error("simulator: {0}")]
    Sim(#[from] SimError),
    #[error("cannot start the board driver: {0}")]
    Driver(std::io::Error),
    #[error("the host never read the board")]
    NoScan,
    #[error("the host stopped")]
    HostGone,
    #[error("{found} of {wanted} moves found")]
    Missed { found: usize, wanted: usize },
    #[error("moves differ from ply {ply}: wanted {wanted:?}, found {found:?}")]
    Differ {
        ply: usize,
        wanted: Vec<String>,
        found: Vec<String>,
    },
    #[error("touches {found:?}, the hands made {made:?}")]
    Touches {
        found: Vec<Square>,
        made: Vec<Square>,
    },
}

/// One game's figures.
#[derive(Debug, Default, Clone)]
pub struct HandsGameStats {
    pub plies: usize,
    pub touches: usize,
    /// Per move: from the event completing it to the move being known.
    pub latencies: Vec<Duration>,
    /// Per move ended by a press of the clock: from the press to the move
    /// being known (zero when it was known before the press).
    pub from_press: Vec<Duration>,
    /// Moves read, then corrected as the piece slid on (one move).
    pub corrections: usize,
}

/// What the host saw, for a failing game's report.
type Log = Arc<Mutex<Vec<String>>>;

fn note(log: &Log, line: String) {
    log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
}

enum Cmd {
    Expect(Move, std_mpsc::Sender<()>),
}

struct Host {
    cmds: tokio::sync::mpsc::UnboundedSender<Cmd>,
    outs: std_mpsc::Receiver<(Instant, Inferred)>,
}

/// The host, as `tactus board watch` and a table read a board: driver and
/// engine on their own thread, every conclusion sent back with the instant
/// it was reached.
fn host(
    sim: &Simulator,
    protocol: Protocol,
    start: Chess,
    settings: Settings,
    epoch: Instant,
    log: Log,
) -> Result<Host, HandsFailure> {
    let (cmds, mut cmd_rx) = tokio::sync::mpsc::unbounded_channel::<Cmd>();
    let (out_tx, outs) = std_mpsc::channel();
    let (ready_tx, ready_rx) = std_mpsc::channel();
    let mut config = DriverConfig::new(sim.path(), protocol);
    config.retry_max = Duration::from_millis(200);
    let mut driver = Driver::spawn(config).map_err(HandsFailure::Driver)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(HandsFailure::Driver)?;
    std::thread::spawn(move || {
        rt.block_on(async move {
            let mut inf = Inference::new(start, protocol, settings);
            let mut ready = Some(ready_tx);
            loop {
                // The board is read once the driver has passed on all it
                // sent until the settling time ran out, not by this
                // thread's own timer (it may run late on a busy machine).
                driver.read_until(inf.deadline().map(|d| epoch + d));
                let out = tokio::select! {
                    s = driver.next() => match s {
                        None => return,
                        Some(s) => {
                            let at = s.at - epoch;
                            let out = match &s.event {
                                DriverEvent::Board(e) => {
                                    if matches!(e, BoardEvent::Scan(_) | BoardEvent::Dump(_))
                                        && let Some(r) = ready.take()
                                    {
                                        let _ = r.send(());
                                    }
                                    inf.event_unsure(e, at, s.unsure)
                                }
                                DriverEvent::ReadUpTo => inf.tick(at),
                                DriverEvent::Unreadable(_) => Vec::new(),
                            };
                            note(&log, format!(
                                "{:?} read at {at:?}: {:?} -> {out:?}",
                                epoch.elapsed(),
                                s.event
                            ));
                            out
                        }
                    },
                    c = cmd_rx.recv() => match c {
                        None => return,
                        Some(Cmd::Expect(m, ack)) => {
                            let known = inf.expect(m, epoch.elapsed()).is_ok();
                            note(&log, format!("{:?} expect {}: {known}", epoch.elapsed(), uci(m)));
                            if known {
                                let _ = ack.send(());
                            }
                            Vec::new()
                        }
                    },
                };
                let at = Instant::now();
                for i in out {
                    if out_tx.send((at, i)).is_err() {
                        return;
                    }
                }
            }
        });
    });
    ready_rx
        .recv_timeout(Duration::from_secs(15))
        .map_err(|_| HandsFailure::NoScan)?;
    Ok(Host { cmds, outs })
}

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// Plays `game` with the hands of `seed` and checks what the host found.
/// On failure, the error comes with what the host saw.
pub fn play_game(
    game: &HandsGame,
    protocol: Protocol,
    mode: Mode,
    seed: u64,
    settings: Settings,
) -> Result<HandsGameStats, (HandsFailure, Vec<String>)> {
    let log = Log::default();
    play_logged(game, protocol, mode, seed, settings, &log).map_err(|e| {
        let l = log.lock().unwrap_or_else(|e| e.into_inner());
        (e, l.clone())
    })
}

/// One game carried out by the hands on a simulated board while the
/// engine reads it: each ply planned, the opponent's first announced to
/// the engine, carried out at the pace of hands, then the whole judged.
fn play_logged(
    game: &HandsGame,
    protocol: Protocol,
    mode: Mode,
    seed: u64,
    settings: Settings,
    log: &Log,
) -> Result<HandsGameStats, HandsFailure> {
    let epoch = Instant::now();
    let mut sim = Simulator::new(protocol, game.start.board().clone(), None)?;
    let host = host(
        &sim,
        protocol,
        game.start.clone(),
        settings,
        epoch,
        log.clone(),
    )?;
    let mut hands = Hands::new(seed, Timing::brisk());
    let mut pos = game.start.clone();
    let mut made_touches: Vec<Vec<Square>> = Vec::new();
    let mut completed: Vec<(Instant, Option<Instant>)> = Vec::new();
    let mut reads = Reads::default();
    let mut previous_followed = true;
    for (ply, &m) in game.moves.iter().enumerate() {
        let own = match mode {
            Mode::Watch => true,
            Mode::Table { player } => pos.turn() == player,
        };
        let mut plan = hands.plan(&pos, m, protocol, own);
        if !own && protocol == Protocol::Dgt {
            pressed_for_them(&mut plan, pos.turn());
        }
        // The table announces the opponent's move, then the player carries
        // it out: the engine follows it.
        if !own {
            expect(&host, m)?;
        }
        let early = ply > 0 && (previous_followed || matches!(mode, Mode::Watch));
        std::thread::sleep(gap_before(&mut hands, early, &pos, &plan));
        note(
            log,
            format!(
                "{:?} ply {ply} {} ({}): {:?}",
                epoch.elapsed(),
                uci(m),
                if own { "own" } else { "announced" },
                plan
            ),
        );
        let (done, press) = sim.perform_timed(&plan)?;
        completed.push((done, press));
        made_touches.push(plan.touches.clone());
        pos.play_unchecked(m);
        previous_followed = !own;
        if let Mode::Table { .. } = mode
            && own
        {
            // Announced, then the opponent's reply comes: wait for the move.
            reads.wait_moves(&host, ply + 1)?;
            if protocol.identifies_pieces() {
                // A sighted player's move is announced to the blind player,
                // who hears it and replies: not sooner than a slide could
                // still be corrected (a host stalled long enough makes a
                // slide's rest look longer than the settling time).
                std::thread::sleep(SLIDE_WINDOW);
            }
        }
    }
    reads.wait_moves(&host, game.moves.len())?;
    // Anything late (an invented move, a touch, a correction) shows within
    // a settling or two.
    std::thread::sleep(settings.settle * 2 + Duration::from_millis(300));
    while let Ok(s) = host.outs.try_recv() {
        reads.seen.push(s);
    }
    judge(&game.moves, &reads.seen, &made_touches, &completed)
}

/// The game as the engine read it, against the game played: every move,
/// in order, and the touches made; then the figures: each move's time
/// from its completion (and from the clock's press) to its being known.
fn judge(
    moves: &[Move],
    seen: &[(Instant, Inferred)],
    made_touches: &[Vec<Square>],
    completed: &[(Instant, Option<Instant>)],
) -> Result<HandsGameStats, HandsFailure> {
    let (made, corrections) = moves_read(seen);
    same_moves(moves, &made)?;
    let touched: Vec<Square> = seen
        .iter()
        .filter_map(|(_, i)| match i {
            Inferred::Touched { square, .. } => Some(*square),
            _ => None,
        })
        .collect();
    // In the order of the moves; within one move, in any order: a piece
    // put back quickly is judged when the board is read, after a touch
    // held longer that came later.
    if !same_touches(&touched, made_touches) {
        return Err(HandsFailure::Touches {
            found: touched,
            made: made_touches.concat(),
        });
    }
    Ok(HandsGameStats {
        plies: moves.len(),
        touches: touched.len(),
        latencies: made
            .iter()
            .zip(completed)
            .map(|(&(at, _), &(c, _))| at.saturating_duration_since(c))
            .collect(),
        from_press: made
            .iter()
            .zip(completed)
            .filter_map(|(&(at, _), &(_, p))| p.map(|p| at.saturating_duration_since(p)))
            .collect(),
        corrections,
    })
}

/// What the engine reported, as it came: each inference with the instant
/// it was read, and how many were moves.
#[derive(Default)]
struct Reads {
    seen: Vec<(Instant, Inferred)>,
    found: usize,
}

impl Reads {
    /// Waits until `n` moves have been found: 10 s (and a castling's own
    /// wait) at most, or the moves are missed.
    fn wait_moves(&mut self, host: &Host, n: usize) -> Result<(), HandsFailure> {
        let give_up = Instant::now() + Duration::from_secs(10) + CASTLE_WAIT;
        while self.found < n {
            let left = give_up.saturating_duration_since(Instant::now());
            match host.outs.recv_timeout(left) {
                Ok((at, i)) => {
                    if matches!(i, Inferred::Moved { .. } | Inferred::Confirmed { .. }) {
                        self.found += 1;
                    }
                    self.seen.push((at, i));
                }
                Err(_) => {
                    return Err(HandsFailure::Missed {
                        found: self.found,
                        wanted: n,
                    });
                }
            }
        }
        Ok(())
    }
}

/// The pause before the hands start a move: when it may start `early` and
/// its first act allows it, half the time the reply begins before the last
/// move settled.
fn gap_before(hands: &mut Hands, early: bool, pos: &Chess, plan: &Plan) -> Duration {
    if early && may_start_early(pos, plan) && hands.rng().chance(0.5) {
        Duration::from_millis(hands.rng().below(20))
    } else {
        Duration::from_millis(60 + hands.rng().below(100))
    }
}

/// On a DGT board, the other side's clock pressed for them when their
/// move was made (it is announced; this player then carries it out).
fn pressed_for_them(plan: &mut Plan, side: Color) {
    plan.steps.insert(
        0,
        Step {
            gap: Duration::ZERO,
            act: Act::Clock(side),
        },
    );
    plan.completes += 1;
    plan.pressed = None;
}

/// Tells the engine the announced move `m` it is to follow, and waits
/// until it has taken it.
fn expect(host: &Host, m: Move) -> Result<(), HandsFailure> {
    let (ack_tx, ack_rx) = std_mpsc::channel();
    host.cmds
        .send(Cmd::Expect(m, ack_tx))
        .map_err(|_| HandsFailure::HostGone)?;
    ack_rx
        .recv_timeout(Duration::from_secs(10))
        .map_err(|_| HandsFailure::HostGone)
}

/// The moves the engine read, in order, each when it was known, and how
/// many were corrected slides (a correction replaces the move read too
/// early).
fn moves_read(seen: &[(Instant, Inferred)]) -> (Vec<(Instant, Move)>, usize) {
    let mut made: Vec<(Instant, Move)> = Vec::new();
    let mut corrections = 0;
    for (at, i) in seen {
        match i {
            Inferred::Moved { mv, .. } | Inferred::Confirmed { mv, .. } => made.push((*at, *mv)),
            Inferred::Corrected { mv, .. } => {
                corrections += 1;
                made.pop();
                made.push((*at, *mv));
            }
            _ => {}
        }
    }
    (made, corrections)
}

/// The moves read are the game's, or the first ply where they part and
/// the moves around it.
fn same_moves(wanted: &[Move], made: &[(Instant, Move)]) -> Result<(), HandsFailure> {
    let wanted: Vec<String> = wanted.iter().map(|&m| uci(m)).collect();
    let got: Vec<String> = made.iter().map(|&(_, m)| uci(m)).collect();
    if got == wanted {
        return Ok(());
    }
    let ply = wanted
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .unwrap_or(wanted.len().min(got.len()));
    let near = |v: &[String]| v[ply.min(v.len())..v.len().min(ply + 3)].to_vec();
    Err(HandsFailure::Differ {
        ply,
        wanted: near(&wanted),
        found: near(&got),
    })
}

/// A run of the hands suite.
#[derive(Debug, Clone)]
pub struct HandsOptions {
    pub seed: u64,
    pub games: usize,
    /// Play only this game of the run (a replay).
    pub only: Option<usize>,
    /// Games played at once.
    pub jobs: usize,
    /// The settling time for every board; unset, each kind's default.
    pub settle: Option<Duration>,
    pub mix: Mix,
}

impl HandsOptions {
    /// The engine's settings for a board of `protocol` in this run.
    pub fn settings(&self, protocol: Protocol) -> Settings {
        let mut s = Settings::for_protocol(protocol);
        if let Some(settle) = self.settle {
            s.settle = settle;
        }
        s
    }
}

/// One failed game: what went wrong and what the host saw (every event
/// read and what the engine made of it, every plan the hands carried out).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub game: usize,
    pub name: String,
    pub protocol: &'static str,
    pub mode: String,
    pub error: String,
    pub log: Vec<String>,
}

/// p50, p99 and max of some durations, in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Spread {
    pub count: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Spread {
    fn of(mut v: Vec<Duration>) -> Spread {
        v.sort();
        Spread {
            count: v.len(),
            p50_ms: ms(pct(&v, 0.5)),
            p99_ms: ms(pct(&v, 0.99)),
            max_ms: ms(v.last().copied().unwrap_or_default()),
        }
    }
}

/// The figures of one kind of board in a run.
#[derive(Debug, Clone, Serialize)]
pub struct BoardFigures {
    pub board: &'static str,
    pub settle_ms: f64,
    pub games: usize,
    pub plies: usize,
    /// Games in which a move was found wrong (or one invented).
    pub wrong: usize,
    /// Games in which a move was not found.
    pub missed: usize,
    /// Games that failed otherwise (touches, the host).
    pub other_failures: usize,
    /// Moves read, then corrected as their piece slid on.
    pub corrections: usize,
    /// From the piece's last arrival to the move known.
    pub from_arrival: Spread,
    /// From the clock's press to the move known (DGT).
    pub from_press: Spread,
}

/// The figures of a run.
#[derive(Debug, Clone, Serialize)]
pub struct HandsReport {
    pub seed: u64,
    pub games: usize,
    pub plies: usize,
    pub touches: usize,
    pub jobs: usize,
    pub seconds: f64,
    /// From the event completing a move to the move being known, all boards.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Per kind of board.
    pub boards: Vec<BoardFigures>,
    pub failures: Vec<Failure>,
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Plays the run's games, `jobs` at a time.
pub fn run_hands(options: &HandsOptions, corpus: Vec<HandsGame>) -> HandsReport {
    let started = Instant::now();
    let (workers, played) = spawn_players(options, corpus);
    let mut tally = Tally::new(options);
    for game in played {
        tally.add(options, game);
    }
    let Tally {
        mut report,
        mut latencies,
        mut kinds,
    } = tally;
    kinds.sort_by_key(|(f, _, _)| f.board);
    report.boards = kinds
        .into_iter()
        .map(|(mut f, arrival, press)| {
            f.from_arrival = Spread::of(arrival);
            f.from_press = Spread::of(press);
            f
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    latencies.sort();
    report.seconds = started.elapsed().as_secs_f64();
    report.p50_ms = ms(pct(&latencies, 0.5));
    report.p99_ms = ms(pct(&latencies, 0.99));
    report.max_ms = ms(latencies.last().copied().unwrap_or_default());
    report
}

/// One game played by a worker, and how it went.
struct Played {
    /// Its number in the run.
    n: usize,
    name: String,
    protocol: Protocol,
    mode: Mode,
    outcome: Result<HandsGameStats, (HandsFailure, Vec<String>)>,
}

/// Starts `options.jobs` workers, each taking the run's next game until
/// none is left; what they played arrives on the receiver.
fn spawn_players(
    options: &HandsOptions,
    corpus: Vec<HandsGame>,
) -> (Vec<std::thread::JoinHandle<()>>, std_mpsc::Receiver<Played>) {
    let indices: Vec<usize> = match options.only {
        Some(n) => vec![n],
        None => (0..options.games).collect(),
    };
    let corpus = Arc::new(corpus);
    let indices = Arc::new(indices);
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (tx, rx) = std_mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..options.jobs.max(1) {
        let (tx, corpus, next, indices) =
            (tx.clone(), corpus.clone(), next.clone(), indices.clone());
        let (seed, options) = (options.seed, options.clone());
        workers.push(std::thread::spawn(move || {
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&n) = indices.get(k) else { return };
                let (game, protocol, mode) = nth_game(&corpus, seed, n, &options.mix);
                let settings = options.settings(protocol);
                let outcome =
                    play_game(&game, protocol, mode, seed.wrapping_add(n as u64), settings);
                let played = Played {
                    n,
                    name: game.name,
                    protocol,
                    mode,
                    outcome,
                };
                if tx.send(played).is_err() {
                    return;
                }
            }
        }));
    }
    (workers, rx)
}

/// The figures of a run as its games come in.
struct Tally {
    report: HandsReport,
    /// From the event completing a move to the move being known, all boards.
    latencies: Vec<Duration>,
    /// Per kind of board: figures, and the durations behind them.
    kinds: Vec<(BoardFigures, Vec<Duration>, Vec<Duration>)>,
}

impl Tally {
    fn new(options: &HandsOptions) -> Tally {
        Tally {
            report: HandsReport {
                seed: options.seed,
                games: 0,
                plies: 0,
                touches: 0,
                jobs: options.jobs.max(1),
                seconds: 0.0,
                p50_ms: 0.0,
                p99_ms: 0.0,
                max_ms: 0.0,
                boards: Vec::new(),
                failures: Vec::new(),
            },
            latencies: Vec::new(),
            kinds: Vec::new(),
        }
    }

    /// Counts one game played, for the run and for its kind of board.
    fn add(&mut self, options: &HandsOptions, played: Played) {
        let Played {
            n,
            name,
            protocol,
            mode,
            outcome,
        } = played;
        self.report.games += 1;
        let k = self.kind(options, protocol);
        let (figures, arrival, press) = &mut self.kinds[k];
        figures.games += 1;
        match outcome {
            Ok(s) => {
                self.report.plies += s.plies;
                self.report.touches += s.touches;
                figures.plies += s.plies;
                figures.corrections += s.corrections;
                arrival.extend(&s.latencies);
                press.extend(s.from_press);
                self.latencies.extend(s.latencies);
            }
            Err((e, log)) => {
                match e {
                    HandsFailure::Differ { .. } => figures.wrong += 1,
                    HandsFailure::Missed { .. } => figures.missed += 1,
                    _ => figures.other_failures += 1,
                }
                self.report.failures.push(Failure {
                    game: n,
                    name,
                    protocol: protocol.name(),
                    mode: format!("{mode:?}"),
                    error: e.to_string(),
                    log,
                })
            }
        }
    }

    /// The index of `protocol`'s figures in `kinds`, added when it is the
    /// first game on such a board.
    fn kind(&mut self, options: &HandsOptions, protocol: Protocol) -> usize {
        if let Some(k) = self
            .kinds
            .iter()
            .position(|(f, _, _)| f.board == protocol.name())
        {
            return k;
        }
        self.kinds.push((
            BoardFigures {
                board: protocol.name(),
                settle_ms: ms(options.settings(protocol).settle),
                games: 0,
                plies: 0,
                wrong: 0,
                missed: 0,
                other_failures: 0,
                corrections: 0,
                from_arrival: Spread::default(),
                from_press: Spread::default(),
            },
            Vec::new(),
            Vec::new(),
        ));
        self.kinds.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touches_compare_move_by_move_in_any_order_within_one() {
        use Square::*;
        let made = vec![vec![B7, D7], vec![], vec![G1]];
        assert!(same_touches(&[D7, B7, G1], &made));
        assert!(same_touches(&[B7, D7, G1], &made));
        assert!(!same_touches(&[B7, G1, D7], &made), "across moves: no");
        assert!(!same_touches(&[B7, D7], &made), "one missing");
        assert!(!same_touches(&[B7, D7, G1, G1], &made), "one invented");
    }
}
