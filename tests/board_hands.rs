//! The hands suite: whole games carried out by the hands model
//! (`board::hands`) on simulated peg and DGT boards, through real
//! pseudo-terminals and the real serial driver, read by the inference
//! engine with its default settings. Real games (the PGN files of
//! `tests/pgn-corpus/` and `tests/fixtures/announcements/`) and random
//! legal games; one board where both sides play (as `board watch` follows
//! it), or the blind player's board at a table, on either colour: their own
//! moves made, the opponent's announced moves carried out and followed.
//!
//! Every move must be found, in order, none invented, and every touch
//! recorded. The run prints its seed; `TACTUS_SEED=<seed>` replays it, and
//! `TACTUS_HANDS_GAME=<n>` plays only game n of it. `TACTUS_HANDS_GAMES`
//! sets how many games (default 48; `scripts/test` runs 500), and
//! `TACTUS_HANDS_JOBS` how many at once (default 8).

use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Square};
use tactus::board::event::{BoardEvent, Protocol};
use tactus::board::hands::{Hands, Timing, may_start_early};
use tactus::board::infer::{CASTLE_WAIT, Inference, Inferred, Settings};
use tactus::board::serial::{Driver, DriverConfig, DriverEvent};
use tactus::board::sim::Simulator;
use tactus::rules::pgn::read_games;
use tactus::rules::variant::Variant;

#[derive(Debug, Clone, Copy)]
enum Mode {
    /// Both sides play on this board.
    Watch,
    /// The blind player's board at a table.
    Table { blind: shakmaty::Color },
}

struct Game {
    name: String,
    start: Chess,
    moves: Vec<Move>,
}

fn corpus() -> Vec<Game> {
    let mut games = Vec::new();
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        "tests/pgn-corpus/python-chess",
        "tests/fixtures/announcements",
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    files.sort();
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        for (i, g) in read_games(&bytes).into_iter().enumerate() {
            let Ok(g) = g else { continue };
            if g.variant != Variant::Standard || g.moves.is_empty() {
                continue;
            }
            let Ok(start) = g.start_position() else {
                continue;
            };
            let end = g.null_move.unwrap_or(g.moves.len()).min(g.moves.len());
            games.push(Game {
                name: format!("{} game {}", f.display(), i + 1),
                start,
                moves: g.moves[..end].iter().map(|r| r.m).collect(),
            });
        }
    }
    games
}

fn random_game(seed: u64) -> Game {
    let mut rng = tactus::rng::Rng::new(seed ^ 0x5eed);
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
    Game {
        name: format!("random game {seed}"),
        start: Chess::default(),
        moves,
    }
}

enum Cmd {
    Expect(Move, std_mpsc::Sender<()>),
}

