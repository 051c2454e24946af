//! A table's sound device through ALSA: any PCM name (`default`,
//! `plughw:CARD=Headset,DEV=0`, a PCM of `~/.asoundrc`, PulseAudio through
//! the `pulse` plugin), one stream per table, that never dies silently.
//!
//! Why ALSA directly and not cpal: cpal runs the stream on a thread of its
//! own and reports every error from it, including the transient EIO that the
//! ALSA pulse plugin returns from `snd_pcm_avail_delay` while PulseAudio has
//! no timing data yet (alsa-plugins issue 65), as a stream error after which
//! the stream is gone; and it only tells when its callback took the samples,
//! not when they were heard. Here the stream's thread is ours:
//!
//! - it writes continuously (the announcement, or silence while idle), so a
//!   device that goes away is noticed within one period, not at the next
//!   move; while idle it keeps only [`IDLE_FILL_US`] of silence queued, not
//!   the whole buffer, so an announcement starts behind that little and not
//!   behind a full buffer of silence (measured: move to first sample on a
//!   PulseAudio sink p50 51 ms, p99 84 ms with the buffer kept full);
//! - an underrun or a transient error is recovered in place (counted as
//!   `retried`); a stream that keeps failing is closed and opened again
//!   with backoff (50 ms doubling to 2 s), for ever, and the table shows
//!   `audio.state = "failed"` meanwhile;
//! - the stream is `playing` only once writes to it have gone through;
//! - an announcement is reported spoken only when the device has played its
//!   last sample: after it, the device's delay (the frames queued ahead of
//!   the speaker, PulseAudio's latency included) is measured and that much
//!   silence written behind it; a delay query failing with EIO is asked
//!   again, then the buffer size stands in for it;
//! - closing waits until the device's delay has run down, then drains it
//!   (`snd_pcm_drain`), so nothing is cut off.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use alsa::pcm::{Access, Format, HwParams, PCM, State};
use alsa::{Direction, ValueOr};

use super::device::{AudioState, AudioStatus, AudioView};
use super::render::{Part, RatePack};
use super::sink::{Sink, SinkError, to_i16};
use super::synth::{self, Synth};
use super::voice_pack::VoicePack;
use tactus_backoff::Backoff;
use tactus_rules::token::Token;

/// The rate announcements are rendered at; a device that wants another
/// gets them resampled.
pub const RENDER_RATE: u32 = 48_000;
/// One write: 5 ms. Through PulseAudio's ALSA plugin the period is also
/// the stream's `minreq`, and with it the sink's own latency. (2.5 ms was
/// tried for issue 45: through PulseAudio, announcements played beside two
/// other tables' on a loaded machine then came out with silence inside.)
const PERIOD_US: u32 = 5_000;
/// The device's buffer: how far ahead of the speaker an announcement's
/// own samples are written, so how long a loaded machine may leave this
/// thread unscheduled before the stream underruns. Through PulseAudio an
/// underrun does not only insert silence: the server's read index runs on,
/// and the late samples it passed are dropped (a word's end clipped; the
/// sound test saw it once in 20 runs with 40 ms on a loaded 2-core CI
/// machine). It costs no latency: silence is kept at [`IDLE_FILL_US`]
/// whatever the buffer, and an announcement only ever waits behind that.
const BUFFER_US: u32 = 200_000;
/// While idle, silence is written only to keep this much queued: all an
/// announcement waits behind when it starts, so as little as keeps the
/// stream running (one period). A late wake-up that lets it run dry
/// costs an underrun of silence, recovered in place (`retried`), never a
/// word: an announcement's own samples are written up to the whole buffer
/// ahead (`BUFFER_US`). 12 ms before issue 45, which the first sample
/// of every announcement waited behind.
pub const IDLE_FILL_US: u32 = 5_000;
/// Reopening waits this long after the first failure, doubling up to
/// [`BACKOFF_MAX`].
const BACKOFF_START: Duration = Duration::from_millis(50);
const BACKOFF_MAX: Duration = Duration::from_secs(2);
/// Errors in a row (without a write going through) before the stream is
/// given up and reopened.
const ERRORS_BEFORE_REOPEN: u32 = 3;

