//! `tactus check` against a hall of real parts: boards on pseudo-terminals
//! (the board simulator, and terminals of this test's own that stay silent
//! or send garbage) and one behind Debian's ser2net, sound on a private
//! PulseAudio with a null sink per table (the test phrase is recorded off
//! the sink's monitor), braille displays on Debian's brltty with its
//! virtual driver. One good and one bad of each part, each named.

use crate::brltty;
use crate::common;
use crate::pulse;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pulse::Pulse;
use shakmaty::Board;
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;
use tactus_testkit::ser2net::{Kind, MISSING, Ser2net, line_of as serial_line};

/// A brltty with the Virtual driver (no hardware, no X) serving BrlAPI on
/// TCP port 4101 + `api`, and the virtual display it drives.
struct Brltty {
    child: Child,
    _display: UnixStream,
}

impl Brltty {
    fn start(dir: &Path, api: u16) -> Brltty {
        let socket = dir.join("vr.sock");
        let listener = UnixListener::bind(&socket).unwrap();
        let child = brltty::spawn(dir, &socket, api);
        let (mut display, _) = listener.accept().unwrap();
        display.write_all(b"cells 40\n").unwrap();
        // Once brltty shows its own screen, BrlAPI is up.
        let mut lines = BufReader::new(display.try_clone().unwrap()).lines();
        loop {
            match lines.next() {
                Some(Ok(l)) if l.starts_with("Visual") => break,
                Some(Ok(_)) => {}
                other => panic!("brltty's display closed: {other:?}"),
            }
        }
        Brltty {
            child,
            _display: display,
        }
    }
}

impl Drop for Brltty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A BrlAPI number whose TCP port (4101 + n) is free now, never one this
/// process handed out before (brltty binds it only later).
fn free_api() -> u16 {
    static NEXT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(0);
    let base = 300 + (std::process::id() % 3000) as u16;
    loop {
        let n = base + NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(n < base + 500, "no free BrlAPI port");
        if TcpListener::bind(("127.0.0.1", 4101 + n)).is_ok() {
            return n;
        }
    }
}

/// A pseudo-terminal of this test's own: silent, or answering everything
/// with garbage until dropped.
struct Pty {
    path: PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    _master: Arc<std::fs::File>,
}

impl Pty {
    fn open(garbage: bool) -> Pty {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two descriptors; no name, termios or size.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "openpty");
        let path = std::fs::read_link(format!("/proc/self/fd/{slave}")).unwrap();
        // SAFETY: slave is ours and closed once: the checked program opens
        // the terminal by its path.
        unsafe { libc::close(slave) };
        // SAFETY: master is a descriptor we own from here on.
        let master: Arc<std::fs::File> =
            Arc::new(unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(master) });
        let stop = Arc::new(AtomicBool::new(false));
        let thread = garbage.then(|| {
            let (m, stop) = (Arc::clone(&master), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // EIO while no one has the terminal open: ignored.
                    let _ = (&*m).write_all(b"\xff\xfe~~ not a board ~~\n");
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        });
        Pty {
            path,
            stop,
            thread,
            _master: master,
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs `tactus check --config VENUE` with the private sound server's
/// environment; its output lines and exit status.
fn check(pulse: &Pulse, venue: &Path) -> (Vec<String>, Output) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["check", "--config"])
        .arg(venue)
        .envs(pulse.env())
        .env("HOME", venue.parent().unwrap())
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect::<Vec<String>>();
    // What an organiser would see (shown with --nocapture).
    println!(
        "$ tactus check --config {}\n{}",
        venue.display(),
        lines.join("\n")
    );
    (lines, out)
}

/// The one line of `scope` (`table 1`, `venue`) and `part`.
fn line_of<'a>(lines: &'a [String], scope: &str, part: &str) -> &'a str {
    let head = format!("{scope:<10} {part:<15} ");
    let found: Vec<&String> = lines.iter().filter(|l| l.starts_with(&head)).collect();
    assert_eq!(found.len(), 1, "one `{scope}` `{part}` line in {lines:#?}");
    found[0]
}

fn assert_line(lines: &[String], scope: &str, part: &str, ok: bool, words: &[&str]) {
    let l = line_of(lines, scope, part);
    let verdict = if ok { " ok " } else { " FAIL " };
    assert!(l.contains(verdict), "expected{verdict}in `{l}`");
    for w in words {
        assert!(l.contains(w), "`{w}` not in `{l}`");
    }
}

/// A data folder that is the user's alone.
fn data_dir(dir: &Path, mode: u32) -> PathBuf {
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(mode)).unwrap();
    data
}

