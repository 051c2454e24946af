//! Board drivers over a serial port, local or served over the network
//! (`link.rs`): bytes → decoder → events, nothing more.
//!
//! The serialport crate is synchronous, so each driver owns one blocking
//! thread that forwards stamped events into a tokio channel; host requests
//! come back over a std channel and are written between reads. The thread
//! blocks on the port and on a wake-up descriptor the host writes to with
//! every request (`wake.rs`): an idle board costs no wake-up at all, where
//! a read with a 20 ms timeout cost fifty a second. (tokio-serial would add
//! mio-serial and a second serial stack for a single port at 9600 baud; a
//! thread is simpler and lets us keep serialport's `TTYPort` everywhere,
//! tests included.)
//!
//! A host that needs to know the board has been still until an instant (a
//! settling time running out) asks with [`Driver::read_until`]: the driver
//! then shortens its read to end at that instant and, once it has read and
//! passed on everything the board sent before it, sends
//! [`DriverEvent::ReadUpTo`] in the same stream as the events. Judging by
//! that, not by the host's own timer, a host that is slow to run (a busy
//! machine) never reads the board before events the board sent in time
//! have reached it.
//!
//! Unreadable input is counted, answered with a full-scan request and
//! logged in summary: the first at once, then one warning every few seconds
//! with the count (a board at the wrong baud rate sends nothing else, as fast
//! as the line goes). It is counted, not queued: the channel to the host is
//! bounded ([`EVENT_QUEUE`]); a board event waits for room (the board's
//! bytes then wait in the OS), unreadable input that finds no room is only
//! counted.
//!
//! A failed read, hang-up or end of file is a disconnect: reported, then
//! the port is reopened with [`Backoff`], which only a connection that has
//! proven itself (the board sent a valid message) resets: ser2net in front
//! of an unplugged USB board accepts and closes at once, and is retried at
//! the backoff's pace, not the network's. Once the board is back the driver
//! reports `Connected` and asks for a full scan again. A connection on
//! probation (the last one failed before any valid message) is reported
//! `Connected` only when its first valid message comes, so a storm of
//! opens is one `Disconnected`, not a pair per open. A network link is the
//! same: a dropped connection or a host not there yet is an unplugged board.

use std::io::ErrorKind;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::Square;
use tokio::sync::mpsc;

use tactus_backoff::{AfterPanic, Backoff};

use super::event::{BoardEvent, Decoded, Protocol, Unreadable, decoder};
use super::link::{Framing, Link, Port};
use super::wake::{self, Ready, RunDelay, Wake};

/// Where and how to talk to a board.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    pub port: Port,
    pub protocol: Protocol,
    /// Baud rate (the protocol's default unless set: see
    /// [`Protocol::default_baud`]). Over raw TCP the far end sets it.
    pub baud: u32,
    /// How long a wait for the board lasts at most where the kernel does
    /// not tell a thread how late it ran (`wake::RunDelay`): the driver
    /// then looks up this often, as it did before it blocked; elsewhere a
    /// wait lasts until the board or the host has something. Also the
    /// network links' read timeout.
    pub poll: Duration,
    /// First and longest wait between attempts to reopen the port.
    pub retry_min: Duration,
    pub retry_max: Duration,
    /// At most one warning about unreadable input this often.
    pub noise_every: Duration,
}

impl DriverConfig {
    /// The protocol's defaults for `port`.
    pub fn new(port: impl Into<Port>, protocol: Protocol) -> DriverConfig {
        DriverConfig {
            port: port.into(),
            protocol,
            baud: protocol.default_baud(),
            poll: Duration::from_millis(20),
            retry_min: Duration::from_millis(50),
            retry_max: Duration::from_secs(2),
            noise_every: NOISE_EVERY,
        }
    }

    /// Speed and framing of the line.
    pub fn framing(&self) -> Framing {
        self.protocol.framing(self.baud)
    }
}

/// Events the driver may have queued for its host before it waits (a board
/// event) or only counts (unreadable input).
pub const EVENT_QUEUE: usize = 256;

/// How often unreadable input is summarised in the log, at most.
pub const NOISE_EVERY: Duration = Duration::from_secs(5);