/// Why a sound device does not play.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeviceError {
    /// ALSA refused a step of opening or setting up the PCM.
    #[error("`{pcm}`: {step}: {source}")]
    Setup {
        pcm: String,
        step: &'static str,
        source: alsa::Error,
    },
    /// The stream failed while playing (it is reopened).
    #[error("the stream failed: {0}")]
    Stream(alsa::Error),
    /// The PCM opened but did not start playing in time.
    #[error("`{pcm}` did not start playing within {secs:.1} s")]
    NotStarted { pcm: String, secs: f32 },
    /// The stream is down (being reopened); the last failure says why.
    #[error("no sound: {0}")]
    Down(String),
    /// The stream's thread could not be started.
    #[error("cannot start the audio thread: {0}")]
    Thread(String),
    /// The sink was closed, or its thread is gone.
    #[error("the sound output is closed")]
    Closed,
    /// An announcement was not played within its length and a margin.
    #[error("the sound output stopped playing")]
    Stalled,
    /// The stream failed while the announcement was being played.
    #[error("the sound output failed: {0}")]
    Failed(alsa::Error),
    /// The voice pack cannot be rendered at the device's rate.
    #[error(transparent)]
    Resample(#[from] super::dsp::ResampleError),
    /// ALSA cannot list its devices.
    #[error("cannot list ALSA devices: {0}")]
    List(alsa::Error),
}

/// What to do when the device cannot be opened at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persistence {
    /// Keep trying for ever (a table's configured device: it may be plugged
    /// in later, the sound server may come back).
    Retry,
    /// Give up at once (the venue default on a machine that may have no
    /// sound at all, `say --play`): the caller goes on with text.
    GiveUp,
}

/// One announcement for the stream's thread.
struct Job {
    /// Mono samples at `rate`.
    samples: Vec<f32>,
    /// The device's own rate when the pack was rendered for it (nothing
    /// to resample on the way), or [`RENDER_RATE`] until a stream opened.
    rate: u32,
    done: mpsc::Sender<Result<(), DeviceError>>,
    cancelled: Arc<AtomicBool>,
}

/// Announcements played on an ALSA PCM. Words without a clip go to speech
/// synthesis, as on the sound card.
pub struct DeviceSink {
    voice: Arc<VoicePack>,
    /// The voice rendered at `pack_rate`: the device's rate once a stream
    /// has opened, so that an announcement goes to the device as it is,
    /// never resampled between the move and its first sample.
    pack: Arc<RatePack>,
    pack_rate: u32,
    /// The rate the stream last opened at (0: none yet), set by its thread.
    device_rate: Arc<AtomicU32>,
    jobs: Option<mpsc::Sender<Job>>,
    status: AudioStatus,
    thread: Option<JoinHandle<()>>,
    synth: Option<Result<Synth, synth::SynthError>>,
}

impl DeviceSink {
    /// Opens PCM `pcm` (shown as `shown` in the table's status) and waits up
    /// to `timeout` for the stream to be proven playing. With
    /// [`Persistence::Retry`] a device that is not there yet is no error:
    /// the sink is returned `failed` and keeps trying.
    pub fn open(
        voice: Arc<VoicePack>,
        pcm: &str,
        shown: &str,
        persistence: Persistence,
        timeout: Duration,
    ) -> Result<DeviceSink, DeviceError> {
        let pack = voice.at_rate(RENDER_RATE)?;
        let status = AudioStatus::new(AudioView::fixed(AudioState::Starting, shown));
        let (jobs, rx) = mpsc::channel::<Job>();
        let (first_tx, first_rx) = mpsc::channel::<Result<(), DeviceError>>();
        let device_rate = Arc::new(AtomicU32::new(0));
        let thread = {
            let status = status.clone();
            let pcm = pcm.to_owned();
            let rate = Arc::clone(&device_rate);
            std::thread::Builder::new()
                .name(format!("tactus-audio-{shown}"))
                .spawn(move || run(&pcm, rx, &status, persistence, first_tx, &rate))
                .map_err(|e| DeviceError::Thread(e.to_string()))?
        };
        match first_rx.recv_timeout(timeout) {
            Ok(Ok(())) => {}
            Ok(Err(e)) if persistence == Persistence::GiveUp => {
                let _ = thread.join();
                return Err(e);
            }
            Err(mpsc::RecvTimeoutError::Timeout) if persistence == Persistence::GiveUp => {
                // The thread ends by itself once it sees nobody waits.
                return Err(DeviceError::NotStarted {
                    pcm: pcm.to_owned(),
                    secs: timeout.as_secs_f32(),
                });
            }
            // Retrying: the status says what is wrong meanwhile.
            _ => {}
        }
        let mut sink = DeviceSink {
            voice,
            pack,
            pack_rate: RENDER_RATE,
            device_rate,
            jobs: Some(jobs),
            status,
            thread: Some(thread),
            synth: None,
        };
        // Rendered for the device now, not at the first move.
        sink.follow_device_rate()?;
        Ok(sink)
    }

