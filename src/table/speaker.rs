//! The table's voice: a thread that owns the audio sink, so a slow or stuck
//! sound device never holds up the table (the table hands over the words
//! and goes on, or asks to hear when they have been spoken).
//!
//! What waits to be spoken is bounded, since anyone with a token can ask
//! for words faster than a device says them:
//!
//! - words identical to words already waiting are not queued twice;
//! - an announcement that tells a state (the clock read out, "repeat") is
//!   queued with [`Speaker::say_latest`]: it replaces a waiting one of its
//!   kind, so a clock request while one waits is one announcement;
//! - at most [`SPEECH_QUEUE`] announcements wait; at the bound the oldest
//!   that nobody waits on is dropped (its text was shown already: every
//!   announcement reaches the pages as text when it is made).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch};

use tactus_backoff::Backoff;
use tactus_rules::game::NoticeKind;
use tactus_rules::token::Token;
use tactus_speech::device::{AudioState, AudioStatus, AudioView};
use tactus_speech::sink::Sink;

/// One announcement for the speaker thread, and who wants to know when it
/// has been spoken.
struct Job {
    tokens: Vec<Token>,
    text: String,
    spoken: Option<oneshot::Sender<()>>,
    /// Set: a state announcement, replaced by a newer one of this kind.
    latest: Option<NoticeKind>,
}

/// Announcements waiting for the speaker thread, at most.
pub const SPEECH_QUEUE: usize = 8;

/// The waiting announcements, shared by the table and the speaker thread.
#[derive(Default)]
struct Waiting {
    jobs: VecDeque<Job>,
    /// The table let the speaker go: say what waits, then finish.
    closed: bool,
    /// Announcements dropped or merged since the speaker started.
    dropped: u64,
    /// A voice to speak with from the next announcement on (the table's
    /// rate changed); only the latest counts.
    voice: Option<Arc<tactus_speech::voice_pack::VoicePack>>,
}

#[derive(Default)]
struct Queue {
    waiting: Mutex<Waiting>,
    ready: Condvar,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues `job` under the bounds in the module's description; how many
    /// announcements were dropped or merged so far.
    fn push(&self, job: Job) -> u64 {
        let mut w = self.lock();
        if job.spoken.is_none() && w.jobs.iter().any(|j| j.text == job.text) {
            // The same words already wait: they will be said.
            w.dropped += 1;
            return w.dropped;
        }
        if let Some(kind) = job.latest
            && let Some(old) = w.jobs.iter_mut().find(|j| j.latest == Some(kind))
        {
            // Said in the old one's place: the newest state, once.
            old.tokens = job.tokens;
            old.text = job.text;
            w.dropped += 1;
            return w.dropped;
        }
        if w.jobs.len() >= SPEECH_QUEUE {
            let stale = w.jobs.iter().position(|j| j.spoken.is_none()).unwrap_or(0);
            // A waiter's sender dropped resolves its receiver at once.
            w.jobs.remove(stale);
            w.dropped += 1;
        }
        w.jobs.push_back(job);
        drop(w);
        self.ready.notify_one();
        self.lock().dropped
    }

