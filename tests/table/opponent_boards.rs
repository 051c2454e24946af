//! A sighted opponent's electronic board at a table, end to end through
//! `tactus serve`: the blind player's pegged board and the opponent's board
//! are both simulated; White (sighted) plays on the opponent's board and the
//! blind player carries the move out on the pegged one; Black (blind) plays
//! on the pegged board and the opponent's board lights the move's squares
//! (DGT Revelation II, Millennium LEDs) until the opponent has carried it
//! out. The ChessLink board is reached through ser2net with RFC 2217.

use crate::common;
use tactus_testkit::ser2net;

use std::time::Duration;

use common::{GAME, Server, table, wait_for};
use shakmaty::uci::UciMove;
use shakmaty::{Board, Square};
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;

const LIMIT: Duration = Duration::from_secs(20);

fn moves(addr: &str) -> usize {
    table(addr)["moves"].as_array().unwrap().len()
}

fn squares(uci: &str) -> Vec<Square> {
    let Ok(UciMove::Normal { from, to, .. }) = UciMove::from_ascii(uci.as_bytes()) else {
        panic!("{uci}")
    };
    let mut s = vec![from, to];
    s.sort();
    s
}

fn game_with_opponent_board(protocol: Protocol, over_ser2net: bool) {
    let dir = tempfile::tempdir().unwrap();
    let mut pegs = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let mut theirs = Simulator::new(protocol, Board::default(), None).unwrap();
    let line = ser2net::line_of(protocol);
    let bridge = over_ser2net.then(|| {
        ser2net::Ser2net::start(dir.path(), &theirs.path(), &line, ser2net::Kind::Rfc2217)
            .expect(ser2net::MISSING)
    });
    let port = match &bridge {
        Some(b) => ser2net::Kind::Rfc2217.url(b.port),
        None => theirs.path().display().to_string(),
    };
    let venue = dir.path().join("venue.toml");
    std::fs::write(
        &venue,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\nopponent_board = \"{}:{port}\"\nsettle_ms = 0\n",
            pegs.path().display(),
            protocol.name()
        ),
    )
    .unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let addr = server.addr.clone();
    wait_for("the boards to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["opponent_board"]["connected"] == true).then_some(())
    });
    let mut lit_seen = 0;
    for (i, uci) in GAME.iter().enumerate() {
        if i % 2 == 0 {
            theirs.play(uci, false).unwrap();
            wait_for(&format!("{uci} on the opponent's board"), LIMIT, || {
                (moves(&addr) == i + 1).then_some(())
            });
            assert!(theirs.leds().is_empty(), "nothing to show after {uci}");
            pegs.play(uci, false).unwrap();
            wait_for("the blind player's execution", LIMIT, || {
                (table(&addr)["board"]["in_sync"] == true).then_some(())
            });
        } else {
            pegs.play(uci, false).unwrap();
            wait_for(&format!("{uci} on the tactile board"), LIMIT, || {
                (moves(&addr) == i + 1).then_some(())
            });
            let want = squares(uci);
            wait_for(&format!("{uci} lit on the opponent's board"), LIMIT, || {
                (theirs.leds() == want).then_some(())
            });
            lit_seen += 1;
            theirs.play(uci, false).unwrap();
            wait_for("the LEDs to go out", LIMIT, || {
                theirs.leds().is_empty().then_some(())
            });
        }
    }
    assert_eq!(lit_seen, 10);
    assert_eq!(table(&addr)["result"]["result"], "1-0", "{}", table(&addr));
}

#[test]
fn dgt_revelation_shows_the_blind_players_moves() {
    game_with_opponent_board(Protocol::Dgt, false);
}

#[test]
fn millennium_over_rfc2217_shows_the_blind_players_moves() {
    game_with_opponent_board(Protocol::Millennium, true);
}