    /// Renders the pack at the device's rate if the stream opened at
    /// another (a card without 48 kHz; a device reopened as another): once,
    /// here, rather than every announcement on its way to the device.
    fn follow_device_rate(&mut self) -> Result<(), DeviceError> {
        let rate = self.device_rate.load(Ordering::Relaxed);
        if rate != 0 && rate != self.pack_rate {
            self.pack = self.voice.at_rate(rate)?;
            self.pack_rate = rate;
        }
        Ok(())
    }

    /// The status the table shows.
    pub fn status(&self) -> AudioStatus {
        self.status.clone()
    }

    /// The rate samples given to [`play`](Self::play) are at.
    pub fn rate(&self) -> u32 {
        RENDER_RATE
    }

    /// Plays mono `samples` at [`RENDER_RATE`] and returns once the device
    /// has played the last of them (or failed).
    pub fn play(&self, samples: Vec<f32>) -> Result<(), DeviceError> {
        self.play_at(samples, RENDER_RATE)
    }

    /// Plays mono `samples` at `rate` (resampled on the stream's thread only
    /// if the device's rate is another) and returns once the device has
    /// played the last of them (or failed).
    fn play_at(&self, samples: Vec<f32>, rate: u32) -> Result<(), DeviceError> {
        if samples.is_empty() {
            return Ok(());
        }
        let view = self.status.get();
        if view.is_down() {
            let why = view
                .error
                .unwrap_or_else(|| "the sound output failed".into());
            return Err(DeviceError::Down(why));
        }
        let length = Duration::from_secs_f64(samples.len() as f64 / f64::from(rate.max(1)));
        let (done, rx) = mpsc::channel();
        let cancelled = Arc::new(AtomicBool::new(false));
        let jobs = self.jobs.as_ref().ok_or(DeviceError::Closed)?;
        jobs.send(Job {
            samples,
            rate,
            done,
            cancelled: Arc::clone(&cancelled),
        })
        .map_err(|_| DeviceError::Closed)?;
        match rx.recv_timeout(length + Duration::from_secs(3)) {
            Ok(r) => r,
            Err(_) => {
                cancelled.store(true, Ordering::Relaxed);
                Err(DeviceError::Stalled)
            }
        }
    }

    /// Says free text through speech synthesis, started on first use. If
    /// synthesis is unavailable that is said once (a warning) and the text
    /// is not spoken; the caller shows it as text anyway.
    fn speak(&mut self, text: &str) {
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
            }
            Err(_) => {}
        }
    }
}

impl Sink for DeviceSink {
    fn set_voice(&mut self, voice: &Arc<VoicePack>) -> Result<(), SinkError> {
        self.pack = voice.at_rate(self.pack_rate).map_err(DeviceError::from)?;
        self.voice = Arc::clone(voice);
        Ok(())
    }

    fn say(&mut self, tokens: &[Token], _text: &str) -> Result<(), SinkError> {
        self.follow_device_rate()?;
        let voice = Arc::clone(&self.voice);
        for part in self.pack.parts(&voice, tokens) {
            match part {
                Part::Samples(s) => self.play_at(s, self.pack_rate)?,
                Part::Speak(text) => self.speak(&text),
            }
        }
        Ok(())
    }

    /// Waits until the device has played everything (drained) and closes it.
    fn finish(&mut self) -> Result<(), SinkError> {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        Ok(())
    }
}

