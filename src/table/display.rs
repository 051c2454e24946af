//! A braille display at the table, through BrlAPI (brltty): the speaker's
//! counterpart for readers of braille and for deafblind players.
//!
//! Every announcement of the table appears on the display, as the pack's
//! text in literary braille of the table's language (liblouis, with the
//! table for the voice pack's language: a Spanish table reads Spanish
//! braille) or, for moves, in the braille chess code (the table's
//! `braille_shows`); the display's keys ask the table for the repeat, the
//! clock, the board's differences and the last moves. A display that is
//! absent, or a brltty that is not running or goes away, is tried again
//! with the one [`Backoff`](tactus_backoff::Backoff) (50 ms up to 2 s,
//! reset only once a display has answered), logged at most once a minute
//! while it keeps failing, and never holds up the table: the display has a
//! thread of its own, fed like the speaker. Its coming and going is pushed
//! to the table's live stream at once, so a page shows `braille: failing`
//! without waiting for a move. Should the thread itself fail (a panic), the
//! state says `failed` and the thread starts again after the backoff.
//!
//! What a display sends is bounded too: keys wait in a queue of
//! [`KEY_QUEUE`]; more keys while the table is busy are dropped. What the
//! table hands the display is a slot holding the latest content, not a
//! queue: the display shows one thing at a time.

use std::sync::Arc;

use super::actions::PersonRole;
use super::handle::TableHandle;
use super::view::TableView;
use tactus_braille::brlapi::Key;

mod feed;
mod last_moves;
mod settings;
mod slot;
mod state;
mod thread;
mod words;

pub use settings::{BadBrailleSpec, BrailleShows, BrailleSpec};
pub use state::{DisplayState, DisplayStatus};

use feed::feed;
use slot::content_slot;
use thread::{Link, supervise};

/// Keys from the display waiting for the table; more are dropped.
pub const KEY_QUEUE: usize = 16;

/// The display's line at a new game, made from the table's state by the
/// layer that has the words (the service's catalogues, in the table's
/// language, as the player's page says it): the round, the blind player's
/// colour and the opponent's name. The voice says only the colour (its
/// pack has no words for a name); the reader of braille gets all of it.
pub type NewGameLine = Arc<dyn Fn(&TableView) -> String + Send + Sync>;

/// Where a display is now: a table, the role its keys act as there, and
/// the game they act in (a listed player's display acts in their game
/// only).
#[derive(Clone)]
pub struct DisplaySeat {
    pub handle: TableHandle,
    pub role: PersonRole,
    pub game: Option<u32>,
    /// The table's own display: its coming and going is in the table's
    /// state. A player's display, which follows them, is in theirs.
    pub table_display: bool,
}

/// Starts table `handle`'s display: a thread that owns the BrlAPI
/// connection and a task that feeds it the table's announcements and turns
/// its keys into the table's requests. Nothing if `spec` is `none`.
pub fn attach(
    handle: TableHandle,
    spec: &BrailleSpec,
    shows: BrailleShows,
    new_game: NewGameLine,
    status: &DisplayStatus,
) -> std::io::Result<()> {
    let name = handle.id.to_string();
    // A table's display never moves: the sender is dropped at once, and a
    // seat whose sender is gone is kept.
    let (_, seats) = tokio::sync::watch::channel(Some(DisplaySeat {
        handle,
        role: PersonRole::Player,
        game: None,
        table_display: true,
    }));
    attach_following(name, seats, spec, shows, new_game, status)
}

/// Starts a display that follows `seats`: the table it shows and acts at
/// is the latest seat (none: nothing to show, its keys ignored), as a
/// listed player's own display follows them from board to board. `name`
/// names it in the log (a table's id, `player 3`) and its thread.
pub fn attach_following(
    name: String,
    seats: tokio::sync::watch::Receiver<Option<DisplaySeat>>,
    spec: &BrailleSpec,
    shows: BrailleShows,
    new_game: NewGameLine,
    status: &DisplayStatus,
) -> std::io::Result<()> {
    let BrailleSpec::Brlapi(host) = spec.clone() else {
        return Ok(());
    };
    let (content_tx, content_rx) = content_slot();
    let (key_tx, key_rx) = tokio::sync::mpsc::channel::<Key>(KEY_QUEUE);
    // One tick waiting is as good as many: the table republishes its state.
    let (status_tx, status_rx) = tokio::sync::mpsc::channel::<()>(1);
    let link = Link {
        state: status.clone(),
        status: status_tx,
        keys: key_tx,
    };
    std::thread::Builder::new()
        .name(format!("braille-{name}"))
        .spawn(move || supervise(&name, host, &link, &content_rx))?;
    tokio::spawn(feed(seats, shows, new_game, content_tx, key_rx, status_rx));
    Ok(())
}
