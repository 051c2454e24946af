//! End to end: `tactus serve` as a process, the blind player's pegged board
//! simulated on a real pseudo-terminal, the sighted player's moves through
//! the API; a whole game, then the same after `kill -9` and a restart.

use crate::common;

use std::time::Duration;

use common::{GAME, Server, get, post, table, tokens, wait_for};
use shakmaty::Board;
use tactus_board::event::Protocol;
use tactus_board::sim::{SIM_HELLO, Simulator};

const LIMIT: Duration = Duration::from_secs(20);

fn moves(addr: &str) -> usize {
    table(addr)["moves"].as_array().unwrap().len()
}

/// Plays ply `i` of GAME: White through the API (then carried out on the
/// tactile board by the blind player), Black on the tactile board.
fn play_ply(addr: &str, sim: &mut Simulator, assistant: &str, i: usize) {
    let uci = GAME[i];
    if i.is_multiple_of(2) {
        let r = post(
            addr,
            "/api/tables/1/move",
            assistant,
            &format!(r#"{{"move":"{uci}"}}"#),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.json()["text"].as_str().unwrap().len() > 3, "{}", r.body);
        sim.play(uci, false).unwrap();
        wait_for("the blind player's execution to be followed", LIMIT, || {
            let t = table(addr);
            (t["board"]["in_sync"] == true && t["moves"].as_array().unwrap().len() == i + 1)
                .then_some(())
        });
    } else {
        // Captures alternate the order the captured piece is lifted in.
        sim.play(uci, i % 4 == 1).unwrap();
        let what = format!("the board move {uci} (ply {}) to be made", i + 1);
        wait_for(&what, LIMIT, || (moves(addr) == i + 1).then_some(()));
    }
}

#[test]
fn a_whole_game_with_a_crash_in_the_middle() {
    let data = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let board = format!("peg:{}", sim.path().display());
    let args = [
        "--board",
        board.as_str(),
        "--blind",
        "black",
        "--control",
        "90+30",
    ];
    let server = Server::start(data.path(), &args);
    let addr = server.addr.clone();
    let (player, assistant, arbiter) = tokens(data.path(), "1");
    wait_for("the board to connect", LIMIT, || {
        (table(&addr)["board"]["connected"] == true).then_some(())
    });

    // Wrong or missing tokens change nothing.
    assert_eq!(
        post(&addr, "/api/tables/1/move", "nope", r#"{"move":"e4"}"#).status,
        403
    );
    assert_eq!(
        common::request(
            &addr,
            "POST",
            "/api/tables/1/move",
            None,
            Some(r#"{"move":"e4"}"#)
        )
        .status,
        401
    );
    // The player plays Black: White's move is not theirs to make.
    assert_eq!(
        post(&addr, "/api/tables/1/move", &player, r#"{"move":"e4"}"#).status,
        403
    );
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e5"}"#).status,
        422
    );
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"#).status,
        400
    );
    assert_eq!(
        post(&addr, "/api/tables/9/move", &assistant, r#"{"move":"e4"}"#).status,
        404
    );
    assert_eq!(moves(&addr), 0);
    // Piece letters: `R` is a rook in English but a king in Spanish; with
    // the language named the move is one move, an unknown language is 422.
    let r = post(
        &addr,
        "/api/tables/1/move",
        &assistant,
        r#"{"move":"e4","lang":"xx"}"#,
    );
    assert_eq!(r.status, 422, "{}", r.body);

    for i in 0..10 {
        play_ply(&addr, &mut sim, &assistant, i);
    }
    let r = post(&addr, "/api/tables/1/clock/say", &player, "");
    assert_eq!(r.status, 200);
    let said = r.json()["text"].as_str().unwrap().to_owned();
    assert!(
        said.starts_with("Weiß ") && said.ends_with("fünf Züge"),
        "{said}"
    );

    // A crash: every acknowledged move is there after the restart, the clock
    // is paused until the assistant resumes it.
    let before = table(&addr);
    server.kill9();
    let server = Server::start(data.path(), &args);
    let addr = server.addr.clone();
    let after = table(&addr);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["clock"]["state"], "paused");
    // Paused where it was last seen running (at most a second before the
    // crash): the downtime is not charged, and the paused clock stands.
    let (was, is) = (
        before["clock"]["white_ms"].as_i64().unwrap(),
        after["clock"]["white_ms"].as_i64().unwrap(),
    );
    assert!(
        (is - was).abs() <= 1_500,
        "white {was} ms before, {is} ms after"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        table(&addr)["clock"]["white_ms"],
        after["clock"]["white_ms"]
    );
    wait_for("the board to reconnect", LIMIT, || {
        (table(&addr)["board"]["connected"] == true).then_some(())
    });
    let r = post(&addr, "/api/tables/1/clock/resume", &assistant, "");
    assert_eq!(r.status, 200, "{}", r.body);

    for i in 10..GAME.len() {
        play_ply(&addr, &mut sim, &assistant, i);
    }
    let t = table(&addr);
    assert_eq!(t["result"]["result"], "1-0");
    assert_eq!(t["result"]["reason"], "checkmate");
    let pgn = get(&addr, "/api/tables/1/pgn").body;
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"5400+30\"]"), "{pgn}");
    assert!(
        pgn.contains("9. Qd8+ {") && pgn.contains("9... Kxd8 {"),
        "{pgn}"
    );
    assert!(pgn.contains("11. Bd8#"), "{pgn}");
    assert!(pgn.contains("[%clk 1:"), "{pgn}");
    // The arbiter's token is refused for nothing; a result after mate is.
    let r = post(&addr, "/api/tables/1/flag", &arbiter, "");
    assert_eq!(r.status, 422, "{}", r.body);
}

/// The sighted opponent plays on a DGT board, the blind player on a pegged
/// board: every move is made on its player's board, announced, and carried
/// out (and followed) on the other.
#[test]
fn both_boards_wired_moves_from_each_followed_on_the_other() {
    let data = tempfile::tempdir().unwrap();
    let mut peg = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let mut dgt = Simulator::new(Protocol::Dgt, Board::default(), None).unwrap();
    let server = Server::with_venue(
        data.path(),
        &format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\nopponent_board = \"dgt:{}\"\ncontrol = \"15+10\"\n",
            peg.path().display(),
            dgt.path().display()
        ),
    );
    let addr = server.addr.clone();
    wait_for("both boards to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["opponent_board"]["connected"] == true).then_some(())
    });
    for (i, uci) in GAME.iter().take(12).enumerate() {
        let (mover, follower) = if i.is_multiple_of(2) {
            (&mut dgt, &mut peg)
        } else {
            (&mut peg, &mut dgt)
        };
        mover.play(uci, false).unwrap();
        wait_for(&format!("ply {} ({uci}) to be made", i + 1), LIMIT, || {
            (moves(&addr) == i + 1).then_some(())
        });
        follower.play(uci, true).unwrap();
        wait_for(
            &format!("ply {} to be carried out on the other board", i + 1),
            LIMIT,
            || {
                let t = table(&addr);
                (t["board"]["in_sync"] == true && t["opponent_board"]["in_sync"] == true)
                    .then_some(())
            },
        );
    }
    let t = table(&addr);
    let sans: Vec<&str> = t["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        sans,
        [
            "e4", "c6", "d4", "d5", "Nc3", "dxe4", "Nxe4", "Nf6", "Qd3", "e5", "dxe5", "Qa5+"
        ]
    );
    assert_eq!(t["clock"]["state"], "running");
    assert!(t["illegal"].as_array().unwrap().is_empty(), "{t}");
}

