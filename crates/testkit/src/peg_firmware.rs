//! The peg board's own firmware (`firmware/peg-board`, built by
//! `scripts/firmware` into `target/firmware/peg-board.uf2`) running in an
//! RP2040 emulator (`tests/firmware/emulator.mjs`: rp2040js in Node.js,
//! in real time), its USB serial port bridged to a pseudo-terminal that
//! tactus opens as `peg:/dev/pts/N`, as it would open `/dev/ttyACM0`.
//!
//! Hands act on the emulated board's switches: a peg lifted opens the
//! switch under its hole, a peg seated closes it, a frame button is pressed
//! for [`PRESS`]. What the firmware makes of that (debounced, in order) is
//! what tactus reads; what tactus sends (`V`, `?`) reaches the firmware.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serialport::{SerialPort, TTYPort};
use tactus_board::hands::{Act, Plan};

/// How long a hand holds a frame button down.
pub const PRESS: Duration = Duration::from_millis(120);

/// How long to wait for the emulator's answer to `stats` or `serial`.
const ANSWER: Duration = Duration::from_secs(10);

/// A part the emulated board needs that is not built or installed, with
/// the command that makes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MissingPart {
    #[error("{} is missing: build it with scripts/firmware", .0.display())]
    Firmware(PathBuf),
    #[error("rp2040js is missing: install it with `npm ci --prefix tests/firmware`")]
    Emulator,
}

/// Where the firmware and the emulator are, from the repository's root.
#[derive(Debug, Clone)]
pub struct Parts {
    pub uf2: PathBuf,
    pub pins: PathBuf,
    pub emulator: PathBuf,
}

impl Parts {
    /// The parts under `root` (the repository), or what is missing and
    /// the command that makes it.
    pub fn find(root: &Path) -> Result<Parts, MissingPart> {
        let parts = Parts {
            uf2: root.join("target/firmware/peg-board.uf2"),
            pins: root.join("firmware/peg-board/pins.toml"),
            emulator: root.join("tests/firmware/emulator.mjs"),
        };
        if !parts.uf2.exists() {
            return Err(MissingPart::Firmware(parts.uf2));
        }
        if !root.join("tests/firmware/node_modules/rp2040js").exists() {
            return Err(MissingPart::Emulator);
        }
        Ok(parts)
    }
}

/// The emulator's standard input, each command sent with the moment it was
/// sent ("@N ", nanoseconds of the monotonic clock, which Node's
/// process.hrtime reads too): the emulator applies it at that moment of
/// emulated time, and never closer to the one before than they were sent,
/// however late it reads them.
struct Timed {
    stdin: ChildStdin,
}

/// The monotonic clock, in nanoseconds (CLOCK_MONOTONIC, as `Instant`).
fn monotonic_ns() -> u128 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128
}

impl Timed {
    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdin, "@{} {line}", monotonic_ns())?;
        self.stdin.flush()
    }
}

/// What the emulator said on standard error, as it said it.
#[derive(Default)]
struct Said {
    lines: Vec<String>,
}

/// The emulated peg board.
pub struct EmulatedPegBoard {
    child: Child,
    stdin: Arc<Mutex<Timed>>,
    /// The terminal side tactus opens; held open so the pseudo-terminal
    /// lives while tactus reconnects.
    slave: TTYPort,
    said: Arc<(Mutex<Said>, Condvar)>,
    uart: PathBuf,
    _dir: TempDir,
}

