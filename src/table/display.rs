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
//! with the one [`Backoff`] (50 ms up to 2 s, reset only once a display has
//! answered), logged at most once a minute while it keeps failing, and
//! never holds up the table: the display has a thread of its own, fed like
//! the speaker. Its coming and going is pushed to the table's live stream
//! at once, so a page shows `braille: failing` without waiting for a move.
//! Should the thread itself fail (a panic), the state says `failed` and the
//! thread starts again after the backoff.
//!
//! What a display sends is bounded too: keys wait in a queue of
//! [`KEY_QUEUE`]; more keys while the table is busy are dropped. What the
//! table hands the display is a slot holding the latest content, not a
//! queue: the display shows one thing at a time.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use shakmaty::san::SanPlus;

use super::actions::{Action, PersonRole};
use super::handle::TableHandle;
use super::view::{Announcement, LiveEvent, TableView};
use tactus_backoff::{AfterPanic, Backoff};
use tactus_braille::brlapi::{BrlapiError, Connection, Key};
use tactus_braille::louis;
use tactus_rules::braille_chess;
use tactus_rules::game::NoticeKind;
use tactus_rules::language::Language;

/// The table setting `braille`: `none`, `brlapi` (the brltty on the
/// server) or `brlapi:HOST:PORT` (a brltty elsewhere, e.g. on the player's
/// own computer; PORT is BrlAPI's number, TCP port 4101 + PORT).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum BrailleSpec {
    #[default]
    None,
    Brlapi(Option<String>),
}

/// A `braille` setting that is none of the three forms, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("braille `{0}`: none, brlapi or brlapi:HOST:PORT (PORT a number)")]
pub struct BadBrailleSpec(pub String);

impl FromStr for BrailleSpec {
    type Err = BadBrailleSpec;
    fn from_str(s: &str) -> Result<BrailleSpec, BadBrailleSpec> {
        match s {
            "none" => Ok(BrailleSpec::None),
            "brlapi" => Ok(BrailleSpec::Brlapi(None)),
            _ => {
                let bad = || BadBrailleSpec(s.to_owned());
                let rest = s.strip_prefix("brlapi:").ok_or_else(bad)?;
                let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
                if host.is_empty() || port.parse::<u16>().is_err() {
                    return Err(bad());
                }
                Ok(BrailleSpec::Brlapi(Some(rest.to_owned())))
            }
        }
    }
}

impl std::fmt::Display for BrailleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrailleSpec::None => f.write_str("none"),
            BrailleSpec::Brlapi(None) => f.write_str("brlapi"),
            BrailleSpec::Brlapi(Some(h)) => write!(f, "brlapi:{h}"),
        }
    }
}

/// The table setting `braille_shows`: what a move looks like on the
/// display.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrailleShows {
    /// The announcement's words, as the pack writes them, in the literary
    /// braille of the table's language (liblouis).
    #[default]
    Words,
    /// Moves in the braille chess code (`docs/braille.md`), as cells;
    /// everything else in words.
    Notation,
}

/// A table's braille display as its state shows it: written by the
/// display's thread, read by the table when it makes its view. The table
/// holds it from its start ([`crate::table::parts::TableParts::display`]),
/// so no process-wide map keyed by table is needed.
#[derive(Debug, Clone)]
pub struct DisplayStatus(Arc<AtomicU8>);

impl DisplayStatus {
    /// A display not yet connected.
    pub fn new() -> DisplayStatus {
        DisplayStatus(Arc::new(AtomicU8::new(DisplayState::Disconnected as u8)))
    }

    /// The display's state now.
    pub fn get(&self) -> DisplayState {
        DisplayState::from_u8(self.0.load(Ordering::Relaxed))
    }

    /// Sets the state; whether it changed.
    fn set(&self, state: DisplayState) -> bool {
        self.0.swap(state as u8, Ordering::Relaxed) != state as u8
    }
}

impl Default for DisplayStatus {
    fn default() -> DisplayStatus {
        DisplayStatus::new()
    }
}

