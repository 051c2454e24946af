//! A braille display at the table, against a real brltty: the test starts
//! Debian's brltty with its Virtual driver (`-b vr`), which needs no
//! hardware and no X: brltty connects to a Unix socket this test listens
//! on and speaks a line protocol over it (`cells 40` from the display;
//! `Braille "1|12|…"` and `Visual "text"` lines to it; key commands such as
//! `LnDn` or `Route 3` from it). tactus is a BrlAPI client of that brltty
//! over TCP, exactly as it would be of the brltty driving a real display.

use crate::brltty;
use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Server, get, post, table, tokens, wait_for};
use shakmaty::Board;
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;
use tactus_braille::louis;
use tactus_rules::language::Language;

const LIMIT: Duration = Duration::from_secs(20);

/// A brltty with the Virtual driver and BrlAPI on TCP port 4101 + `api`.
struct Brltty {
    child: Child,
}

impl Brltty {
    fn start(dir: &Path, socket: &Path, api: u16) -> Brltty {
        let child = brltty::spawn(dir, socket, api);
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

/// The cells of a `Braille` line read back with liblouis's `table`,
/// lower-cased (German braille has no capitals to read back).
fn words(line: &str, table: &str) -> Option<String> {
    let cells: Vec<u8> = braille(line)?
        .chars()
        .map(|c| (u32::from(c) - 0x2800) as u8)
        .collect();
    let text = louis::back_translate(table, &cells).ok()?;
    Some(text.trim().to_lowercase())
}

/// Text without its punctuation: liblouis reads some back as other signs
/// (Spanish braille's full stop, dot 3, comes back as an apostrophe, its
/// colon as a 3), so words are compared without it.
fn plain(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ')
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the display's window (40 cells, read back) shows the start of
/// `said`: the whole of it, or all of it but a last word cut by the
/// window's edge.
fn shows(window: &str, said: &str) -> bool {
    let (window, said) = (plain(window), plain(said));
    if window == said {
        return true;
    }
    let whole = window.rsplit_once(' ').map_or("", |(w, _)| w);
    whole.len() > 3 && said.starts_with(whole)
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

/// A venue of one table, Anna (White) against Bert (Black, the blind
/// player), whose display is the brltty at BrlAPI number `api`; `extra`
/// adds its other settings (`board`, `braille_shows`, `voice`).
fn venue(dir: &Path, api: u16, extra: &str) -> PathBuf {
    let path = dir.join("venue.toml");
    let mut extra = extra.to_owned();
    if !extra.contains("board =") {
        extra.push_str("board = \"none\"\n");
    }
    std::fs::write(
        &path,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nwhite = \"Anna\"\nblack = \"Bert\"\n\
             braille = \"brlapi:127.0.0.1:{api}\"\n{extra}"
        ),
    )
    .unwrap();
    path
}

/// The whole rig: a brltty with its virtual display, and `tactus serve`
/// with one table whose display it is, connected.
struct Rig {
    dir: tempfile::TempDir,
    socket: PathBuf,
    listener: UnixListener,
    api: u16,
    brltty: Option<Brltty>,
    display: Option<Display>,
    /// Held so that the server stops with the rig.
    _server: Server,
    addr: String,
    player: String,
    assistant: String,
}

impl Rig {
    /// Starts brltty, then tactus with the table's settings `extra`
    /// (`venue`), and waits for the table to say its display is connected.
    fn start(extra: &str) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("vr.sock");
        let listener = UnixListener::bind(&socket).unwrap();
        let api = free_api();
        let config = venue(dir.path(), api, extra);
        let (brltty, display) = brltty(dir.path(), &socket, &listener, api);
        let data = dir.path().join("data");
        let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
        let addr = server.addr.clone();
        let (player, assistant, _arbiter) = tokens(&data, "1");
        let rig = Rig {
            socket,
            listener,
            api,
            brltty: Some(brltty),
            display: Some(display),
            _server: server,
            addr,
            player,
            assistant,
            dir,
        };
        rig.wait_braille("connected");
        rig
    }

    /// brltty goes away (its display with it).
    fn stop_brltty(&mut self) {
        self.display = None;
        self.brltty = None;
    }

    /// brltty comes back.
    fn restart_brltty(&mut self) {
        let (b, d) = brltty(self.dir.path(), &self.socket, &self.listener, self.api);
        (self.brltty, self.display) = (Some(b), Some(d));
    }

    fn display(&mut self) -> &mut Display {
        self.display.as_mut().expect("brltty is running")
    }

    /// Waits for the table's state to say `braille: state`.
    fn wait_braille(&self, state: &str) {
        wait_for(&format!("the display {state}"), LIMIT, || {
            (table(&self.addr)["braille"] == state).then_some(())
        });
    }

    /// The opponent's (White's) move through the API: what was said.
    fn white_moves(&self, san: &str) -> String {
        let r = post(
            &self.addr,
            "/api/tables/1/move",
            &self.assistant,
            &format!(r#"{{"move":"{san}"}}"#),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["text"].as_str().unwrap().to_string()
    }

    /// The last announcement once it is no longer `before`.
    fn announcement_after(&self, before: &serde_json::Value) -> String {
        wait_for("a new announcement", LIMIT, || {
            let now = table(&self.addr)["last_announcement"].clone();
            (now != *before).then(|| now.as_str().unwrap().to_owned())
        })
    }
}

/// brltty with its virtual display on `socket`, BrlAPI number `api`; back
/// once it shows its own screen ("no screen": it has no screen driver), so
/// up and listening.
fn brltty(dir: &Path, socket: &Path, listener: &UnixListener, api: u16) -> (Brltty, Display) {
    let brltty = Brltty::start(dir, socket, api);
    let display = Display::accept(listener);
    display.until("brltty's own screen", |l| l.starts_with("Visual"));
    (brltty, display)
}

/// The table's live stream (`/events`): every `state` event's data.
fn states(addr: &str) -> mpsc::Receiver<serde_json::Value> {
    let mut stream = TcpStream::connect(addr).unwrap();
    // HTTP/1.0: the stream ends with the connection, no chunks to undo.
    stream
        .write_all(b"GET /api/tables/1/events HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n")
        .unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut event = String::new();
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if let Some(name) = line.strip_prefix("event:") {
                event = name.trim().to_owned();
            } else if let Some(data) = line.strip_prefix("data:")
                && event == "state"
                && let Ok(v) = serde_json::from_str(data.trim())
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    rx
}

/// Waits for a state on the live stream that `pred` accepts.
fn next_state(
    states: &mpsc::Receiver<serde_json::Value>,
    what: &str,
    pred: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline {
        match states.recv_timeout(Duration::from_millis(200)) {
            Ok(v) if pred(&v) => return v,
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(e) => panic!("live stream closed waiting for {what}: {e}"),
        }
    }
    panic!("no state with {what} on the live stream");
}

#[test]
fn announcements_and_keys_in_the_tables_language() {
    // A Spanish table: its words in Spanish braille (es-g1).
    let mut rig = Rig::start("voice = \"es-apendice-d\"\n");
    let es = louis::table_for(Language::Es);

    // The opponent's move: on the display, before the blind player
    // carries it out.
    let said = rig.white_moves("e4");
    rig.display().until("the move's words", |l| {
        words(l, es).is_some_and(|w| shows(&w, &said))
    });

    // LnDn on the display: the clock, said and shown.
    let before = table(&rig.addr)["last_announcement"].clone();
    rig.display().press("LnDn");
    let clock = rig.announcement_after(&before);
    assert_ne!(clock, said);
    rig.display().until("the clock", |l| {
        words(l, es).is_some_and(|w| shows(&w, &clock))
    });
    // LnUp: the last moves.
    rig.display().press("LnUp");
    rig.display().until("the last moves", |l| {
        words(l, es).is_some_and(|w| plain(&w) == "1 e4")
    });
    // A routing key: the last announcement (the clock) again.
    rig.display().press("Route 5");
    rig.display().until("the repeat", |l| {
        words(l, es).is_some_and(|w| shows(&w, &clock))
    });
}

#[test]
fn the_display_coming_and_going_is_pushed_live_and_loses_nothing() {
    let mut rig = Rig::start("");
    let de = louis::table_for(Language::De);
    let live = states(&rig.addr);
    next_state(&live, "braille connected", |s| s["braille"] == "connected");
    let said = rig.white_moves("e4");
    rig.display().until("the move", |l| {
        words(l, de).is_some_and(|w| shows(&w, &said))
    });

    // brltty goes away mid-game: the live stream says so by itself, with
    // nothing else happening at the table.
    rig.stop_brltty();
    // Lost (and, once an attempt to reach it again has failed, failing).
    let gone = next_state(&live, "braille disconnected", |s| {
        s["braille"] == "disconnected" || s["braille"] == "failing"
    });
    assert_eq!(gone["moves"].as_array().unwrap().len(), 1);

    // The game goes on, undelayed.
    let started = Instant::now();
    let r = post(
        &rig.addr,
        "/api/tables/1/move",
        &rig.player,
        r#"{"move":"e5"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(started.elapsed() < Duration::from_secs(1));
    let meanwhile = r.json()["text"].as_str().unwrap().to_string();
    let said = rig.white_moves("Nf3");

    // It comes back: the stream says so, the latest announcement is
    // shown, and the game is whole.
    rig.restart_brltty();
    let back = next_state(&live, "braille connected again", |s| {
        s["braille"] == "connected"
    });
    assert_eq!(back["moves"], serde_json::json!(["e4", "e5", "Nf3"]));
    rig.display().until("the move made while it was away", |l| {
        words(l, de).is_some_and(|w| shows(&w, &said))
    });
    assert_ne!(meanwhile, said);
    // The last moves on a key: all three.
    rig.display().press("LnUp");
    rig.display().until("the last moves", |l| {
        words(l, de).is_some_and(|w| plain(&w) == "1 e4 e5 2 nf3")
    });
}

#[test]
fn a_deafblind_player_reads_the_opponents_move_and_the_boards_differences() {
    // The blind player (Black) plays on a pegged board (simulated on a
    // pseudo-terminal) and hears nothing: the display is all they have.
    let mut sim = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let mut rig = Rig::start(&format!(
        "board = \"peg:{}\"\nsettle_ms = 0\nbraille_shows = \"notation\"\n",
        sim.path().display()
    ));
    let de = louis::table_for(Language::De);
    wait_for("the board connected", LIMIT, || {
        (table(&rig.addr)["board"]["connected"] == true).then_some(())
    });

    // White's move comes through the API: it is on the display (1. e4 in
    // the braille chess code) while the tactile board still has the pawn
    // on e2, before the blind player must carry it out.
    rig.white_moves("e4");
    rig.display().until("1. e4 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠑⠲")
    });
    let t = table(&rig.addr);
    assert_eq!(t["board"]["in_sync"], false, "{t}");

    // The board's differences, on the display's key: what to do on the
    // tactile board, in words.
    let before = t["last_announcement"].clone();
    rig.display().press("Top");
    let differences = rig.announcement_after(&before);
    rig.display().until("the differences", |l| {
        words(l, de).is_some_and(|w| shows(&w, &differences))
    });

    // Carried out on the tactile board: none left.
    sim.play("e2e4", false).unwrap();
    wait_for("the board in step", LIMIT, || {
        (table(&rig.addr)["board"]["in_sync"] == true).then_some(())
    });
    let before = table(&rig.addr)["last_announcement"].clone();
    rig.display().press("Top");
    let none = rig.announcement_after(&before);
    assert_ne!(none, differences);
    rig.display().until("no differences", |l| {
        words(l, de).is_some_and(|w| shows(&w, &none))
    });

    // The blind player's own move, made on the board, is on the display
    // too: Black's move alone, dots 3-6 before it.
    sim.play("e7e5", false).unwrap();
    rig.display().until("1... e5 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠤⠑⠢")
    });
}

#[test]
fn moves_in_the_braille_chess_code() {
    let mut rig = Rig::start("braille_shows = \"notation\"\n");
    rig.white_moves("e4");
    // 1. e4: lower 1, blank, e, lower 4.
    rig.display().until("1. e4 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠑⠲")
    });
    let r = post(
        &rig.addr,
        "/api/tables/1/move",
        &rig.player,
        r#"{"move":"Nc6"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // Black's move alone: dots 3-6 before it.
    rig.display().until("1... Nc6 in braille", |l| {
        braille(l).is_some_and(|b| b == "⠂⠀⠤⠎⠉⠖")
    });

    // The record of the same game, as BRF and as Unicode braille.
    let addr = &rig.addr;
    let brf = get(addr, "/api/tables/1/brf").body;
    assert!(brf.contains("1 E4 SC6\r\n"), "{brf}");
    let unicode = get(addr, "/api/tables/1/brf?format=unicode").body;
    assert!(unicode.contains("⠂⠀⠑⠲⠀⠎⠉⠖\n"), "{unicode}");
    assert_eq!(get(addr, "/api/tables/1/brf?format=pdf").status, 400);
    assert_eq!(get(addr, "/api/tables/1/brf?lang=xx").status, 400);
    assert_eq!(get(addr, "/api/tables/9/brf").status, 404);
}

