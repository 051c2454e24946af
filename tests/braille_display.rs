//! A braille display at the table, against a real brltty: the test starts
//! Debian's brltty with its Virtual driver (`-b vr`), which needs no
//! hardware and no X: brltty connects to a Unix socket this test listens
//! on and speaks a line protocol over it (`cells 40` from the display;
//! `Braille "1|12|…"` and `Visual "text"` lines to it; key commands such as
//! `LnDn` or `Route 3` from it). tactus is a BrlAPI client of that brltty
//! over TCP, exactly as it would be of the brltty driving a real display.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Server, get, post, tokens, wait_for};

/// A brltty with the Virtual driver and BrlAPI on TCP port 4101 + `api`.
struct Brltty {
    child: Child,
}

impl Brltty {
    fn start(dir: &Path, socket: &Path, api: u16) -> Brltty {
        let child = Command::new("brltty")
            .args([
                "-n",
                "-q",
                "-f",
                "/dev/null",
                "-b",
                "vr",
                "-x",
                "no",
                "-s",
                "no",
            ])
            .arg("-d")
            .arg(format!("client:{}", socket.display()))
            .arg("-A")
            .arg(format!("auth=none,host=127.0.0.1:{api}"))
            .arg("-W")
            .arg(dir)
            .arg("-P")
            .arg(dir.join("brltty.pid"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("brltty (Debian package brltty) must be installed");
        Brltty { child }
    }
}

impl Drop for Brltty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The virtual display: accepts brltty's connection, says it has 40
/// cells, and hands every `Visual` and `Braille` line over.
struct Display {
    stream: UnixStream,
    lines: mpsc::Receiver<String>,
}

impl Display {
    fn accept(listener: &UnixListener) -> Display {
        listener.set_nonblocking(false).unwrap();
        let (mut stream, _) = listener.accept().unwrap();
        stream.write_all(b"cells 40\n").unwrap();
        let reader = stream.try_clone().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Display { stream, lines: rx }
    }

    /// Waits for a line that `pred` accepts.
    fn until(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) if pred(&line) => return line,
                Ok(line) => seen.push(line),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(e) => panic!("display closed waiting for {what}: {e}; saw {seen:?}"),
            }
        }
        panic!(
            "no {what} on the display; saw {:?}",
            &seen[seen.len().saturating_sub(8)..]
        );
    }

    fn press(&mut self, command: &str) {
        self.stream
            .write_all(format!("{command}\n").as_bytes())
            .unwrap();
    }
}

/// The text of a `Visual "…"` line, with brltty's `\X..` escapes decoded.
fn visual(line: &str) -> Option<String> {
    let s = line.strip_prefix("Visual \"")?.strip_suffix('"')?;
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            if (b[i + 1] == b'X' || b[i + 1] == b'x') && i + 3 < b.len() {
                out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).ok()?);
                i += 4;
            } else {
                out.push(b[i + 1]);
                i += 2;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(String::from_utf8_lossy(&out).trim_end().to_string())
}

/// The cells of a `Braille "1|12|…"` line as Unicode braille.
fn braille(line: &str) -> Option<String> {
    let s = line.strip_prefix("Braille \"")?.strip_suffix('"')?;
    Some(
        s.split('|')
            .map(|cell| {
                let bits: u32 = cell.trim().bytes().map(|d| 1u32 << (d - b'1')).sum();
                char::from_u32(0x2800 + bits).unwrap()
            })
            .collect::<String>()
            .trim_end_matches('\u{2800}')
            .to_string(),
    )
}

/// A BrlAPI number whose TCP port (4101 + n) is free.
/// Each test of this process takes its own, as brltty binds it only later.
fn free_api() -> u16 {
    static NEXT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(0);
    let base = 200 + (std::process::id() % 2000) as u16;
    loop {
        let n = base + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n > 6000 {
            panic!("no free BrlAPI port");
        }
        if TcpListener::bind(("127.0.0.1", 4101 + n)).is_ok() {
            return n;
        }
    }
}

