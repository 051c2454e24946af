//! `tactus bench startup`: how long a server killed in the middle of a
//! long event takes to listen again with every current game resumed.
//!
//! It writes the journal of an event that has run for a while (by default
//! nine rounds at 50 tables: eight finished games per table and one under
//! way, about 40,000 events), then starts a real `tactus serve` on it
//! several times and times process start to the line saying where it
//! listens (printed once every table has replayed its game). Beside it, in
//! this process, the cost of what start-up reads: each table's current
//! game only, against every game of the event (what replaying the whole
//! history would cost).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

use super::error::BenchError;
use super::serve::Spread;
use tactus::service::store::journal::{Durability, Journal, NewEvent};
use tactus::table::replay::{Entry, replay};
use tactus::table::setup::Setup;
use tactus_board::rng::Rng;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;

/// How the start-up benchmark runs.
#[derive(Debug, Clone)]
pub struct StartupOptions {
    pub exe: PathBuf,
    pub tables: usize,
    /// Rounds, the last under way.
    pub rounds: usize,
    /// Plies of each finished game (the game under way has half).
    pub plies: usize,
    /// Starts of the server measured.
    pub runs: usize,
    pub seed: u64,
}

/// What the start-up benchmark measured.
#[derive(Debug, Clone, Serialize)]
pub struct StartupReport {
    pub tables: usize,
    pub rounds: usize,
    /// Games in the journal, and events.
    pub games: usize,
    pub events: usize,
    /// Process start to listening with every current game resumed.
    pub startup: Spread,
    /// In this process: reading and replaying each table's current game.
    pub current_games_ms: f64,
    /// In this process: reading and replaying every game of the event.
    pub whole_history_ms: f64,
    pub seed: u64,
}

