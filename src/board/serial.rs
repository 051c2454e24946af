//! Board drivers over a serial port, local or served over the network
//! (`link.rs`): bytes → decoder → events, nothing more.
//!
//! The serialport crate is synchronous, so each driver owns one blocking
//! thread that reads with a short timeout and forwards stamped events into
//! a tokio channel; host requests come back over a std channel and are
//! written between reads. (tokio-serial would add mio-serial and a second
//! serial stack for a single port at 9600 baud; a thread is simpler and
//! lets us keep serialport's `TTYPort` everywhere, tests included.)
//!
//! Unreadable input is counted, logged and answered with a full-scan
//! request. A failed read, hang-up or end of file is a disconnect: reported,
//! then the port is reopened with exponential backoff; once it is back the
//! driver reports `Connected` and asks for a full scan again. A network link
//! is the same: a dropped connection or a host not there yet is an unplugged
//! board.

use std::io::ErrorKind;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::Square;
use tokio::sync::mpsc;

use super::event::{BoardEvent, Decoded, Protocol, Unreadable, decoder};
use super::link::{Framing, Link, Port};

/// Where and how to talk to a board.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    pub port: Port,
    pub protocol: Protocol,
    /// Baud rate (the protocol's default unless set: see
    /// [`Protocol::default_baud`]). Over raw TCP the far end sets it.
    pub baud: u32,
    /// How long one read waits before the driver looks at its requests.
    pub poll: Duration,
    /// First and longest wait between attempts to reopen the port.
    pub retry_min: Duration,
    pub retry_max: Duration,
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
        }
    }

    /// Speed and framing of the line.
    pub fn framing(&self) -> Framing {
        self.protocol.framing(self.baud)
    }
}

/// One driver output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverEvent {
    Board(BoardEvent),
    Unreadable(Unreadable),
}

/// A driver output with the instant its bytes were read.
#[derive(Debug, Clone)]
pub struct Stamped {
    pub at: Instant,
    pub event: DriverEvent,
}

/// A running driver. Dropping it stops its thread.
pub struct Driver {
    events: mpsc::UnboundedReceiver<Stamped>,
    requests: std_mpsc::Sender<Vec<u8>>,
    stop: Arc<AtomicBool>,
    unreadable: Arc<AtomicU64>,
    lights: Arc<Mutex<Vec<u8>>>,
    protocol: Protocol,
    thread: Option<JoinHandle<()>>,
}

impl Driver {
    /// Starts the driver thread; it connects (and reconnects) on its own.
    pub fn spawn(config: DriverConfig) -> std::io::Result<Driver> {
        let (tx, events) = mpsc::unbounded_channel();
        let (requests, rx_req) = std_mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let unreadable = Arc::new(AtomicU64::new(0));
        let lights = Arc::new(Mutex::new(Vec::new()));
        let protocol = config.protocol;
        let worker = Worker {
            lights: lights.clone(),
            config,
            tx,
            requests: rx_req,
            stop: stop.clone(),
            unreadable: unreadable.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("board-driver".into())
            .spawn(move || worker.run())?;
        Ok(Driver {
            events,
            requests,
            stop,
            unreadable,
            lights,
            protocol,
            thread: Some(thread),
        })
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
    }

    /// How many unreadable lines or messages the board has sent.
    pub fn unreadable_count(&self) -> u64 {
        self.unreadable.load(Ordering::Relaxed)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct Worker {
    config: DriverConfig,
    tx: mpsc::UnboundedSender<Stamped>,
    requests: std_mpsc::Receiver<Vec<u8>>,
    stop: Arc<AtomicBool>,
    unreadable: Arc<AtomicU64>,
    /// The LED command in force, sent again after every (re)connection.
    lights: Arc<Mutex<Vec<u8>>>,
}

impl Worker {
    fn emit(&self, event: DriverEvent) -> bool {
        self.tx
            .send(Stamped {
                at: Instant::now(),
                event,
            })
            .is_ok()
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.tx.is_closed()
    }

    fn run(self) {
        let mut backoff = self.config.retry_min;
        let mut logged_failure = false;
        while !self.stopped() {
            let opened =
                super::link::open(&self.config.port, self.config.framing(), self.config.poll);
            match opened {
                Ok(port) => {
                    backoff = self.config.retry_min;
                    logged_failure = false;
                    tracing::info!(port = %self.config.port, "board connected");
                    if !self.emit(DriverEvent::Board(BoardEvent::Connected)) {
                        return;
                    }
                    let reason = self.serve(port);
                    if self.stopped() {
                        // The table let its board go: nothing went wrong.
                        tracing::debug!(port = %self.config.port, %reason, "board driver stopped");
                        return;
                    }
                    tracing::warn!(port = %self.config.port, %reason, "board disconnected");
                    if !self.emit(DriverEvent::Board(BoardEvent::Disconnected(reason))) {
                        return;
                    }
                }
                Err(e) => {
                    if !logged_failure {
                        tracing::warn!(port = %self.config.port, error = %e, "cannot open board; retrying");
                        logged_failure = true;
                    }
                    self.sleep(backoff);
                    backoff = (backoff * 2).min(self.config.retry_max);
                }
            }
        }
    }

    fn sleep(&self, total: Duration) {
        let end = Instant::now() + total;
        while !self.stopped() {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(20)));
        }
    }

    /// Reads until the port fails; returns why.
    fn serve(&self, mut port: Box<dyn Link>) -> String {
        let mut decoder = decoder(self.config.protocol);
        // A fresh connection may follow a disconnect: drop stale requests.
        while self.requests.try_recv().is_ok() {}
        if let Err(e) = port.write_all(decoder.start_requests()) {
            return format!("write failed: {e}");
        }
        let lights = self
            .lights
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if !lights.is_empty()
            && let Err(e) = port.write_all(&lights)
        {
            return format!("write failed: {e}");
        }
        let mut buf = [0u8; 256];
        let mut out = Vec::new();
        loop {
            if self.stopped() {
                return "driver stopped".into();
            }
            while let Ok(req) = self.requests.try_recv() {
                if let Err(e) = port.write_all(&req) {
                    return format!("write failed: {e}");
                }
            }
            match port.read(&mut buf) {
                Ok(0) => return "end of file".into(),
                Ok(n) => {
                    decoder.feed(buf.get(..n).unwrap_or_default(), &mut out);
                    let mut rescan = false;
                    for d in out.drain(..) {
                        let event = match d {
                            Decoded::Event(e) => DriverEvent::Board(e),
                            Decoded::Unreadable(u) => {
                                self.unreadable.fetch_add(1, Ordering::Relaxed);
                                tracing::warn!(what = %u.what, bytes = ?u.bytes, "unreadable board input; asking for a full scan");
                                rescan = true;
                                DriverEvent::Unreadable(u)
                            }
                        };
                        if !self.emit(event) {
                            return "driver stopped".into();
                        }
                    }
                    if rescan && let Err(e) = port.write_all(decoder.scan_request()) {
                        return format!("write failed: {e}");
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::TimedOut | ErrorKind::Interrupted | ErrorKind::WouldBlock
                    ) => {}
                Err(e) => return format!("read failed: {e}"),
            }
        }
    }
}
