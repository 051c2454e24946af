//! The display's state as a table shows it ([`DisplayStatus`], written by
//! the display's thread, read by the table's view: [`DisplayState`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

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
    pub(super) fn set(&self, state: DisplayState) -> bool {
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
