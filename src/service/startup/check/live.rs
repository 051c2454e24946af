//! The check of a running table (the arbiter page's): what its parts
//! report now, nothing opened again.

use tactus_speech::device::AudioState;

use super::faults::{Fault, LiveFault, noise};
use super::lines::{Line, Part};

/// The lines of a table that is running (the arbiter page's check): what
/// its parts report now. The server holds the boards' ports and the sound
/// devices, so nothing is opened again: a board is connected and shows
/// what it should, the sound output is `playing`, the display is
/// connected.
pub fn live(view: &crate::table::view::TableView) -> Vec<Line> {
    let id = &view.id;
    let mut lines = vec![Line::new(
        Some(id),
        Part::Board,
        live_board(view.board.as_ref(), view.moves.is_empty()).map_err(Fault::from),
    )];
    if view.opponent_board.is_some() {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            live_board(view.opponent_board.as_ref(), view.moves.is_empty()).map_err(Fault::from),
        ));
    }
    let audio = &view.audio;
    let (device, error) = (audio.device.clone(), audio.error.clone());
    let sound = match audio.state {
        AudioState::Playing => Ok(format!("{device}: playing")),
        AudioState::TextOnly if error.is_none() => {
            Ok(format!("{device}: text only, nothing is heard"))
        }
        AudioState::TextOnly => Err(LiveFault::TextOnly { device, error }),
        AudioState::Failed => Err(LiveFault::SoundFailed { device, error }),
        AudioState::Starting => Err(LiveFault::SoundStarting { device }),
    };
    lines.push(Line::new(Some(id), Part::Sound, sound.map_err(Fault::from)));
    if let Some(state) = view.braille {
        use crate::table::display::DisplayState;
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            match state {
                DisplayState::Connected => Ok("connected".into()),
                DisplayState::Disconnected => Err(LiveFault::DisplayDisconnected.into()),
                DisplayState::Failing => Err(LiveFault::DisplayFailing.into()),
                DisplayState::Failed => Err(LiveFault::DisplayFailed.into()),
            },
        ));
    }
    lines
}

fn live_board(
    board: Option<&crate::table::view::BoardView>,
    at_start: bool,
) -> Result<String, LiveFault> {
    let Some(b) = board else {
        return Ok("none: moves are entered on the pages".into());
    };
    let noise = noise(b.unreadable);
    if !b.connected {
        return Err(LiveFault::BoardDisconnected {
            unreadable: b.unreadable,
        });
    }
    if b.in_sync {
        let what = if at_start {
            "shows the start position"
        } else {
            "shows the game's position"
        };
        return Ok(format!("connected, {what}{noise}"));
    }
    if let Some(m) = &b.following {
        return Ok(format!(
            "connected, the announced move {m} is being carried out{noise}"
        ));
    }
    Err(LiveFault::BoardDiffers {
        differs: b.differs.clone(),
        unreadable: b.unreadable,
    })
}