impl Drop for DeviceSink {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// An open stream and its geometry.
struct Stream {
    pcm: PCM,
    rate: u32,
    channels: usize,
    /// Frames per write.
    period: usize,
    /// Frames the device buffers.
    buffer: usize,
    /// Frames of silence kept queued while idle.
    idle_fill: usize,
}

/// Opens `name` for 16-bit playback near [`RENDER_RATE`], mono if it can.
fn open_stream(name: &str) -> Result<Stream, DeviceError> {
    let fail = |step: &'static str, e: alsa::Error| DeviceError::Setup {
        pcm: name.to_owned(),
        step,
        source: e,
    };
    let pcm = PCM::new(name, Direction::Playback, false).map_err(|e| fail("cannot open", e))?;
    let (rate, channels, period, buffer) = {
        let hw = HwParams::any(&pcm).map_err(|e| fail("no parameters", e))?;
        hw.set_access(Access::RWInterleaved)
            .map_err(|e| fail("no interleaved access", e))?;
        hw.set_format(Format::s16())
            .map_err(|e| fail("no 16-bit samples", e))?;
        let channels = hw
            .set_channels_near(1)
            .map_err(|e| fail("no channel count", e))?;
        let rate = hw
            .set_rate_near(RENDER_RATE, ValueOr::Nearest)
            .map_err(|e| fail("no sample rate", e))?;
        hw.set_period_time_near(PERIOD_US, ValueOr::Nearest)
            .map_err(|e| fail("no period", e))?;
        hw.set_buffer_time_near(BUFFER_US, ValueOr::Nearest)
            .map_err(|e| fail("no buffer", e))?;
        pcm.hw_params(&hw).map_err(|e| fail("cannot set up", e))?;
        let hw = pcm.hw_params_current().map_err(|e| fail("no set-up", e))?;
        let period = hw.get_period_size().map_err(|e| fail("no period", e))?;
        let buffer = hw.get_buffer_size().map_err(|e| fail("no buffer", e))?;
        (rate, channels, period, buffer)
    };
    {
        let sw = pcm
            .sw_params_current()
            .map_err(|e| fail("no software parameters", e))?;
        // Start as soon as one period is there: the first word is not held
        // back until the buffer is full.
        sw.set_start_threshold(period)
            .map_err(|e| fail("no start threshold", e))?;
        pcm.sw_params(&sw).map_err(|e| fail("cannot set up", e))?;
    }
    let period = usize::try_from(period).unwrap_or(240).max(1);
    let buffer = usize::try_from(buffer).unwrap_or(1920).max(1);
    // At least a period (the one being played; the thread wakes to write
    // the next before it has), and never the whole buffer.
    let idle_fill = (rate as usize * IDLE_FILL_US as usize / 1_000_000)
        .max(period)
        .min(buffer.saturating_sub(period).max(period));
    Ok(Stream {
        pcm,
        rate,
        channels: usize::try_from(channels).unwrap_or(1).max(1),
        period,
        buffer,
        idle_fill,
    })
}

/// The announcement being played: interleaved PCM, how far it has been
/// written, and the silence still owed behind it before it has been heard.
struct Playing {
    pcm: Vec<i16>,
    written: usize,
    tail: Option<usize>,
    job: Job,
}

impl Playing {
    fn new(job: Job, stream: &Stream) -> Playing {
        let mono = if stream.rate == job.rate {
            std::borrow::Cow::Borrowed(&job.samples[..])
        } else {
            std::borrow::Cow::Owned(
                super::dsp::resample(&job.samples, job.rate, stream.rate)
                    .unwrap_or_else(|_| job.samples.clone()),
            )
        };
        let mut pcm = Vec::with_capacity(mono.len() * stream.channels);
        for &s in mono.iter() {
            let v = to_i16(s);
            pcm.extend(std::iter::repeat_n(v, stream.channels));
        }
        Playing {
            pcm,
            written: 0,
            tail: None,
            job,
        }
    }
}

/// What ended one open stream's life.
enum Ended {
    /// Everything given has been played and nobody will give more.
    Closed,
    /// The stream failed; open it again.
    Failed(DeviceError),
}

/// The nice value the stream's thread asks for, as the boards' reading
/// threads do (`LimitNICE=-10` in the unit allows it): with only
/// [`IDLE_FILL_US`] queued while idle, a thread that a busy host runs late
/// lets the stream run dry just as an announcement comes, and through
/// PulseAudio an underrun drops the samples it passed (a word's onset).
const SOUND_NICE: i32 = -10;

