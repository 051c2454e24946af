//! Fault tests of the blind player's board, with `tactus serve` as a
//! process and the peg board simulated on a real pseudo-terminal: the serial
//! port vanishing and returning 20 times in a game, and a minute of random
//! bytes from the board (ignored by default; `scripts/test` runs it). The
//! seed is printed; `TACTUS_SEED=<seed>` replays a run.

use crate::common;

use std::time::{Duration, Instant};

use common::{GAME, Rng, Server, get, post, table, tokens, wait_for};
use shakmaty::Board;
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;

const LIMIT: Duration = Duration::from_secs(20);

fn board(addr: &str) -> serde_json::Value {
    table(addr)["board"].clone()
}

/// Waits until the server has `n` moves and the board shows the position.
fn wait_synced(addr: &str, n: usize, what: &str) {
    wait_for(what, LIMIT, || {
        let t = table(addr);
        (t["moves"].as_array().unwrap().len() == n
            && t["board"]["connected"] == true
            && t["board"]["in_sync"] == true)
            .then_some(())
    });
}

/// Whether `f` holds within `limit`.
fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Sets the simulated board back to `board`, as a player putting the
/// pieces back would.
fn set_back(sim: &mut Simulator, board: &Board) {
    let now = sim.board();
    for sq in now.occupied() {
        if board.piece_at(sq) != now.piece_at(sq) {
            sim.lift(sq).unwrap();
        }
    }
    for sq in board.occupied() {
        if sim.board().piece_at(sq) != board.piece_at(sq) {
            sim.put(sq, board.piece_at(sq)).unwrap();
        }
    }
}

fn wait_connected(addr: &str, yes: bool) {
    wait_for("the board's connection to change", LIMIT, || {
        (board(addr)["connected"] == yes).then_some(())
    });
}