fn venue(dir: &Path, api: u16, shows: &str) -> PathBuf {
    let path = dir.join("venue.toml");
    std::fs::write(
        &path,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"none\"\nwhite = \"Anna\"\nblack = \"Bert\"\n\
             braille = \"brlapi:127.0.0.1:{api}\"\nbraille_shows = \"{shows}\"\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn announcements_keys_and_a_display_that_comes_and_goes() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("vr.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    let api = free_api();
    let brltty = Brltty::start(dir.path(), &socket, api);
    let mut display = Display::accept(&listener);
    // brltty's own screen first: "no screen" (no screen driver).
    display.until("brltty's own screen", |l| l.starts_with("Visual"));

    let data = dir.path().join("data");
    let server = Server::start(
        &data,
        &[
            "--config",
            venue(dir.path(), api, "words").to_str().unwrap(),
        ],
    );
    let addr = server.addr.clone();
    let (_player, assistant, _arbiter) = tokens(&data, "1");
    wait_for("the display connected", Duration::from_secs(20), || {
        (common::table(&addr)["braille"] == "connected").then_some(())
    });

    // The opponent's move: on the display as the pack's text, before the
    // blind player carries it out.
    let r = post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e4"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let said = r.json()["text"].as_str().unwrap().to_string();
    let line = display.until("the move's words", |l| visual(l).is_some_and(|v| v == said));
    eprintln!("display: {line}");

    // LnDn on the display: the clock, said and shown.
    display.press("LnDn");
    display.until("the clock", |l| {
        visual(l).is_some_and(|v| v.contains("Schwarz"))
    });
    // LnUp: the last moves.
    display.press("LnUp");
    display.until("the last moves", |l| {
        visual(l).is_some_and(|v| v == "1. e4")
    });
    // A routing key: the last announcement (the clock) again.
    display.press("Route 5");
    display.until("the repeat", |l| {
        visual(l).is_some_and(|v| v.contains("Schwarz"))
    });

    // brltty goes away: the table says so and plays on.
    drop(display);
    drop(brltty);
    wait_for("the display disconnected", Duration::from_secs(20), || {
        (common::table(&addr)["braille"] == "disconnected").then_some(())
    });
    let started = Instant::now();
    let r = post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e5"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(started.elapsed() < Duration::from_secs(1));

    // It comes back: what is to be shown now is shown.
    let brltty = Brltty::start(dir.path(), &socket, api);
    let display = Display::accept(&listener);
    wait_for("the display back", Duration::from_secs(20), || {
        (common::table(&addr)["braille"] == "connected").then_some(())
    });
    // The move made while it was away ("Eva fünf").
    display.until("the move made meanwhile", |l| {
        visual(l).is_some_and(|v| v.starts_with("Eva f"))
    });
    drop(brltty);
    drop(server);
}

#[test]
fn moves_in_the_braille_chess_code() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("vr.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    let api = free_api();
    let _brltty = Brltty::start(dir.path(), &socket, api);
    let display = Display::accept(&listener);
    let data = dir.path().join("data");
    let server = Server::start(
        &data,
        &[
            "--config",
            venue(dir.path(), api, "notation").to_str().unwrap(),
        ],
    );
    let addr = server.addr.clone();
    let (player, assistant, _arbiter) = tokens(&data, "1");
    wait_for("the display connected", Duration::from_secs(20), || {
        (common::table(&addr)["braille"] == "connected").then_some(())
    });
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e4"}"#).status,
        200
    );
    // 1. e4: lower 1, blank, e, lower 4.
    display.until("1. e4 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠑⠲")
    });
    assert_eq!(
        post(&addr, "/api/tables/1/move", &player, r#"{"move":"Nc6"}"#).status,
        200
    );
    // Black's move alone: dots 3-6 before it.
    display.until("1... Nc6 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠤⠎⠉⠖")
    });

    // The record of the same game, as BRF and as Unicode braille.
    let brf = get(&addr, "/api/tables/1/brf").body;
    assert!(brf.contains("1 E4 SC6\r\n"), "{brf}");
    let unicode = get(&addr, "/api/tables/1/brf?format=unicode").body;
    assert!(unicode.contains("⠂⠀⠑⠲⠀⠎⠉⠖\n"), "{unicode}");
    assert_eq!(get(&addr, "/api/tables/1/brf?format=pdf").status, 400);
    assert_eq!(get(&addr, "/api/tables/9/brf").status, 404);
}

#[test]
fn no_brltty_at_all_never_holds_up_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let api = free_api();
    let server = Server::start(
        &data,
        &[
            "--config",
            venue(dir.path(), api, "words").to_str().unwrap(),
        ],
    );
    let addr = server.addr.clone();
    let (_player, assistant, _arbiter) = tokens(&data, "1");
    assert_eq!(common::table(&addr)["braille"], "disconnected");
    let started = Instant::now();
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"d4"}"#).status,
        200
    );
    assert!(started.elapsed() < Duration::from_secs(1));
}
