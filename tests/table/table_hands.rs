//! The table under human hands: `tactus serve` as a process, both players
//! blind, each with a peg board on a real pseudo-terminal. Every move is
//! made by the hands model (touches, bounces, wrong holes, captures in
//! either order, castling either way) on the mover's board, found by the
//! table's inference, announced, and carried out by the other player's
//! hands on their board, which the table follows. Every touch by the player
//! on move is on the table's record with its side, and a touch on this move
//! loses the right to claim a draw on it (Article 9.4).

use crate::common;

use std::time::Duration;

use common::{GAME, Rng, Server, post, table, tokens, wait_for};
use shakmaty::uci::UciMove;
use shakmaty::{Board, Chess, Color, Position};
use tactus::table::view::RECORD_SHOWN;
use tactus_board::event::Protocol;
use tactus_board::hands::{Act, Hands, Plan, Step, Timing};
use tactus_board::sim::Simulator;

const LIMIT: Duration = Duration::from_secs(20);

fn moves(addr: &str) -> Vec<String> {
    table(addr)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The touched pieces on the record, as the state shows them: the latest
/// [`RECORD_SHOWN`] and the count of all (issue 29 bounds the state).
fn touched(addr: &str) -> (Vec<(String, String)>, u64) {
    let t = table(addr);
    let shown = t["touched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["side"].as_str().unwrap().to_string(),
                t["square"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (shown, t["touched_count"].as_u64().unwrap())
}

/// What the state should show of the touches `all`.
fn record(all: &[(String, String)]) -> (Vec<(String, String)>, u64) {
    (
        all[all.len().saturating_sub(RECORD_SHOWN)..].to_vec(),
        all.len() as u64,
    )
}

fn side(c: Color) -> String {
    match c {
        Color::White => "white".into(),
        Color::Black => "black".into(),
    }
}

#[test]
fn both_players_blind_hands_on_both_boards() {
    let seed = std::env::var("TACTUS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Rng::from_env("TACTUS_HANDS_NONE").next_u64() >> 16);
    eprintln!("table under hands: TACTUS_SEED={seed} replays this run");
    let data = tempfile::tempdir().unwrap();
    let mut black = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let mut white = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let server = Server::with_venue(
        data.path(),
        &format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\nopponent_board = \"peg:{}\"\ncontrol = \"15+10\"\n",
            black.path().display(),
            white.path().display()
        ),
    );
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(data.path(), "1");
    wait_for("both boards to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["opponent_board"]["connected"] == true).then_some(())
    });
    let mut hands = Hands::new(seed, Timing::brisk());
    let mut pos = Chess::default();
    let mut want_touched: Vec<(String, String)> = Vec::new();
    for (i, uci) in GAME.iter().enumerate() {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let mover = pos.turn();
        let (own, other) = match mover {
            Color::White => (&mut white, &mut black),
            Color::Black => (&mut black, &mut white),
        };
        let plan = hands.plan(&pos, m, Protocol::Peg, true);
        own.perform(&plan).unwrap();
        want_touched.extend(plan.touches.iter().map(|sq| (side(mover), sq.to_string())));
        let what = format!(
            "ply {} ({uci}) made by hands (seed {seed}: TACTUS_SEED={seed} replays it)",
            i + 1
        );
        wait_for(&what, LIMIT, || (moves(&addr).len() == i + 1).then_some(()));
        // The other player carries out the announced move on their board.
        let follow = hands.plan(&pos, m, Protocol::Peg, false);
        other.perform(&follow).unwrap();
        pos.play_unchecked(m);
        let give_up = std::time::Instant::now() + LIMIT;
        loop {
            let t = table(&addr);
            if t["board"]["in_sync"] == true && t["opponent_board"]["in_sync"] == true {
                break;
            }
            assert!(
                std::time::Instant::now() < give_up,
                "ply {} ({uci}) not carried out on the other board (seed {seed}): \
                 plan {follow:?}; table {t}",
                i + 1
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            touched(&addr),
            record(&want_touched),
            "seed {seed}, ply {}",
            i + 1
        );
        if i == 11 {
            // White, on move, feels the g1 knight and puts it back: on the
            // record for White, and no draw claim on this move (9.4).
            let touch = Plan {
                steps: vec![
                    Step {
                        gap: Duration::ZERO,
                        act: Act::Lift(shakmaty::Square::G1),
                    },
                    Step {
                        gap: Duration::from_millis(300),
                        act: Act::Put(shakmaty::Square::G1, Color::White.knight()),
                    },
                ],
                touches: vec![shakmaty::Square::G1],
                completes: 1,
                pressed: None,
            };
            white.perform(&touch).unwrap();
            want_touched.push(("white".into(), "g1".into()));
            wait_for("White's touch on the record", LIMIT, || {
                (touched(&addr) == record(&want_touched)).then_some(())
            });
            let r = post(
                &addr,
                "/api/tables/1/draw/claim/threefold",
                &assistant,
                r#"{"side":"white"}"#,
            );
            assert_eq!(r.status, 422, "{}", r.body);
            assert!(r.body.contains("9.4"), "{}", r.body);
        }
    }
    let t = table(&addr);
    assert_eq!(
        moves(&addr),
        [
            "e4", "c6", "d4", "d5", "Nc3", "dxe4", "Nxe4", "Nf6", "Qd3", "e5", "dxe5", "Qa5+",
            "Bd2", "Qxe5", "O-O-O", "Nxe4", "Qd8+", "Kxd8", "Bg5+", "Kc7", "Bd8#"
        ],
        "seed {seed}"
    );
    assert!(t["illegal"].as_array().unwrap().is_empty(), "{t}");
    eprintln!(
        "table under hands: seed {seed}, {} plies, {} touches on the record",
        GAME.len(),
        want_touched.len()
    );
}

/// `tactus serve` with the blind player (Black) on a peg board and a
/// sighted opponent (White) on `protocol`'s board, default settling times.
fn sighted_table(protocol: Protocol) -> (tempfile::TempDir, Server, Simulator, Simulator) {
    let data = tempfile::tempdir().unwrap();
    let pegs = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let theirs = Simulator::new(protocol, Board::default(), None).unwrap();
    let server = Server::with_venue(
        data.path(),
        &format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\nopponent_board = \"{}:{}\"\ncontrol = \"15+10\"\n",
            pegs.path().display(),
            protocol.name(),
            theirs.path().display()
        ),
    );
    let addr = server.addr.clone();
    wait_for("both boards to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["opponent_board"]["connected"] == true).then_some(())
    });
    (data, server, pegs, theirs)
}

/// A sighted opponent slides pieces at human speed on an electronic board
/// (and presses the DGT clock after each move): every move is the move
/// made, none a square a piece only passed.
fn sighted_opponent_slides(protocol: Protocol) {
    let seed = std::env::var("TACTUS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Rng::from_env("TACTUS_HANDS_NONE").next_u64() >> 16);
    eprintln!(
        "sighted opponent on {}: TACTUS_SEED={seed} replays this run",
        protocol.name()
    );
    let (_data, server, mut pegs, mut theirs) = sighted_table(protocol);
    let addr = server.addr.clone();
    let mut hands = Hands::new(seed, Timing::brisk());
    let mut pos = Chess::default();
    for (i, uci) in GAME.iter().enumerate() {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let what = format!("ply {} ({uci}), seed {seed}", i + 1);
        if pos.turn() == Color::White {
            let plan = hands.plan(&pos, m, protocol, true);
            theirs.perform(&plan).unwrap();
            wait_for(&what, LIMIT, || (moves(&addr).len() == i + 1).then_some(()));
            pegs.play(uci, false).unwrap();
        } else {
            pegs.play(uci, false).unwrap();
            wait_for(&what, LIMIT, || (moves(&addr).len() == i + 1).then_some(()));
            theirs.press_clock(Color::Black);
            let plan = hands.plan(&pos, m, protocol, false);
            theirs.perform(&plan).unwrap();
        }
        pos.play_unchecked(m);
        wait_for(&format!("{what}: both boards in step"), LIMIT, || {
            let t = table(&addr);
            (t["board"]["in_sync"] == true && t["opponent_board"]["in_sync"] == true).then_some(())
        });
    }
    let t = table(&addr);
    assert_eq!(
        moves(&addr),
        [
            "e4", "c6", "d4", "d5", "Nc3", "dxe4", "Nxe4", "Nf6", "Qd3", "e5", "dxe5", "Qa5+",
            "Bd2", "Qxe5", "O-O-O", "Nxe4", "Qd8+", "Kxd8", "Bg5+", "Kc7", "Bd8#"
        ],
        "seed {seed}"
    );
    assert!(t["illegal"].as_array().unwrap().is_empty(), "{t}");
}

#[test]
fn a_sighted_opponent_slides_on_a_dgt_board() {
    sighted_opponent_slides(Protocol::Dgt);
}

#[test]
fn a_sighted_opponent_slides_on_a_millennium_board() {
    sighted_opponent_slides(Protocol::Millennium);
}

#[test]
fn a_slide_resting_on_its_way_is_corrected_before_the_blind_player_replies() {
    use shakmaty::Square::*;
    let (data, server, mut pegs, mut theirs) = sighted_table(Protocol::Millennium);
    let addr = server.addr.clone();
    theirs.play("e2e4", false).unwrap();
    wait_for("1. e4", LIMIT, || (moves(&addr).len() == 1).then_some(()));
    pegs.play("e2e4", false).unwrap();
    pegs.play("c7c6", false).unwrap();
    wait_for("1... c6", LIMIT, || (moves(&addr).len() == 2).then_some(()));
    theirs.play("c7c6", false).unwrap();
    // The bishop rests on d3 far longer than any slide (read as Bd3) ...
    theirs.lift(F1).unwrap();
    theirs.put(D3, Some(Color::White.bishop())).unwrap();
    wait_for("2. Bd3 read", LIMIT, || {
        (moves(&addr).last().map(String::as_str) == Some("Bd3")).then_some(())
    });
    // ... and goes on along its line: one move, Bc4.
    theirs.lift(D3).unwrap();
    theirs.put(C4, Some(Color::White.bishop())).unwrap();
    wait_for("2. Bc4 corrected", LIMIT, || {
        (moves(&addr) == ["e4", "c6", "Bc4"]).then_some(())
    });
    let t = table(&addr);
    assert_eq!(t["turn"], "black", "{t}");
    assert_eq!(t["clock"]["running_side"], "black", "{t}");
    assert!(t["illegal"].as_array().unwrap().is_empty(), "{t}");
    // The blind player carries out Bc4; their board agrees.
    pegs.play("f1c4", false).unwrap();
    wait_for("the peg board in step", LIMIT, || {
        (table(&addr)["board"]["in_sync"] == true).then_some(())
    });
    // The journal holds it as a correction, not a ruling: Bd3 taken back
    // with `slid`, then Bc4 made; and it replays to the same game.
    drop(server);
    let conn = rusqlite::Connection::open(data.path().join("journal.sqlite")).unwrap();
    let payloads: Vec<String> = conn
        .prepare("SELECT payload FROM events ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let slid = payloads
        .iter()
        .position(|p| p.contains("\"slid\":true"))
        .unwrap_or_else(|| panic!("no slide correction journaled: {payloads:#?}"));
    assert!(
        payloads[..slid].iter().any(|p| p.contains("f1d3")),
        "{payloads:#?}"
    );
    assert!(
        payloads[slid..].iter().any(|p| p.contains("f1c4")),
        "{payloads:#?}"
    );
    assert_eq!(
        payloads
            .iter()
            .filter(|p| p.contains("\"slid\":true"))
            .count(),
        1,
        "one correction: {payloads:#?}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["journal", "check"])
        .arg(data.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
