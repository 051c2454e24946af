//! A board's probe: its port opened, the host's start requests sent, and
//! the position it answers with held against the start position.

use std::time::{Duration, Instant};

use shakmaty::{Board, Square};

use tactus_board::event::{BoardEvent, Decoded, decoder};
use tactus_board::link;

use crate::service::startup::config::BoardSpec;

use super::faults::BoardFault;

/// How long one read of a board waits before the deadline is looked at.
const BOARD_POLL: Duration = Duration::from_millis(50);
/// Unreadable pieces a board may send before the check gives up on it:
/// a board at the wrong speed sends nothing else.
pub(super) const GARBAGE_LIMIT: usize = 64;

/// Opens a board's port, sends the host's start requests and waits at most
/// `wait` for its position: a peg board's occupancy scan, a DGT board's
/// dump, a ChessLink board's status.
pub fn board(spec: &BoardSpec, start: &Board, wait: Duration) -> Result<String, BoardFault> {
    let Some((protocol, port, baud)) = spec.wired() else {
        return Ok(match spec {
            BoardSpec::Sim => "simulated peg board (sim): nothing to check".into(),
            _ => "none: moves are entered on the pages".into(),
        });
    };
    let name = format!("{} {port}", protocol.name());
    let mut link = match link::open(port, protocol.framing(baud), BOARD_POLL) {
        Ok(link) => link,
        Err(source) => return Err(BoardFault::Open { name, source }),
    };
    let mut decoder = decoder(protocol);
    if let Err(source) = link.write_all(decoder.start_requests()) {
        return Err(BoardFault::Write { name, source });
    }
    let deadline = Instant::now() + wait;
    let mut buf = [0u8; 1024];
    let mut out = Vec::new();
    let mut bytes = 0usize;
    let mut garbage: Vec<String> = Vec::new();
    while Instant::now() < deadline {
        match link.read(&mut buf) {
            Ok(0) => return Err(BoardFault::Closed { name }),
            Ok(n) => {
                bytes += n;
                out.clear();
                decoder.feed(&buf[..n], &mut out);
                for d in &out {
                    match d {
                        Decoded::Event(BoardEvent::Scan(occupied)) => {
                            return occupancy(&name, *occupied, start);
                        }
                        Decoded::Event(BoardEvent::Dump(found)) => {
                            return pieces(&name, found, start);
                        }
                        Decoded::Unreadable(u) if garbage.len() < GARBAGE_LIMIT => {
                            garbage.push(u.what.clone());
                        }
                        _ => {}
                    }
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut
                        | std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::Interrupted
                ) => {}
            Err(source) => return Err(BoardFault::Read { name, source }),
        }
    }
    let secs = wait.as_secs_f32();
    Err(if bytes == 0 {
        BoardFault::Silent { name, secs }
    } else if let Some(first) = garbage.first() {
        BoardFault::Garbage {
            pieces: garbage.len(),
            first: first.clone(),
            name,
            secs,
        }
    } else {
        BoardFault::NoPosition { name, bytes, secs }
    })
}

/// A peg board's holes against the start position's.
fn occupancy(name: &str, found: shakmaty::Bitboard, start: &Board) -> Result<String, BoardFault> {
    let wanted = start.occupied();
    if found == wanted {
        return Ok(format!("{name}: answers, start position"));
    }
    let mut diffs: Vec<String> = Vec::new();
    for sq in (found ^ wanted).into_iter() {
        diffs.push(if found.contains(sq) {
            format!("{sq} filled")
        } else {
            format!("{sq} empty")
        });
    }
    Err(BoardFault::NotStart {
        name: name.to_owned(),
        differs: diffs,
    })
}

/// An electronic board's pieces against the start position's.
fn pieces(name: &str, found: &Board, start: &Board) -> Result<String, BoardFault> {
    let mut diffs = Vec::new();
    for sq in Square::ALL {
        let (want, got) = (start.piece_at(sq), found.piece_at(sq));
        if want != got {
            diffs.push(match got {
                Some(p) => format!("{sq} {} {:?}", p.color, p.role).to_lowercase(),
                None => format!("{sq} empty"),
            });
        }
    }
    if diffs.is_empty() {
        Ok(format!("{name}: answers, start position"))
    } else {
        Err(BoardFault::NotStart {
            name: name.to_owned(),
            differs: diffs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn a_peg_board_off_the_start_names_the_squares() {
        let start = Chess::default().board().clone();
        let mut found = start.occupied();
        found.toggle(Square::E2);
        found.toggle(Square::E4);
        let e = occupancy("peg /dev/x", found, &start).unwrap_err();
        assert_eq!(
            e.to_string(),
            "peg /dev/x: not the start position: e2 empty, e4 filled"
        );
        assert!(occupancy("p", start.occupied(), &start).is_ok());
    }

    #[test]
    fn many_differences_are_cut_short() {
        let start = Chess::default().board().clone();
        let e = pieces("dgt x", &Board::empty(), &start)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("and 24 more"), "{e}");
    }
}