/// Writes the event's journal, then measures.
pub fn run_startup(options: &StartupOptions) -> Result<StartupReport, BenchError> {
    if options.rounds > usize::from(u16::MAX) {
        return Err(BenchError::Option("--rounds must be at most 65535"));
    }
    if options.tables == 0 || options.rounds == 0 || options.runs == 0 {
        return Err(BenchError::Option(
            "--tables, --rounds and --runs must be at least 1",
        ));
    }
    let dir = std::env::temp_dir().join(format!("tactus-bench-startup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    std::fs::create_dir_all(&data)
        .map_err(BenchError::io(format!("cannot create {}", data.display())))?;
    let result = measure(options, &dir, &data);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(options: &StartupOptions, dir: &Path, data: &Path) -> Result<StartupReport, BenchError> {
    let config = dir.join("venue.toml");
    let mut venue = String::from("[speech]\naudio = \"none\"\n\n");
    for t in 1..=options.tables {
        venue.push_str(&format!(
            "[[table]]\nid = \"{t}\"\nboard = \"none\"\nround = \"1\"\n\n"
        ));
    }
    std::fs::write(&config, venue).map_err(BenchError::io("cannot write the venue file"))?;
    let (games, events) = write_event(options, &data.join("journal.sqlite"))?;

    // In this process: what start-up reads, then the whole history.
    let journal = Journal::open_read_only(&data.join("journal.sqlite"))?;
    let started = Instant::now();
    for t in 1..=options.tables {
        let id = table_id(t)?;
        if let Some(game) = journal.current_game(&id)? {
            let records = journal.game_events(&id, game)?;
            replay(&id, &records, Style::default())
                .map_err(|e| BenchError::Missing(e.to_string()))?;
        }
    }
    let current_games = started.elapsed();
    let started = Instant::now();
    for t in 1..=options.tables {
        let id = table_id(t)?;
        let all = journal.events(&id)?;
        for game in 1..=options.rounds as u32 {
            let records: Vec<_> = all.iter().filter(|r| r.game == game).cloned().collect();
            replay(&id, &records, Style::default())
                .map_err(|e| BenchError::Missing(e.to_string()))?;
        }
    }
    let whole = started.elapsed();
    drop(journal);

    let mut startups = Vec::new();
    for _ in 0..options.runs {
        startups.push(start_once(&options.exe, &config, data)?);
    }
    Ok(StartupReport {
        tables: options.tables,
        rounds: options.rounds,
        games,
        events,
        startup: Spread::of(startups),
        current_games_ms: current_games.as_secs_f64() * 1000.0,
        whole_history_ms: whole.as_secs_f64() * 1000.0,
        seed: options.seed,
    })
}

/// The journal of the event: per table, `rounds - 1` finished games of
/// random legal moves and one under way; returns games and events.
fn write_event(options: &StartupOptions, path: &Path) -> Result<(usize, usize), BenchError> {
    let mut journal = Journal::open(path, Durability::Normal)?;
    let mut rng = Rng::new(options.seed);
    let mut at_ms = 1_700_000_000_000i64;
    let (mut games, mut events) = (0, 0);
    for round in 1..=options.rounds {
        let last = round == options.rounds;
        for t in 1..=options.tables {
            let id = table_id(t)?;
            let setup = Setup {
                id: id.parse()?,
                blind: if t % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                control: "90+30".parse()?,
                white: format!("Player {}", 2 * t - 1),
                black: format!("Player {}", 2 * t),
                event: "tactus bench startup".into(),
                round: tactus::table::round::Round::numbered(round as u16),
                fen: None,
                flag: tactus_rules::result::FlagRule::Claim,
                ranks: Default::default(),
                held_for_start: false,
            };
            let mut entries = vec![
                Entry::Setup(Box::new(setup)),
                Entry::Game(GameEvent::ClockStarted),
            ];
            let plies = if last {
                options.plies / 2
            } else {
                options.plies
            };
            let mut pos = Chess::default();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                let Some(m) = rng.pick(&moves).copied() else {
                    break;
                };
                let uci = UciMove::from_move(m, shakmaty::CastlingMode::Standard);
                pos.play_unchecked(m);
                entries.push(Entry::Game(GameEvent::MovePlayed { uci }));
            }
            if !last && !pos.is_game_over() {
                entries.push(Entry::Game(GameEvent::Resigned { side: pos.turn() }));
            }
            let mut batch = Vec::new();
            for e in &entries {
                at_ms += 20_000;
                batch.push(NewEvent {
                    table: id.clone(),
                    game: round as u32,
                    at_ms,
                    payload: serde_json::to_string(e)
                        .map_err(|e| BenchError::Missing(e.to_string()))?,
                });
            }
            events += batch.len();
            games += 1;
            journal.write(&batch, &[])?;
        }
    }
    journal.checkpoint()?;
    Ok((games, events))
}

/// One start of `tactus serve` on the event's data: process start to the
/// line saying where it listens (all tables resumed by then).
fn start_once(exe: &Path, config: &Path, data: &Path) -> Result<Duration, BenchError> {
    let started = Instant::now();
    let mut child = Command::new(exe)
        .arg("serve")
        .arg("--config")
        .arg(config)
        .args(["--listen", "127.0.0.1:0", "--audio", "none", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(BenchError::io(format!("cannot start {}", exe.display())))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| BenchError::Missing("no stdout".into()))?;
    let mut lines = BufReader::new(stdout).lines();
    let listening = loop {
        match lines.next() {
            Some(Ok(line)) if line.starts_with("tactus is serving on") => {
                break Some(started.elapsed());
            }
            Some(Ok(_)) => {}
            _ => break None,
        }
    };
    // SIGKILL, as a crash: the next start meets the same journal.
    let _ = child.kill();
    let _ = child.wait();
    listening.ok_or_else(|| BenchError::Missing("tactus serve stopped before listening".into()))
}

/// Table `n`'s id (`"1"`, `"2"`, …).
fn table_id(n: usize) -> Result<tactus::table::id::TableId, BenchError> {
    n.to_string()
        .parse()
        .map_err(|e: tactus::table::id::BadTableId| BenchError::Missing(e.to_string()))
}
