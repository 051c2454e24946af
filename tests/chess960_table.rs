//! A Chess960 table (FIDE Laws, Guidelines III): `variant = "chess960"` and
//! a start position number in the venue configuration; the game starts from
//! that position on the tactile board, castling is said as castling and
//! followed on the board, and the PGN export names the variant and the
//! start.

mod common;

use std::time::Duration;

use common::{Server, get, post, table, tokens, wait_for};
use shakmaty::san::SanPlus;
use tactus::board::event::Protocol;
use tactus::board::sim::Simulator;
use tactus::rules::pgn::read_pgn;
use tactus::rules::variant::{Variant, chess960_start};

const LIMIT: Duration = Duration::from_secs(20);

/// Start position 14: `QNNRKBBR`, king on e1, rooks on d1 and h1: castling
/// long takes the king to c1 and leaves the rook on d1.
const START: u32 = 14;
const START_FEN: &str = "qnnrkbbr/pppppppp/8/8/8/8/PPPPPPPP/QNNRKBBR w KQkq - 0 1";

fn moves(addr: &str) -> usize {
    table(addr)["moves"].as_array().unwrap().len()
}

#[test]
fn a_chess960_game_at_a_table() {
    let data = tempfile::tempdir().unwrap();
    let start = chess960_start(START).unwrap();
    let mut sim = Simulator::new(
        Protocol::Peg,
        shakmaty::Position::board(&start).clone(),
        None,
    )
    .unwrap();
    let config = data.path().join("venue.toml");
    std::fs::write(
        &config,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\n\
             variant = \"chess960\"\nstart_position = {START}\n",
            sim.path().display()
        ),
    )
    .unwrap();
    let server = Server::start(data.path(), &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(data.path(), "1");
    wait_for("the board to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["board"]["in_sync"] == true).then_some(())
    });

    // White through the assistant, carried out on the tactile board by the
    // blind player; Black on the tactile board.
    let white = |mv: &str, uci: &str, sim: &mut Simulator, ply: usize| {
        let r = post(
            &addr,
            "/api/tables/1/move",
            &assistant,
            &format!(r#"{{"move":"{mv}"}}"#),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let said = r.json()["text"].as_str().unwrap().to_owned();
        sim.play(uci, false).unwrap();
        wait_for(&format!("{mv} to be followed"), LIMIT, || {
            let t = table(&addr);
            (t["board"]["in_sync"] == true && moves(&addr) == ply).then_some(())
        });
        said
    };
    white("Nd3", "c1d3", &mut sim, 1);
    sim.play("c8d6", false).unwrap();
    wait_for("Black's Nd6", LIMIT, || (moves(&addr) == 2).then_some(()));
    // Written as the king onto its rook, as Chess960 programs do.
    let said = white("O-O-O", "e1d1", &mut sim, 3);
    assert_eq!(said, "Lange Rochade");
    sim.play("e8d8", false).unwrap();
    wait_for("Black's castling on the board", LIMIT, || {
        (moves(&addr) == 4).then_some(())
    });

    let pgn = get(&addr, "/api/tables/1/pgn").body;
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{START_FEN}\"]")), "{pgn}");
    let record = read_pgn(&pgn).unwrap();
    assert_eq!(record.variant, Variant::Chess960);
    let mut pos = record.start_position().unwrap();
    let sans: Vec<String> = record
        .moves
        .iter()
        .map(|rm| SanPlus::from_move_and_play_unchecked(&mut pos, rm.m).to_string())
        .collect();
    assert_eq!(sans, ["Nd3", "Nd6", "O-O-O", "O-O-O"], "{pgn}");
    assert!(record.moves.iter().all(|rm| rm.clock.is_some()), "{pgn}");
    drop(server);
}
