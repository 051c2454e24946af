//! The crash test: `tactus serve` playing three games at once is killed with
//! SIGKILL at random moments, 50 times, and restarted on the same data
//! folder each time. After every restart every move the API acknowledged
//! (200) is in its game, in order, the journal passes SQLite's integrity
//! check and opens as a journal. Moves come through the API (`board =
//! "none"`), chosen at random among the legal ones by shakmaty.
//!
//! Ignored by default (about two minutes); `scripts/test` runs it. The seed
//! is printed; `TACTUS_SEED=<seed>` replays a run.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use common::{Rng, Server, get, post, tokens, try_request, venue_without_boards};
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use tactus::service::store::journal::{Durability, Journal};

const TABLES: usize = 3;
const KILLS: usize = 50;

/// One table's game as the test knows it: the moves the server
/// acknowledged, and the position after them.
struct Game {
    id: String,
    token: String,
    acked: Vec<String>,
    pos: Chess,
    finished: bool,
    /// How the game ended and at which kill the test saw it.
    ended: Option<(String, usize)>,
}

/// What one round of play left behind: a move whose request was cut by the
/// kill (it may or may not have been recorded).
type InFlight = Option<String>;

/// A random legal move, avoiding those that end the game by themselves so
/// that the games last through the test (shakmaty decides).
fn choose(pos: &Chess, rng: &mut Rng) -> String {
    let legal = pos.legal_moves();
    let lasting: Vec<_> = legal
        .iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play_unchecked(**m);
            !p.is_game_over() && p.halfmoves() < 140
        })
        .collect();
    let m = if lasting.is_empty() {
        legal.first().expect("a legal move")
    } else {
        *rng.pick(&lasting).expect("a non-empty choice")
    };
    UciMove::from_standard(*m).to_string()
}

/// Plays moves on `game` until `stop` or the server goes away.
fn play(addr: &str, game: &mut Game, mut rng: Rng, stop: &AtomicBool) -> InFlight {
    let path = format!("/api/tables/{}/move", game.id);
    while !stop.load(Ordering::Relaxed) && !game.finished {
        let uci = choose(&game.pos, &mut rng);
        let body = format!(r#"{{"move":"{uci}"}}"#);
        let Ok(r) = try_request(addr, "POST", &path, Some(&game.token), Some(&body)) else {
            // Not even connected: nothing was sent.
            return None;
        };
        match r.status {
            200 => {
                let m = uci.parse::<UciMove>().unwrap().to_move(&game.pos).unwrap();
                game.pos.play_unchecked(m);
                game.acked.push(uci);
            }
            0 => return Some(uci),
            422 if get(addr, &format!("/api/tables/{}", game.id)).json()["result"].is_object() => {
                game.finished = true;
            }
            s => panic!("table {}: move {uci}: {s} {}", game.id, r.body),
        }
        thread::sleep(Duration::from_millis(rng.range(20, 220)));
    }
    None
}

/// Checks the server's game against what was acknowledged; a move whose
/// request was cut may be there (last) or not. Returns whether it was.
fn verify(addr: &str, game: &mut Game, in_flight: &InFlight, kill: usize) -> bool {
    let view = get(addr, &format!("/api/tables/{}", game.id)).json();
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for san in view["moves"].as_array().unwrap() {
        let san: San = san.as_str().unwrap().parse().unwrap();
        let m = san.to_move(&pos).unwrap();
        moves.push(UciMove::from_standard(m).to_string());
        pos.play_unchecked(m);
    }
    let n = game.acked.len();
    assert!(
        moves.len() >= n && moves[..n] == game.acked[..],
        "table {}: acknowledged {:?}\nserver has {:?}",
        game.id,
        game.acked,
        moves
    );
    let extra = &moves[n..];
    let found = match (extra, in_flight) {
        ([], _) => false,
        ([m], Some(f)) if m == f => true,
        _ => panic!(
            "table {}: moves nobody made: {extra:?} (in flight: {in_flight:?})",
            game.id
        ),
    };
    if found {
        game.acked = moves;
        game.pos = pos;
    }
    game.finished = view["result"].is_object();
    if game.finished && game.ended.is_none() {
        game.ended = Some((view["result"]["reason"].to_string(), kill));
    }
    found
}

/// The journal passes SQLite's integrity check and opens as a journal;
/// returns its event count.
fn check_journal(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).expect("the journal opens in SQLite");
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok", "integrity check of {}", path.display());
    let events: i64 = conn
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .unwrap();
    drop(conn);
    Journal::open(path, Durability::Full).expect("the journal opens");
    events
}