/// A braille display as a table's state shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum DisplayState {
    /// Connected to brltty through BrlAPI.
    Connected = 0,
    /// Configured, but not connected to brltty now (not yet tried, or just
    /// lost after it had answered).
    Disconnected = 1,
    /// Attempts to reach it keep failing; tried again with backoff.
    Failing = 2,
    /// The display's thread failed; it is being started again.
    Failed = 3,
}

impl DisplayState {
    fn from_u8(b: u8) -> DisplayState {
        match b {
            0 => DisplayState::Connected,
            2 => DisplayState::Failing,
            3 => DisplayState::Failed,
            _ => DisplayState::Disconnected,
        }
    }
}

/// Keys from the display waiting for the table; more are dropped.
pub const KEY_QUEUE: usize = 16;

/// What the display shows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Content {
    Text(String),
    Dots(Vec<u8>),
}

/// What the display is to show next, handed from the table to the display
/// thread. Only the latest matters (a display shows one thing), so this is
/// a slot, not a queue: announcements made while the display thread is
/// busy connecting replace each other instead of piling up.
#[derive(Default)]
struct Latest {
    slot: Mutex<Slot>,
    changed: std::sync::Condvar,
}

/// What the slot holds, and who has gone.
#[derive(Default)]
struct Slot {
    /// The content not yet taken.
    content: Option<Content>,
    /// The table's side dropped: nothing more will come.
    table_gone: bool,
    /// The display thread's side dropped: nothing will be shown.
    display_gone: bool,
}

/// What the display thread finds in the slot.
enum Next {
    Content(Content),
    Nothing,
    /// The table is gone.
    Gone,
}

/// The table's side of the slot.
struct ContentTx(Arc<Latest>);

/// The display thread's side of the slot.
struct ContentRx(Arc<Latest>);

fn content_slot() -> (ContentTx, ContentRx) {
    let latest = Arc::new(Latest::default());
    (ContentTx(latest.clone()), ContentRx(latest))
}

impl Latest {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl ContentTx {
    /// Puts `c` in the slot, replacing what was not yet shown; an error if
    /// the display thread is gone.
    fn send(&self, c: Content) -> Result<(), ()> {
        let mut slot = self.0.lock();
        if slot.display_gone {
            return Err(());
        }
        slot.content = Some(c);
        drop(slot);
        self.0.changed.notify_one();
        Ok(())
    }
}

impl Drop for ContentTx {
    fn drop(&mut self) {
        self.0.lock().table_gone = true;
        self.0.changed.notify_one();
    }
}

impl ContentRx {
    fn try_take(&self) -> Next {
        let mut slot = self.0.lock();
        match slot.content.take() {
            Some(c) => Next::Content(c),
            None if slot.table_gone => Next::Gone,
            None => Next::Nothing,
        }
    }

