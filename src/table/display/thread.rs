//! The display's thread: it owns the BrlAPI connection, shows the latest
//! content, reads the keys, and looks for the display again with backoff
//! when it is absent or lost; run again should it panic.

use std::time::Duration;

use tactus_backoff::{AfterPanic, Backoff};
use tactus_braille::brlapi::{BrlapiError, Connection, Key};

use super::slot::{Content, ContentRx, Next};
use super::state::{DisplayState, DisplayStatus};

/// Longest wait between two attempts to reach the display.
const BACKOFF_MAX: Duration = Duration::from_millis(2000);
const BACKOFF_MIN: Duration = Duration::from_millis(50);

/// What the display thread tells the rest of the table.
pub(super) struct Link {
    /// The display's state, for the table's state.
    pub(super) state: DisplayStatus,
    /// A tick each time that changes, for the live stream.
    pub(super) status: tokio::sync::mpsc::Sender<()>,
    /// The display's keys that are the table's business.
    pub(super) keys: tokio::sync::mpsc::Sender<Key>,
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
pub(super) fn supervise(table: &str, host: Option<String>, link: &Link, content: &ContentRx) {
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
