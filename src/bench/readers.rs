//! `tactus bench readers`: a move's answer time at a real `tactus serve`,
//! alone and while a crowd reads the public pages. In a hall, a few hundred
//! phones follow the games (the table's state, its PGN, the rounds, the
//! braille record); none of them may delay a player's move or a flag.
//!
//! One game is played through the API (the blind player's moves with the
//! player's token, the opponent's with the assistant's), half of its plies
//! alone, half while `readers` threads each read the public routes in a
//! loop, one request after another on fresh connections. Each move's figure
//! is from sending the request to its answer's last byte, over loopback; the
//! readers run on the same two cores as the server, so the second figure
//! includes what a crowd costs the machine, not only the service.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{Chess, Color, Position};

use super::e2e::long_algebraic;
use super::error::BenchError;
use super::serve::{Server, Spread, post_move, random_move, scratch};

/// How the readers benchmark runs.
#[derive(Debug, Clone)]
pub struct ReadersOptions {
    /// The `tactus` executable to start.
    pub exe: std::path::PathBuf,
    /// Reader threads while the second half is played.
    pub readers: usize,
    /// Plies measured alone, then as many with the readers.
    pub plies: usize,
    pub voice: String,
}

/// What the readers benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct ReadersReport {
    pub readers: usize,
    /// A move's answer time with no one else asking.
    pub alone: Spread,
    /// The same while the readers read.
    pub with_readers: Spread,
    /// Reads answered while the moves were measured, per second.
    pub reads_per_s: f64,
    /// Reads answered 200, and answered otherwise (a refusal at a limit, a
    /// cut connection).
    pub reads_ok: u64,
    pub reads_refused: u64,
}

/// The public routes a crowd reads, in turn.
fn public_paths(id: &str) -> Vec<String> {
    vec![
        format!("/api/tables/{id}"),
        format!("/api/tables/{id}/pgn"),
        "/api/rounds".into(),
        "/api/tables".into(),
        format!("/api/tables/{id}/brf"),
        "/api/pgn".into(),
        "/api/standings".into(),
    ]
}

const WAIT: Duration = Duration::from_secs(30);

pub fn run_readers(options: &ReadersOptions) -> Result<ReadersReport, BenchError> {
    if options.plies == 0 {
        return Err(BenchError::Option("--plies must be at least 1"));
    }
    let data = scratch(0)?;
    let server = Server::start(&options.exe, &options.voice, &data, None)?;
    let result = measure(&server, options);
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
    result
}

fn measure(server: &Server, options: &ReadersOptions) -> Result<ReadersReport, BenchError> {
    let mut game = Game {
        pos: Chess::default(),
        rng: 0x5EED_u64,
    };
    let alone = game.play(server, options.plies)?;

    let stop = Arc::new(AtomicBool::new(false));
    let ok = Arc::new(AtomicU64::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let started = Arc::new(AtomicU64::new(0));
    let mut threads = Vec::new();
    for n in 0..options.readers {
        let (halt, ok, refused, started) = (
            Arc::clone(&stop),
            Arc::clone(&ok),
            Arc::clone(&refused),
            Arc::clone(&started),
        );
        let (addr, paths) = (server.addr.clone(), public_paths(&server.id));
        let spawned = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let mut first = true;
                let mut i = n;
                while !halt.load(Ordering::Relaxed) {
                    let path = &paths[i % paths.len()];
                    i += 1;
                    let status =
                        tactus_testkit::http::request(&addr, "GET", path, None, None, WAIT)
                            .map_or(0, |r| r.status);
                    if status == 200 { &ok } else { &refused }.fetch_add(1, Ordering::Relaxed);
                    if first {
                        first = false;
                        started.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        match spawned {
            Ok(t) => threads.push(t),
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                return Err(BenchError::io("cannot start a reader thread".to_owned())(e));
            }
        }
    }
    // Every reader has had an answer: the crowd is at full strength.
    let deadline = Instant::now() + WAIT;
    while started.load(Ordering::Relaxed) < options.readers as u64 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (ok_before, refused_before) = (ok.load(Ordering::Relaxed), refused.load(Ordering::Relaxed));
    let began = Instant::now();
    let with_readers = game.play(server, options.plies);
    let seconds = began.elapsed().as_secs_f64();
    let (ok_after, refused_after) = (ok.load(Ordering::Relaxed), refused.load(Ordering::Relaxed));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let reads_ok = ok_after - ok_before;
    let reads_refused = refused_after - refused_before;
    Ok(ReadersReport {
        readers: options.readers,
        alone: Spread::of(alone),
        with_readers: Spread::of(with_readers?),
        reads_per_s: (reads_ok + reads_refused) as f64 / seconds.max(1e-9),
        reads_ok,
        reads_refused,
    })
}

/// The game played through the API: random legal moves from a fixed seed.
struct Game {
    pos: Chess,
    rng: u64,
}

impl Game {
    /// Plays up to `plies` moves (fewer if the game ends), each answered
    /// 200, and returns each move's answer time.
    fn play(&mut self, server: &Server, plies: usize) -> Result<Vec<Duration>, BenchError> {
        let mut times = Vec::new();
        for _ in 0..plies {
            if self.pos.is_game_over() {
                break;
            }
            let Some(m) = random_move(&mut self.rng, &self.pos) else {
                break;
            };
            // The blind player (White) enters their own moves on their page.
            let token = match self.pos.turn() {
                Color::White => &server.player,
                Color::Black => &server.assistant,
            };
            let sent = Instant::now();
            post_move(&server.addr, &server.id, token, &long_algebraic(m))?;
            times.push(sent.elapsed());
            self.pos.play_unchecked(m);
        }
        Ok(times)
    }
}
