//! A table's sound output as the pages and the API see it: playing, failed
//! (and being reopened), or none; which device; the last error; how often
//! it has been reopened.
//!
//! The output's thread writes the status; the table's actor watches it and
//! publishes a new `state` when it changes, so the arbiter page raises "no
//! sound at table N" the moment a device goes quiet, and drops it when the
//! device is back.

use serde::Serialize;
use tokio::sync::watch;

/// Where a table's sound output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AudioState {
    /// The stream is proven to run.
    Playing,
    /// Being reopened with backoff; nothing is heard.
    Failed,
    /// Opened, not yet proven to play.
    Starting,
    /// Text only, by configuration or for want of a sound card.
    #[serde(rename = "none")]
    TextOnly,
}

/// What `GET /api/tables/{id}` shows as `audio`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AudioView {
    /// `playing` (the stream is proven to run), `failed` (being reopened
    /// with backoff; nothing is heard), `starting` (not yet proven),
    /// `none` (text only, by configuration or for want of a sound card).
    pub state: AudioState,
    /// The output as configured: `default`, `device:NAME`, `wav:PATH`,
    /// `none`.
    pub device: String,
    /// The last error, in words (kept while playing again, for the record).
    pub error: Option<String>,
    /// How many times the stream was opened again after a failure.
    pub reopened: u64,
    /// Transient errors retried without reopening (EIO from the ALSA pulse
    /// plugin's delay query, an underrun).
    pub retried: u64,
}

impl AudioView {
    /// An output that is not a device: nothing can fail.
    pub fn fixed(state: AudioState, device: impl Into<String>) -> AudioView {
        AudioView {
            state,
            device: device.into(),
            error: None,
            reopened: 0,
            retried: 0,
        }
    }

    /// Whether the table should say that nothing is heard.
    pub fn is_down(&self) -> bool {
        self.state == AudioState::Failed
    }
}

/// The writing end, held by the output's thread.
#[derive(Clone)]
pub struct AudioStatus {
    tx: std::sync::Arc<watch::Sender<AudioView>>,
}

impl AudioStatus {
    /// A status starting as `view`.
    pub fn new(view: AudioView) -> AudioStatus {
        let (tx, _) = watch::channel(view);
        AudioStatus {
            tx: std::sync::Arc::new(tx),
        }
    }

    /// A reader for the table.
    pub fn subscribe(&self) -> watch::Receiver<AudioView> {
        self.tx.subscribe()
    }

    /// The status now.
    pub fn get(&self) -> AudioView {
        self.tx.borrow().clone()
    }

    /// Changes the status with `f`; readers hear of it only if it changed.
    pub fn update(&self, f: impl FnOnce(&mut AudioView)) {
        self.tx.send_if_modified(|v| {
            let before = v.clone();
            f(v);
            *v != before
        });
    }

    /// The stream is proven to play.
    pub fn playing(&self) {
        self.update(|v| v.state = AudioState::Playing);
    }

    /// The stream failed with `error`; it is being reopened.
    pub fn failed(&self, error: String) {
        self.update(|v| {
            v.state = AudioState::Failed;
            v.error = Some(error);
        });
    }

    /// One more transient error retried in place.
    pub fn retried(&self) {
        // Counted, but not worth waking every page for.
        self.tx.send_if_modified(|v| {
            v.retried += 1;
            false
        });
    }

    /// The stream was opened again after a failure.
    pub fn reopened(&self) {
        self.update(|v| v.reopened += 1);
    }
}