/// White's move through the assistant's page.
fn api_move(addr: &str, assistant: &str, uci: &str) {
    let r = post(
        addr,
        "/api/tables/1/move",
        assistant,
        &format!(r#"{{"move":"{uci}"}}"#),
    );
    assert_eq!(r.status, 200, "{uci}: {}", r.body);
}

/// Nothing the board did may have made the game record a touch or an
/// illegal attempt.
fn assert_clean(addr: &str) {
    let t = table(addr);
    assert_eq!(t["touched"], serde_json::json!([]), "{t}");
    assert_eq!(t["illegal"], serde_json::json!([]), "{t}");
}

/// The server on the simulated board; `RUST_LOG` for it (the faults
/// provoke a warning each).
fn start(sim: &Simulator, data: &std::path::Path, log: &str) -> Server {
    let board = format!("peg:{}", sim.path().display());
    let args = ["--board", &board, "--blind", "black", "--control", "90+30"];
    Server::start_with_env(data, &args, &[("RUST_LOG", log)])
}

#[test]
fn the_port_vanishes_and_returns_twenty_times_in_a_game() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("ttyUSB-board");
    let mut sim = Simulator::new(Protocol::Peg, Board::default(), Some(link.clone())).unwrap();
    let data = dir.path().join("data");
    let server = start(&sim, &data, "error");
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(&data, "1");
    wait_connected(&addr, true);

    let mut cycles = 0;
    let (mut found_on_rescan, mut followed_on_rescan, mut remade) = (0, 0, 0);
    for (i, uci) in GAME.iter().enumerate() {
        let white = i % 2 == 0;
        // Twenty of the 21 plies see the port go and come back: before the
        // move, or with the move made on the board while it is unplugged.
        let unplugged_move = i < 20 && i % 3 != 0;
        if i < 20 && !unplugged_move {
            sim.unplug().unwrap();
            assert!(!link.exists(), "the device node is gone while unplugged");
            wait_connected(&addr, false);
            sim.replug().unwrap();
            wait_connected(&addr, true);
            cycles += 1;
        }
        if white {
            api_move(&addr, &assistant, uci);
        }
        if unplugged_move {
            sim.unplug().unwrap();
            wait_connected(&addr, false);
            // The blind player carries out White's move, or makes their
            // own, while the board is unplugged; the scan after replugging
            // shows it. A peg board's scan shows holes, not pieces: a
            // capture made unseen cannot be told from it (the captured
            // piece's hole stays filled), and the player sets the position
            // back and makes the move again.
            let before = sim.board();
            sim.play(uci, false).unwrap();
            sim.replug().unwrap();
            cycles += 1;
            // Only a capture may go unseen: any other move must be found.
            let to: shakmaty::Square = uci[2..4].parse().unwrap();
            let capture = before.piece_at(to).is_some();
            let wait = if capture {
                Duration::from_secs(3)
            } else {
                LIMIT
            };
            let seen = wait_until(wait, || {
                let t = table(&addr);
                t["moves"].as_array().unwrap().len() == i + 1 && t["board"]["in_sync"] == true
            });
            match (seen, white) {
                (true, true) => followed_on_rescan += 1,
                (true, false) => found_on_rescan += 1,
                (false, _) => {
                    assert!(capture, "{uci} not seen after replugging");
                    set_back(&mut sim, &before);
                    sim.play(uci, false).unwrap();
                    remade += 1;
                }
            }
        } else {
            sim.play(uci, i % 4 == 1).unwrap();
        }
        wait_synced(&addr, i + 1, &format!("ply {} ({uci}) to be made", i + 1));
        assert_clean(&addr);
    }
    assert_eq!(cycles, 20);
    let t = table(&addr);
    assert_eq!(t["result"]["result"], "1-0");
    assert_eq!(t["result"]["reason"], "checkmate");
    assert_eq!(t["board"]["connected"], true);
    assert_eq!(t["board"]["in_sync"], true);
    let pgn = get(&addr, "/api/tables/1/pgn").body;
    assert!(pgn.contains("11. Bd8#"), "{pgn}");
    eprintln!(
        "board faults: {cycles} unplug/replug cycles in a {}-ply game \
         ({found_on_rescan} blind moves found and {followed_on_rescan} moves followed \
         from the scan after replugging, {remade} captures made again), {:.1} s",
        GAME.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A burst of line noise: random bytes, ended by a newline so that the
/// board's next real line starts clean (as after a glitch on the wire).
fn noise(sim: &mut Simulator, rng: &mut Rng) -> usize {
    let n = rng.range(1, 120) as usize;
    let mut bytes = rng.bytes(n);
    bytes.push(b'\n');
    sim.send_raw(&bytes);
    bytes.iter().filter(|&&b| b == b'\n').count()
}

#[test]
#[ignore = "one minute; scripts/test runs it"]
fn a_minute_of_random_bytes_from_the_board() {
    const ALONE: Duration = Duration::from_secs(20);
    const WITH_GAME: Duration = Duration::from_secs(40);
    let started = Instant::now();
    let mut rng = Rng::from_env("TACTUS_SEED");
    let dir = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let mut server = start(&sim, dir.path(), "error");
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(dir.path(), "1");
    wait_connected(&addr, true);
    let (mut bursts, mut lines) = (0usize, 0usize);

    // Noise alone: nothing happens but the counter.
    let before = table(&addr);
    let end = Instant::now() + ALONE;
    while Instant::now() < end {
        lines += noise(&mut sim, &mut rng);
        bursts += 1;
        std::thread::sleep(Duration::from_millis(rng.range(5, 40)));
    }
    let after = table(&addr);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    let unreadable_alone = after["board"]["unreadable"].as_u64().unwrap();
    assert!(unreadable_alone > 0, "{after}");
    assert_clean(&addr);

    // Noise between the lines of a real game, spread over the rest of the
    // minute.
    let phase = Instant::now();
    let mut last_unreadable = unreadable_alone;
    for (i, uci) in GAME.iter().enumerate() {
        let due = phase + WITH_GAME * (i as u32 + 1) / GAME.len() as u32;
        while Instant::now() < due {
            lines += noise(&mut sim, &mut rng);
            bursts += 1;
            std::thread::sleep(Duration::from_millis(rng.range(5, 40)));
        }
        if i % 2 == 0 {
            api_move(&addr, &assistant, uci);
        }
        // The move's lines, with noise between them.
        let before_move = sim.board();
        sim.play(uci, i % 4 == 1).unwrap();
        lines += noise(&mut sim, &mut rng);
        assert_ne!(sim.board(), before_move);
        wait_synced(&addr, i + 1, &format!("ply {} ({uci}) to be made", i + 1));
        assert_clean(&addr);
        let unreadable = board(&addr)["unreadable"].as_u64().unwrap();
        assert!(unreadable >= last_unreadable);
        last_unreadable = unreadable;
    }
    assert!(server.is_running(), "the server died");
    let t = table(&addr);
    assert_eq!(t["result"]["result"], "1-0");
    assert_eq!(t["result"]["reason"], "checkmate");
    assert!(last_unreadable > unreadable_alone);
    eprintln!(
        "random bytes: {bursts} bursts ({lines} noisy lines) over {:.1} s, {last_unreadable} \
         unreadable counted ({unreadable_alone} with the board alone), a {}-ply game unharmed",
        started.elapsed().as_secs_f64(),
        GAME.len()
    );
}