#[test]
fn each_table_serves_the_browser_the_pack_it_speaks_with() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("venue.toml");
    let english = concat!(env!("CARGO_MANIFEST_DIR"), "/voices/en-appendix-d");
    std::fs::write(
        &config,
        format!(
            "[[table]]\nid = \"1\"\nboard = \"none\"\n\n\
             [[table]]\nid = \"2\"\nboard = \"none\"\nvoice = \"{english}\"\n"
        ),
    )
    .unwrap();
    let server = Server::start(data.path(), &["--config", config.to_str().unwrap()]);
    let addr = &server.addr;
    let venue = get(addr, "/api/voice").json();
    let one = get(addr, "/api/tables/1/voice").json();
    let two = get(addr, "/api/tables/2/voice").json();
    assert_eq!(venue["name"], "de-appendix-d");
    assert_eq!(one["name"], "de-appendix-d");
    assert_eq!(two["name"], "en-appendix-d");
    assert_eq!(two["language"], "en");
    // Table 2's clips are its own pack's, under its own path: "takes"
    // (the Appendix D words, "Springer", are the German voice's in both).
    let url = two["clips"]["word.takes"].as_str().unwrap();
    assert_eq!(url, "/api/tables/2/voice/clips/word.takes.wav");
    let english_takes = get(addr, url);
    let german_takes = get(addr, one["clips"]["word.takes"].as_str().unwrap());
    assert_eq!(english_takes.status, 200);
    assert_eq!(german_takes.status, 200);
    assert_ne!(english_takes.body, german_takes.body);
    assert_eq!(
        german_takes.body,
        get(addr, "/api/voice/clips/word.takes.wav").body
    );
    // No such table, no such clip: 404, nothing else.
    assert_eq!(get(addr, "/api/tables/9/voice").status, 404);
    assert_eq!(
        get(addr, "/api/tables/2/voice/clips/nothing.wav").status,
        404
    );
}

