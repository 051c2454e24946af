//! Debian's ser2net, started for a test on loopback with a generated
//! configuration that serves one device (a simulator's pseudo-terminal)
//! over raw TCP or telnet with RFC 2217. `scripts/test` installs it.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How ser2net serves the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The `tcp` accepter: bytes as they are.
    Raw,
    /// The `telnet(rfc2217)` accepter.
    Rfc2217,
}

impl Kind {
    /// The board setting's port for this kind at `port`.
    pub fn url(self, port: u16) -> String {
        match self {
            Kind::Raw => format!("tcp://127.0.0.1:{port}"),
            Kind::Rfc2217 => format!("rfc2217://127.0.0.1:{port}"),
        }
    }
}

/// A running ser2net; killed when dropped.
pub struct Ser2net {
    child: Option<Child>,
    config: PathBuf,
    pid_file: PathBuf,
    pub port: u16,
}

/// A loopback TCP port nobody listens on now.
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    l.local_addr().unwrap().port()
}

/// The ser2net YAML configuration serving `device` (with `line`, as
/// `9600n81`) on loopback `port`.
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

impl Ser2net {
    /// Starts ser2net in `dir` serving `device` on a free loopback port.
    pub fn start(dir: &Path, device: &Path, line: &str, kind: Kind) -> Ser2net {
        let port = free_port();
        let config = dir.join(format!("ser2net-{port}.yaml"));
        std::fs::write(&config, self::config(device, line, kind, port)).unwrap();
        let mut s = Ser2net {
            child: None,
            pid_file: dir.join(format!("ser2net-{port}.pid")),
            config,
            port,
        };
        s.restart();
        s
    }

    /// Starts (again) and waits until it listens.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "ser2net is running");
        let child = Command::new("ser2net")
            .args(["-n", "-u", "-c"])
            .arg(&self.config)
            .arg("-P")
            .arg(&self.pid_file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start ser2net ({e}): install Debian's ser2net (scripts/test does)")
            });
        self.child = Some(child);
        let give_up = Instant::now() + Duration::from_secs(15);
        while !listening(self.port) {
            assert!(
                Instant::now() < give_up,
                "ser2net never listened on {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills it (SIGKILL: no goodbye on the connection but the kernel's).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let give_up = Instant::now() + Duration::from_secs(15);
        while listening(self.port) {
            assert!(Instant::now() < give_up, "{} still listens", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Ser2net {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Whether something listens on loopback `port`, read from /proc/net/tcp
/// (probing with a connection would make ser2net open the device).
pub fn listening(port: u16) -> bool {
    let want = format!("0100007F:{port:04X}");
    std::fs::read_to_string("/proc/net/tcp")
        .unwrap_or_default()
        .lines()
        .skip(1)
        .any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1) == Some(&want.as_str()) && f.get(3) == Some(&"0A")
        })
}