#[test]
fn a_ready_hall_passes_every_part_and_the_phrase_is_heard() {
    let dir = tempfile::tempdir().unwrap();
    let pulse = Pulse::start(&["t1"]);
    let peg = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let dgt = Simulator::new(Protocol::Dgt, Board::default(), None).unwrap();
    let ser2net = Ser2net::start(
        dir.path(),
        &dgt.path(),
        &serial_line(Protocol::Dgt),
        Kind::Raw,
    )
    .expect(MISSING);
    let api = free_api();
    let _brltty = Brltty::start(dir.path(), api);
    let data = data_dir(dir.path(), 0o700);
    let port = common::free_port();
    let venue = dir.path().join("venue.toml");
    std::fs::write(
        &venue,
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\ndata = \"{}\"\n\
             [[table]]\nid = \"1\"\nblind = \"white\"\nboard = \"peg:{}\"\n\
             opponent_board = \"dgt:tcp://127.0.0.1:{}\"\naudio = \"device:t1\"\n\
             braille = \"brlapi:127.0.0.1:{api}\"\n\
             [[table]]\nid = \"2\"\nboard = \"none\"\naudio = \"none\"\n",
            data.display(),
            peg.path().display(),
            ser2net.port
        ),
    )
    .unwrap();
    let recording = pulse.record("t1");
    let (lines, out) = check(&pulse, &venue);
    assert!(
        out.status.success(),
        "{lines:#?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_line(&lines, "table 1", "board", true, &["peg", "start position"]);
    assert_line(
        &lines,
        "table 1",
        "opponent board",
        true,
        &["dgt tcp://127.0.0.1", "start position"],
    );
    // Table 1 in the default pack's words: "eins".
    assert_line(
        &lines,
        "table 1",
        "sound",
        true,
        &["device:t1", "eins", "playing"],
    );
    assert_line(
        &lines,
        "table 1",
        "braille",
        true,
        &["connected", "40 cells"],
    );
    assert_line(&lines, "table 2", "board", true, &["none"]);
    assert_line(&lines, "table 2", "sound", true, &["none: text only"]);
    assert_line(&lines, "venue", "voice", true, &["de-appendix-d"]);
    assert_line(&lines, "venue", "data", true, &["owner only"]);
    assert_line(&lines, "venue", "listen", true, &["is free"]);
    assert_line(
        &lines,
        "venue",
        "pages",
        true,
        &[&format!("http://127.0.0.1:{port}/")],
    );
    assert_eq!(lines.last().unwrap(), "everything is ready");
    // The phrase reached the sink: something loud on its monitor.
    let deadline = Instant::now() + Duration::from_secs(20);
    while recording.peak() < 1000 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(recording.peak() >= 1000, "the test phrase was not heard");
}

#[test]
fn a_hall_with_a_bad_part_of_each_kind_names_each() {
    let dir = tempfile::tempdir().unwrap();
    // t2 is unloaded below: a headset that is not plugged in.
    let pulse = Pulse::start(&["t1", "t2"]);
    pulse.unload("t2");
    let silent = Pty::open(false);
    let garbage = Pty::open(true);
    let mut moved = Board::default();
    moved.discard_piece_at(shakmaty::Square::E2);
    moved.set_piece_at(
        shakmaty::Square::E4,
        shakmaty::Piece::from_char('P').unwrap(),
    );
    let not_start = Simulator::new(Protocol::Peg, moved, None).unwrap();
    // A brltty that was running and is stopped: nothing on its port.
    let api = free_api();
    drop(Brltty::start(dir.path(), api));
    let data = data_dir(dir.path(), 0o755);
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let venue = dir.path().join("venue.toml");
    std::fs::write(
        &venue,
        format!(
            "[server]\nlisten = \"{}\"\ndata = \"{}\"\n\
             [[table]]\nid = \"1\"\nboard = \"peg:{}\"\naudio = \"device:t2\"\n\
             braille = \"brlapi:127.0.0.1:{api}\"\n\
             [[table]]\nid = \"2\"\nboard = \"peg:{}\"\naudio = \"device:t1\"\n\
             [[table]]\nid = \"3\"\nboard = \"peg:{}\"\nopponent_board = \"dgt:{}/nothing-here\"\naudio = \"none\"\n",
            taken.local_addr().unwrap(),
            data.display(),
            silent.path.display(),
            garbage.path.display(),
            not_start.path().display(),
            dir.path().display()
        ),
    )
    .unwrap();
    let (lines, out) = check(&pulse, &venue);
    assert_eq!(out.status.code(), Some(2), "{lines:#?}");
    assert_line(&lines, "table 1", "board", false, &["silent", "no answer"]);
    assert_line(
        &lines,
        "table 1",
        "sound",
        false,
        &["device:t2", "cannot play"],
    );
    assert_line(
        &lines,
        "table 1",
        "braille",
        false,
        &["cannot connect", "brltty"],
    );
    assert_line(
        &lines,
        "table 2",
        "board",
        false,
        &["sends garbage", "unreadable"],
    );
    assert_line(&lines, "table 2", "sound", true, &["playing"]);
    assert_line(
        &lines,
        "table 3",
        "board",
        false,
        &["not the start position: e2 empty, e4 filled"],
    );
    assert_line(
        &lines,
        "table 3",
        "opponent board",
        false,
        &["cannot open", "nothing-here"],
    );
    assert_line(&lines, "venue", "data", false, &["755", "chmod 700"]);
    assert_line(&lines, "venue", "listen", false, &["is in use"]);
    assert_eq!(lines.last().unwrap(), "8 part(s) not ready");
}

#[test]
fn a_killed_sound_server_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut pulse = Pulse::start(&["t1"]);
    pulse.kill();
    let data = data_dir(dir.path(), 0o700);
    let venue = dir.path().join("venue.toml");
    std::fs::write(
        &venue,
        format!(
            "[server]\nlisten = \"127.0.0.1:{}\"\ndata = \"{}\"\n\
             [[table]]\nid = \"1\"\nboard = \"none\"\naudio = \"device:t1\"\n",
            common::free_port(),
            data.display()
        ),
    )
    .unwrap();
    let (lines, out) = check(&pulse, &venue);
    assert_eq!(out.status.code(), Some(2), "{lines:#?}");
    assert_line(
        &lines,
        "table 1",
        "sound",
        false,
        &["device:t1", "cannot play"],
    );
    assert_eq!(lines.last().unwrap(), "1 part(s) not ready");
}

#[test]
fn a_bad_venue_file_is_an_error_and_checks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let venue = dir.path().join("venue.toml");
    std::fs::write(&venue, "[[table]]\nid = \"1\"\nboard = \"peg\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["check", "--config"])
        .arg(&venue)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("board"));
}
