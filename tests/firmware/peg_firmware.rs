//! The peg board's own firmware (`firmware/peg-board`), the UF2 file a
//! builder flashes, running in an RP2040 emulator (rp2040js), followed by
//! `tactus serve` over the firmware's USB serial port (a pseudo-terminal,
//! as `/dev/ttyACM0` would be): a whole game played by the hands model on
//! the board's switches (touches, bounces, wrong holes, captures either
//! way, castling, en passant, an under-promotion named with a frame
//! button), every move found from the firmware's own lines. The harness is
//! `tactus_testkit::peg_firmware`; `scripts/test` builds the firmware
//! (`scripts/firmware`) and installs rp2040js first.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{Rng, Server, post, table, tokens, wait_for};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use tactus_board::event::Protocol;
use tactus_board::hands::{Hands, Timing};
use tactus_testkit::peg_firmware::{EmulatedPegBoard, Parts};

const LIMIT: Duration = Duration::from_secs(30);

/// The firmware's hello: its version and the flash's unique ID, which the
/// emulated flash gives as zeros. The table is pinned to it: the board is
/// followed only once the firmware has said it.
const HELLO: &str = "tactus peg board 0.1.0 0000000000000000 debounced=10ms";

/// White (blind, on the emulated peg board) takes en passant, captures,
/// under-promotes to a knight (frame button 4) and castles; Black's moves
/// are entered by the assistant and carried out on the board by White's
/// hands.
const GAME: [&str; 15] = [
    "e2e4", "g8f6", "e4e5", "d7d5", "e5d6", "b8c6", "d6c7", "e7e6", "c7d8n", "e8d8", "g1f3",
    "f8d6", "f1c4", "c8d7", "e1g1",
];
const SAN: [&str; 15] = [
    "e4", "Nf6", "e5", "d5", "exd6", "Nc6", "dxc7", "e6", "cxd8=N", "Kxd8", "Nf3", "Bd6", "Bc4",
    "Bd7", "O-O",
];

fn parts() -> Parts {
    Parts::find(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(addr: &str) -> Vec<String> {
    table(addr)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_whole_game_followed_from_the_firmwares_own_lines() {
    let seed = std::env::var("TACTUS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Rng::from_env("TACTUS_HANDS_NONE").next_u64() >> 16);
    eprintln!("peg firmware: TACTUS_SEED={seed} replays this run");
    let board = EmulatedPegBoard::start(&parts()).unwrap();
    // The pegs of the starting position, seated before tactus connects.
    for sq in shakmaty::Board::default().occupied() {
        board.command(&format!("close {sq}")).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let server = Server::with_venue(
        data.path(),
        &format!(
            "[[table]]\nid = \"1\"\nblind = \"white\"\nboard = \"peg:{}\"\nboard_hello = \"{HELLO}\"\ncontrol = \"15+10\"\n",
            board.path().display()
        ),
    );
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(data.path(), "1");
    wait_for("the emulated board connected and in step", LIMIT, || {
        let t = table(&addr);
        (t["board"]["connected"] == true && t["board"]["in_sync"] == true).then_some(())
    });
    let mut hands = Hands::new(seed, Timing::brisk());
    let mut pos = Chess::default();
    for (i, uci) in GAME.iter().enumerate() {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let what = format!("ply {} ({uci}), seed {seed}", i + 1);
        if pos.turn() == Color::White {
            let plan = hands.plan(&pos, m, Protocol::Peg, true);
            board.perform(&plan).unwrap();
            wait_for(&what, LIMIT, || (moves(&addr).len() == i + 1).then_some(()));
        } else {
            let body = format!(r#"{{"move":"{uci}"}}"#);
            let r = post(&addr, "/api/tables/1/move", &assistant, &body);
            assert_eq!(r.status, 200, "{what}: {}", r.body);
            let plan = hands.plan(&pos, m, Protocol::Peg, false);
            board.perform(&plan).unwrap();
        }
        pos.play_unchecked(m);
        wait_for(&format!("{what}: the board in step"), LIMIT, || {
            let t = table(&addr);
            (t["board"]["in_sync"] == true && moves(&addr).len() == i + 1).then_some(())
        });
    }
    let t = table(&addr);
    assert_eq!(moves(&addr), SAN, "seed {seed}");
    assert!(t["illegal"].as_array().unwrap().is_empty(), "{t}");
    assert!(t["board"]["not_followed"].is_null(), "{t}");

    // The same lines went out on UART0, each a line of the peg protocol;
    // the promotion's button among them.
    let uart = board.uart();
    let mut decoder = tactus_board::peg::PegDecoder::default();
    let mut decoded = Vec::new();
    tactus_board::event::Decoder::feed(&mut decoder, uart.as_bytes(), &mut decoded);
    assert!(
        decoded
            .iter()
            .all(|d| matches!(d, tactus_board::event::Decoded::Event(_))),
        "{uart}"
    );
    assert!(uart.lines().any(|l| l == "B 4"), "{uart}");
    assert!(uart.lines().any(|l| l == "P g1"), "{uart}");
    let serial = board.serial_number().unwrap();
    assert!(
        serial.len() == 16 && serial.bytes().all(|b| b.is_ascii_hexdigit()),
        "{serial:?}"
    );
    // The firmware fed its watchdog all game.
    let stats = board.stats().unwrap();
    assert_eq!(stats["watchdog_fired"], 0, "{stats}");
    eprintln!("peg firmware: seed {seed}; emulator {stats}");
}

/// `tactus board holes` on a newly built board: the builder walks every
/// hole; one switch never closes (c3: a broken wire) and one never opens
/// (f6: a short), and both are named when the walk is stopped (Ctrl-C).
#[test]
fn the_wiring_check_names_a_hole_that_never_closes_and_one_that_never_opens() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;

    let board = EmulatedPegBoard::start(&parts()).unwrap();
    // Shorted: closed before the board is read.
    board.command("close f6").unwrap();
    board.wait_uart("P f6").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["board", "holes", "--seconds", "120", "--port"])
        .arg(board.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = Vec::new();
    let mut until = |want: &str| loop {
        let line = rx
            .recv_timeout(LIMIT)
            .unwrap_or_else(|_| panic!("no {want:?} in {said:#?}; emulator {:?}", board.said()));
        said.push(line.clone());
        if line.starts_with(want) {
            return;
        }
    };
    until("scan: 1 of 64 seen closed");
    for sq in shakmaty::Square::ALL {
        if sq == shakmaty::Square::F6 {
            continue;
        }
        if sq != shakmaty::Square::C3 {
            board.command(&format!("close {sq}")).unwrap();
            std::thread::sleep(Duration::from_millis(30));
        }
        board.command(&format!("open {sq}")).unwrap();
        std::thread::sleep(Duration::from_millis(30));
    }
    until("h8 closes");
    // Ctrl-C: the walk is over.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        said.push(line);
    }
    assert_eq!(status.code(), Some(2), "{said:#?}");
    let end = &said[said.len() - 2..];
    assert_eq!(
        end,
        ["never closed: c3", "never opened: f6"],
        "{said:#?}\nUART: {}\nemulator: {:?}",
        board.uart(),
        board.said()
    );
}