#[test]
fn no_brltty_at_all_never_holds_up_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let api = free_api();
    let config = venue(dir.path(), api, "");
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (_player, assistant, _arbiter) = tokens(&data, "1");
    let braille = table(&addr)["braille"].clone();
    assert!(
        braille == "disconnected" || braille == "failing",
        "{braille}"
    );
    let started = Instant::now();
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"d4"}"#).status,
        200
    );
    assert!(started.elapsed() < Duration::from_secs(1));
}

/// The cells of a `Braille "1|12|…"` line, every one of the window's
/// (blanks kept: windows are put back together).
fn window_cells(line: &str) -> Option<Vec<u8>> {
    let s = line.strip_prefix("Braille \"")?.strip_suffix('"')?;
    Some(
        s.split('|')
            .map(|cell| cell.trim().bytes().map(|d| 1u8 << (d - b'1')).sum())
            .collect(),
    )
}

#[test]
fn a_new_game_says_the_round_the_colour_and_the_opponent() {
    // A Spanish table: the words of the player's page, in Spanish braille.
    let mut rig = Rig::start("voice = \"es-apendice-d\"\n");
    let es = louis::table_for(Language::Es);
    let data = rig.dir.path().join("data");
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let venue: toml::Value = toml::from_str(&text).unwrap();
    let venue = venue["venue"]["arbiter"].as_str().unwrap().to_owned();

    // Round 2 is paired: Bert (blind, Black) against Carla.
    let r = post(
        &rig.addr,
        "/api/rounds",
        &venue,
        r#"{"round":"2","games":[{"table":"1","white":"Carla","black":"Bert","blind":"black"}]}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // The line is longer than the display's 40 cells: its first window,
    // then the next one (a full window's pan), read back together.
    let first = rig.display().until("the new game's first window", |l| {
        words(l, es).is_some_and(|w| plain(&w).starts_with("una partida nueva ronda 2"))
    });
    let mut cells = window_cells(&first).unwrap();
    assert_eq!(cells.len(), 40, "{first}");
    rig.display().press("FwinRt");
    let second = rig.display().until("the next window", |l| {
        l.starts_with("Braille") && l != first
    });
    cells.extend(window_cells(&second).unwrap());
    while cells.last() == Some(&0) {
        cells.pop();
    }
    let line = louis::back_translate(es, &cells).unwrap();
    assert_eq!(
        plain(&line),
        "una partida nueva ronda 2 juega con negras contra carla blancas",
        "{line}"
    );
}

/// Issue 33: a listed player's own braille display (`braille` on their
/// `[[player]]`) follows them from board to board: round 1 at board 1 as
/// White, round 2 at board 2 as Black, each time saying where they are,
/// showing that game's announcements, and its keys acting there, for
/// their side, in their game.
#[test]
fn a_players_own_display_follows_them_from_board_to_board() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("vr.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    let api = free_api();
    let (_brltty, mut display) = brltty(dir.path(), &socket, &listener, api);
    let config = dir.path().join("venue.toml");
    let tables = "[[table]]\nid = \"board1\"\nboard = \"none\"\n\n[[table]]\nid = \"board2\"\nboard = \"none\"\n\n";
    let mut players = String::new();
    for (i, name) in ["Ana", "Bea", "Cid", "Dan"].iter().enumerate() {
        players.push_str(&format!(
            "[[player]]\nname = \"{name}\"\nstart_rank = {}\n",
            i + 1
        ));
        if i == 0 {
            players.push_str(&format!("braille = \"brlapi:127.0.0.1:{api}\"\n"));
        }
        players.push('\n');
    }
    std::fs::write(&config, format!("{tables}{players}")).unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let tokens: toml::Value = toml::from_str(&text).unwrap();
    let venue = tokens["venue"]["arbiter"].as_str().unwrap().to_owned();
    let own = |rank: &str| tokens["players"][rank].as_str().unwrap().to_owned();
    let de = louis::table_for(Language::De);
    let me = |token: &str| {
        let r = get_with(&addr, "/api/players/me", token);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    wait_for("Ana's display connected", LIMIT, || {
        (me(&own("1"))["braille"] == "connected").then_some(())
    });

    let round = |body: &str| {
        let r = post(&addr, "/api/rounds", &venue, body);
        assert_eq!(r.status, 200, "{}", r.body);
    };
    round(r#"{"round":"1","games":[{"white":"Ana","black":"Bea"},{"white":"Cid","black":"Dan"}]}"#);
    // Where she plays, in the table's language (German by default).
    display.until("round 1 at board 1", |l| {
        words(l, de).is_some_and(|w| plain(&w).starts_with("runde 1 brett 1 sie spielen wei"))
    });
    // The arbiter starts the round; her move, from her own page, shown on
    // her display.
    let r = post(&addr, "/api/rounds/1/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        &addr,
        "/api/tables/board1/move",
        &own("1"),
        r#"{"move":"e4"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let said = r.json()["text"].as_str().unwrap().to_owned();
    display.until("her move", |l| {
        words(l, de).is_some_and(|w| shows(&w, &said))
    });
    // Round 2: Black at board 2 against Cid.
    let r = post(
        &addr,
        "/api/tables/board1/resign",
        &own("2"),
        r#"{"side":"black"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        &addr,
        "/api/tables/board2/resign",
        &own("4"),
        r#"{"side":"black"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // The pairing program's board order puts her game on board 2.
    round(
        r#"{"round":"2","games":[{"white":"Cid","black":"Ana","board":2},{"white":"Bea","black":"Dan","board":1}]}"#,
    );
    assert_eq!(me(&own("1"))["table"], "board2");
    display.until("round 2 at board 2", |l| {
        words(l, de).is_some_and(|w| plain(&w).starts_with("runde 2 brett 2 sie spielen schwarz"))
    });
    let r = post(&addr, "/api/rounds/2/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    // Cid's move at board 2 is on her display; one at board 1 is not hers.
    let r = post(
        &addr,
        "/api/tables/board2/move",
        &own("3"),
        r#"{"move":"d4"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let said = r.json()["text"].as_str().unwrap().to_owned();
    display.until("Cid's move at her board", |l| {
        words(l, de).is_some_and(|w| shows(&w, &said))
    });
    // Her display's clock key asks board 2's clock, for her.
    let before = table_at(&addr, "board2")["last_announcement"].clone();
    display.press("LnDn");
    wait_for("the clock said at board 2", LIMIT, || {
        let now = table_at(&addr, "board2")["last_announcement"].clone();
        (now != before).then_some(())
    });
    drop(server);
}

/// A request with a bearer token.
fn get_with(addr: &str, path: &str, token: &str) -> tactus_testkit::http::Response {
    tactus_testkit::http::request(addr, "GET", path, Some(token), None, LIMIT).unwrap()
}

/// Table `id`'s state.
fn table_at(addr: &str, id: &str) -> serde_json::Value {
    get(addr, &format!("/api/tables/{id}")).json()
}
