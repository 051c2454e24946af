//! Speech synthesis through the `tts` crate (speech-dispatcher on Linux) for
//! free text and for tokens whose clip is missing.
//!
//! speech-dispatcher may be absent, may take long to start, and with its
//! stock configuration may never report the end of an utterance. So the
//! synthesiser lives on a worker thread of its own, and every wait on it
//! (start, each utterance) has a deadline: past it, tactus goes on.

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// How long starting the synthesiser may take.
pub const START_TIMEOUT: Duration = Duration::from_secs(3);

/// The longest any one utterance is waited for.
const MAX_UTTERANCE: Duration = Duration::from_secs(15);

/// A generous estimate of how long `text` takes to say: 90 ms per
/// character plus a second, capped at 15 s (`MAX_UTTERANCE`).
pub fn utterance_deadline(text: &str) -> Duration {
    let chars = text.chars().count() as u64;
    Duration::from_millis(1000 + 90 * chars).min(MAX_UTTERANCE)
}

/// Why speech synthesis did not speak.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SynthError {
    /// The worker thread could not be started.
    #[error("cannot start the speech thread: {0}")]
    Thread(String),
    /// No synthesiser on this machine (speech-dispatcher absent).
    #[error("no speech synthesis (speech-dispatcher): {0}")]
    Unavailable(String),
    /// tactus was built without the `tts` feature.
    #[error("no speech synthesis: tactus was built without the `tts` feature")]
    NotBuilt,
    /// The synthesiser did not answer at start within the time given.
    #[error("the speech synthesiser did not start within {secs:.1} s")]
    NotStarted { secs: f32 },
    /// The worker is gone.
    #[error("the speech synthesiser has stopped")]
    Stopped,
    /// An utterance was not finished in time.
    #[error("the speech synthesiser did not answer in time")]
    NoAnswer,
    /// The synthesiser refused the text.
    #[error("speech synthesis failed: {0}")]
    Failed(String),
}

#[cfg_attr(not(feature = "tts"), allow(dead_code))]
struct Job {
    text: String,
    done: Sender<Result<(), SynthError>>,
}

/// A running speech synthesiser.
pub struct Synth {
    jobs: Sender<Job>,
}

impl Synth {
    /// Starts the synthesiser, waiting at most `timeout`. Fails with a
    /// reason (daemon absent, feature off, no answer in time).
    pub fn start(timeout: Duration) -> Result<Synth, SynthError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), SynthError>>();
        std::thread::Builder::new()
            .name("tactus-tts".into())
            .spawn(move || worker(rx, ready_tx))
            .map_err(|e| SynthError::Thread(e.to_string()))?;
        match ready_rx.recv_timeout(timeout) {
            Ok(Ok(())) => Ok(Synth { jobs }),
            Ok(Err(e)) => Err(e),
            // The worker may still be stuck connecting; it is left behind
            // (it ends with the process) rather than waited for.
            Err(_) => Err(SynthError::NotStarted {
                secs: timeout.as_secs_f32(),
            }),
        }
    }

    /// Says `text` and waits until it is said or its deadline
    /// ([`utterance_deadline`]) passes, whichever comes first.
    pub fn speak(&self, text: &str) -> Result<(), SynthError> {
        let (done, done_rx) = mpsc::channel();
        self.jobs
            .send(Job {
                text: text.to_owned(),
                done,
            })
            .map_err(|_| SynthError::Stopped)?;
        // The worker itself gives up at the deadline; this margin only
        // covers a worker stuck inside the library.
        match done_rx.recv_timeout(utterance_deadline(text) + Duration::from_secs(1)) {
            Ok(r) => r,
            Err(_) => Err(SynthError::NoAnswer),
        }
    }
}

#[cfg(feature = "tts")]
fn worker(jobs: Receiver<Job>, ready: Sender<Result<(), SynthError>>) {
    let mut tts = match tts::Tts::default() {
        Ok(t) => t,
        Err(e) => {
            let _ = ready.send(Err(SynthError::Unavailable(e.to_string())));
            return;
        }
    };
    if ready.send(Ok(())).is_err() {
        return;
    }
    for job in jobs {
        let result = match tts.speak(job.text.as_str(), false) {
            Err(e) => Err(SynthError::Failed(e.to_string())),
            Ok(_) => {
                // Poll for the end of the utterance; speech-dispatcher may
                // never report it, so the deadline ends the wait too.
                let deadline = std::time::Instant::now() + utterance_deadline(&job.text);
                std::thread::sleep(Duration::from_millis(50));
                while std::time::Instant::now() < deadline {
                    match tts.is_speaking() {
                        Ok(true) => std::thread::sleep(Duration::from_millis(20)),
                        Ok(false) | Err(_) => break,
                    }
                }
                Ok(())
            }
        };
        let _ = job.done.send(result);
    }
}

#[cfg(not(feature = "tts"))]
fn worker(_jobs: Receiver<Job>, ready: Sender<Result<(), SynthError>>) {
    let _ = ready.send(Err(SynthError::NotBuilt));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_grow_with_the_text_and_are_capped() {
        assert!(utterance_deadline("Eva") < utterance_deadline("Eva vier Schach"));
        assert_eq!(utterance_deadline(&"x".repeat(10_000)), MAX_UTTERANCE);
    }
}
