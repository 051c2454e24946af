//! Debian's ser2net, started on loopback with a generated configuration that
//! serves one device (a simulator's pseudo-terminal) over raw TCP or telnet
//! with RFC 2217: how a table computer in the hall serves its board. The
//! network benchmark and the network tests both use it, so that what is
//! measured is what is tested.

use std::collections::BTreeSet;
use std::io;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tactus_board::link::{Framing, Parity};

/// How ser2net serves the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The `tcp` accepter: bytes as they are.
    Raw,
    /// The `telnet(rfc2217)` accepter: tactus sets the far port's framing.
    Rfc2217,
}

impl Kind {
    /// The board setting's port for this kind at loopback `port`.
    pub fn url(self, port: u16) -> String {
        match self {
            Kind::Raw => format!("tcp://127.0.0.1:{port}"),
            Kind::Rfc2217 => format!("rfc2217://127.0.0.1:{port}"),
        }
    }
}

/// ser2net's line setting for a framing (`9600n81`).
pub fn line(f: Framing) -> String {
    let parity = match f.parity {
        Parity::None => 'n',
        Parity::Odd => 'o',
        Parity::Even => 'e',
    };
    format!("{}{parity}{}{}", f.baud, f.data_bits, f.stop_bits)
}

/// The ser2net YAML configuration serving `device` (with `line`, as
/// `9600n81`) on loopback `port`. `kickolduser` lets a reconnecting driver
/// take the port over from its own dead connection.
pub fn config(device: &Path, line: &str, kind: Kind, port: u16) -> String {
    let accepter = match kind {
        Kind::Raw => format!("tcp,127.0.0.1,{port}"),
        Kind::Rfc2217 => format!("telnet(rfc2217),tcp,127.0.0.1,{port}"),
    };
    format!(
        "connection: &board\n    accepter: {accepter}\n    connector: serialdev,{},{line},local\n    options:\n      kickolduser: true\n      mdns: false\n",
        device.display()
    )
}

/// A loopback TCP port nobody listens on now, and that this process has not
/// handed out before: two boards started at once must not be given the same
/// port between our probe closing it and ser2net binding it. (Another
/// process may still take it in that gap: [`Ser2net::start`] checks that
/// the listener it finds is its own.)
pub fn free_port() -> io::Result<u16> {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    for _ in 0..64 {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        if given.insert(port) {
            return Ok(port);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        "no loopback port that was not handed out already",
    ))
}

/// ser2net's line setting for `protocol`'s default framing.
pub fn line_of(protocol: tactus_board::event::Protocol) -> String {
    line(protocol.framing(protocol.default_baud()))
}

/// What a test says when ser2net cannot start.
pub const MISSING: &str = "ser2net did not start (scripts/test installs it)";

/// How many times a start is tried on a new port when another process took
/// the chosen one first.
const START_ATTEMPTS: usize = 5;

/// A running ser2net; killed when dropped.
pub struct Ser2net {
    child: Option<Child>,
    config: PathBuf,
    pid_file: PathBuf,
    pub port: u16,
}

impl Ser2net {
    /// Starts ser2net in `dir` serving `device` on a free loopback port and
    /// waits until it listens.
    pub fn start(dir: &Path, device: &Path, line: &str, kind: Kind) -> io::Result<Ser2net> {
        let mut last = None;
        for _ in 0..START_ATTEMPTS {
            let port = free_port()?;
            let config = dir.join(format!("ser2net-{port}.yaml"));
            std::fs::write(&config, self::config(device, line, kind, port))?;
            let mut s = Ser2net {
                child: None,
                pid_file: dir.join(format!("ser2net-{port}.pid")),
                config,
                port,
            };
            match s.restart() {
                Ok(()) => return Ok(s),
                Err(e) if e.kind() == io::ErrorKind::AddrInUse => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("ser2net did not start")))
    }

    /// Starts it (again) and waits until it listens.
    pub fn restart(&mut self) -> io::Result<()> {
        if self.child.is_some() {
            return Err(io::Error::other("ser2net is already running"));
        }
        let child = Command::new("ser2net")
            .args(["-n", "-u", "-c"])
            .arg(&self.config)
            .arg("-P")
            .arg(&self.pid_file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot start ser2net ({e}): install Debian's ser2net"),
                )
            })?;
        let pid = child.id();
        self.child = Some(child);
        let give_up = Instant::now() + Duration::from_secs(15);
        loop {
            match listener(self.port) {
                Some(inode) if owns_socket(pid, inode) => break,
                Some(_) => {
                    // Someone else listens there: our ser2net cannot bind
                    // it, and a driver sent there would talk to their board.
                    let _ = self.kill_child();
                    return Err(io::Error::new(
                        io::ErrorKind::AddrInUse,
                        format!("port {} is taken by another process", self.port),
                    ));
                }
                None => {}
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                self.child = None;
                return Err(io::Error::other(format!(
                    "ser2net stopped at start ({status}); its configuration is {}",
                    self.config.display()
                )));
            }
            if Instant::now() >= give_up {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("ser2net never listened on {}", self.port),
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    fn kill_child(&mut self) -> Option<()> {
        let mut c = self.child.take()?;
        let _ = c.kill();
        let _ = c.wait();
        Some(())
    }

    /// Kills it (SIGKILL: no goodbye on the connection but the kernel's)
    /// and waits until its port is closed.
    pub fn kill(&mut self) -> io::Result<()> {
        self.kill_child();
        let give_up = Instant::now() + Duration::from_secs(15);
        while listening(self.port) {
            if Instant::now() >= give_up {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("{} still listens", self.port),
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// CPU seconds (user + system) the running ser2net has used, from
    /// `/proc/PID/stat`; `None` if it is not running or cannot be read.
    pub fn cpu_seconds(&self) -> Option<f64> {
        let pid = self.child.as_ref()?.id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name is in parentheses and may hold spaces: fields
        // are counted after its closing one (utime and stime are fields 14
        // and 15 of the whole line).
        let rest = &stat[stat.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let utime: f64 = fields.get(11)?.parse().ok()?;
        let stime: f64 = fields.get(12)?.parse().ok()?;
        // SAFETY: sysconf has no preconditions.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        (ticks > 0).then(|| (utime + stime) / ticks as f64)
    }
}

impl Drop for Ser2net {
    fn drop(&mut self) {
        self.kill_child();
    }
}

/// Whether something listens on loopback `port`, read from /proc/net/tcp
/// (probing with a connection would make ser2net open the device).
pub fn listening(port: u16) -> bool {
    listener(port).is_some()
}

/// The socket inode of the listener on loopback `port`, if there is one.
fn listener(port: u16) -> Option<u64> {
    let want = format!("0100007F:{port:04X}");
    crate::proc_net::tcp_sockets()
        .into_iter()
        .find(|s| s.local == want && s.state == crate::proc_net::LISTEN)
        .map(|s| s.inode)
}

/// Whether process `pid` holds the socket `inode`.
fn owns_socket(pid: u32, inode: u64) -> bool {
    let want = format!("socket:[{inode}]");
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|fds| {
            fds.flatten().any(|fd| {
                std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == want.as_str())
            })
        })
        .unwrap_or(false)
}
