//! The sound card through cpal, with speech synthesis for clip-less words.
//!
//! cpal's `default_output_device()` returns a device even on a machine with
//! no sound card; the stream then fails (`DeviceNotAvailable`) or never
//! plays. So the stream is opened on a thread of its own with a deadline, and
//! every wait for playback has one too: a card that fails or stalls becomes
//! an error the caller turns into one warning and text-only output, never a
//! crash or a hang.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};

use super::render::{Part, RatePack};
use super::sink::Sink;
use super::synth::{self, Synth};
use super::voice_pack::VoicePack;
use crate::rules::token::Token;

/// How long opening the sound card may take.
pub const OPEN_TIMEOUT: Duration = Duration::from_secs(3);

/// Samples waiting for the card, shared with its callback.
type Queue = Arc<Mutex<VecDeque<f32>>>;

/// What the stream's callback reports back.
#[derive(Default)]
struct Status {
    failed: AtomicBool,
    message: Mutex<Option<String>>,
}

/// Announcements played on the sound card. Words without a clip go to speech
/// synthesis, started on first need; if it is unavailable that is said once
/// and those words are left out.
pub struct CardSink {
    voice: Arc<VoicePack>,
    pack: Arc<RatePack>,
    queue: Queue,
    status: Arc<Status>,
    /// Dropping it ends the stream thread.
    _stop: mpsc::Sender<()>,
    synth: Option<Result<Synth, String>>,
}

