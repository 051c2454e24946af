//! The D.2.9 ruling at a live table: both scoresheets against tactus's own
//! record, with the clocks tactus recorded after every ply ([`rule_at_table`],
//! and the JSON the pages read); and the arbiter's action that asks for it
//! and, if told, applies it.

use std::time::Duration;

use serde::Serialize;
use shakmaty::{ByColor, Color, Position};

use tactus_rules::clock::ClockSetting;
use tactus_rules::game::Game;
use tactus_rules::notation::Lang;
use tactus_rules::ruling::{ClockRecord, ClockRuling, Ruling, longer_sheet, rule};
use tactus_rules::sheet::read_sheet;

/// A ruling and what applying it does to the game.
pub struct TableRuling {
    pub json: RulingJson,
    /// Plies to keep.
    pub agreed_plies: usize,
    /// The clocks to restore (times recorded at the agreed ply).
    pub clock: Option<ClockSetting>,
}

/// The ruling as the arbiter's page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct RulingJson {
    #[serde(flatten)]
    pub ruling: Ruling,
    /// Both clocks to restore, for the page.
    pub clock: Option<ClockJson>,
}

/// The clocks a ruling restores.
#[derive(Debug, Clone, Serialize)]
pub struct ClockJson {
    /// White's time to restore, in milliseconds.
    pub white_ms: u64,
    /// Black's time to restore, in milliseconds.
    pub black_ms: u64,
    /// Never a proposal here: tactus recorded the times itself.
    pub proposal: bool,
}

/// Why a ruling cannot be applied at the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulingRefused {
    /// The sheets agree on `agreed` plies (`lagging`: one of them behind
    /// the other) but tactus's own record differs from them at ply `from`:
    /// the position must be set by hand, not by retraction.
    #[error(
        "the scoresheets agree{} on {agreed} plies but differ from tactus's record at ply {from}: \
         set the position by hand",
        if *lagging { " (one lags behind)" } else { "" }
    )]
    OffRecord {
        agreed: usize,
        lagging: bool,
        from: usize,
    },
}

/// Rules on the two sheets. Refused (with a sentence for the arbiter) when
/// the sheets' agreed moves are not the start of tactus's own record: then
/// the position must be set by hand, not by retraction.
pub fn rule_at_table(game: &Game, sheets: &ByColor<String>) -> Result<TableRuling, RulingRefused> {
    let start = game.start();
    let white = read_sheet(start, &sheets.white, Lang::Auto);
    let black = read_sheet(start, &sheets.black, Lang::Auto);
    // Times after each ply, with the start times first: index = plies.
    let mut times = Vec::with_capacity(game.plies().len() + 1);
    let first = game.clock().control().period(1).time;
    times.push(ByColor {
        white: first,
        black: first,
    });
    for ply in game.plies() {
        times.push(ply.left);
    }
    let record = ClockRecord::Recorded(times.clone());
    let ruling = rule(
        start,
        ByColor {
            white: &white,
            black: &black,
        },
        ByColor {
            white: None,
            black: None,
        },
        Some(&record),
    );
    // Plies the position to play on stands after: the agreed ones, plus
    // those a lagging sheet has yet to write (8.1.3). tactus's own record
    // must hold every one of them, or the arbiter sees why before anything
    // is applied.
    let kept = ruling.plies_played_on();
    let longer = longer_sheet(&white, &black);
    let ours: Vec<shakmaty::uci::UciMove> = game.plies().iter().map(|p| p.uci).collect();
    let theirs: Vec<shakmaty::uci::UciMove> = longer
        .moves
        .iter()
        .take(kept)
        .map(|m| shakmaty::uci::UciMove::from_move(*m, game.start().castles().mode()))
        .collect();
    if ours.len() < kept || ours[..kept] != theirs[..] {
        let from = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count() + 1;
        return Err(RulingRefused::OffRecord {
            agreed: kept,
            lagging: kept > ruling.agreed_plies,
            from,
        });
    }
    let agreed = kept;
    let clock = match ruling.clocks {
        ClockRuling::Recorded { white_ms, black_ms } => {
            Some(setting(game, agreed, white_ms, black_ms))
        }
        // Sheets that agree but stop before tactus's record: applying goes
        // back to their end, so the clocks go back to the times recorded
        // there too (7.1), or the side to move on the clock would not be
        // the side to move on the board.
        _ if agreed < game.plies().len() => times
            .get(agreed)
            .map(|t| setting(game, agreed, t.white, t.black)),
        _ => None,
    };
    Ok(TableRuling {
        json: RulingJson {
            clock: clock.map(|c| ClockJson {
                white_ms: c.white.as_millis() as u64,
                black_ms: c.black.as_millis() as u64,
                proposal: false,
            }),
            ruling,
        },
        agreed_plies: agreed,
        clock,
    })
}