/// The host: driver and engine on their own thread, every conclusion sent
/// back with the instant it was reached.
fn host(
    sim: &Simulator,
    protocol: Protocol,
    start: Chess,
) -> (
    tokio::sync::mpsc::UnboundedSender<Cmd>,
    std_mpsc::Receiver<(Instant, Inferred)>,
    std_mpsc::Receiver<()>,
) {
    let (cmd_tx, mut cmd_rx) = tokio::sync::mpsc::unbounded_channel::<Cmd>();
    let (out_tx, out_rx) = std_mpsc::channel();
    let (ready_tx, ready_rx) = std_mpsc::channel();
    let path = sim.path();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut config = DriverConfig::new(path, protocol);
            config.retry_max = Duration::from_millis(200);
            let mut driver = Driver::spawn(config).unwrap();
            let mut inf = Inference::new(start, protocol, Settings::default());
            let epoch = Instant::now();
            let mut ready = Some(ready_tx);
            loop {
                let wake = inf
                    .deadline()
                    .map(|d| tokio::time::Instant::from_std(epoch + d));
                let out = tokio::select! {
                    s = driver.next() => match s {
                        None => return,
                        Some(s) => match s.event {
                            DriverEvent::Board(e) => {
                                if matches!(e, BoardEvent::Scan(_) | BoardEvent::Dump(_))
                                    && let Some(r) = ready.take()
                                {
                                    let _ = r.send(());
                                }
                                inf.event(&e, s.at - epoch)
                            }
                            DriverEvent::Unreadable(_) => Vec::new(),
                        }
                    },
                    c = cmd_rx.recv() => match c {
                        None => return,
                        Some(Cmd::Expect(m, ack)) => {
                            inf.expect(m, epoch.elapsed()).unwrap();
                            let _ = ack.send(());
                            Vec::new()
                        }
                    },
                    () = async {
                        match wake {
                            Some(w) => tokio::time::sleep_until(w).await,
                            None => std::future::pending().await,
                        }
                    } => inf.tick(epoch.elapsed()),
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
    (cmd_tx, out_rx, ready_rx)
}

#[derive(Default)]
struct Stats {
    plies: usize,
    touches: usize,
    latencies: Vec<Duration>,
}

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// Plays one game; an error says what went wrong.
fn play(game: &Game, protocol: Protocol, mode: Mode, seed: u64) -> Result<Stats, String> {
    let mut sim = Simulator::new(protocol, game.start.board().clone(), None)?;
    let (cmds, outs, ready) = host(&sim, protocol, game.start.clone());
    ready
        .recv_timeout(Duration::from_secs(15))
        .map_err(|_| "the host never read the board".to_string())?;
    let mut hands = Hands::new(seed, Timing::brisk());
    let mut pos = game.start.clone();
    let mut stats = Stats::default();
    let mut expected_touches: Vec<Square> = Vec::new();
    let mut completed: Vec<Instant> = Vec::new();
    let mut seen: Vec<(Instant, Inferred)> = Vec::new();
    let mut found = 0usize;
    // Waits until `n` moves have been found.
    let wait_moves =
        |n: usize, seen: &mut Vec<(Instant, Inferred)>, found: &mut usize| -> Result<(), String> {
            let give_up = Instant::now() + Duration::from_secs(10) + CASTLE_WAIT;
            while *found < n {
                let left = give_up.saturating_duration_since(Instant::now());
                match outs.recv_timeout(left) {
                    Ok((at, i)) => {
                        if matches!(i, Inferred::Moved { .. } | Inferred::Confirmed { .. }) {
                            *found += 1;
                        }
                        seen.push((at, i));
                    }
                    Err(_) => return Err(format!("{} of {n} moves found", *found)),
                }
            }
            Ok(())
        };
    let mut previous_followed = true;
    for (ply, &m) in game.moves.iter().enumerate() {
        let own = match mode {
            Mode::Watch => true,
            Mode::Table { blind } => pos.turn() == blind,
        };
        let plan = hands.plan(&pos, m, protocol, own);
        // The table announces the opponent's move, then the player carries
        // it out: the engine follows it.
        if !own {
            let (ack_tx, ack_rx) = std_mpsc::channel();
            cmds.send(Cmd::Expect(m, ack_tx))
                .map_err(|_| "host gone".to_string())?;
            ack_rx
                .recv_timeout(Duration::from_secs(10))
                .map_err(|_| "expect not acknowledged".to_string())?;
        }
        let early = previous_followed || matches!(mode, Mode::Watch);
        let gap = if ply > 0 && early && may_start_early(&pos, &plan) && hands.rng().chance(0.5) {
            // The reply begins before the last move settled.
            Duration::from_millis(hands.rng().below(20))
        } else {
            Duration::from_millis(60 + hands.rng().below(100))
        };
        std::thread::sleep(gap);
        let at = sim
            .perform(&plan)
            .map_err(|e| format!("ply {ply} {}: simulator: {e}", uci(m)))?;
        completed.push(at);
        expected_touches.extend(&plan.touches);
        pos.play_unchecked(m);
        previous_followed = !own;
        if let Mode::Table { .. } = mode
            && own
        {
            // Announced, then the opponent's reply comes: wait for the move.
            wait_moves(ply + 1, &mut seen, &mut found)?;
        }
    }
    wait_moves(game.moves.len(), &mut seen, &mut found)?;
    // Anything late (an invented move, a touch) shows within a settling.
    std::thread::sleep(Duration::from_millis(150));
    while let Ok(s) = outs.try_recv() {
        seen.push(s);
    }
    let made: Vec<(Instant, Move)> = seen
        .iter()
        .filter_map(|(at, i)| match i {
            Inferred::Moved { mv, .. } | Inferred::Confirmed { mv, .. } => Some((*at, *mv)),
            _ => None,
        })
        .collect();
    let want: Vec<String> = game.moves.iter().map(|&m| uci(m)).collect();
    let got: Vec<String> = made.iter().map(|&(_, m)| uci(m)).collect();
    if got != want {
        let first = want.iter().zip(&got).position(|(a, b)| a != b);
        return Err(format!(
            "moves differ at ply {first:?}: wanted {} moves, found {}: {:?}",
            want.len(),
            got.len(),
            &got[first.unwrap_or(0).saturating_sub(1)..got.len().min(first.unwrap_or(0) + 3)]
        ));
    }
    let touched: Vec<Square> = seen
        .iter()
        .filter_map(|(_, i)| match i {
            Inferred::Touched { square, .. } => Some(*square),
            _ => None,
        })
        .collect();
    if touched != expected_touches {
        return Err(format!(
            "touches {touched:?}, the hands made {expected_touches:?}"
        ));
    }
    stats.plies = game.moves.len();
    stats.touches = touched.len();
    stats.latencies = made
        .iter()
        .zip(&completed)
        .map(|(&(at, _), &c)| at.saturating_duration_since(c))
        .collect();
    drop(cmds);
    Ok(stats)
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[test]
fn hands_play_whole_games_on_peg_and_dgt_boards() {
    let seed = match std::env::var("TACTUS_SEED") {
        Ok(s) => s.parse().expect("TACTUS_SEED is a number"),
        Err(_) => {
            let mut b = [0u8; 8];
            getrandom::fill(&mut b).unwrap();
            u64::from_le_bytes(b) >> 16
        }
    };
    let games = env("TACTUS_HANDS_GAMES", 48) as usize;
    let jobs = env("TACTUS_HANDS_JOBS", 8).max(1) as usize;
    let only = std::env::var("TACTUS_HANDS_GAME")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    eprintln!("hands suite: seed {seed} (TACTUS_SEED={seed} replays it), {games} games");
    let corpus = corpus();
    assert!(corpus.len() >= 10, "{} corpus games", corpus.len());
    let started = Instant::now();
    let indices: Vec<usize> = match only {
        Some(n) => vec![n],
        None => (0..games).collect(),
    };
    let (tx, rx) = std_mpsc::channel();
    let corpus = std::sync::Arc::new(corpus);
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let indices = std::sync::Arc::new(indices);
    let mut workers = Vec::new();
    for _ in 0..jobs {
        let (tx, corpus, next, indices) =
            (tx.clone(), corpus.clone(), next.clone(), indices.clone());
        workers.push(std::thread::spawn(move || {
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&n) = indices.get(k) else { return };
                let game_seed = seed.wrapping_add(n as u64);
                let game = if n % 2 == 0 {
                    let g = &corpus[(n / 2) % corpus.len()];
                    Game {
                        name: g.name.clone(),
                        start: g.start.clone(),
                        moves: g.moves.clone(),
                    }
                } else {
                    random_game(game_seed)
                };
                let protocol = if (n / 2) % 2 == 0 {
                    Protocol::Peg
                } else {
                    Protocol::Dgt
                };
                let mode = match n % 3 {
                    0 => Mode::Watch,
                    1 => Mode::Table {
                        blind: shakmaty::Color::White,
                    },
                    _ => Mode::Table {
                        blind: shakmaty::Color::Black,
                    },
                };
                let r = play(&game, protocol, mode, game_seed);
                let _ = tx.send((n, game.name.clone(), protocol, mode, r));
            }
        }));
    }
    drop(tx);
    let mut plies = 0;
    let mut touches = 0;
    let mut latencies = Vec::new();
    let mut failures = Vec::new();
    let mut played = 0;
    for (n, name, protocol, mode, r) in rx {
        played += 1;
        match r {
            Ok(s) => {
                plies += s.plies;
                touches += s.touches;
                latencies.extend(s.latencies);
            }
            Err(e) => failures.push(format!(
                "game {n} ({name}, {protocol:?}, {mode:?}): {e}; replay: TACTUS_SEED={seed} TACTUS_HANDS_GAME={n}"
            )),
        }
    }
    for w in workers {
        w.join().unwrap();
    }
    latencies.sort();
    eprintln!(
        "hands suite: {played} games, {plies} plies, {touches} touches, {} misses, in {:.0?}; \
         last event to move known: p50 {:.1?}, p99 {:.1?}, max {:.1?}",
        failures.len(),
        started.elapsed(),
        pct(&latencies, 0.5),
        pct(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