    /// Waits up to `limit` for new content.
    fn take_timeout(&self, limit: Duration) -> Next {
        let deadline = std::time::Instant::now() + limit;
        let mut slot = self.0.lock();
        loop {
            if let Some(c) = slot.content.take() {
                return Next::Content(c);
            }
            if slot.table_gone {
                return Next::Gone;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Next::Nothing;
            }
            slot = self
                .0
                .changed
                .wait_timeout(slot, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for ContentRx {
    fn drop(&mut self) {
        self.0.lock().display_gone = true;
    }
}

/// Longest wait between two attempts to reach the display.
const BACKOFF_MAX: Duration = Duration::from_millis(2000);
const BACKOFF_MIN: Duration = Duration::from_millis(50);

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

/// What the display thread tells the rest of the table.
struct Link {
    /// The display's state, for the table's state.
    state: DisplayStatus,
    /// A tick each time that changes, for the live stream.
    status: tokio::sync::mpsc::Sender<()>,
    /// The display's keys that are the table's business.
    keys: tokio::sync::mpsc::Sender<Key>,
}

impl Link {
    fn set(&self, state: DisplayState) {
        if self.state.set(state) {
            // Full: a tick is already waiting, which says the same.
            let _ = self.status.try_send(());
        }
    }

    /// Hands a key to the table; false once the table is gone. A key that
    /// finds the queue full is dropped (a display sending faster than the
    /// table answers).
    fn key(&self, key: Key) -> bool {
        !matches!(
            self.keys.try_send(key),
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_))
        )
    }

    fn table_gone(&self) -> bool {
        self.keys.is_closed()
    }
}

/// Runs the display thread's work, and runs it again should it panic: the
/// state says `failed` meanwhile, and the restarts are backed off.
fn supervise(table: &str, host: Option<String>, link: &Link, content: &ContentRx) {
    tactus_backoff::supervise(
        &mut Backoff::new(BACKOFF_MIN, BACKOFF_MAX),
        || run_display(table, host.clone(), link, content),
        |log| {
            if link.table_gone() {
                // The table is gone: so is its display.
                return AfterPanic::Stop;
            }
            link.set(DisplayState::Failed);
            if let Some(n) = log {
                tracing::error!(
                    table,
                    failures = n,
                    "braille display thread failed; starting it again"
                );
            }
            AfterPanic::Restart
        },
        std::thread::sleep,
    );
}

/// The display thread: connect, show, read keys; on any failure drop the
/// connection and try again with backoff, logging at most once a minute.
/// Returns when the table is gone.
fn run_display(table: &str, host: Option<String>, link: &Link, content: &ContentRx) {
    let mut screen = Screen::default();
    let mut backoff = Backoff::new(BACKOFF_MIN, BACKOFF_MAX);
    let auth = std::env::var("TACTUS_BRLAPI_AUTH").ok();
    loop {
        if link.table_gone() {
            return;
        }
        let wait = match Connection::open(host.as_deref(), auth.as_deref()) {
            Ok(mut conn) => {
                // It answered the handshake and gave a size a display can
                // have: proven.
                backoff.proven();
                link.set(DisplayState::Connected);
                tracing::info!(table, "braille display connected ({} cells)", conn.width());
                let failure = match screen.serve(&mut conn, link, content) {
                    Served::Lost(failure) => failure,
                    Served::TableGone => return,
                };
                link.set(DisplayState::Disconnected);
                tracing::warn!(table, "braille display lost: {failure}; trying again");
                // A display that worked is looked for again soon, but never
                // in a loop.
                BACKOFF_MIN
            }
            Err(e) => {
                let wait = backoff.failed();
                link.set(DisplayState::Failing);
                if let Some(n) = backoff.log_due(std::time::Instant::now()) {
                    tracing::warn!(
                        table,
                        failures = n,
                        "no braille display ({e}); trying again every {} s at most",
                        BACKOFF_MAX.as_secs()
                    );
                }
                wait
            }
        };
        if !screen.wait(content, wait) {
            return;
        }
    }
}

/// How a connected display's time ended.
enum Served {
    /// The connection failed: look for the display again.
    Lost(BrlapiError),
    /// The table is gone: so is its display.
    TableGone,
}

/// What the display shows: the latest content, from `offset` (the
/// window the reader panned to).
#[derive(Default)]
struct Screen {
    shown: Option<Content>,
    offset: usize,
}

impl Screen {
    /// New content, shown from its start.
    fn replace(&mut self, c: Content) {
        self.shown = Some(c);
        self.offset = 0;
    }

    /// Shows what is new and reads the display's keys until the connection
    /// fails or the table is gone.
    fn serve(&mut self, conn: &mut Connection, link: &Link, content: &ContentRx) -> Served {
        let mut dirty = true;
        loop {
            // Anything new first: only the latest is kept.
            match content.try_take() {
                Next::Content(c) => {
                    self.replace(c);
                    dirty = true;
                }
                Next::Nothing => {}
                Next::Gone => return Served::TableGone,
            }
            if dirty {
                if let Err(e) = show(conn, self.shown.as_ref(), self.offset) {
                    return Served::Lost(e);
                }
                dirty = false;
            }
            match conn.read_key(50) {
                Ok(Some(code)) => match Key::from_code(code) {
                    Some(Key::PanRight) => dirty = self.pan_right(conn.width()),
                    Some(Key::PanLeft) => {
                        self.offset = self.offset.saturating_sub(conn.width());
                        dirty = true;
                    }
                    Some(key) if !link.key(key) => return Served::TableGone,
                    _ => {}
                },
                Ok(None) => {}
                Err(e) => return Served::Lost(e),
            }
        }
    }

    /// The next window, if the content goes on: whether it moved.
    fn pan_right(&mut self, width: usize) -> bool {
        let moved = self.offset + width < content_len(self.shown.as_ref());
        if moved {
            self.offset += width;
        }
        moved
    }

    /// Waits `wait`, keeping what is to be shown up to date: false once
    /// the table is gone.
    fn wait(&mut self, content: &ContentRx, wait: Duration) -> bool {
        let deadline = std::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return true;
            }
            match content.take_timeout(left) {
                Next::Content(c) => self.replace(c),
                Next::Nothing => return true,
                Next::Gone => return false,
            }
        }
    }
}

fn content_len(c: Option<&Content>) -> usize {
    match c {
        Some(Content::Text(t)) => t.chars().count(),
        Some(Content::Dots(d)) => d.len(),
        None => 0,
    }
}

/// Shows the window of `content` that starts at `offset`.
fn show(
    conn: &mut Connection,
    content: Option<&Content>,
    offset: usize,
) -> Result<(), BrlapiError> {
    match content {
        None => conn.write_text(""),
        Some(Content::Text(t)) => conn.write_text(&t.chars().skip(offset).collect::<String>()),
        Some(Content::Dots(d)) => conn.write_dots(d.get(offset..).unwrap_or(&[])),
    }
}

/// How a display's time at one table ended.
enum Flow {
    /// Its seat changed: show the next.
    Moved,
    /// The table, or the display thread, is gone.
    Stop,
}

/// Resolves when the seat changes; never once its sender is gone (the seat
/// stays as it is).
async fn moved(seats: &mut tokio::sync::watch::Receiver<Option<DisplaySeat>>) {
    if seats.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The task between the tables and the display thread: the table of the
/// display's seat, then the next when it moves.
async fn feed(
    mut seats: tokio::sync::watch::Receiver<Option<DisplaySeat>>,
    shows: BrailleShows,
    new_game: NewGameLine,
    content: ContentTx,
    mut keys: tokio::sync::mpsc::Receiver<Key>,
    mut status: tokio::sync::mpsc::Receiver<()>,
) {
    loop {
        let seat = seats.borrow_and_update().clone();
        let flow = match seat {
            Some(seat) => {
                feed_at(
                    &seat,
                    shows,
                    &new_game,
                    &content,
                    &mut keys,
                    &mut status,
                    &mut seats,
                )
                .await
            }
            // No game now (between rounds, a bye): keys and ticks are
            // nobody's business until there is one.
            None => loop {
                tokio::select! {
                    _ = moved(&mut seats) => break Flow::Moved,
                    key = keys.recv() => if key.is_none() { break Flow::Stop },
                    tick = status.recv() => if tick.is_none() { break Flow::Stop },
                }
            },
        };
        if let Flow::Stop = flow {
            return;
        }
    }
}

/// The display at one table, until its seat moves or the table is gone.
async fn feed_at(
    seat: &DisplaySeat,
    shows: BrailleShows,
    new_game: &NewGameLine,
    content: &ContentTx,
    keys: &mut tokio::sync::mpsc::Receiver<Key>,
    status: &mut tokio::sync::mpsc::Receiver<()>,
    seats: &mut tokio::sync::watch::Receiver<Option<DisplaySeat>>,
) -> Flow {
    // Subscribed before the table is read: no announcement falls between.
    let mut live = seat.handle.subscribe();
    let Some(mut at) = AtTable::arrive(seat, shows, new_game, content).await else {
        return Flow::Stop;
    };
    loop {
        let going = tokio::select! {
            _ = moved(seats) => return Flow::Moved,
            tick = status.recv() => tick.is_some() && at.display_came_or_went().await,
            event = live.recv() => match event {
                Ok(LiveEvent::Announcement(a)) => at.announced(a).await,
                Ok(LiveEvent::State(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
            },
            key = keys.recv() => match key {
                Some(key) => at.pressed(key).await,
                None => false,
            },
        };
        if !going {
            return Flow::Stop;
        }
    }
}

/// A display at one table: what it shows there and how. Each step says
/// whether the display goes on (false: the table, or the display thread,
/// is gone).
struct AtTable<'a> {
    seat: &'a DisplaySeat,
    shows: BrailleShows,
    new_game: &'a NewGameLine,
    content: &'a ContentTx,
    words: Words,
    /// Plies the table had when the display last showed a move.
    plies_shown: usize,
}

impl<'a> AtTable<'a> {
    /// The display arriving at the table: a player's display says where
    /// they are, as the new game's line does. `None`: the table is gone.
    async fn arrive(
        seat: &'a DisplaySeat,
        shows: BrailleShows,
        new_game: &'a NewGameLine,
        content: &'a ContentTx,
    ) -> Option<AtTable<'a>> {
        let v = seat.handle.view().await.ok()?;
        let words = Words::new(&seat.handle.id, &v.voice_lang);
        if !seat.table_display {
            content.send(words.content(&new_game(&v))).ok()?;
        }
        Some(AtTable {
            seat,
            shows,
            new_game,
            content,
            words,
            plies_shown: v.moves.len(),
        })
    }

    /// The display came or went: every page of its table hears of it now.
    async fn display_came_or_went(&self) -> bool {
        !self.seat.table_display || self.seat.handle.republish().await.is_ok()
    }

    /// An announcement, onto the display: a move in braille notation where
    /// the display shows notation, anything else in words.
    async fn announced(&mut self, a: Announcement) -> bool {
        let handle = &self.seat.handle;
        let notation = if self.shows == BrailleShows::Notation && a.kind == NoticeKind::Move {
            self.move_made().await
        } else {
            None
        };
        // A player's display says where they play on arrival at their game
        // (a new game here may be others').
        if a.kind == NoticeKind::NewGame && !self.seat.table_display {
            return true;
        }
        // A new game: the round and the opponent beside the colour the
        // voice said (the state is the new game's: the table publishes it
        // right after).
        let text = match a.kind {
            NoticeKind::NewGame => match handle.view().await {
                Ok(v) => (self.new_game)(&v),
                Err(_) => return false,
            },
            _ => a.text,
        };
        let c = notation
            .map(Content::Dots)
            .unwrap_or_else(|| self.words.content(&text));
        self.content.send(c).is_ok()
    }

    /// The move just announced, in braille notation. The blind player's
    /// move is announced, then made (D.2.3.3): wait (a few seconds at
    /// most) for it to be on the record before writing it.
    async fn move_made(&mut self) -> Option<Vec<u8>> {
        let handle = &self.seat.handle;
        for _ in 0..100 {
            match handle.view().await {
                Ok(v) if v.moves.len() > self.plies_shown => {
                    self.plies_shown = v.moves.len();
                    return last_moves_cells(handle, 1).await;
                }
                Ok(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                Err(_) => return None,
            }
        }
        None
    }

    /// A key of the display that is the table's business: an action at the
    /// table, or the last moves shown.
    async fn pressed(&self, key: Key) -> bool {
        let handle = &self.seat.handle;
        let action = match key {
            Key::Route(_) => Some(Action::Repeat),
            Key::LineDown => Some(Action::SayClock { time: None }),
            Key::Top => Some(Action::BoardDifferences),
            Key::LineUp | Key::Home => None,
            _ => return true,
        };
        match action {
            // The answer comes back as an announcement, and so onto the
            // display.
            Some(action) => {
                if let Err(e) = handle.act_in(self.seat.game, self.seat.role, action).await {
                    let _ = self.content.send(self.words.content(&e.to_string()));
                }
                true
            }
            None => {
                let c = match self.shows {
                    BrailleShows::Notation => last_moves_cells(handle, 4).await.map(Content::Dots),
                    BrailleShows::Words => last_moves_text(handle, 4)
                        .await
                        .map(|t| self.words.content(&t)),
                };
                c.is_none_or(|c| self.content.send(c).is_ok())
            }
        }
    }
}

/// Words on the display: literary braille of the table's language through
/// liblouis, uncontracted (`louis::table_for`). Should liblouis fail (its
/// tables not installed), the text goes to brltty, which shows it with its
/// own text table: the display still says something.
struct Words {
    table: &'static str,
    reported: AtomicBool,
    id: String,
}

impl Words {
    /// `tag`: the voice pack's language tag; one tactus does not know is
    /// read as English.
    fn new(id: &str, tag: &str) -> Words {
        Words {
            table: louis::table_for(Language::from_tag(tag).unwrap_or_default()),
            reported: AtomicBool::new(false),
            id: id.to_owned(),
        }
    }

    fn content(&self, text: &str) -> Content {
        match louis::translate(self.table, text) {
            Ok(cells) => Content::Dots(cells),
            Err(e) => {
                if !self.reported.swap(true, Ordering::Relaxed) {
                    tracing::warn!(table = %self.id, "braille display: {e}; showing text through brltty");
                }
                Content::Text(text.to_owned())
            }
        }
    }
}

/// The last `n` plies of the table with their move numbers: `(number,
/// white, san)`, oldest first.
async fn last_plies(handle: &TableHandle, n: usize) -> Option<Vec<(u32, bool, String)>> {
    let view = handle.view().await.ok()?;
    let mut fields = view.fen.split_whitespace().skip(1);
    let mut white_to_move = fields.next() == Some("w");
    let mut number: u32 = view.fen.split_whitespace().nth(5)?.parse().ok()?;
    let mut out = Vec::new();
    for san in view.moves.iter().rev().take(n) {
        // Step back one ply: the mover is the side not to move now.
        if white_to_move {
            number = number.saturating_sub(1);
        }
        white_to_move = !white_to_move;
        out.push((number, white_to_move, san.clone()));
    }
    out.reverse();
    Some(out)
}

async fn last_moves_text(handle: &TableHandle, n: usize) -> Option<String> {
    let plies = last_plies(handle, n).await?;
    let mut text = String::new();
    for (i, (number, white, san)) in plies.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if *white {
            text.push_str(&format!("{number}. {san}"));
        } else if i == 0 {
            text.push_str(&format!("{number}... {san}"));
        } else {
            text.push_str(san);
        }
    }
    Some(if text.is_empty() { "-".into() } else { text })
}

/// The last `n` plies in the braille chess code: numbered, a first move of
/// Black's marked with dots 3-6, as the code writes an isolated series.
async fn last_moves_cells(handle: &TableHandle, n: usize) -> Option<Vec<u8>> {
    let plies = last_plies(handle, n).await?;
    let mut cells = Vec::new();
    for (i, (number, white, san)) in plies.iter().enumerate() {
        let san = SanPlus::from_str(san).ok()?;
        if *white || i == 0 {
            if !cells.is_empty() {
                cells.push(braille_chess::SPACE);
            }
            cells.extend(braille_chess::lower_number(*number));
            cells.push(braille_chess::SPACE);
            if !*white {
                cells.push(braille_chess::BLACK_FIRST);
            }
        } else {
            cells.push(braille_chess::SPACE);
        }
        cells.extend(braille_chess::san_cells(&san));
    }
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_and_refused() {
        assert_eq!("none".parse(), Ok(BrailleSpec::None));
        assert_eq!("brlapi".parse(), Ok(BrailleSpec::Brlapi(None)));
        assert_eq!(
            "brlapi:table3.local:1".parse(),
            Ok(BrailleSpec::Brlapi(Some("table3.local:1".into())))
        );
        assert_eq!(
            "brlapi:table3.local:1"
                .parse::<BrailleSpec>()
                .unwrap()
                .to_string(),
            "brlapi:table3.local:1"
        );
        for bad in [
            "brltty",
            "brlapi:",
            "brlapi:host",
            "brlapi::1",
            "brlapi:h:x",
        ] {
            assert!(bad.parse::<BrailleSpec>().is_err(), "{bad}");
        }
    }
}
