//! The hall before round 1 (`tactus check`): every part of every table
//! tried as the server will use it, one line each, so that a board on the
//! wrong port, a headset not plugged in or a braille display that is off is
//! found before the players sit down, not at the first move.
//!
//! Each check is bounded: a board has [`Wait::board`] to send its position,
//! a sound device [`Wait::sound`] to start playing; nothing is retried. A
//! check changes nothing: it reads the boards' positions, plays one short
//! phrase, shows one line on a display, and writes one probe file in the
//! data folder that it removes.

use std::collections::BTreeSet;
use std::time::Duration;

use shakmaty::{Board, Position};

use crate::table::display::BrailleSpec;

use crate::service::startup::config::{BoardSpec, Config, TableConfig};

// The report's lines and what a check finds wrong (`lines`, `faults`),
// and the probe of each kind of part, a file each.
mod board;
mod braille;
mod faults;
mod folders;
mod lines;
mod live;
mod network;
mod sound;

pub use board::board;
pub use braille::braille;
pub use faults::{
    BoardFault, BrailleFault, DataFault, Fault, Finding, ListenFault, LiveFault, ProbeFault,
    SoundFault, VoiceFault,
};
pub use folders::data_folder;
pub use lines::{Line, Part};
pub use live::live;
pub use network::{https, listen};
pub use sound::{sound, test_phrase, voice};

/// How long each part may take to answer.
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// For a board's position after the host's start requests.
    pub board: Duration,
    /// For a sound device to start playing.
    pub sound: Duration,
}

impl Default for Wait {
    fn default() -> Wait {
        Wait {
            board: Duration::from_secs(3),
            sound: Duration::from_secs(3),
        }
    }
}

/// Every line for the venue: each table's parts in order, then the voice
/// packs, the data folder, the listen address and the page addresses.
pub fn venue(config: &Config, wait: Wait) -> Vec<Line> {
    let mut lines = Vec::new();
    for t in &config.tables {
        lines.extend(table(config, t, wait));
    }
    // A listed player's own display, which follows them.
    for p in config
        .players
        .iter()
        .filter(|p| p.braille != BrailleSpec::None)
    {
        let whose = format!("player {}", p.start_rank);
        lines.push(Line::new(
            None,
            Part::Braille,
            match braille(&p.braille, &whose) {
                Ok(ok) => Ok(format!("{whose} ({}): {ok}", p.name)),
                Err(fault) => Err(Fault::PlayersDisplay {
                    whose: whose.clone(),
                    name: p.name.clone(),
                    fault,
                }),
            },
        ));
    }
    let mut voices: BTreeSet<&str> = BTreeSet::new();
    voices.insert(&config.speech.voice);
    for t in &config.tables {
        if let Some(v) = &t.voice {
            voices.insert(v);
        }
    }
    for v in voices {
        lines.push(Line::new(
            None,
            Part::Voice,
            voice(v)
                .map(|_| format!("`{v}` passes voices check"))
                .map_err(Fault::from),
        ));
    }
    lines.push(Line::new(
        None,
        Part::Data,
        data_folder(&config.server.data).map_err(Fault::from),
    ));
    lines.extend(listen(config.server.listen));
    if let Some(line) = https(config) {
        lines.push(line);
    }
    lines
}

/// The lines of one table: its boards, its sound, its braille display.
pub fn table(config: &Config, t: &TableConfig, wait: Wait) -> Vec<Line> {
    let id = &t.id;
    let mut lines = Vec::new();
    let start = start_board(t);
    lines.push(Line::new(
        Some(id),
        Part::Board,
        board(&t.board, &start, wait.board).map_err(Fault::from),
    ));
    if t.opponent_board != BoardSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::OpponentBoard,
            board(&t.opponent_board, &start, wait.board).map_err(Fault::from),
        ));
    }
    let name = t.voice.as_ref().unwrap_or(&config.speech.voice);
    let sound_line = match voice(name) {
        Ok(pack) => sound(
            t.audio_or(&config.speech.audio),
            &pack,
            id.as_str(),
            wait.sound,
        ),
        Err(e) => Err(SoundFault::NoVoice(e)),
    };
    lines.push(Line::new(
        Some(id),
        Part::Sound,
        sound_line.map_err(Fault::from),
    ));
    if t.braille != BrailleSpec::None {
        lines.push(Line::new(
            Some(id),
            Part::Braille,
            braille(&t.braille, &format!("table {id}")).map_err(Fault::from),
        ));
    }
    lines
}

/// The pieces the table's boards must show before the first move.
fn start_board(t: &TableConfig) -> Board {
    t.start.position().board().clone()
}
