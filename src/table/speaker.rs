//! The table's voice: a thread that owns the audio sink, so a slow or stuck
//! sound device never holds up the table (the table hands over the words
//! and goes on, or asks to hear when they have been spoken).

use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch};

use crate::rules::token::Token;
use crate::speech::device::{AudioState, AudioStatus, AudioView};
use crate::speech::sink::Sink;

/// One announcement for the speaker thread, and who wants to know when it
/// has been spoken.
struct Job {
    tokens: Vec<Token>,
    text: String,
    spoken: Option<oneshot::Sender<()>>,
}

/// Tells when a speaker has said everything it was given and closed its
/// output (a device drained: its last sample played). A server shutting
/// down waits on it, so nothing said is cut off.
#[derive(Clone, Default)]
pub struct Finished(Arc<(Mutex<bool>, Condvar)>);

impl Finished {
    fn done() -> Finished {
        let f = Finished::default();
        f.set();
        f
    }

    fn set(&self) {
        let (lock, cv) = &*self.0;
        *lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        cv.notify_all();
    }

    /// Waits up to `limit`; whether the speaker has finished.
    pub fn wait(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let (lock, cv) = &*self.0;
        let mut done = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while !*done {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            done = cv
                .wait_timeout(done, left)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        true
    }
}

/// Where a table's announcements are spoken.
pub struct Speaker {
    tx: Option<mpsc::Sender<Job>>,
    finished: Finished,
    /// The output's status (kept here so it outlives the output).
    status: AudioStatus,
    audio: watch::Receiver<AudioView>,
}

impl Speaker {
    /// Speaks through `sink` on a thread of its own; an output that cannot
    /// fail (a file, a test's sink): its status says `playing`.
    pub fn spawn(name: &str, sink: Box<dyn Sink + Send>) -> std::io::Result<Speaker> {
        Speaker::spawn_with(
            name,
            sink,
            AudioStatus::new(AudioView::fixed(AudioState::Playing, "sink")),
        )
    }

    /// Speaks through `sink`, whose state `status` tells (a sound device's,
    /// which can fail and come back).
    pub fn spawn_with(
        name: &str,
        mut sink: Box<dyn Sink + Send>,
        status: AudioStatus,
    ) -> std::io::Result<Speaker> {
        let (tx, rx) = mpsc::channel::<Job>();
        let table = name.to_owned();
        let finished = Finished::default();
        let done = finished.clone();
        std::thread::Builder::new()
            .name(format!("speaker-{name}"))
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    if let Err(e) = sink.say(&job.tokens, &job.text) {
                        tracing::warn!(table = %table, "announcement not spoken: {e:#}");
                    }
                    // Spoken (or given up on): either way the words are no
                    // longer coming, so whoever waits may go on.
                    if let Some(spoken) = job.spoken {
                        let _ = spoken.send(());
                    }
                }
                // Every job said: the output drains (a device plays its
                // last sample) and closes.
                if let Err(e) = sink.finish() {
                    tracing::warn!(table = %table, "audio output not finished: {e:#}");
                }
                drop(sink);
                done.set();
            })?;
        let audio = status.subscribe();
        Ok(Speaker {
            tx: Some(tx),
            finished,
            status,
            audio,
        })
    }

    /// A speaker that says nothing aloud: the text still reaches the pages.
    pub fn silent() -> Speaker {
        Speaker::silent_as(AudioView::fixed(AudioState::TextOnly, "none"))
    }

    /// A silent speaker whose status says why (`none`, or no sound card).
    pub fn silent_as(view: AudioView) -> Speaker {
        let status = AudioStatus::new(view);
        let audio = status.subscribe();
        Speaker {
            tx: None,
            finished: Finished::done(),
            status,
            audio,
        }
    }

    /// A handle that tells when this speaker, once dropped, has said
    /// everything it was given and closed its output.
    pub fn finished(&self) -> Finished {
        self.finished.clone()
    }

    /// The output's status now.
    pub fn audio(&self) -> AudioView {
        self.status.get()
    }

    /// Resolves when the output's status changes (never for an output that
    /// cannot change).
    pub async fn audio_changed(&mut self) {
        if self.audio.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Whether anything is said aloud (a move is made when it has been
    /// announced, D.2.3.3: without audio, at once).
    pub fn is_audible(&self) -> bool {
        self.tx.is_some()
    }

    /// Hands the words to the speaker thread; returns at once.
    pub fn say(&self, tokens: Vec<Token>, text: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Job {
                tokens,
                text,
                spoken: None,
            });
        }
    }

    /// Hands the words over and returns a receiver that resolves once they
    /// have been spoken (after everything said before them). Without audio,
    /// or if the speaker has stopped, it resolves at once.
    pub fn say_then(&self, tokens: Vec<Token>, text: String) -> oneshot::Receiver<()> {
        let (spoken, rx) = oneshot::channel();
        match &self.tx {
            Some(tx) => {
                // A speaker that has stopped drops the job and its sender:
                // the receiver then resolves with an error, also at once.
                let _ = tx.send(Job {
                    tokens,
                    text,
                    spoken: Some(spoken),
                });
            }
            None => {
                let _ = spoken.send(());
            }
        }
        rx
    }
}