/// The clock setting for the position after `plies` half-moves.
fn setting(game: &Game, plies: usize, white: Duration, black: Duration) -> ClockSetting {
    let first_white = game.start().turn() == Color::White;
    let (white_moves, black_moves) = if first_white {
        (plies.div_ceil(2), plies / 2)
    } else {
        (plies / 2, plies.div_ceil(2))
    };
    let to_move = if plies.is_multiple_of(2) == first_white {
        Color::White
    } else {
        Color::Black
    };
    ClockSetting {
        white,
        black,
        white_moves: white_moves as u32,
        black_moves: black_moves as u32,
        to_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactus_rules::announce::Style;
    use tactus_rules::event::GameEvent;

    fn sheets(white: &str, black: &str) -> ByColor<String> {
        ByColor {
            white: white.to_owned(),
            black: black.to_owned(),
        }
    }

    fn game_with(moves: &[&str]) -> Game {
        let mut g = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
        for (i, uci) in moves.iter().enumerate() {
            g.apply(
                Duration::from_secs(10 * (i as u64 + 1)),
                &GameEvent::MovePlayed {
                    uci: uci.parse().unwrap(),
                },
            )
            .unwrap();
        }
        g
    }

    #[test]
    fn a_lagging_sheet_keeps_the_plies_tactus_recorded() {
        let g = game_with(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
        // Black's sheet (German) two plies behind White's: agree, keep 5.
        let r =
            rule_at_table(&g, &sheets("1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. e4 e5 2. Sf3")).unwrap();
        assert_eq!(r.agreed_plies, 5);
        let json = serde_json::to_value(&r.json).unwrap();
        assert_eq!(json["case"], "agree");
        assert_eq!(json["agreed_plies"], 3);
        assert_eq!(json["incomplete"]["side"], "black");
        assert_eq!(json["incomplete"]["plies"], serde_json::json!([4, 5]));
    }

    #[test]
    fn a_lag_tactus_did_not_record_is_shown_before_anything_is_applied() {
        // tactus saw only four plies: the longer sheet's fifth is not on its record.
        let g = game_with(&["e2e4", "e7e5", "g1f3", "b8c6"]);
        let err = rule_at_table(&g, &sheets("1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. e4 e5 2. Nf3"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("5 plies") && err.contains("ply 5"), "{err}");
        // A record with a different fifth move: refused too.
        let g = game_with(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]);
        let err = rule_at_table(&g, &sheets("1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. e4 e5 2. Nf3"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("ply 5"), "{err}");
    }

    #[test]
    fn agreeing_sheets_short_of_the_record_restore_the_clocks_there() {
        // tactus saw five plies; both sheets stop after three.
        let g = game_with(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
        let r = rule_at_table(&g, &sheets("1. e4 e5 2. Nf3", "1. e4 e5 2. Sf3")).unwrap();
        assert_eq!(r.agreed_plies, 3);
        let clock = r.clock.expect("the clocks go back with the moves");
        assert_eq!(clock.to_move, Color::Black);
        assert_eq!((clock.white_moves, clock.black_moves), (2, 1));
        // The times recorded after ply 3 (White's move at 30 s).
        assert_eq!(clock.white, g.plies()[2].left.white);
        assert_eq!(clock.black, g.plies()[2].left.black);
        // Applying it leaves a game whose clock and board agree.
        let mut g2 = g.clone();
        g2.apply(
            Duration::from_secs(100),
            &GameEvent::Retracted {
                plies: r.agreed_plies,
                clock: r.clock,
                slid: false,
            },
        )
        .unwrap();
        assert_eq!(g2.clock().to_move(), g2.position().turn());
    }
}
