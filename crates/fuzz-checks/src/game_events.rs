//! The game as replayed from a journal, or driven by the API: a time
//! control, then one JSON `GameEvent` a line (optionally `@MS ` first, the
//! instant), applied to a `Game`. Never a panic; an event refused changes
//! nothing; every move on the record is legal from the start.

use std::time::Duration;

use shakmaty::Position;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::game::Game;
use tactus_rules::time_control::TimeControl;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let control = lines
        .next()
        .and_then(|l| l.parse::<TimeControl>().ok())
        .unwrap_or_else(|| match "90+30".parse() {
            Ok(tc) => tc,
            Err(e) => panic!("{e}"),
        });
    let Ok(mut game) = Game::new(None, control, Style::Standard) else {
        return;
    };
    let mut at = Duration::ZERO;
    for line in lines {
        let (ms, json) = match line.strip_prefix('@').and_then(|l| l.split_once(' ')) {
            Some((ms, json)) => (ms.parse::<u64>().ok(), json),
            None => (None, line),
        };
        // The table's clock never goes back.
        at = at.max(Duration::from_millis(ms.unwrap_or(0)));
        let Ok(event) = serde_json::from_str::<GameEvent>(json) else {
            continue;
        };
        let before = format!("{game:?}");
        if game.apply(at, &event).is_err() {
            assert_eq!(format!("{game:?}"), before, "{event:?} refused but applied");
        }
        let _ = game.clock().reading(at);
    }
    let mut pos = game.start().clone();
    for ply in game.plies() {
        match ply.uci.to_move(&pos).ok() {
            Some(m) => pos.play_unchecked(m),
            None => panic!("{} on the record is not legal", ply.uci),
        }
    }
    assert_eq!(&pos, game.position());
}