/// Unreadable input as the log tells it: the first piece at once, then at
/// most one summary per `every` with how many more came and the latest
/// reason. Pure (time passed in); the driver says what it returns.
#[derive(Debug)]
pub struct NoiseLog {
    every: Duration,
    /// When the last line was logged.
    logged_at: Option<Instant>,
    /// Unreadable pieces since then, not yet told.
    untold: u64,
    latest: String,
    total: u64,
}

impl NoiseLog {
    pub fn new(every: Duration) -> NoiseLog {
        NoiseLog {
            every,
            logged_at: None,
            untold: 0,
            latest: String::new(),
            total: 0,
        }
    }

    /// One unreadable piece at `now`: a line to log, if one is due.
    pub fn unreadable(&mut self, now: Instant, what: &str) -> Option<String> {
        self.total += 1;
        let quiet = self
            .logged_at
            .is_none_or(|at| now.saturating_duration_since(at) >= self.every);
        if quiet && self.untold == 0 {
            self.logged_at = Some(now);
            return Some(format!(
                "unreadable board input ({what}); asking for a full scan"
            ));
        }
        self.untold += 1;
        what.clone_into(&mut self.latest);
        self.due(now)
    }

    /// The summary of what was not told yet, once `every` has passed since
    /// the last line (called whenever the driver looks up).
    pub fn due(&mut self, now: Instant) -> Option<String> {
        let at = self.logged_at?;
        if now.saturating_duration_since(at) < self.every {
            return None;
        }
        self.flush(now)
    }

    /// When [`NoiseLog::due`] will have a summary to give, if ever (the
    /// driver wakes then, the board being quiet).
    pub fn next_due(&self) -> Option<Instant> {
        (self.untold > 0).then_some(self.logged_at? + self.every)
    }

    /// What was not told yet, now (the connection ended).
    pub fn flush(&mut self, now: Instant) -> Option<String> {
        let at = self.logged_at?;
        if self.untold == 0 {
            return None;
        }
        let line = format!(
            "{} more unreadable pieces of board input in {:.1} s (latest: {}); {} since the board connected",
            self.untold,
            now.saturating_duration_since(at).as_secs_f64(),
            self.latest,
            self.total
        );
        self.logged_at = Some(now);
        self.untold = 0;
        Some(line)
    }
}

/// One driver output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverEvent {
    Board(BoardEvent),
    Unreadable(Unreadable),
    /// Everything the board sent before the stamp has been passed on (the
    /// answer to [`Driver::read_until`]; the stamp is at or after the
    /// instant asked for).
    ReadUpTo,
}

/// A driver output with the instant its bytes were read.
#[derive(Debug, Clone)]
pub struct Stamped {
    pub at: Instant,
    pub event: DriverEvent,
    /// How much earlier than `at` the bytes may have arrived: zero when
    /// the driver was reading on time; the whole gap when its thread woke
    /// late (a busy machine), so that events sent far apart came in one
    /// read and their stamps no longer tell their timing.
    pub unsure: Duration,
}

/// The nice value the driver's thread asks for: above every ordinary
/// process, below the kernel's own threads. It sleeps nearly all the time.
pub const DRIVER_NICE: i32 = -10;

/// Asks for a higher priority for the calling thread ([`DRIVER_NICE`]), as
/// sound servers do for theirs: hands on a board are timed by when the host
/// reads them (a touch is a lift and a put further apart than a bounce), so
/// the reading thread should wake when the bytes come even on a busy host.
/// It needs `CAP_SYS_NICE` (or `LimitNICE=` in a systemd unit); without it
/// the thread runs at the normal priority and the host says so once.
fn read_promptly() {
    static TOLD: std::sync::Once = std::sync::Once::new();
    // SAFETY: gettid and setpriority take plain integers and touch no
    // memory of ours; on Linux PRIO_PROCESS with a thread id sets that
    // thread's nice value only.
    let refused = unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, DRIVER_NICE) != 0
    };
    if refused {
        let why = std::io::Error::last_os_error();
        TOLD.call_once(|| {
            tracing::info!(
                error = %why,
                "board threads run at normal priority (no CAP_SYS_NICE): on a busy host, board events may be read late"
            );
        });
    }
}

/// A read that returns later than its own timeout by more than this
/// (timer slack and an ordinary wake-up) was not on time.
const LATE: Duration = Duration::from_millis(5);