/// Asks for [`SOUND_NICE`] for the calling thread; without `CAP_SYS_NICE`
/// (or the unit's limit) it keeps the normal priority, which only makes an
/// underrun of silence likelier on a busy host.
fn play_promptly() {
    // SAFETY: gettid and setpriority take plain integers and touch no
    // memory of ours; on Linux PRIO_PROCESS with a thread id sets that
    // thread's nice value only.
    let refused = unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, SOUND_NICE) != 0
    };
    if refused {
        tracing::debug!(
            error = %std::io::Error::last_os_error(),
            "the sound thread runs at normal priority"
        );
    }
}

/// The stream's thread: open, prove, play, recover, reopen, until the sink
/// is dropped.
fn run(
    name: &str,
    jobs: mpsc::Receiver<Job>,
    status: &AudioStatus,
    persistence: Persistence,
    first: mpsc::Sender<Result<(), DeviceError>>,
    device_rate: &AtomicU32,
) {
    play_promptly();
    // alsa-lib's own complaints (a missing card is eight lines; the pulse
    // plugin one per failed connection) go to a buffer on this thread and
    // become debug events, so the log says each thing once, in our words.
    let alsa_log = alsa::Output::local_error_handler().ok();
    let mut first = Some(first);
    // Reset only once the device has played (in `play_on`).
    let mut backoff = Backoff::new(BACKOFF_START, BACKOFF_MAX);
    let mut failures = 0u64;
    loop {
        let outcome = match open_stream(name) {
            Ok(stream) => {
                device_rate.store(stream.rate, Ordering::Relaxed);
                if failures > 0 {
                    status.reopened();
                }
                play_on(&stream, &jobs, status, &mut first, &mut backoff)
            }
            Err(e) => Ended::Failed(e),
        };
        flush_alsa_log(alsa_log.as_ref());
        let error = match outcome {
            Ended::Closed => return,
            Ended::Failed(e) => e,
        };
        failures += 1;
        let wait = backoff.failed();
        // The first failure after playing at once; while it keeps failing,
        // one line a minute at most.
        if status.get().state != AudioState::Failed {
            backoff.log_due(Instant::now());
            tracing::warn!("sound output {name}: {error}; trying again");
        } else if let Some(n) = backoff.log_due(Instant::now()) {
            tracing::warn!(failures = n, "sound output {name}: {error}; still trying");
        }
        status.failed(error.to_string());
        if let Some(tx) = first.take() {
            let _ = tx.send(Err(error.clone()));
            if persistence == Persistence::GiveUp {
                return;
            }
        }
        // Back off, refusing announcements meanwhile (they are shown as
        // text; the table says it has no sound).
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match jobs.recv_timeout(left) {
                Ok(job) => {
                    let _ = job.done.send(Err(DeviceError::Down(error.to_string())));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    }
}

fn flush_alsa_log(log: Option<&std::rc::Rc<std::cell::RefCell<alsa::Output>>>) {
    let Some(log) = log else { return };
    let text = log
        .borrow()
        .buffer_string(|b| String::from_utf8_lossy(b).into_owned());
    if !text.trim().is_empty() {
        tracing::debug!("alsa-lib: {}", text.trim());
    }
    // A fresh buffer: the old text has been said.
    if let Ok(fresh) = alsa::Output::buffer_open() {
        *log.borrow_mut() = fresh;
    }
}

/// Plays on one open stream until it fails or the sink is closed.
fn play_on(
    stream: &Stream,
    jobs: &mpsc::Receiver<Job>,
    status: &AudioStatus,
    first: &mut Option<mpsc::Sender<Result<(), DeviceError>>>,
    backoff: &mut Backoff,
) -> Ended {
    let io = match stream.pcm.io_i16() {
        Ok(io) => io,
        Err(e) => return Ended::Failed(DeviceError::Stream(e)),
    };
    let silence = vec![0i16; stream.period * stream.channels];
    let mut player = Player {
        stream,
        jobs,
        status,
        first,
        backoff,
        current: None,
        closing: false,
        errors: 0,
        proven: 0,
        shown_playing: false,
    };
    loop {
        if player.current.is_none() && !player.closing && !player.next_job() {
            continue;
        }
        player.drop_cancelled();
        if player.closing && player.current.is_none() {
            // Everything given has been written: let the device play it.
            played_out(stream);
            let _ = stream.pcm.drain();
            return Ended::Closed;
        }
        if player.paced_behind() {
            continue;
        }
        let chunk = player.chunk(&silence);
        match io.writei(chunk) {
            Ok(frames) => player.wrote(frames),
            Err(e) => {
                if let Some(ended) = player.write_failed(e) {
                    return ended;
                }
            }
        }
    }
}

/// [`play_on`]'s state: the stream and what it reports to, the
/// announcement being played and how the writes have gone.
struct Player<'a> {
    stream: &'a Stream,
    jobs: &'a mpsc::Receiver<Job>,
    status: &'a AudioStatus,
    first: &'a mut Option<mpsc::Sender<Result<(), DeviceError>>>,
    backoff: &'a mut Backoff,
    current: Option<Playing>,
    /// Nobody will give more announcements.
    closing: bool,
    /// Write errors in a row.
    errors: u32,
    /// Writes that went through since opening: two periods, and the device
    /// running, prove it plays.
    proven: usize,
    shown_playing: bool,
}

impl Player<'_> {
    /// How long `frames` take to play.
    fn frame_time(&self, frames: usize) -> Duration {
        Duration::from_secs_f64(frames as f64 / f64::from(self.stream.rate.max(1)))
    }

    /// How long to sleep while `over` frames are queued beyond the idle
    /// fill: a little early (at most a period), to top up in time.
    fn nap(&self, over: usize) -> Duration {
        self.frame_time(over.min(self.stream.period))
            .max(Duration::from_micros(500))
    }

    /// Idle: waits for an announcement while more than the idle fill is
    /// queued, and writes silence only to top it up. Whether to write now
    /// (`false`: nothing came and the queue is still over the fill, look
    /// again).
    fn next_job(&mut self) -> bool {
        let over = over_fill(self.stream, self.shown_playing);
        let next = if over > 0 {
            match self.jobs.recv_timeout(self.nap(over)) {
                Ok(job) => Ok(job),
                Err(mpsc::RecvTimeoutError::Timeout) => Err(mpsc::TryRecvError::Empty),
                Err(mpsc::RecvTimeoutError::Disconnected) => Err(mpsc::TryRecvError::Disconnected),
            }
        } else {
            self.jobs.try_recv()
        };
        match next {
            Ok(job) => self.current = Some(Playing::new(job, self.stream)),
            Err(mpsc::TryRecvError::Empty) if over > 0 => return false,
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.closing = true,
        }
        true
    }

    /// Drops the announcement being played if it was cancelled.
    fn drop_cancelled(&mut self) {
        if let Some(p) = &self.current
            && p.job.cancelled.load(Ordering::Relaxed)
        {
            self.current = None;
        }
    }

    /// Behind an announcement's last sample, silence is paced as when
    /// idle: the next announcement then waits behind little silence.
    /// Whether it slept (then look again before writing).
    fn paced_behind(&self) -> bool {
        if self
            .current
            .as_ref()
            .is_some_and(|p| p.written >= p.pcm.len())
        {
            let over = over_fill(self.stream, self.shown_playing);
            if over > 0 {
                std::thread::sleep(self.nap(over));
                return true;
            }
        }
        false
    }

    /// What to write next: the announcement's next period, or silence.
    fn chunk<'s>(&'s self, silence: &'s [i16]) -> &'s [i16] {
        match &self.current {
            Some(p) if p.written < p.pcm.len() => {
                let end = (p.written + silence.len()).min(p.pcm.len());
                &p.pcm[p.written..end]
            }
            _ => silence,
        }
    }

    /// A write of `frames` went through: the stream may now be proven
    /// playing, and the announcement moves on; it is done once the
    /// silence owed behind it has been written too.
    fn wrote(&mut self, frames: usize) {
        self.errors = 0;
        let n = frames * self.stream.channels;
        self.proven += 1;
        if !self.shown_playing && self.proven >= 2 && self.stream.pcm.state() == State::Running {
            self.shown_playing = true;
            self.status.playing();
            self.backoff.proven();
            if let Some(tx) = self.first.take() {
                let _ = tx.send(Ok(()));
            }
        }
        if let Some(p) = self.current.as_mut() {
            if p.written < p.pcm.len() {
                p.written += n;
                if p.written >= p.pcm.len() {
                    p.tail = Some(queued(self.stream, self.status) * self.stream.channels);
                }
            } else if let Some(tail) = p.tail.as_mut() {
                *tail = tail.saturating_sub(n);
            }
            if p.tail == Some(0) {
                let p = self.current.take().expect("playing");
                let _ = p.job.done.send(Ok(()));
            }
        }
    }

    /// A write failed: recovered in place, or (recovery refused, or too
    /// many errors in a row) the stream is given up, failing the
    /// announcement being played: how it ended then.
    fn write_failed(&mut self, e: alsa::Error) -> Option<Ended> {
        self.errors += 1;
        self.status.retried();
        tracing::debug!("sound output: {e}; recovering");
        let recovered = match e.errno() {
            // The pulse plugin's transient EIO: prepare and go on.
            libc::EIO => self.stream.pcm.prepare(),
            libc::EAGAIN => Ok(()),
            _ => self.stream.pcm.try_recover(e, true),
        };
        if recovered.is_err() || self.errors >= ERRORS_BEFORE_REOPEN {
            if let Some(p) = self.current.take() {
                let _ = p.job.done.send(Err(DeviceError::Failed(e)));
            }
            return Some(Ended::Failed(DeviceError::Stream(e)));
        }
        None
    }
}