/// Issue 45, item 4: a peg board whose hello says it debounces its own
/// switches (the project's firmware: `debounced=10ms`) is read without the
/// peg board's 20 ms settling on top; a board that does not say so keeps
/// it, and so does a board whose settling time the venue chose. Each
/// plays a move, so that the hello has been read when the state is.
#[test]
fn a_peg_board_that_says_it_debounces_is_read_without_settling() {
    for (hello, venue, settle_ms) in [
        ("tactus-sim 1.0 debounced=10ms", "", 0),
        (SIM_HELLO, "", 20),
        ("tactus-sim 1.0 debounced=10ms", "settle_ms = 30\n", 30),
    ] {
        let data = tempfile::tempdir().unwrap();
        let mut peg = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
        peg.set_hello(hello);
        let server = Server::with_venue(
            data.path(),
            &format!(
                "[[table]]\nid = \"1\"\nblind = \"white\"\nboard = \"peg:{}\"\n{venue}",
                peg.path().display()
            ),
        );
        let addr = server.addr.clone();
        wait_for("the board to connect", LIMIT, || {
            (table(&addr)["board"]["connected"] == true).then_some(())
        });
        peg.play("e2e4", false).unwrap();
        wait_for("e4 made on the board", LIMIT, || {
            (moves(&addr) == 1).then_some(())
        });
        let t = table(&addr);
        assert_eq!(
            t["board"]["settle_ms"], settle_ms,
            "{hello:?} {venue:?}: {t}"
        );
    }
}

/// Issue 36, item 8: a board is who it says it is. A peg board across the
/// hall answers a name anyone can answer (`table3.local`); the venue pins
/// its hello (`board_hello`, the firmware's name and serial number). A
/// board that says another hello is named and not followed: White's move
/// on it is not made. The board that says the pinned hello is followed.
#[test]
fn a_board_with_another_hello_than_the_pinned_one_is_not_followed() {
    for (pin, followed) in [("tactus-peg 0.1 E6614103E7", false), (SIM_HELLO, true)] {
        let data = tempfile::tempdir().unwrap();
        let mut peg = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
        let server = Server::with_venue(
            data.path(),
            &format!(
                "[[table]]\nid = \"1\"\nblind = \"white\"\nboard = \"peg:{}\"\nboard_hello = \"{pin}\"\nsettle_ms = 0\n",
                peg.path().display()
            ),
        );
        let addr = server.addr.clone();
        wait_for("the board to connect and say who it is", LIMIT, || {
            let t = table(&addr);
            let said = t["board"]["not_followed"].clone();
            (t["board"]["connected"] == true && said != "unsaid").then_some(said)
        });
        let t = table(&addr);
        if followed {
            assert_eq!(t["board"]["not_followed"], serde_json::Value::Null, "{t}");
            peg.play("e2e4", false).unwrap();
            wait_for("e4 made on the pinned board", LIMIT, || {
                (moves(&addr) == 1).then_some(())
            });
        } else {
            assert_eq!(t["board"]["not_followed"], SIM_HELLO, "named: {t}");
            peg.play("e2e4", false).unwrap();
            // What the board says is ignored: checked after the board has
            // been asked again and answered (a scan of its own is read).
            std::thread::sleep(std::time::Duration::from_millis(500));
            assert_eq!(
                moves(&addr),
                0,
                "a move on a board that is not the pinned one"
            );
        }
    }
}
