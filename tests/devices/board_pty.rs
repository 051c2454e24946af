//! The board drivers over real pseudo-terminals, driven by the simulator:
//! whole games with every move kind in every protocol (peg, DGT, ChessLink), bouncing contacts, a
//! piece put back, garbage on the line, a board unplugged and replugged, a
//! wrong execution of the opponent's move and its correction.
//!
//! No timing luck: conclusions are awaited with generous deadlines.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Board, CastlingMode, Chess, Color, Position, Square};
use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::infer::{Inferred, Settings};
use tactus_board::sim::Simulator;

use crate::host;
use host::{Host, Seen, zero};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// Plays `moves` (simulator commands) and expects these SANs in order.
async fn play(sim: &mut Simulator, host: &mut Host, moves: &[(&str, &str)]) {
    for (cmd, san) in moves {
        sim.command(cmd).unwrap();
        assert_eq!(host.moved().await, *san, "after {cmd}");
    }
}

async fn whole_games(protocol: Protocol) {
    let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
    let mut host = Host::new(&sim, protocol, Chess::default(), zero());
    host.connected(protocol).await;
    play(
        &mut sim,
        &mut host,
        &[
            ("move e2e4", "e4"),
            ("move d7d5", "d5"),
            ("move e4d5", "exd5"),
            ("move g8f6", "Nf6"),
            ("move b1c3", "Nc3"),
            ("move f6d5 last", "Nxd5"),
            ("move g1f3", "Nf3"),
            ("move e7e6", "e6"),
            ("move f1c4", "Bc4"),
            ("move f8e7", "Be7"),
            ("move e1g1", "O-O"),
        ],
    )
    .await;
    // A piece lifted and put back is no move, but a touch.
    sim.command("lift b8").unwrap();
    sim.command("put b8").unwrap();
    host.until("touch", |s| {
        matches!(
            s,
            Seen::Inferred(Inferred::Touched {
                square: Square::B8,
                ..
            })
        )
    })
    .await;
    play(&mut sim, &mut host, &[("move e8g8", "O-O")]).await;
    assert_eq!(host.touches(), [Square::B8]);
    drop(host);
    drop(sim);

    // En passant and promotion.
    let start = "4k3/1P6/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let mut sim = Simulator::new(protocol, pos(start).board().clone(), None).unwrap();
    let mut host = Host::new(&sim, protocol, pos(start), zero());
    host.connected(protocol).await;
    play(
        &mut sim,
        &mut host,
        &[("move e2e4", "e4"), ("move d4e3", "dxe3")],
    )
    .await;
    sim.command("move b7b8q").unwrap();
    if protocol == Protocol::Peg {
        host.until("promotion", |s| {
            matches!(s, Seen::Inferred(Inferred::PromotionPending { .. }))
        })
        .await;
        assert_eq!(
            host.inf.position().turn(),
            Color::White,
            "not made before it is named"
        );
        sim.command("button 1").unwrap();
    }
    assert_eq!(host.moved().await, "b8=Q+");
}

#[tokio::test]
async fn peg_whole_games() {
    whole_games(Protocol::Peg).await;
}

#[tokio::test]
async fn dgt_whole_games() {
    whole_games(Protocol::Dgt).await;
}

#[tokio::test]
async fn millennium_whole_games() {
    whole_games(Protocol::Millennium).await;
}

async fn bounces_and_garbage(protocol: Protocol) {
    let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
    let settings = Settings {
        settle: Duration::from_millis(300),
        auto_correct: false,
    };
    let mut host = Host::new(&sim, protocol, Chess::default(), settings);
    host.connected(protocol).await;
    // Slide over e3, bounce twice on e4: one move, no touch.
    for cmd in [
        "lift e2",
        "put e3",
        "lift e3",
        "put e4",
        "bounce e4",
        "bounce e4",
    ] {
        sim.command(cmd).unwrap();
    }
    assert_eq!(host.moved().await, "e4");
    sim.command("garbage").unwrap();
    host.until("unreadable input", |s| matches!(s, Seen::Unreadable))
        .await;
    // The driver asked for a full scan after the garbage.
    match protocol {
        Protocol::Peg => {
            host.until("rescan", |s| matches!(s, Seen::Board(BoardEvent::Scan(_))))
                .await;
        }
        Protocol::Dgt => {
            host.until("rescan", |s| matches!(s, Seen::Board(BoardEvent::Dump(_))))
                .await;
        }
        // A ChessLink status like the last one changes nothing: no event.
        Protocol::Millennium => {}
    }
    assert!(host.driver.unreadable_count() >= 1);
    play(
        &mut sim,
        &mut host,
        &[("move e7e5", "e5"), ("move g1f3", "Nf3")],
    )
    .await;
    assert!(host.touches().is_empty(), "{:?}", host.touches());
}

#[tokio::test]
async fn peg_bounces_and_garbage() {
    bounces_and_garbage(Protocol::Peg).await;
}

#[tokio::test]
async fn dgt_bounces_and_garbage() {
    bounces_and_garbage(Protocol::Dgt).await;
}

#[tokio::test]
async fn millennium_bounces_and_garbage() {
    bounces_and_garbage(Protocol::Millennium).await;
}