/// Frames queued beyond the idle fill (0 before the stream is proven
/// playing: its start threshold wants data; and on an error, which the
/// next write meets and recovers from).
fn over_fill(stream: &Stream, started: bool) -> usize {
    match stream.pcm.avail_update() {
        Ok(avail) if started => {
            let avail = usize::try_from(avail).unwrap_or(0);
            stream
                .buffer
                .saturating_sub(avail)
                .saturating_sub(stream.idle_fill)
        }
        _ => 0,
    }
}

/// The longest closing waits for the device to play what it holds: its
/// buffer and PulseAudio's latency are tens of milliseconds; a delay that
/// does not fall in this time is not believed.
const PLAY_OUT_MAX: Duration = Duration::from_millis(500);

/// Waits until the device's delay (PulseAudio's latency included) has run
/// down: everything written has been heard. `snd_pcm_drain` alone does not
/// promise that through the pulse plugin: with alsa-lib's generic ioplug
/// drain it returns once PulseAudio has taken the samples, and closing the
/// stream then drops what its sink still holds (the end of the last word,
/// 5 to 25 ms). Bounded by [`PLAY_OUT_MAX`]; an error (an underrun after
/// the last sample: all of it played) ends the wait.
fn played_out(stream: &Stream) {
    let deadline = Instant::now() + PLAY_OUT_MAX;
    while Instant::now() < deadline {
        match stream.pcm.delay() {
            Ok(d) if d > 0 => {
                let frames = usize::try_from(d).unwrap_or(0).min(stream.period);
                std::thread::sleep(
                    Duration::from_secs_f64(frames as f64 / f64::from(stream.rate.max(1)))
                        .max(Duration::from_micros(500)),
                );
            }
            _ => return,
        }
    }
}

/// Frames the device holds ahead of the speaker right now (its delay,
/// PulseAudio's latency included). The pulse plugin answers EIO while it has
/// no timing data yet: asked again a few times, then the buffer size stands
/// in (never less than the truth).
fn queued(stream: &Stream, status: &AudioStatus) -> usize {
    for _ in 0..5 {
        match stream.pcm.delay() {
            Ok(d) => return usize::try_from(d).unwrap_or(0),
            Err(_) => {
                status.retried();
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
    stream.buffer
}

/// PCM names `tactus audio devices` lists: every playback PCM ALSA knows
/// (its configuration's and each card's), with its description.
pub fn devices() -> Result<Vec<(String, String)>, DeviceError> {
    let hints = alsa::device_name::HintIter::new_str(None, "pcm").map_err(DeviceError::List)?;
    Ok(hints
        .filter(|h| h.direction.is_none_or(|d| d == Direction::Playback))
        .filter_map(|h| {
            let name = h.name?;
            let desc = h.desc.unwrap_or_default().replace('\n', ", ");
            Some((name, desc))
        })
        .collect())
}