    /// The next job; `None` once closed and empty.
    fn pop(&self) -> Option<Job> {
        let mut w = self.lock();
        loop {
            if let Some(job) = w.jobs.pop_front() {
                return Some(job);
            }
            if w.closed {
                return None;
            }
            w = self
                .ready
                .wait(w)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
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

/// The announcements the queue dropped, and when they are next logged.
struct Drops {
    /// Logged at most once a minute (the backoff's summary).
    log: Backoff,
    /// How many the queue had dropped when last looked at.
    seen: u64,
}

impl Default for Drops {
    fn default() -> Drops {
        Drops {
            log: Backoff::new(Duration::ZERO, Duration::ZERO),
            seen: 0,
        }
    }
}

/// Where a table's announcements are spoken.
pub struct Speaker {
    queue: Option<Arc<Queue>>,
    /// How often dropped announcements are logged (at most once a minute).
    drops: Mutex<Drops>,
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
        let queue = Arc::new(Queue::default());
        let rx = queue.clone();
        let table = name.to_owned();
        let finished = Finished::default();
        let done = finished.clone();
        std::thread::Builder::new()
            .name(format!("speaker-{name}"))
            .spawn(move || {
                while let Some(job) = rx.pop() {
                    if let Some(voice) = rx.lock().voice.take()
                        && let Err(e) = sink.set_voice(&voice)
                    {
                        tracing::warn!(table = %table, "the new rate is not used: {e:#}");
                    }
                    // A sink that panics loses this announcement, not the
                    // table's voice: the thread goes on with the next.
                    let said = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        sink.say(&job.tokens, &job.text)
                    }));
                    match said {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => {
                            tracing::warn!(table = %table, "announcement not spoken: {e:#}")
                        }
                        Err(_) => {
                            tracing::error!(table = %table, "announcement not spoken: the audio output failed (a panic); going on")
                        }
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
            queue: Some(queue),
            drops: Mutex::new(Drops::default()),
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
            queue: None,
            drops: Mutex::new(Drops::default()),
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
        self.queue.is_some()
    }

    /// Hands the words to the speaker thread; returns at once.
    pub fn say(&self, tokens: Vec<Token>, text: String) {
        self.push(Job {
            tokens,
            text,
            spoken: None,
            latest: None,
        });
    }

    /// Hands over words that tell a state of kind `kind` (the clock read
    /// out, an announcement repeated): they replace words of that kind
    /// still waiting, so only the newest is said.
    pub fn say_latest(&self, kind: NoticeKind, tokens: Vec<Token>, text: String) {
        self.push(Job {
            tokens,
            text,
            spoken: None,
            latest: Some(kind),
        });
    }

    /// Speaks with `voice` from the next announcement on (the same pack at
    /// another rate).
    pub fn set_voice(&self, voice: Arc<tactus_speech::voice_pack::VoicePack>) {
        if let Some(queue) = &self.queue {
            queue.lock().voice = Some(voice);
        }
    }

    /// Announcements dropped or merged so far (see the module).
    pub fn dropped(&self) -> u64 {
        self.queue.as_ref().map_or(0, |q| q.lock().dropped)
    }

    /// Announcements waiting to be spoken now.
    pub fn waiting(&self) -> usize {
        self.queue.as_ref().map_or(0, |q| q.lock().jobs.len())
    }

    fn push(&self, job: Job) {
        let Some(queue) = &self.queue else {
            // Without audio a waiter hears at once (the sender dropped).
            return;
        };
        let dropped = queue.push(job);
        let mut drops = self.drops.lock().unwrap_or_else(|p| p.into_inner());
        let Drops { log, seen } = &mut *drops;
        if dropped > *seen {
            for _ in *seen..dropped {
                log.failed();
            }
            *seen = dropped;
            if let Some(n) = log.log_due(Instant::now()) {
                tracing::info!(
                    "{n} announcement(s) not spoken: merged with or replaced by newer ones while the speaker was busy (shown as text)"
                );
            }
        }
    }

    /// Hands the words over and returns a receiver that resolves once they
    /// have been spoken (after everything said before them). Without audio,
    /// or if the speaker has stopped, it resolves at once.
    pub fn say_then(&self, tokens: Vec<Token>, text: String) -> oneshot::Receiver<()> {
        let (spoken, rx) = oneshot::channel();
        match &self.queue {
            Some(_) => {
                // A job dropped at the bound drops its sender: the receiver
                // then resolves with an error, also at once.
                self.push(Job {
                    tokens,
                    text,
                    spoken: Some(spoken),
                    latest: None,
                });
            }
            None => {
                let _ = spoken.send(());
            }
        }
        rx
    }
}

impl Drop for Speaker {
    fn drop(&mut self) {
        // The thread says what waits, then finishes its output.
        if let Some(queue) = &self.queue {
            queue.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactus_speech::sink::SinkError;

    /// An output that holds each announcement until the test lets it go
    /// (a device busy playing), and notes what it said.
    struct Gated {
        gate: std::sync::mpsc::Receiver<()>,
        said: Arc<Mutex<Vec<String>>>,
    }

    impl Sink for Gated {
        fn say(&mut self, _tokens: &[Token], text: &str) -> Result<(), SinkError> {
            let _ = self.gate.recv();
            self.said.lock().unwrap().push(text.to_owned());
            Ok(())
        }
    }

    fn gated() -> (
        Speaker,
        std::sync::mpsc::Sender<()>,
        Arc<Mutex<Vec<String>>>,
    ) {
        let (open, gate) = std::sync::mpsc::channel();
        let said = Arc::new(Mutex::new(Vec::new()));
        let sink = Gated {
            gate,
            said: said.clone(),
        };
        (Speaker::spawn("t", Box::new(sink)).unwrap(), open, said)
    }

    /// Lets every announcement through and waits until the speaker has
    /// finished.
    fn drain(speaker: Speaker, open: std::sync::mpsc::Sender<()>) {
        let finished = speaker.finished();
        drop(speaker);
        for _ in 0..100 {
            let _ = open.send(());
        }
        drop(open);
        assert!(finished.wait(Duration::from_secs(60)));
    }

    #[test]
    fn clock_requests_while_one_waits_are_one_announcement() {
        let (speaker, open, said) = gated();
        speaker.say(Vec::new(), "move".into());
        // The first is being said (held at the gate) or waits; 500 clock
        // readings come meanwhile.
        for i in 0..500 {
            speaker.say_latest(NoticeKind::Clock, Vec::new(), format!("clock {i}"));
        }
        assert!(speaker.waiting() <= 2, "{}", speaker.waiting());
        drain(speaker, open);
        let said = said.lock().unwrap().clone();
        assert_eq!(said.first().map(String::as_str), Some("move"));
        // One reading, the newest (the first may have been taken before the
        // others came).
        assert!(said.len() <= 3, "{said:?}");
        assert_eq!(said.last().map(String::as_str), Some("clock 499"));
    }

    #[test]
    fn the_queue_is_bounded_and_keeps_the_announcement_waited_on() {
        let (speaker, open, said) = gated();
        let move_spoken = speaker.say_then(Vec::new(), "the move".into());
        // 3,000 different words (illegal attempts, notices) and 3,000 the
        // same.
        for i in 0..3000 {
            speaker.say(Vec::new(), format!("notice {i}"));
            speaker.say(Vec::new(), "illegal move".into());
        }
        assert!(speaker.waiting() <= SPEECH_QUEUE);
        assert!(speaker.dropped() >= 6000 - SPEECH_QUEUE as u64 - 1);
        drain(speaker, open);
        let said = said.lock().unwrap().clone();
        assert!(said.len() <= SPEECH_QUEUE + 1, "{said:?}");
        assert_eq!(said[0], "the move", "the move waited on is said");
        assert!(said.iter().any(|s| s == "notice 2999"), "the newest kept");
        assert!(move_spoken.blocking_recv().is_ok());
    }

    /// A sink that panics on its second announcement.
    struct Panics(u32, Arc<Mutex<Vec<String>>>);

    impl Sink for Panics {
        fn say(&mut self, _tokens: &[Token], text: &str) -> Result<(), SinkError> {
            self.0 += 1;
            assert!(self.0 != 2, "a broken output");
            self.1.lock().unwrap().push(text.to_owned());
            Ok(())
        }
    }

    #[test]
    fn a_panicking_output_loses_one_announcement_not_the_voice() {
        let said = Arc::new(Mutex::new(Vec::new()));
        let speaker = Speaker::spawn("t", Box::new(Panics(0, said.clone()))).unwrap();
        let a = speaker.say_then(Vec::new(), "one".into());
        let b = speaker.say_then(Vec::new(), "two".into());
        let c = speaker.say_then(Vec::new(), "three".into());
        assert!(a.blocking_recv().is_ok());
        // The waiter of the lost one hears of it all the same.
        assert!(b.blocking_recv().is_ok());
        assert!(c.blocking_recv().is_ok());
        assert_eq!(*said.lock().unwrap(), ["one", "three"]);
    }
}
