//! A slide read as two moves: the clocks as they stood before the first.

use std::time::Duration;

use shakmaty::Color;

use tactus_rules::clock::ClockSetting;
use tactus_rules::game::{Game, Ply};
use tactus_rules::time_control::Bonus;

/// The clocks as they would stand now had the last move (the mover's,
/// `mover`) not been made: the mover's clock running since their turn
/// began, the other side's time as it was when the move was read.
pub(super) fn clock_before_slide(game: &Game, mover: Color, now: Duration) -> ClockSetting {
    let clock = game.clock();
    let mut setting = clock.setting(now);
    let plies = game.plies();
    let n = plies.len();
    let left = |p: &Ply, c: Color| *p.left.get(c);
    let last = &plies[n - 1];
    // The mover's time: from the ply before (the start of their turn),
    // less the time since; for the game's first move, the time the move
    // left them less the time since it and the increment it brought.
    let mover_time = match n.checked_sub(2).map(|i| &plies[i]) {
        Some(before) => left(before, mover).saturating_sub(now.saturating_sub(before.at)),
        None => {
            let inc = match clock.control().period(clock.period(mover)).bonus {
                Bonus::Increment(inc) => inc,
                _ => Duration::ZERO,
            };
            left(last, mover)
                .saturating_sub(inc)
                .saturating_sub(now.saturating_sub(last.at))
        }
    };
    let other_time = left(last, !mover);
    match mover {
        Color::White => {
            setting.white = mover_time;
            setting.black = other_time;
            setting.white_moves = setting.white_moves.saturating_sub(1);
        }
        Color::Black => {
            setting.black = mover_time;
            setting.white = other_time;
            setting.black_moves = setting.black_moves.saturating_sub(1);
        }
    }
    setting.to_move = mover;
    setting
}
