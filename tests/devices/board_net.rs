//! Boards over the network through the real thing: Debian's ser2net on
//! loopback serves a simulator's pseudo-terminal, over raw TCP and over
//! telnet with RFC 2217, and the driver plays whole games through it in
//! every protocol. ser2net killed and restarted mid-game (also with a piece
//! in the air) loses no move: the driver reconnects with backoff and the
//! full scan after the reconnection shows what happened meanwhile. A host
//! not there yet at start is waited for the same way.

use shakmaty::{Board, Chess, Position, Square};
use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::sim::Simulator;

use crate::common;
use crate::host;

use common::GAME;
use host::{Host, Seen, zero};
use tactus_testkit::ser2net::{Kind, MISSING, Ser2net, line_of};

fn host_for(kind: Kind, port: u16, protocol: Protocol) -> Host {
    Host::on(
        kind.url(port).parse().unwrap(),
        protocol,
        Chess::default(),
        zero(),
    )
}

async fn whole_game(protocol: Protocol, kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
    let _ser2net =
        Ser2net::start(dir.path(), &sim.path(), &line_of(protocol), kind).expect(MISSING);
    let mut host = host_for(kind, _ser2net.port, protocol);
    host.connected(protocol).await;
    for uci in GAME {
        sim.play(uci, false).unwrap();
        assert_eq!(host.moved_uci().await, uci, "{protocol:?} over {kind:?}");
    }
    assert!(
        !host
            .seen
            .iter()
            .any(|s| matches!(s, Seen::Board(BoardEvent::Disconnected(_)))),
        "no disconnection in a quiet game"
    );
    assert_eq!(host.driver.unreadable_count(), 0);
}

#[tokio::test]
async fn peg_game_over_raw_tcp() {
    whole_game(Protocol::Peg, Kind::Raw).await;
}

#[tokio::test]
async fn peg_game_over_rfc2217() {
    whole_game(Protocol::Peg, Kind::Rfc2217).await;
}

#[tokio::test]
async fn dgt_game_over_raw_tcp() {
    whole_game(Protocol::Dgt, Kind::Raw).await;
}

#[tokio::test]
async fn millennium_game_over_raw_tcp() {
    whole_game(Protocol::Millennium, Kind::Raw).await;
}

#[tokio::test]
async fn dgt_game_over_rfc2217() {
    whole_game(Protocol::Dgt, Kind::Rfc2217).await;
}

#[tokio::test]
async fn millennium_game_over_rfc2217() {
    whole_game(Protocol::Millennium, Kind::Rfc2217).await;
}

/// The first eight plies of `GAME`, then ser2net dies twice: once between
/// moves (White's Qd3 is played while it is down), once with Black's e-pawn
/// in the air (lifted while up, put on e5 while down). Then the game runs to
/// mate.
async fn ser2net_killed_mid_game(protocol: Protocol, kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
    let mut ser2net =
        Ser2net::start(dir.path(), &sim.path(), &line_of(protocol), kind).expect(MISSING);
    let mut host = host_for(kind, ser2net.port, protocol);
    host.connected(protocol).await;
    for uci in &GAME[..8] {
        sim.play(uci, false).unwrap();
        assert_eq!(host.moved_uci().await, *uci);
    }
    ser2net.kill().unwrap();
    host.until("disconnection", |s| {
        matches!(s, Seen::Board(BoardEvent::Disconnected(_)))
    })
    .await;
    assert_eq!(GAME[8], "d1d3");
    sim.play(GAME[8], false).unwrap();
    ser2net.restart().unwrap();
    // The move may show before the full scan: the bytes written while
    // ser2net was down can still be in the pseudo-terminal.
    assert_eq!(host.moved_uci().await, "d1d3");

    assert_eq!(GAME[9], "e7e5");
    sim.lift(Square::E7).unwrap();
    host.until("the lift", |s| {
        matches!(
            s,
            Seen::Board(
                BoardEvent::Lifted(Square::E7)
                    | BoardEvent::Field {
                        square: Square::E7,
                        piece: None
                    }
            )
        )
    })
    .await;
    ser2net.kill().unwrap();
    host.until("disconnection", |s| {
        matches!(s, Seen::Board(BoardEvent::Disconnected(_)))
    })
    .await;
    sim.put(Square::E5, None).unwrap();
    ser2net.restart().unwrap();
    assert_eq!(host.moved_uci().await, "e7e5");
    for uci in &GAME[10..] {
        sim.play(uci, false).unwrap();
        assert_eq!(host.moved_uci().await, *uci);
    }
    let reconnections = host
        .seen
        .iter()
        .filter(|s| matches!(s, Seen::Board(BoardEvent::Connected)))
        .count();
    assert!(reconnections >= 3, "{reconnections} connections");
    assert_eq!(host.inf.position().board().to_string(), {
        let mut end = Chess::default();
        for uci in GAME {
            let m = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&end)
                .unwrap();
            end = end.play(m).unwrap();
        }
        end.board().to_string()
    });
}

#[tokio::test]
async fn peg_survives_ser2net_restarts_over_raw_tcp() {
    ser2net_killed_mid_game(Protocol::Peg, Kind::Raw).await;
}

#[tokio::test]
async fn peg_survives_ser2net_restarts_over_rfc2217() {
    ser2net_killed_mid_game(Protocol::Peg, Kind::Rfc2217).await;
}

#[tokio::test]
async fn dgt_survives_ser2net_restarts_over_raw_tcp() {
    ser2net_killed_mid_game(Protocol::Dgt, Kind::Raw).await;
}

#[tokio::test]
async fn millennium_survives_ser2net_restarts_over_raw_tcp() {
    ser2net_killed_mid_game(Protocol::Millennium, Kind::Raw).await;
}

#[tokio::test]
async fn dgt_survives_ser2net_restarts_over_rfc2217() {
    ser2net_killed_mid_game(Protocol::Dgt, Kind::Rfc2217).await;
}

#[tokio::test]
async fn millennium_survives_ser2net_restarts_over_rfc2217() {
    ser2net_killed_mid_game(Protocol::Millennium, Kind::Rfc2217).await;
}

/// The table computer boots after the server: the driver keeps trying.
#[tokio::test]
async fn a_host_not_there_yet_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(Protocol::Dgt, Board::default(), None).unwrap();
    let mut ser2net = Ser2net::start(
        dir.path(),
        &sim.path(),
        &line_of(Protocol::Dgt),
        Kind::Rfc2217,
    )
    .expect(MISSING);
    ser2net.kill().unwrap();
    let mut host = host_for(Kind::Rfc2217, ser2net.port, Protocol::Dgt);
    std::thread::sleep(std::time::Duration::from_millis(500));
    ser2net.restart().unwrap();
    host.connected(Protocol::Dgt).await;
    sim.play("e2e4", false).unwrap();
    assert_eq!(host.moved_uci().await, "e2e4");
}