/// A board that has sent nothing for this long is quiet: the driver then
/// waits for it without a timeout (an idle table costs no wake-up). While
/// a board is in use its waits last at most the poll time, so that a
/// thread that ran late (a busy host, a process stopped, a virtual
/// machine's stolen time) knows it by the clock; a quiet board's first
/// bytes are judged by the kernel's count of how late the thread ran
/// (`wake::RunDelay`), which sees a busy host but not a stopped one.
pub const QUIET: Duration = Duration::from_secs(2);

/// A running driver. Dropping it stops its thread.
pub struct Driver {
    events: mpsc::Receiver<Stamped>,
    requests: std_mpsc::Sender<Vec<u8>>,
    stop: Arc<AtomicBool>,
    unreadable: Arc<AtomicU64>,
    failures: Arc<AtomicU64>,
    lights: Arc<Mutex<Vec<u8>>>,
    want: Arc<Mutex<Option<Instant>>>,
    /// Wakes the thread: a request to write, a new instant to read up to,
    /// the order to stop.
    wake: Arc<Wake>,
    protocol: Protocol,
    thread: Option<JoinHandle<()>>,
}

impl Driver {
    /// Starts the driver thread; it connects (and reconnects) on its own.
    pub fn spawn(config: DriverConfig) -> std::io::Result<Driver> {
        let (tx, events) = mpsc::channel(EVENT_QUEUE);
        let (requests, rx_req) = std_mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let unreadable = Arc::new(AtomicU64::new(0));
        let failures = Arc::new(AtomicU64::new(0));
        let lights = Arc::new(Mutex::new(Vec::new()));
        let want = Arc::new(Mutex::new(None));
        let wake = Arc::new(Wake::new()?);
        let protocol = config.protocol;
        let worker = Worker {
            wake: wake.clone(),
            lights: lights.clone(),
            want: want.clone(),
            config,
            tx,
            requests: rx_req,
            stop: stop.clone(),
            unreadable: unreadable.clone(),
            failures: failures.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("board-driver".into())
            .spawn(move || worker.supervise())?;
        Ok(Driver {
            events,
            requests,
            stop,
            unreadable,
            failures,
            lights,
            want,
            wake,
            protocol,
            thread: Some(thread),
        })
    }

    /// Asks for [`DriverEvent::ReadUpTo`] once everything the board sent
    /// before `at` has been passed on (`None`: no longer wanted). A new
    /// request replaces the last.
    pub fn read_until(&self, at: Option<Instant>) {
        let mut want = self.want.lock().unwrap_or_else(|e| e.into_inner());
        // The table asks at every turn of its loop: only news wakes the
        // thread, which then waits until the new instant at most.
        if *want != at {
            *want = at;
            drop(want);
            self.wake.wake();
        }
    }

    /// Shows a move on the board's LEDs (`Some((from, to))`) or puts them
    /// out (`None`): a DGT Revelation II or a ChessLink board; other boards
    /// have none. What is shown is shown again after a reconnection.
    pub fn show_move(&self, squares: Option<(Square, Square)>) {
        let bytes = match (self.protocol, squares) {
            (Protocol::Peg, _) => return,
            (Protocol::Dgt, Some((from, to))) => super::dgt::show_move(from, to),
            (Protocol::Dgt, None) => super::dgt::LEDS_OFF.to_vec(),
            (Protocol::Millennium, Some((from, to))) => super::millennium::show_move(from, to),
            (Protocol::Millennium, None) => super::millennium::LEDS_OFF.to_vec(),
        };
        let mut lights = self.lights.lock().unwrap_or_else(|e| e.into_inner());
        if *lights != bytes {
            lights.clone_from(&bytes);
            self.send(&bytes);
        }
    }

    /// The next event; `None` once the driver has stopped.
    pub async fn next(&mut self) -> Option<Stamped> {
        self.events.recv().await
    }

    /// Sends raw host → board bytes (written between reads).
    pub fn send(&self, bytes: &[u8]) {
        // The worker only stops when the driver is dropped.
        let _ = self.requests.send(bytes.to_vec());
        self.wake.wake();
    }

    /// How many unreadable lines or messages the board has sent.
    pub fn unreadable_count(&self) -> u64 {
        self.unreadable.load(Ordering::Relaxed)
    }

    /// Attempts to reach the board that failed (could not open, or ended
    /// before the board sent a valid message) since it last proved itself:
    /// non-zero while the board is failing.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // A worker waiting for room in the queue gives up; one blocked on
        // the board wakes.
        self.events.close();
        self.wake.wake();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct Worker {
    config: DriverConfig,
    wake: Arc<Wake>,
    tx: mpsc::Sender<Stamped>,
    requests: std_mpsc::Receiver<Vec<u8>>,
    stop: Arc<AtomicBool>,
    unreadable: Arc<AtomicU64>,
    failures: Arc<AtomicU64>,
    /// The LED command in force, sent again after every (re)connection.
    lights: Arc<Mutex<Vec<u8>>>,
    /// The instant the host waits to hear the board was read up to.
    want: Arc<Mutex<Option<Instant>>>,
}

impl Worker {
    fn emit(&self, event: DriverEvent) -> bool {
        self.emit_unsure(event, Duration::ZERO)
    }

    /// Passes an event on, waiting for room in the queue; false once the
    /// host is gone.
    fn emit_unsure(&self, event: DriverEvent, unsure: Duration) -> bool {
        self.tx
            .blocking_send(Stamped {
                at: Instant::now(),
                event,
                unsure,
            })
            .is_ok()
    }

    /// Passes unreadable input on if there is room; it has been counted
    /// already, so a full queue loses nothing the host needs. False once
    /// the host is gone.
    fn emit_unreadable(&self, u: Unreadable, unsure: Duration) -> bool {
        let stamped = Stamped {
            at: Instant::now(),
            event: DriverEvent::Unreadable(u),
            unsure,
        };
        !matches!(
            self.tx.try_send(stamped),
            Err(mpsc::error::TrySendError::Closed(_))
        )
    }

    fn wanted(&self) -> Option<Instant> {
        *self.want.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Everything the board sent before `upto` has been passed on: answers
    /// the host's request if `upto` reaches it.
    fn read_up_to(&self, upto: Instant) -> bool {
        let mut want = self.want.lock().unwrap_or_else(|e| e.into_inner());
        match *want {
            Some(w) if w <= upto => {
                *want = None;
                drop(want);
                self.tx
                    .blocking_send(Stamped {
                        at: upto,
                        event: DriverEvent::ReadUpTo,
                        unsure: Duration::ZERO,
                    })
                    .is_ok()
            }
            _ => true,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.tx.is_closed()
    }

    /// Runs the driver, and runs it again should it panic: the host hears
    /// the board disconnected (and `failures` counts it), the log says so
    /// at most once a minute, and restarts are backed off.
    fn supervise(self) {
        let mut restarts = Backoff::new(self.config.retry_min, self.config.retry_max);
        tactus_backoff::supervise(
            &mut restarts,
            || self.run(),
            |log| {
                if self.stopped() {
                    return AfterPanic::Stop;
                }
                self.failures.fetch_add(1, Ordering::Relaxed);
                if let Some(n) = log {
                    tracing::error!(port = %self.config.port, failures = n, "board driver failed; starting it again");
                }
                let reason = "the board driver failed; starting it again".to_owned();
                if self.emit(DriverEvent::Board(BoardEvent::Disconnected(reason))) {
                    AfterPanic::Restart
                } else {
                    AfterPanic::Stop
                }
            },
            |wait| self.sleep(wait),
        );
    }

    fn run(&self) {
        read_promptly();
        let mut backoff = Backoff::new(self.config.retry_min, self.config.retry_max);
        // Whether the host was told `Connected` and not `Disconnected` since.
        let mut told = false;
        while !self.stopped() {
            let opened =
                super::link::open(&self.config.port, self.config.framing(), self.config.poll);
            let failure = match opened {
                Ok(port) => {
                    // On probation the host hears of the board only once
                    // it has sent a valid message (in `read_until_failure`).
                    if !backoff.is_failing() {
                        tracing::info!(port = %self.config.port, "board connected");
                        if !self.emit(DriverEvent::Board(BoardEvent::Connected)) {
                            return;
                        }
                        told = true;
                    }
                    let (reason, proven) = self.serve(port, &mut told);
                    if self.stopped() {
                        // The table let its board go: nothing went wrong.
                        tracing::debug!(port = %self.config.port, %reason, "board driver stopped");
                        return;
                    }
                    if told
                        && !self.emit(DriverEvent::Board(BoardEvent::Disconnected(reason.clone())))
                    {
                        return;
                    }
                    told = false;
                    if proven {
                        backoff.proven();
                        self.failures.store(0, Ordering::Relaxed);
                        tracing::warn!(port = %self.config.port, %reason, "board disconnected");
                        // A board that worked is looked for again soon (a
                        // plug pulled and put back), but never in a loop.
                        self.sleep(self.config.retry_min);
                        continue;
                    }
                    format!("the connection ended before the board sent a valid message ({reason})")
                }
                Err(e) => e.to_string(),
            };
            let wait = backoff.failed();
            self.failures.store(backoff.failures(), Ordering::Relaxed);
            if let Some(n) = backoff.log_due(Instant::now()) {
                tracing::warn!(
                    port = %self.config.port,
                    error = %failure,
                    failures = n,
                    "cannot reach the board; retrying every {:.1} s at most",
                    self.config.retry_max.as_secs_f64()
                );
            }
            self.sleep(wait);
        }
    }

    /// Waits `total` with no board connected, answering the host's
    /// instants meanwhile (the board sends nothing to be read) and
    /// stopping at once when told to.
    fn sleep(&self, total: Duration) {
        let end = Instant::now() + total;
        while !self.stopped() {
            let now = Instant::now();
            self.read_up_to(now);
            let left = end.saturating_duration_since(now);
            if left.is_zero() {
                break;
            }
            let wait = match self.wanted() {
                Some(w) => w.saturating_duration_since(now).min(left),
                None => left,
            };
            if wake::wait(None, &self.wake, Some(wait)).is_err() {
                std::thread::sleep(wait.min(self.config.poll));
            }
        }
    }

    /// Reads until the port fails; returns why, and whether the board sent
    /// a valid message (the connection proved itself). Unreadable input not
    /// yet told is told then. `told`: whether the host has heard
    /// `Connected`; if not, it hears it before the first valid message.
    fn serve(&self, port: Box<dyn Link>, told: &mut bool) -> (String, bool) {
        let mut noise = NoiseLog::new(self.config.noise_every);
        let mut proven = false;
        let reason = self
            .read_until_failure(port, &mut noise, told, &mut proven)
            .to_string();
        if let Some(line) = noise.flush(Instant::now()) {
            tracing::warn!(port = %self.config.port, "{line}");
        }
        (reason, proven)
    }

    /// Reads the board until the connection fails or the driver stops,
    /// passing on what it sends with how unsure its instant is. One loop
    /// of about a hundred lines, long because the wait, the read and the
    /// stamp share the instants that make the stamp (`started`,
    /// `returned`, `last_bytes`, the run delay), so they stay together;
    /// what needs none of them is a step of its own.
    fn read_until_failure(
        &self,
        mut port: Box<dyn Link>,
        noise: &mut NoiseLog,
        told: &mut bool,
        proven: &mut bool,
    ) -> Stop {
        let mut decoder = decoder(self.config.protocol);
        if let Err(stop) = self.open_connection(&mut *port, decoder.start_requests()) {
            return stop;
        }
        let mut buf = [0u8; 256];
        let mut out = Vec::new();
        // When the last read returned: bytes waiting at the next read
        // arrived after it.
        let mut returned = Instant::now();
        // How late this thread ran once woken; without it, waits are
        // always bounded by the poll time and lateness is judged by the
        // clock alone.
        let mut delay = RunDelay::of_this_thread();
        // When the board last sent bytes (a connection starts in use).
        let mut last_bytes = Instant::now();
        loop {
            if self.stopped() {
                return Stop::Stopped;
            }
            if let Some(line) = noise.due(Instant::now()) {
                tracing::warn!(port = %self.config.port, "{line}");
            }
            while let Ok(req) = self.requests.try_recv() {
                if let Err(e) = port.write_all(&req) {
                    return Stop::Write(e);
                }
            }
            let started = Instant::now();
            let bounded = delay.is_none() || started.saturating_duration_since(last_bytes) < QUIET;
            let wait = self.next_wait(noise, started, bounded);
            let held = port.holds_data();
            let delay_before = delay.as_mut().and_then(RunDelay::now);
            let ready = if held {
                Ready {
                    port: true,
                    woken: false,
                }
            } else {
                match wake::wait(Some(port.fd()), &self.wake, wait) {
                    Ok(ready) => ready,
                    Err(e) => return Stop::Wait(e),
                }
            };
            if !ready.port {
                if !self.nothing_came(ready, started, wait) {
                    return Stop::Stopped;
                }
                continue;
            }
            let read = port.read(&mut buf);
            let now = Instant::now();
            let late = match (delay_before, delay.as_mut().and_then(RunDelay::now)) {
                (Some(before), Some(after)) => Some(after.saturating_sub(before)),
                _ => None,
            };
            let unsure = how_unsure(held, now, started, returned, wait, late);
            returned = now;
            match read {
                Ok(0) => return Stop::EndOfFile,
                Ok(n) => {
                    last_bytes = now;
                    decoder.feed(buf.get(..n).unwrap_or_default(), &mut out);
                    let rescan = match self.pass_on(&mut out, unsure, noise, told, proven) {
                        Ok(rescan) => rescan,
                        Err(stop) => return stop,
                    };
                    if rescan && let Err(e) = port.write_all(decoder.scan_request()) {
                        return Stop::Write(e);
                    }
                    // All that was there when the read began is passed on.
                    if n < buf.len() && !held && !port.holds_data() && !self.read_up_to(started) {
                        return Stop::Stopped;
                    }
                }
                // The port looked readable but had nothing for the link (a
                // spurious wake-up, only telnet commands): nothing came
                // before the wait began that was not passed on.
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
                    ) =>
                {
                    if !self.read_up_to(started) {
                        return Stop::Stopped;
                    }
                }
                Err(e) => return Stop::Read(e),
            }
        }
    }

    /// Nothing came from the board while waiting: until the wait's end if
    /// it ran out, until it began if the host's news (or a signal) ended
    /// it. False once the host has gone.
    fn nothing_came(&self, ready: Ready, started: Instant, wait: Option<Duration>) -> bool {
        let upto = match wait {
            Some(w) if ready.timed_out() => (started + w).min(Instant::now()),
            _ => started,
        };
        self.read_up_to(upto)
    }

    /// A fresh connection, which may follow a disconnect: stale requests
    /// dropped, the board asked for its position (`start`), its lights set
    /// again.
    fn open_connection(&self, port: &mut dyn Link, start: &[u8]) -> Result<(), Stop> {
        while self.requests.try_recv().is_ok() {}
        port.write_all(start).map_err(Stop::Write)?;
        let lights = self
            .lights
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if !lights.is_empty() {
            port.write_all(&lights).map_err(Stop::Write)?;
        }
        Ok(())
    }

    /// How long a wait for the board may last from `started`: it ends at
    /// the instant the host waits for, or when a summary of unreadable
    /// input is due; otherwise only bytes from the board or news from the
    /// host end it. `bounded` (the thread cannot tell how late it ran, or
    /// the board is in use): never longer than the poll time.
    fn next_wait(&self, noise: &NoiseLog, started: Instant, bounded: bool) -> Option<Duration> {
        let due = [self.wanted(), noise.next_due()]
            .into_iter()
            .flatten()
            .min();
        let wait = due.map(|d| d.saturating_duration_since(started));
        if bounded {
            Some(wait.map_or(self.config.poll, |w| w.min(self.config.poll)))
        } else {
            wait
        }
    }

    /// Passes on what the decoder made of the bytes read: events (the
    /// first proves the connection, and says the board is connected) and
    /// unreadable input (counted, summarised in the log). Whether the
    /// board is to be asked for a full scan (after unreadable input).
    fn pass_on(
        &self,
        decoded: &mut Vec<Decoded>,
        unsure: Duration,
        noise: &mut NoiseLog,
        told: &mut bool,
        proven: &mut bool,
    ) -> Result<bool, Stop> {
        let mut rescan = false;
        for d in decoded.drain(..) {
            let sent = match d {
                Decoded::Event(e) => {
                    if !*proven {
                        *proven = true;
                        self.failures.store(0, Ordering::Relaxed);
                    }
                    if !*told {
                        tracing::info!(port = %self.config.port, "board connected");
                        *told = self.emit(DriverEvent::Board(BoardEvent::Connected));
                    }
                    self.emit_unsure(DriverEvent::Board(e), unsure)
                }
                Decoded::Unreadable(u) => {
                    self.unreadable.fetch_add(1, Ordering::Relaxed);
                    if let Some(line) = noise.unreadable(Instant::now(), &u.what) {
                        tracing::warn!(port = %self.config.port, bytes = ?u.bytes, "{line}");
                    }
                    rescan = true;
                    self.emit_unreadable(u, unsure)
                }
            };
            if !sent {
                return Err(Stop::Stopped);
            }
        }
        Ok(rescan)
    }
}

/// Why a connection to a board ended: its text is the reason the log and
/// the table are given.
#[derive(Debug, thiserror::Error)]
enum Stop {
    #[error("driver stopped")]
    Stopped,
    #[error("end of file")]
    EndOfFile,
    #[error("write failed: {0}")]
    Write(std::io::Error),
    #[error("read failed: {0}")]
    Read(std::io::Error),
    #[error("cannot wait for the board: {0}")]
    Wait(std::io::Error),
}

/// How long before `now` bytes read may have come, when more than
/// [`LATE`] (else zero). Bytes already waiting (`held`) came since the last
/// read `returned`. Bytes that woke a wait that overslept its timeout came
/// at any time during it; bytes that woke the thread came at most as long
/// before it ran as the kernel says it waited to run (`late`). Otherwise
/// the stamp is when they came.
fn how_unsure(
    held: bool,
    now: Instant,
    started: Instant,
    returned: Instant,
    wait: Option<Duration>,
    late: Option<Duration>,
) -> Duration {
    let took = now.saturating_duration_since(started);
    let overslept = match wait {
        Some(wait) if took > wait + LATE => took,
        _ => Duration::ZERO,
    };
    let unsure = if held {
        now.saturating_duration_since(returned)
    } else {
        overslept.max(late.unwrap_or_default())
    };
    if unsure > LATE {
        unsure
    } else {
        Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nice value of this process's thread named `name`, if any.
    fn nice_of(name: &str) -> Option<i32> {
        for task in std::fs::read_dir("/proc/self/task").ok()? {
            let dir = task.ok()?.path();
            let comm = std::fs::read_to_string(dir.join("comm")).ok()?;
            if comm.trim_end() == name {
                let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
                // Fields after the command name's closing parenthesis; the
                // nice value is field 19, the 17th after it.
                let rest = &stat[stat.rfind(')')? + 2..];
                return rest.split(' ').nth(16)?.parse().ok();
            }
        }
        None
    }

    #[test]
    fn the_driver_thread_reads_at_a_higher_priority_when_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = DriverConfig::new(dir.path().join("no-board"), Protocol::Peg);
        config.retry_min = Duration::from_millis(10);
        // SAFETY: geteuid has no preconditions.
        let wanted = if unsafe { libc::geteuid() } == 0 {
            DRIVER_NICE
        } else {
            0
        };
        let driver = Driver::spawn(config).unwrap();
        let mut nice = None;
        for _ in 0..200 {
            nice = nice_of("board-driver");
            if nice == Some(wanted) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(driver);
        assert_eq!(nice, Some(wanted), "root may raise it; others keep 0");
    }

    #[test]
    fn noise_is_told_once_then_summarised_every_so_often() {
        let every = Duration::from_secs(5);
        let mut log = NoiseLog::new(every);
        let t0 = Instant::now();
        let first = log.unreadable(t0, "bad line").expect("the first is told");
        assert!(first.contains("bad line"), "{first}");
        // A thousand more within the interval: nothing, then one summary.
        let mut lines = Vec::new();
        for i in 1..=1000u64 {
            let now = t0 + Duration::from_millis(i * 4);
            lines.extend(log.unreadable(now, "junk"));
            lines.extend(log.due(now));
        }
        assert!(lines.is_empty(), "{lines:?}");
        let summary = log.due(t0 + every).expect("a summary after the interval");
        assert!(
            summary.starts_with("1000 more")
                && summary.contains("junk")
                && summary.contains("1001"),
            "{summary}"
        );
        assert_eq!(log.due(t0 + every * 3), None, "nothing untold");
        // Quiet for longer than the interval: the next is told at once.
        assert!(log.unreadable(t0 + every * 3, "again").is_some());
    }
}