impl CardSink {
    /// Opens the default output device and starts a silent stream, waiting
    /// at most `timeout`. The pack is resampled to the card's rate here,
    /// once.
    pub fn open(voice: Arc<VoicePack>, timeout: Duration) -> Result<CardSink, String> {
        let queue: Queue = Arc::new(Mutex::new(VecDeque::new()));
        let status = Arc::new(Status::default());
        let (ready_tx, ready_rx) = mpsc::channel::<Result<u32, String>>();
        let (stop_tx, stop_rx) = mpsc::channel::<()>();
        let (q, st) = (Arc::clone(&queue), Arc::clone(&status));
        std::thread::Builder::new()
            .name("tactus-audio".into())
            .spawn(move || match open_stream(q, st) {
                Ok((stream, rate)) => {
                    if ready_tx.send(Ok(rate)).is_ok() {
                        // Keep the stream until the sink is dropped.
                        let _ = stop_rx.recv();
                    }
                    drop(stream);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| format!("cannot start the audio thread: {e}"))?;
        let rate = match ready_rx.recv_timeout(timeout) {
            Ok(r) => r?,
            Err(_) => {
                return Err(format!(
                    "the sound card did not open within {} s",
                    timeout.as_secs_f32()
                ));
            }
        };
        let pack = voice.at_rate(rate)?;
        Ok(CardSink {
            voice,
            pack,
            queue,
            status,
            _stop: stop_tx,
            synth: None,
        })
    }

    /// The card's sample rate.
    pub fn rate(&self) -> u32 {
        self.pack.rate()
    }

    /// Plays `samples` and waits until the card has taken them, at most
    /// their length plus two seconds.
    pub fn play(&self, samples: &[f32]) -> Result<(), String> {
        self.check()?;
        lock(&self.queue).extend(samples.iter().copied());
        let length = Duration::from_secs_f64(samples.len() as f64 / f64::from(self.rate()));
        let deadline = Instant::now() + length + Duration::from_secs(2);
        loop {
            self.check()?;
            if lock(&self.queue).is_empty() {
                return Ok(());
            }
            if Instant::now() > deadline {
                lock(&self.queue).clear();
                return Err("the sound card stopped playing".to_owned());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn check(&self) -> Result<(), String> {
        if self.status.failed.load(Ordering::Relaxed) {
            let msg = lock(&self.status.message).clone();
            return Err(msg.unwrap_or_else(|| "the sound card failed".to_owned()));
        }
        Ok(())
    }

    /// Says free text through speech synthesis, started on first use. If
    /// synthesis is unavailable that is said once (a warning) and the text
    /// is not spoken; the caller shows it as text anyway.
    pub fn speak(&mut self, text: &str) {
        let first = self.synth.is_none();
        let synth = self
            .synth
            .get_or_insert_with(|| Synth::start(synth::START_TIMEOUT));
        match synth {
            Ok(s) => {
                if let Err(e) = s.speak(text) {
                    tracing::warn!("{e}; `{text}` not spoken");
                }
            }
            Err(e) if first => {
                tracing::warn!("{e}: words without a clip are shown as text only");
                eprintln!("warning: {e}: words without a clip are shown as text only");
            }
            Err(_) => {}
        }
    }
}

impl Sink for CardSink {
    fn say(&mut self, tokens: &[Token], _text: &str) -> anyhow::Result<()> {
        let voice = Arc::clone(&self.voice);
        for part in self.pack.parts(&voice, tokens) {
            match part {
                Part::Samples(s) => self.play(&s).map_err(anyhow::Error::msg)?,
                Part::Speak(text) => self.speak(&text),
            }
        }
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Opens the default device's default config and starts playing from the
/// queue. Returns the stream (to keep alive) and its rate.
fn open_stream(queue: Queue, status: Arc<Status>) -> Result<(cpal::Stream, u32), String> {
    // alsa-lib prints its own complaints (a missing card: eight lines) to
    // stderr; on this thread they go to a buffer instead and become one
    // debug event, so the user sees our single warning.
    #[cfg(target_os = "linux")]
    let alsa_log = alsa::Output::local_error_handler().ok();
    let result = open_default(queue, status);
    #[cfg(target_os = "linux")]
    if let Some(log) = alsa_log {
        let text = log.borrow().to_string();
        if !text.trim().is_empty() {
            tracing::debug!("alsa-lib: {}", text.trim());
        }
    }
    result
}

fn open_default(queue: Queue, status: Arc<Status>) -> Result<(cpal::Stream, u32), String> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| "no sound card".to_owned())?;
    let config = device
        .default_output_config()
        .map_err(|e| format!("the sound card cannot play: {e}"))?;
    let format = config.sample_format();
    let config: cpal::StreamConfig = config.into();
    let rate = config.sample_rate;
    let stream = match format {
        cpal::SampleFormat::F32 => build::<f32>(&device, config, queue, status),
        cpal::SampleFormat::I16 => build::<i16>(&device, config, queue, status),
        cpal::SampleFormat::U16 => build::<u16>(&device, config, queue, status),
        cpal::SampleFormat::I32 => build::<i32>(&device, config, queue, status),
        cpal::SampleFormat::F64 => build::<f64>(&device, config, queue, status),
        other => Err(format!(
            "the sound card wants {other} samples, not supported"
        )),
    }?;
    stream
        .play()
        .map_err(|e| format!("the sound card cannot play: {e}"))?;
    Ok((stream, rate))
}

fn build<T>(
    device: &cpal::Device,
    config: cpal::StreamConfig,
    queue: Queue,
    status: Arc<Status>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels).max(1);
    let err_status = Arc::clone(&status);
    device
        .build_output_stream(
            config,
            move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
                let mut q = lock(&queue);
                for frame in data.chunks_mut(channels) {
                    let v = T::from_sample(q.pop_front().unwrap_or(0.0));
                    frame.fill(v);
                }
            },
            move |err: cpal::Error| {
                // Only errors that end playback count: a rerouted or late
                // buffer plays on.
                if matches!(
                    err.kind(),
                    cpal::ErrorKind::DeviceChanged | cpal::ErrorKind::Xrun
                ) {
                    return;
                }
                *lock(&err_status.message) = Some(format!("the sound card failed: {err}"));
                err_status.failed.store(true, Ordering::Relaxed);
            },
            Some(Duration::from_secs(2)),
        )
        .map_err(|e| format!("the sound card cannot play: {e}"))
}