async fn unplugged_and_replugged(protocol: Protocol) {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("board");
    let mut sim = Simulator::new(protocol, Board::default(), Some(link.clone())).unwrap();
    let mut host = Host::new(&sim, protocol, Chess::default(), zero());
    host.connected(protocol).await;
    play(&mut sim, &mut host, &[("move e2e4", "e4")]).await;
    sim.command("unplug").unwrap();
    host.until("disconnect", |s| {
        matches!(s, Seen::Board(BoardEvent::Disconnected(_)))
    })
    .await;
    // Black moves while the board is unplugged; the full scan after the
    // reconnection shows it.
    sim.command("move e7e5").unwrap();
    sim.command("replug").unwrap();
    host.connected(protocol).await;
    assert_eq!(host.moved().await, "e5");
    play(&mut sim, &mut host, &[("move g1f3", "Nf3")]).await;
}

#[tokio::test]
async fn peg_unplugged_and_replugged() {
    unplugged_and_replugged(Protocol::Peg).await;
}

#[tokio::test]
async fn dgt_unplugged_and_replugged() {
    unplugged_and_replugged(Protocol::Dgt).await;
}

#[tokio::test]
async fn millennium_unplugged_and_replugged() {
    unplugged_and_replugged(Protocol::Millennium).await;
}

async fn wrong_execution_corrected(protocol: Protocol) {
    let mut sim = Simulator::new(protocol, Board::default(), None).unwrap();
    let settings = Settings {
        settle: Duration::ZERO,
        auto_correct: true,
    };
    let mut host = Host::new(&sim, protocol, Chess::default(), settings);
    host.connected(protocol).await;
    play(&mut sim, &mut host, &[("move e2e4", "e4")]).await;
    // The opponent's Nf6 is announced; the blind player puts it on h6.
    let nf6 = UciMove::from_ascii(b"g8f6")
        .unwrap()
        .to_move(host.inf.position())
        .unwrap();
    host.inf.expect(nf6, host.epoch.elapsed()).unwrap();
    sim.command("move g8h6").unwrap();
    let Seen::Inferred(Inferred::Differs(fixes)) = host
        .until("differs", |s| {
            matches!(s, Seen::Inferred(Inferred::Differs(_)))
        })
        .await
    else {
        unreachable!()
    };
    assert_eq!(fixes.squares(), [Square::F6, Square::H6]);
    let Seen::Inferred(Inferred::Correction(tokens)) = host
        .until("correction", |s| {
            matches!(s, Seen::Inferred(Inferred::Correction(_)))
        })
        .await
    else {
        unreachable!()
    };
    let keys: Vec<String> = tokens.iter().map(|t| t.key()).collect();
    assert_eq!(
        keys.join(" "),
        "board.remove file.h rank.6 board.put piece.black.knight board.on file.f rank.6"
    );
    assert_eq!(host.inf.fixes(), fixes, "the same on request");
    sim.command("move h6f6").unwrap();
    assert_eq!(host.moved().await, "Nf6");
    assert!(host.inf.fixes().is_empty());
    play(&mut sim, &mut host, &[("move g1f3", "Nf3")]).await;
}

#[tokio::test]
async fn peg_wrong_execution_corrected() {
    wrong_execution_corrected(Protocol::Peg).await;
}

#[tokio::test]
async fn dgt_wrong_execution_corrected() {
    wrong_execution_corrected(Protocol::Dgt).await;
}

#[tokio::test]
async fn millennium_wrong_execution_corrected() {
    wrong_execution_corrected(Protocol::Millennium).await;
}

/// Waits until the simulated board's LEDs light `want`.
async fn leds_show(sim: &Simulator, want: &[Square]) {
    let give_up = std::time::Instant::now() + host::PATIENCE;
    while sim.leds() != want {
        assert!(
            std::time::Instant::now() < give_up,
            "LEDs {:?}, not {want:?}",
            sim.leds()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// What a board's LEDs show is shown again after a reconnection (a board
/// unplugged forgets it); peg boards have none.
async fn leds_survive_a_replug(protocol: Protocol) {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("board");
    let mut sim = Simulator::new(protocol, Board::default(), Some(link)).unwrap();
    let mut host = Host::new(&sim, protocol, Chess::default(), zero());
    host.connected(protocol).await;
    host.driver.show_move(Some((Square::E7, Square::E5)));
    leds_show(&sim, &[Square::E5, Square::E7]).await;
    sim.command("unplug").unwrap();
    host.until("disconnection", |s| {
        matches!(s, Seen::Board(BoardEvent::Disconnected(_)))
    })
    .await;
    // The board comes back dark; the driver lights it again.
    sim.command("replug").unwrap();
    host.connected(protocol).await;
    leds_show(&sim, &[Square::E5, Square::E7]).await;
    host.driver.show_move(None);
    leds_show(&sim, &[]).await;
}

#[tokio::test]
async fn dgt_leds_survive_a_replug() {
    leds_survive_a_replug(Protocol::Dgt).await;
}

#[tokio::test]
async fn millennium_leds_survive_a_replug() {
    leds_survive_a_replug(Protocol::Millennium).await;
}
