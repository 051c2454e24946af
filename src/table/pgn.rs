//! A table's game as PGN: the players, the time control, the clock after
//! every move (`[%clk]`), draw offers and the result.

use shakmaty::{Outcome, Position};

use super::setup::Setup;
use tactus_rules::game::Game;
use tactus_rules::pgn::{GameRecord, RecordedMove, fen_of};
use tactus_rules::variant::{Variant, chess960_number};

/// The game at a table as a PGN text.
pub fn game_pgn(setup: &Setup, game: &Game) -> String {
    let mut record = GameRecord::new();
    let date = game
        .plies()
        .first()
        .map(|p| pgn_date(p.at.as_secs()))
        .unwrap_or_else(|| "????.??.??".into());
    let mut set = |name: &str, value: &str| {
        if value.is_empty() {
            return;
        }
        match record.tags.iter_mut().find(|(k, _)| k == name) {
            Some(tag) => tag.1 = value.to_owned(),
            None => record.tags.push((name.to_owned(), value.to_owned())),
        }
    };
    set("Event", &setup.event);
    set("Date", &date);
    set("Round", &setup.round);
    set("White", &setup.white);
    set("Black", &setup.black);
    set("Board", &setup.id);
    set("Mode", "OTB");
    if let Some(r) = game.result() {
        set("Termination", &r.reason());
    }
    record.time_control = Some(setup.control.clone());
    if setup.fen.is_some() {
        record.start = Some(fen_of(game.start()));
        record.variant = variant_of(game.start());
    }
    let mut pos = game.start().clone();
    for ply in game.plies() {
        // Every ply was checked when it was played.
        let Some(m) = ply.uci.to_move(&pos).ok() else {
            break;
        };
        let mover = pos.turn();
        record.moves.push(RecordedMove {
            m,
            clock: Some(*ply.left.get(mover)),
            draw_offer: ply.draw_offer,
        });
        pos.play_unchecked(m);
    }
    record.result = match game.result() {
        Some(r) => Outcome::Known(r.outcome),
        None => Outcome::Unknown,
    };
    record
        .to_pgn()
        .unwrap_or_else(|e| format!("; the game could not be written as PGN: {e}\n"))
}

/// Chess960 for a game with Chess960 castling or from a Chess960 start
/// position (a few of which castle as standard chess does).
fn variant_of(start: &shakmaty::Chess) -> Variant {
    if start.castles().mode().is_chess960() || chess960_number(start).is_some() {
        Variant::Chess960
    } else {
        Variant::Standard
    }
}

/// `YYYY.MM.DD` for seconds since the Unix epoch (UTC).
fn pgn_date(secs: u64) -> String {
    let (y, m, d) = tactus_rules::date::civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_795_305_600), "2026.11.22");
    }
}