#[test]
#[ignore = "about two minutes; scripts/test runs it"]
fn fifty_kill9_lose_no_acknowledged_move() {
    let started = Instant::now();
    let mut rng = Rng::from_env("TACTUS_SEED");
    let dir = tempfile::tempdir().unwrap();
    let venue = venue_without_boards(dir.path(), TABLES);
    let data = dir.path().join("data");
    let venue_arg = venue.to_str().unwrap().to_owned();
    let args = ["--config", venue_arg.as_str()];
    let journal = data.join("journal.sqlite");

    let mut games: Vec<Game> = Vec::new();
    let mut in_flight: Vec<InFlight> = vec![None; TABLES];
    let (mut startup_kills, mut cut, mut cut_found) = (0, 0, 0);
    let mut events = 0;
    for kill in 0..=KILLS {
        // Now and then the kill falls while the server starts (replaying
        // the journal, journaling the restart).
        if kill > 0 && kill < KILLS && rng.chance(0.15) {
            let server = Server::spawn(&data, &args);
            thread::sleep(Duration::from_millis(rng.range(0, 200)));
            server.kill9();
            startup_kills += 1;
            events = check_journal(&journal);
            continue;
        }
        let server = Server::start(&data, &args);
        let addr = server.addr.clone();
        if games.is_empty() {
            for id in 1..=TABLES {
                let id = id.to_string();
                let (_, assistant, _) = tokens(&data, &id);
                games.push(Game {
                    id,
                    token: assistant,
                    acked: Vec::new(),
                    pos: Chess::default(),
                    finished: false,
                    ended: None,
                });
            }
        }
        for (game, flight) in games.iter_mut().zip(&mut in_flight) {
            if verify(&addr, game, flight, kill) {
                cut_found += 1;
            }
            *flight = None;
            // Restarted clocks are paused; the assistant resumes them.
            let r = post(
                &addr,
                &format!("/api/tables/{}/clock/resume", game.id),
                &game.token,
                "",
            );
            assert!(matches!(r.status, 200 | 422), "{} {}", r.status, r.body);
        }
        if kill == KILLS {
            break;
        }

        let stop = Arc::new(AtomicBool::new(false));
        let players: Vec<_> = std::mem::take(&mut games)
            .into_iter()
            .map(|mut game| {
                let addr = addr.clone();
                let stop = stop.clone();
                let rng = Rng::new(rng.next_u64());
                thread::spawn(move || {
                    let flight = play(&addr, &mut game, rng, &stop);
                    (game, flight)
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(rng.range(100, 2000)));
        server.kill9();
        stop.store(true, Ordering::Relaxed);
        for (i, p) in players.into_iter().enumerate() {
            let (game, flight) = p.join().unwrap();
            cut += usize::from(flight.is_some());
            in_flight[i] = flight;
            games.push(game);
        }
        events = check_journal(&journal);
    }
    let acked: usize = games.iter().map(|g| g.acked.len()).sum();
    let finished = games.iter().filter(|g| g.finished).count();
    eprintln!(
        "crash test: {KILLS} kills ({startup_kills} during start-up), {TABLES} tables, \
         {acked} moves acknowledged and all present after every restart \
         ({cut} requests cut by a kill, {cut_found} of them recorded), \
         {events} journal events, {finished} games finished, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    for g in &games {
        let ended = match &g.ended {
            Some((why, kill)) => format!("ended by {why}, seen after kill {kill}"),
            None => "still on".into(),
        };
        eprintln!("  table {}: {} plies, {ended}", g.id, g.acked.len());
    }
    assert!(acked > 0);
}