/// A folder removed when dropped (the UART's capture).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl EmulatedPegBoard {
    /// Starts the emulator with the firmware, and the bridge.
    pub fn start(parts: &Parts) -> io::Result<EmulatedPegBoard> {
        let (mut master, slave) = TTYPort::pair().map_err(io::Error::other)?;
        let dir = std::env::temp_dir().join(format!(
            "tactus-peg-firmware-{}-{}",
            std::process::id(),
            slave.name().unwrap_or_default().replace('/', "_")
        ));
        std::fs::create_dir_all(&dir)?;
        let uart = dir.join("uart.out");
        let mut child = spawn_emulator(parts, &uart)?;
        let missing = || io::Error::other("the emulator has no pipes");
        let stdin = Arc::new(Mutex::new(Timed {
            stdin: child.stdin.take().ok_or_else(missing)?,
        }));
        let stdout = child.stdout.take().ok_or_else(missing)?;
        let stderr = child.stderr.take().ok_or_else(missing)?;
        master.set_timeout(Duration::from_millis(50))?;
        let to_host = master.try_clone_native().map_err(io::Error::other)?;
        let opened = Arc::new(AtomicBool::new(false));
        usb_to_host(stdout, to_host, opened.clone());
        host_to_usb(master, stdin.clone(), opened);
        let said = Arc::new((Mutex::new(Said::default()), Condvar::new()));
        keep_said(stderr, said.clone());
        let board = EmulatedPegBoard {
            child,
            stdin,
            slave,
            said,
            uart,
            _dir: TempDir(dir),
        };
        // Plugged in: the firmware has started and the USB host has
        // configured it.
        board.answer(0, "usb connected")?;
        Ok(board)
    }

    /// Waits until the firmware has written `line` on UART0 (the same
    /// lines as on USB, there whether or not tactus reads).
    pub fn wait_uart(&self, line: &str) -> io::Result<()> {
        let deadline = Instant::now() + ANSWER;
        while !self.uart().lines().any(|l| l == line) {
            if Instant::now() > deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no {line:?} on the UART: {}", self.uart()),
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// The pseudo-terminal tactus opens (`peg:<path>`).
    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.slave.name().unwrap_or_default())
    }

    /// One command to the emulator (see `emulator.mjs`).
    pub fn command(&self, line: &str) -> io::Result<()> {
        self.stdin
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(line)
    }

    /// Carries out a hand's act on the board's switches.
    pub fn act(&self, act: Act) -> io::Result<()> {
        match act {
            Act::Lift(sq) => self.command(&format!("open {sq}")),
            Act::Put(sq, _) => self.command(&format!("close {sq}")),
            Act::Button(n) => {
                self.command(&format!("press {n}"))?;
                std::thread::sleep(PRESS);
                self.command(&format!("release {n}"))
            }
            // A peg board has no dump and no clock of its own.
            Act::Dump | Act::Clock(_) => Ok(()),
        }
    }

    /// Carries out a plan at its pace; returns when the step that
    /// completes the move was begun.
    pub fn perform(&self, plan: &Plan) -> io::Result<Instant> {
        let mut completed = Instant::now();
        for (i, step) in plan.steps.iter().enumerate() {
            std::thread::sleep(step.gap);
            // Stamped before the step is sent, as a bench must: the
            // announcement may come before this thread runs again.
            let before = Instant::now();
            self.act(step.act)?;
            if i == plan.completes {
                completed = before;
            }
        }
        Ok(completed)
    }

    /// Waits for a line of the emulator starting with `prefix` (after
    /// "emulator: ") that was not there before `seen` lines.
    fn answer(&self, seen: usize, prefix: &str) -> io::Result<String> {
        let (m, cv) = &*self.said;
        let deadline = Instant::now() + ANSWER;
        let mut s = m.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let start = seen.min(s.lines.len());
            if let Some(l) = s.lines[start..]
                .iter()
                .find_map(|l| l.strip_prefix("emulator: ")?.strip_prefix(prefix))
            {
                return Ok(l.trim().to_owned());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the emulator did not answer {prefix:?}: {:?}", s.lines),
                ));
            }
            s = cv
                .wait_timeout(s, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn seen(&self) -> usize {
        self.said
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .lines
            .len()
    }

    /// The emulator's figures (`stats`): switch change to its USB line,
    /// in real and emulated time, how far the emulation fell behind.
    pub fn stats(&self) -> io::Result<serde_json::Value> {
        let seen = self.seen();
        self.command("stats")?;
        let text = self.answer(seen, "stats ")?;
        serde_json::from_str(&text).map_err(io::Error::other)
    }

    /// The USB serial number the firmware gives (its string descriptor).
    pub fn serial_number(&self) -> io::Result<String> {
        let seen = self.seen();
        self.command("serial")?;
        self.answer(seen, "serial ")
    }

    /// Everything the firmware wrote on UART0 so far.
    pub fn uart(&self) -> String {
        String::from_utf8_lossy(&std::fs::read(&self.uart).unwrap_or_default()).into_owned()
    }

    /// All the emulator said on standard error (for a failure's message).
    pub fn said(&self) -> Vec<String> {
        self.said
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .lines
            .clone()
    }
}

/// Starts `emulator.mjs` on the firmware, its UART captured in `uart`,
/// its standard streams piped.
fn spawn_emulator(parts: &Parts, uart: &Path) -> io::Result<Child> {
    Command::new("node")
        .arg(&parts.emulator)
        .arg("--uf2")
        .arg(&parts.uf2)
        .arg("--pins")
        .arg(&parts.pins)
        .arg("--uart")
        .arg(uart)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("cannot start node: {e}")))
}

/// The firmware's USB bytes to the terminal tactus reads, once tactus
/// has spoken (`opened`): a real /dev/ttyACM0 gives nothing from before it
/// was opened (the firmware writes only while the host holds DTR, and the
/// kernel reads nothing from a closed port), where a pseudo-terminal would
/// keep it for whoever opens it.
fn usb_to_host(mut stdout: ChildStdout, mut to_host: TTYPort, opened: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            if opened.load(Ordering::Acquire) && to_host.write_all(&buf[..n]).is_err() {
                break;
            }
        }
    });
}

/// What tactus writes, line by line, to the firmware over USB; `opened`
/// is set once it has written anything. A line longer than the firmware
/// keeps is passed on as it is: the firmware skips it.
fn host_to_usb(mut master: TTYPort, host_in: Arc<Mutex<Timed>>, opened: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut line = Vec::new();
        let mut buf = [0u8; 64];
        loop {
            match master.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    opened.store(true, Ordering::Release);
                    for &b in &buf[..n] {
                        if b == b'\n' {
                            let text = String::from_utf8_lossy(&line).into_owned();
                            line.clear();
                            let mut w = host_in.lock().unwrap_or_else(|e| e.into_inner());
                            if w.send(&format!("host {text}")).is_err() {
                                return;
                            }
                        } else if line.len() < 256 {
                            line.push(b);
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {}
                // No one has the terminal open (tactus reconnecting).
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
}

/// Keeps the emulator's last thousand lines of standard error in `said`,
/// waking whoever waits for one.
fn keep_said(stderr: ChildStderr, said: Arc<(Mutex<Said>, Condvar)>) {
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let (m, cv) = &*said;
            let mut s = m.lock().unwrap_or_else(|e| e.into_inner());
            if s.lines.len() >= 1000 {
                s.lines.remove(0);
            }
            s.lines.push(line);
            cv.notify_all();
        }
    });
}

impl Drop for EmulatedPegBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
