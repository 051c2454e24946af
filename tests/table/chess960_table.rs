//! A Chess960 table (FIDE Laws, Guidelines III): `variant = "chess960"` and
//! a start position number in the venue configuration; the game starts from
//! that position on the tactile board, castling is said as castling and
//! followed on the board, and the PGN export names the variant and the
//! start.

use crate::common;

use std::time::Duration;

use common::{Server, get, post, table, tokens, wait_for};
use shakmaty::san::SanPlus;
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;
use tactus_rules::pgn::read_pgn;
use tactus_rules::variant::{Variant, chess960_start};

const LIMIT: Duration = Duration::from_secs(20);

fn moves(addr: &str) -> usize {
    table(addr)["moves"].as_array().unwrap().len()
}

/// Plays `plies` at a Chess960 table from start position `number`: White's
/// moves through the assistant (SAN), then carried out on the tactile board
/// by the blind player (the UCI given); Black's on the tactile board. What
/// was said for each White move, and the table's PGN export.
fn play(number: u32, plies: &[(&str, &str)]) -> (Vec<String>, String) {
    let data = tempfile::tempdir().unwrap();
    let start = chess960_start(number).unwrap();
    let mut sim = Simulator::new(
        Protocol::Peg,
        shakmaty::Position::board(&start).clone(),
        None,
    )
    .unwrap();
    let server = Server::with_venue(
        data.path(),
        &format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\n\
             variant = \"chess960\"\nstart_position = {number}\n",
            sim.path().display()
        ),
    );
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(data.path(), "1");
    wait_for("the board to connect", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["board"]["in_sync"] == true).then_some(())
    });
    let mut said = Vec::new();
    for (i, (san, uci)) in plies.iter().enumerate() {
        if i % 2 == 0 {
            let r = post(
                &addr,
                "/api/tables/1/move",
                &assistant,
                &format!(r#"{{"move":"{san}"}}"#),
            );
            assert_eq!(r.status, 200, "{}", r.body);
            said.push(r.json()["text"].as_str().unwrap().to_owned());
            sim.play(uci, false).unwrap();
            wait_for(&format!("{san} to be followed"), LIMIT, || {
                let t = table(&addr);
                (t["board"]["in_sync"] == true && moves(&addr) == i + 1).then_some(())
            });
        } else {
            sim.play(uci, false).unwrap();
            wait_for(&format!("Black's {san}"), LIMIT, || {
                (moves(&addr) == i + 1).then_some(())
            });
        }
    }
    let pgn = get(&addr, "/api/tables/1/pgn").body;
    drop(server);
    (said, pgn)
}

fn sans(pgn: &str) -> Vec<String> {
    let record = read_pgn(pgn).unwrap();
    assert_eq!(record.variant, Variant::Chess960);
    assert!(record.moves.iter().all(|rm| rm.clock.is_some()), "{pgn}");
    let mut pos = record.start_position().unwrap();
    record
        .moves
        .iter()
        .map(|rm| SanPlus::from_move_and_play_unchecked(&mut pos, rm.m).to_string())
        .collect()
}

#[test]
fn a_chess960_game_at_a_table() {
    // Start position 14, `QNNRKBBR`: castling long takes the king from e1
    // to c1 and leaves the rook on d1; written as the king onto its rook.
    let (said, pgn) = play(
        14,
        &[
            ("Nd3", "c1d3"),
            ("Nd6", "c8d6"),
            ("O-O-O", "e1d1"),
            ("O-O-O", "e8d8"),
        ],
    );
    assert_eq!(said[1], "Lange Rochade");
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"qnnrkbbr/pppppppp/8/8/8/8/PPPPPPPP/QNNRKBBR w KQkq - 0 1\"]"),
        "{pgn}"
    );
    assert_eq!(sans(&pgn), ["Nd3", "Nd6", "O-O-O", "O-O-O"]);
}

#[test]
fn castling_that_trades_king_and_rook_is_followed_on_a_peg_board() {
    // Start position 3, `BQNNRKRB`: castling short leaves the king on g1
    // and the rook on f1, the holes they stood in: the blind player lifts
    // both and puts them back, and the board shows the same holes filled.
    let (said, pgn) = play(3, &[("Ne3", "d1e3"), ("Ne6", "d8e6"), ("O-O", "f1g1")]);
    assert_eq!(said[1], "Kurze Rochade");
    assert_eq!(sans(&pgn), ["Ne3", "Ne6", "O-O"]);
}
