//! The D.2.9 ruling at a live table: both scoresheets against tactus's own
//! record, with the clocks tactus recorded after every ply.

use std::time::Duration;

use serde::Serialize;
use shakmaty::{ByColor, Color, Position};

use crate::rules::clock::ClockSetting;
use crate::rules::game::Game;
use crate::rules::ruling::{ClockRecord, ClockRuling, Ruling, rule};
use crate::rules::sheet::{Lang, read_sheet};

/// A ruling and what applying it does to the game.
pub struct TableRuling {
    pub json: RulingJson,
    /// Plies to keep.
    pub agreed_plies: usize,
    /// The clocks to restore (times recorded at the agreed ply).
    pub clock: Option<ClockSetting>,
}

/// The ruling as the arbiter's page shows it.
#[derive(Debug, Serialize)]
pub struct RulingJson {
    #[serde(flatten)]
    pub ruling: Ruling,
    /// Both clocks to restore, for the page.
    pub clock: Option<ClockJson>,
}

#[derive(Debug, Serialize)]
pub struct ClockJson {
    pub white_ms: u64,
    pub black_ms: u64,
    /// Never a proposal here: tactus recorded the times itself.
    pub proposal: bool,
}

/// Rules on the two sheets. Refused (with a sentence for the arbiter) when
/// the sheets' agreed moves are not the start of tactus's own record: then
/// the position must be set by hand, not by retraction.
pub fn rule_at_table(
    game: &Game,
    white_sheet: &str,
    black_sheet: &str,
) -> Result<TableRuling, String> {
    let start = game.start();
    let white = read_sheet(start, white_sheet, Lang::Auto);
    let black = read_sheet(start, black_sheet, Lang::Auto);
    // Times after each ply, with the start times first: index = plies.
    let mut times = Vec::with_capacity(game.plies().len() + 1);
    let first = game.clock().control().period(1).time;
    times.push(ByColor {
        white: first,
        black: first,
    });
    for ply in game.plies() {
        times.push(ByColor {
            white: ply.white_left,
            black: ply.black_left,
        });
    }
    let record = ClockRecord::Recorded(times);
    let ruling = rule(
        start,
        &white,
        &black,
        ByColor {
            white: None,
            black: None,
        },
        Some(&record),
    );
    let agreed = ruling.agreed_plies;
    let ours: Vec<String> = game.plies().iter().map(|p| p.uci.clone()).collect();
    let theirs: Vec<String> = white
        .moves
        .iter()
        .take(agreed)
        .map(|m| shakmaty::uci::UciMove::from_move(*m, game.start().castles().mode()).to_string())
        .collect();
    if ours.len() < agreed || ours[..agreed] != theirs[..] {
        let from = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count() + 1;
        return Err(format!(
            "the scoresheets agree on {agreed} plies but differ from tactus's record at ply {from}: set the position by hand"
        ));
    }
    let clock = match ruling.clocks {
        ClockRuling::Recorded { white_ms, black_ms } => {
            Some(setting(game, agreed, white_ms, black_ms))
        }
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
