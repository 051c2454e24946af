//! Helpers for tests that run `tactus serve` as a real process: requests
//! through the loopback client of [`crate::http`], waiting for conditions
//! with a deadline, the server started and stopped, and the tokens it made.
//!
//! The test binaries name this module `common` (`use
//! crate::process as common;`), as they named the file they once
//! each included.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Réti–Tartakower, Vienna 1910, in UCI: White (sighted) 1. e4 c6 2. d4 d5
/// 3. Nc3 dxe4 4. Nxe4 Nf6 5. Qd3 e5 6. dxe5 Qa5+ 7. Bd2 Qxe5 8. O-O-O Nxe4
/// 9. Qd8+ Kxd8 10. Bg5+ Kc7 11. Bd8#: every kind of capture, castling and
/// mate in 21 plies.
pub const GAME: [&str; 21] = [
    "e2e4", "c7c6", "d2d4", "d7d5", "b1c3", "d5e4", "c3e4", "g8f6", "d1d3", "e7e5", "d4e5", "d8a5",
    "c1d2", "a5e5", "e1c1", "f6e4", "d3d8", "e8d8", "d2g5", "d8c7", "g5d8",
];

/// Table 1 as `GET /api/tables/1` shows it.
pub fn table(addr: &str) -> serde_json::Value {
    get(addr, "/api/tables/1").json()
}

pub use crate::http::Response;

/// How long a test waits for one answer.
const ANSWER: Duration = Duration::from_secs(30);

/// One request on a fresh connection.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Response {
    try_request(addr, method, path, token, body).expect("request")
}

/// One request on a fresh connection; an error if the server cannot be
/// reached. A connection cut before the answer gives status 0 (a server
/// killed mid-request). The client is the one the benchmarks use.
pub fn try_request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> std::io::Result<Response> {
    crate::http::request(addr, method, path, token, body, ANSWER)
}

/// Sends `bytes` as they are on a fresh connection, then half-closes if
/// `close_write`; the status of the answer, or `None` if the server closed
/// the connection without one.
pub fn raw_request(addr: &str, bytes: &[u8], close_write: bool) -> Option<u16> {
    crate::http::raw_request(addr, bytes, close_write, ANSWER).expect("connect")
}

pub fn get(addr: &str, path: &str) -> Response {
    request(addr, "GET", path, None, None)
}

pub fn post(addr: &str, path: &str, token: &str, body: &str) -> Response {
    request(addr, "POST", path, Some(token), Some(body))
}

/// Polls `f` until it returns `Some`, for at most `limit`.
pub fn wait_for<T>(what: &str, limit: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        if start.elapsed() > limit {
            panic!("timed out waiting for {what}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A free loopback port, never one this test process handed out before (the
/// library's, which the ser2net runner uses: two servers started at once
/// must not be given one port).
pub fn free_port() -> u16 {
    crate::ser2net::free_port().expect("a free loopback port")
}

/// The `tactus` binary Cargo built for this test run. Cargo builds a
/// package's binaries before its integration tests, into the folder above
/// the tests' `deps/`; `CARGO_BIN_EXE_tactus`, when set at run time, says
/// where.
pub fn tactus_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("CARGO_BIN_EXE_tactus") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe.parent().expect("the test binary's folder");
    let dir = if dir.ends_with("deps") {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    };
    dir.join("tactus")
}

/// The voice pack the served tables speak with: the repository's German
/// Appendix D pack.
fn voice() -> PathBuf {
    crate::workspace_root().join("voices/de-appendix-d")
}

/// A `tactus serve` process and its address.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub stdout: mpsc::Receiver<String>,
}

impl Server {
    /// Starts `tactus serve` with `args` on a free port and waits until it
    /// listens.
    pub fn start(data: &Path, args: &[&str]) -> Server {
        Server::start_with_env(data, args, &[])
    }

    /// Writes the venue file `venue` as `venue.toml` in the data folder
    /// `data` and starts `tactus serve` on it (as [`Server::start`]).
    pub fn with_venue(data: &Path, venue: &str) -> Server {
        let config = data.join("venue.toml");
        std::fs::write(&config, venue).unwrap();
        Server::start(data, &["--config", config.to_str().unwrap()])
    }

    /// As [`Server::start`], with environment variables for the server
    /// (`RUST_LOG=error` quiets the warnings a fault test provokes).
    pub fn start_with_env(data: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let server = Server::spawn_with_env(data, args, env);
        server.wait_ready();
        server
    }

    /// Starts `tactus serve` with `args` on a free port, without waiting.
    pub fn spawn(data: &Path, args: &[&str]) -> Server {
        Server::spawn_with_env(data, args, &[])
    }

    fn spawn_with_env(data: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let mut child = Command::new(tactus_binary())
            .arg("serve")
            .args(["--listen", &addr, "--data"])
            .arg(data)
            .args(["--audio", "none", "--voice"])
            .arg(voice())
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tactus serve");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            addr,
            stdout: rx,
        }
    }

    /// Waits until the server listens.
    pub fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match self.stdout.recv_timeout(Duration::from_millis(100)) {
                Ok(line) if line.contains("tactus is serving") => break,
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(e) => panic!("tactus serve did not start: {e}"),
            }
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// SIGTERM, as a service manager stopping the server would; waits up
    /// to `limit` for it to end and returns how it ended (`None`: it did
    /// not end, and was killed).
    pub fn terminate(mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(sent, "cannot send SIGTERM");
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// SIGKILL, as a crash would.
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `tactus serve` on `listen` with `args`, expecting it to refuse to
/// start, and returns how it ended. A server that did start would never end:
/// it is given a generous while, then killed and the test fails.
pub fn serve_refused(data: &Path, listen: &str, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(tactus_binary())
        .args(["serve", "--listen", listen])
        .args(["--audio", "none", "--voice"])
        .arg(voice())
        .arg("--data")
        .arg(data)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..300 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("the server started: {:?}", child.wait_with_output());
}

/// The tokens file `tactus serve` made in the data folder `data`.
pub fn tokens_file(data: &Path) -> toml::Value {
    toml::from_str(&std::fs::read_to_string(data.join("tokens.toml")).unwrap()).unwrap()
}

/// The venue arbiter's token in the data folder `data`.
pub fn venue_token(data: &Path) -> String {
    tokens_file(data)["venue"]["arbiter"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The tokens `tactus serve` made for table `id`.
pub fn tokens(data: &Path, id: &str) -> (String, String, String) {
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    let t = &value["tables"][id];
    let s = |k: &str| t[k].as_str().unwrap().to_owned();
    (s("player"), s("assistant"), s("arbiter"))
}

/// The seeded generator the library's hands model and benchmarks use:
/// tests that draw at random print their seed (`Rng::from_env`), and the
/// same seed replays the same run.
pub use tactus_board::rng::Rng;

/// A venue configuration with `n` tables `1`..=`n` whose moves all come
/// through the API (`board = "none"`), written into `dir`.
pub fn venue_without_boards(dir: &Path, n: usize) -> std::path::PathBuf {
    let mut text = String::new();
    for id in 1..=n {
        text.push_str(&format!("[[table]]\nid = \"{id}\"\nboard = \"none\"\n\n"));
    }
    let path = dir.join("venue.toml");
    std::fs::write(&path, text).unwrap();
    path
}
