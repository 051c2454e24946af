//! Issue 24: a competition, not a game. A three-round event through a
//! running `tactus serve`: pairings in by JSON (round 1) and by the pairing
//! program's TRF-16 file (rounds 2 and 3), games ended by mate,
//! resignation, a draw by agreement and a flag; a kill -9 inside a round
//! and a restart between rounds; every earlier round's PGN unchanged
//! afterwards and read by python-chess; the TRF given back with the
//! results, byte for byte otherwise; bad input refused, changing nothing.

use crate::common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{Server, get, post, wait_for};
use serde_json::Value;

/// The venue: two tactus tables and three listed players (Eve has byes).
const VENUE: &str = r#"
[[table]]
id = "1"
board = "none"
blind = "black"
control = "90+30"
event = "Weekend Open"
white = "Venue White"
black = "Venue Black"
round = "1"

[[table]]
id = "2"
board = "none"
blind = "white"
control = "90+30"
event = "Weekend Open"
round = "1"

[[table]]
id = "3"
board = "none"
event = "Weekend Open"
round = "1"

[[player]]
name = "Bea"
start_rank = 2
table = "1"

[[player]]
name = "Dan"
start_rank = 4
table = "2"
fide_id = 4100000

[[player]]
name = "Eve"
start_rank = 5
table = "3"
"#;

/// A TRF-16 player line as pairing programs write it: the fixed columns,
/// then one 10-column block per round (`  oooo c r`).
fn line(rank: u16, name: &str, rounds: &[&str]) -> String {
    let mut s = format!(
        "001 {rank:>4} m    {name:<33} 1800 GER {:>11} 1990/01/01  0.0 {rank:>4}",
        4_000_000 + u32::from(rank)
    );
    for r in rounds {
        s.push_str("  ");
        s.push_str(r);
    }
    s
}

/// `text` with every player's points (columns 81-84) the sum of the
/// results on their line, as a pairing program writes them and a pairing
/// engine checks them (FIDE's point system).
fn with_points(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|l| {
            if !l.starts_with("001") {
                return l.to_owned();
            }
            let chars: Vec<char> = l.chars().collect();
            let tenths: u32 = (98..chars.len())
                .step_by(10)
                .map(|i| match chars[i] {
                    '1' | 'F' | 'U' | '+' | 'W' => 10,
                    '=' | 'H' | 'D' => 5,
                    _ => 0,
                })
                .sum();
            let field = format!("{:>4}", format!("{}.{}", tenths / 10, tenths % 10));
            let mut out: String = chars[..80].iter().collect();
            out.push_str(&field);
            out.extend(&chars[84..]);
            out
        })
        .collect()
}

/// The pairing program's file before round `upto`'s results: the earlier
/// rounds with results, round `upto` paired with its result blank.
fn trf(upto: usize) -> String {
    // Rounds: 1 (from the JSON round, as the pairing program recorded
    // it), 2, 3. Each player's blocks.
    let all: [(u16, &str, [&str; 3]); 5] = [
        (1, "Ana", ["0002 w 0", "0004 b 1", "0004 w  "]),
        (2, "Bea", ["0001 b 1", "0003 w =", "0003 b  "]),
        (3, "Carla", ["0004 b 1", "0002 b =", "0002 w  "]),
        (4, "Dan", ["0003 w 0", "0001 w 0", "0001 b  "]),
        (5, "Eve", ["0000 - H", "0000 - H", "0000 - F"]),
    ];
    let mut out = String::from(
        "012 Weekend Open\r\n022 Hall\r\n032 GER\r\n042 2026/11/20\r\n052 2026/11/22\r\n062 5\r\n\
         092 Individual: Swiss-System\r\nXXR 3\r\n",
    );
    for (rank, name, rounds) in all {
        let mut blocks: Vec<String> = rounds[..upto].iter().map(|b| b.to_string()).collect();
        // The round being paired has no result yet.
        let last = blocks.last_mut().unwrap();
        if !last.starts_with("0000") {
            last.replace_range(7..8, " ");
        }
        let blocks: Vec<&str> = blocks.iter().map(String::as_str).collect();
        out.push_str(&line(rank, name, &blocks));
        out.push_str("\r\n");
    }
    with_points(&out)
}

/// A request with a body of any type, on a fresh connection; the status
/// and the body.
fn send(
    addr: &str,
    method: &str,
    path: &str,
    token: &str,
    kind: &str,
    body: &str,
) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let body = out.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    // Chunked answers: the one chunk's text.
    let body = if out
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let (_, rest) = body.split_once("\r\n").unwrap_or(("", ""));
        rest.rsplitn(2, "\r\n0\r\n").last().unwrap_or("").to_owned()
    } else {
        body.to_owned()
    };
    (status, body)
}

fn venue_token(data: &Path) -> String {
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    value["venue"]["arbiter"].as_str().unwrap().to_owned()
}

fn view(addr: &str, id: &str) -> Value {
    get(addr, &format!("/api/tables/{id}")).json()
}

fn play(addr: &str, id: &str, token: &str, moves: &[&str]) {
    for m in moves {
        let r = post(
            addr,
            &format!("/api/tables/{id}/move"),
            token,
            &format!(r#"{{"move":"{m}"}}"#),
        );
        assert_eq!(r.status, 200, "table {id} {m}: {}", r.body);
    }
}

fn act(addr: &str, id: &str, token: &str, what: &str, body: &str) {
    let r = post(addr, &format!("/api/tables/{id}/{what}"), token, body);
    assert_eq!(r.status, 200, "table {id} {what}: {}", r.body);
}

fn round_json(addr: &str, token: &str, body: &str) -> (u16, Value) {
    let (status, text) = send(addr, "POST", "/api/rounds", token, "application/json", body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn round_trf(addr: &str, token: &str, round: u16, text: &str) -> (u16, Value) {
    let (status, body) = send(
        addr,
        "POST",
        &format!("/api/rounds?round={round}"),
        token,
        "text/plain",
        text,
    );
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn results(addr: &str) -> Vec<(String, String, Option<String>)> {
    let rounds = get(addr, "/api/rounds").json();
    let mut out = Vec::new();
    for r in rounds["rounds"].as_array().unwrap() {
        for g in r["games"].as_array().unwrap() {
            out.push((
                r["round"].as_str().unwrap().to_owned(),
                g["table"].as_str().unwrap().to_owned(),
                g["result"].as_str().map(str::to_owned),
            ));
        }
    }
    out
}

/// What python-chess reads in a PGN text: per game, its tags and moves.
fn python_chess(pgn: &str, dir: &Path) -> Vec<Value> {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = dir.join("round.pgn");
    std::fs::write(&file, pgn).unwrap();
    let lib = std::env::var_os("TACTUS_PYTHON_CHESS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(root).join("target/python-chess"));
    let out = Command::new(std::env::var("TACTUS_PYTHON").unwrap_or_else(|_| "python3".into()))
        .arg(Path::new(root).join("tests/pgn-corpus/python_chess_reads.py"))
        .arg(&file)
        .env("PYTHONPATH", &lib)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "python-chess (scripts/test installs it into target/python-chess): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    json["files"][0]["games"].as_array().unwrap().clone()
}

#[test]
fn a_three_round_event_keeps_every_game_and_gives_the_results_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    std::fs::write(&config, VENUE).unwrap();
    let args = ["--config", config.to_str().unwrap()];
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    let venue = venue_token(&data);
    let (player1, assistant1, arbiter1) = common::tokens(&data, "1");

    // Bad input first: each refused, naming what is wrong, nothing changed.
    let before = get(&addr, "/api/rounds").body;
    let one = r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea"}]}"#;
    assert_eq!(round_json(&addr, &arbiter1, one).0, 403, "a table's token");
    let (status, e) = round_json(
        &addr,
        &venue,
        r#"{"round":"1","games":[{"table":"9","white":"A","black":"B","blind":"white"}]}"#,
    );
    assert_eq!(status, 404, "{e}");
    assert!(e["error"].as_str().unwrap().contains("`9`"), "{e}");
    let (status, e) = round_json(
        &addr,
        &venue,
        r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea"},{"table":"2","white":"Bea","black":"Dan"}]}"#,
    );
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("paired twice"), "{e}");
    let (status, e) = round_trf(&addr, &venue, 2, "this is not a TRF file\n");
    assert_eq!(status, 422, "{e}");
    let (status, e) = round_trf(&addr, &venue, 2, &trf(2).replace("001    3", "001   x3"));
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("line "), "{e}");
    // A listed player whose start rank the file does not hold (Eve's line
    // left out), and a pairing the opponent's line does not say back.
    let without_eve: String = trf(2)
        .split_inclusive("\r\n")
        .filter(|l| !l.contains(" Eve "))
        .collect();
    let (status, e) = round_trf(&addr, &venue, 2, &without_eve);
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("start rank 5"), "{e}");
    let one_sided = trf(2).replacen("0002 b  ", "0001 b  ", 1);
    assert_ne!(one_sided, trf(2));
    let (status, e) = round_trf(&addr, &venue, 2, &one_sided);
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("line"), "{e}");
    assert_eq!(
        get(&addr, "/api/rounds").body,
        before,
        "a refusal changed the rounds"
    );
    assert_eq!(
        get(&addr, "/api/trf").status,
        401,
        "personal data: a token first"
    );
    assert_eq!(
        common::request(&addr, "GET", "/api/trf", Some(&arbiter1), None).status,
        403,
        "a table's arbiter does not read the players' personal data"
    );
    assert_eq!(
        common::request(&addr, "GET", "/api/trf", Some(&venue), None).status,
        404,
        "no TRF imported yet"
    );

    // Round 1 by JSON: the blind side from the listed players.
    let (status, r1) = round_json(
        &addr,
        &venue,
        r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea"},{"table":"2","white":"Dan","black":"Carla"}]}"#,
    );
    assert_eq!(status, 200, "{r1}");
    let t1 = view(&addr, "1");
    assert_eq!(
        (t1["white"].as_str(), t1["black"].as_str()),
        (Some("Ana"), Some("Bea"))
    );
    assert_eq!(t1["blind"], "black");
    assert_eq!(view(&addr, "2")["blind"], "white");
    let r = post(&addr, "/api/rounds/1/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(view(&addr, "1")["clock"]["running"].as_bool().unwrap());
    // Table 1: Bea mates (the blind player's own token plays her side).
    play(&addr, "1", &assistant1, &["f3"]);
    play(&addr, "1", &player1, &["e5"]);
    play(&addr, "1", &assistant1, &["g4"]);
    play(&addr, "1", &player1, &["Qh4#"]);
    // Table 2: Dan resigns.
    play(&addr, "2", &venue, &["e4", "e5"]);
    act(&addr, "2", &venue, "resign", r#"{"side":"white"}"#);
    let round1 = get(&addr, "/api/rounds/1/pgn").body;
    assert_eq!(round1.matches("[Event ").count(), 2, "{round1}");

    // A game under way stands in the way of the next round at its table.
    let (status, r2) = round_trf(&addr, &venue, 2, &trf(2));
    assert_eq!(status, 200, "{r2}");
    let unpaired = r2["unpaired"].as_array().unwrap();
    assert_eq!(unpaired.len(), 1, "{r2}");
    assert_eq!(unpaired[0]["name"], "Eve");
    assert!(unpaired[0]["why"].as_str().unwrap().contains("bye"), "{r2}");
    // And as the pages' message, said in each page's language.
    assert!(
        unpaired[0]["key"].as_str().unwrap().starts_with("bye"),
        "{r2}"
    );
    let t1 = view(&addr, "1");
    assert_eq!(
        (t1["white"].as_str(), t1["black"].as_str()),
        (Some("Bea"), Some("Carla"))
    );
    assert_eq!(t1["blind"], "white", "Bea plays White in round 2");
    assert_eq!(t1["round"], "2");
    assert_eq!(
        t1["game"], 3,
        "game 1: the venue file's, never begun; 2: round 1"
    );
    assert_eq!(view(&addr, "2")["black"], "Ana");
    let r = post(&addr, "/api/rounds/2/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    // The player's link works from round to round: Bea's token plays White.
    play(&addr, "1", &player1, &["d4"]);
    play(&addr, "1", &assistant1, &["d5"]);
    let (status, e) = round_json(
        &addr,
        &venue,
        r#"{"round":"3","games":[{"table":"1","white":"X","black":"Bea"}]}"#,
    );
    assert_eq!(status, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("table 1"), "{e}");
    assert_eq!(
        view(&addr, "1")["round"],
        "2",
        "the refusal changed nothing"
    );

    // kill -9 inside round 2; every game as it was after the restart.
    server.kill9();
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    let t1 = view(&addr, "1");
    assert_eq!(t1["moves"], serde_json::json!(["d4", "d5"]));
    assert_eq!(
        (t1["round"].as_str(), t1["game"].as_u64()),
        (Some("2"), Some(3))
    );
    assert_eq!(
        get(&addr, "/api/rounds/1/pgn").body,
        round1,
        "round 1 changed"
    );
    // A restart pauses the clocks; the arbiter resumes them.
    for id in ["1", "2"] {
        act(&addr, id, &venue, "clock/resume", "");
    }
    // Table 1: a draw by agreement. Table 2: Dan's flag falls.
    act(&addr, "1", &venue, "draw/offer", r#"{"side":"black"}"#);
    act(&addr, "1", &venue, "draw/accept", "");
    play(&addr, "2", &venue, &["Nf3", "Nf6"]);
    // White's clock runs: all but a moment of it taken.
    let left = view(&addr, "2")["clock"]["white_ms"].as_f64().unwrap() / 1000.0;
    act(
        &addr,
        "2",
        &venue,
        "clock/adjust",
        &format!(
            r#"{{"side":"white","seconds":{},"reason":"test: the flag"}}"#,
            0.3 - left
        ),
    );
    wait_for("Dan's flag", Duration::from_secs(20), || {
        view(&addr, "2")["clock"]["flag"].is_string().then_some(())
    });
    act(&addr, "2", &venue, "flag", "");
    let round2 = get(&addr, "/api/rounds/2/pgn").body;

    // A restart between rounds: nothing is resumed, nothing renamed.
    server.kill9();
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    assert_eq!(
        get(&addr, "/api/rounds/2/pgn").body,
        round2,
        "round 2 changed"
    );

    // Round 3 from the pairing program's next file.
    let (status, r3) = round_trf(&addr, &venue, 3, &trf(3));
    assert_eq!(status, 200, "{r3}");
    assert_eq!(view(&addr, "1")["black"], "Bea");
    assert_eq!(view(&addr, "1")["blind"], "black");
    assert_eq!(view(&addr, "2")["blind"], "black", "Dan has Black");
    let r = post(&addr, "/api/rounds/3/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    play(&addr, "1", &venue, &["f3", "e5", "g4", "Qh4#"]);
    play(&addr, "2", &venue, &["e4"]);
    act(&addr, "2", &venue, "resign", r#"{"side":"black"}"#);

    // Every round's results, and the earlier rounds' PGN unchanged.
    let s = |x: &str| Some(x.to_owned());
    assert_eq!(
        results(&addr),
        vec![
            ("1".into(), "1".into(), s("0-1")),
            ("1".into(), "2".into(), s("0-1")),
            ("2".into(), "1".into(), s("1/2-1/2")),
            ("2".into(), "2".into(), s("0-1")),
            ("3".into(), "1".into(), s("0-1")),
            ("3".into(), "2".into(), s("1-0")),
        ]
    );
    assert_eq!(get(&addr, "/api/rounds/1/pgn").body, round1);
    assert_eq!(get(&addr, "/api/rounds/2/pgn").body, round2);
    for (n, pgn, results, plies) in [
        (1, &round1, ["0-1", "0-1"], [4, 2]),
        (2, &round2, ["1/2-1/2", "0-1"], [2, 2]),
    ] {
        let games = python_chess(pgn, dir.path());
        assert_eq!(games.len(), 2, "round {n}");
        for (g, (result, plies)) in games.iter().zip(results.iter().zip(plies)) {
            assert_eq!(g["headers"]["Result"], *result, "round {n}: {g}");
            assert_eq!(g["headers"]["Round"], n.to_string(), "round {n}: {g}");
            assert_eq!(g["errors"], serde_json::json!([]), "round {n}: {g}");
            assert_eq!(
                g["moves"].as_array().map(Vec::len),
                Some(plies),
                "round {n}: {g}"
            );
        }
    }

    // The TRF back: the imported round-3 file, with round 3's results
    // written for both players, every other byte as it was.
    let back = common::request(&addr, "GET", "/api/trf", Some(&venue), None).body;
    let mut expected = trf(3);
    // Round 3's result column: column 99 + 20, on each player line.
    let col = 98 + 20;
    let fix = |text: &mut String, rank: u16, c: char| {
        let start = text.find(&format!("001 {rank:>4}")).unwrap();
        text.replace_range(start + col..start + col + 1, &c.to_string());
    };
    fix(&mut expected, 3, '0'); // Carla (White at table 1) lost to Bea
    fix(&mut expected, 2, '1');
    fix(&mut expected, 1, '1'); // Ana (White at table 2): Dan resigned
    fix(&mut expected, 4, '0');
    // ... and the points of each line follow its results.
    let expected = with_points(&expected);
    assert_eq!(back, expected);

    // The one way a finished game changes: the arbiter's correction,
    // journaled as such. Round 1 at table 2 becomes a draw; the TRF says so.
    let r = post(
        &addr,
        "/api/rounds/1/tables/2/result",
        &venue,
        r#"{"result":"1/2-1/2","reason":"scoresheets: a draw was agreed"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        post(
            &addr,
            "/api/rounds/1/tables/2/result",
            &arbiter1,
            r#"{"result":"1-0"}"#
        )
        .status,
        403,
        "a table's arbiter does not correct the competition"
    );
    let corrected = get(&addr, "/api/rounds/1/pgn").body;
    assert!(corrected.contains("[Result \"1/2-1/2\"]"), "{corrected}");
    assert!(
        corrected.contains("scoresheets: a draw was agreed"),
        "{corrected}"
    );
    assert_eq!(results(&addr)[1], ("1".into(), "2".into(), s("1/2-1/2")));
    let mut with_draw = expected.clone();
    let col = 98;
    for rank in [3u16, 4] {
        let start = with_draw.find(&format!("001 {rank:>4}")).unwrap();
        with_draw.replace_range(start + col..start + col + 1, "=");
    }
    let with_draw = with_points(&with_draw);
    assert_eq!(
        common::request(&addr, "GET", "/api/trf", Some(&venue), None).body,
        with_draw
    );

    // `tactus journal check` lists every game by table and round.
    server.kill9();
    let check = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["journal", "check"])
        .arg(&data)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{check:?}");
    for needle in [
        "table 1 game 2 (round 1, Ana - Bea)",
        "table 1 game 3 (round 2, Bea - Carla)",
        "table 1 game 4 (round 3, Carla - Bea)",
        "table 2 game 4 (round 3, Ana - Dan)",
    ] {
        assert!(listed.contains(needle), "{needle}: {listed}");
    }
}

/// The second blind player's token in the start-up text: the `opponent:`
/// line's, and the game it names.
fn printed_opponent(data: &Path) -> String {
    // The output is a pipe: the links are in the data folder's links.txt
    // (`tactus links`), never in the log.
    let links = data.join("links.txt");
    let line = wait_for(
        "the opponent's link written",
        Duration::from_secs(20),
        || {
            std::fs::read_to_string(&links).ok().and_then(|text| {
                text.lines()
                    .find(|l| l.trim_start().starts_with("opponent:"))
                    .map(str::to_owned)
            })
        },
    );
    let token = line.split("#token=").nth(1).unwrap();
    token.split_whitespace().next().unwrap().to_owned()
}

/// The second blind player's link of the table's current game, as the
/// arbiter's page asks for it: (game, side, token).
fn opponent_link(addr: &str, token: &str) -> (u64, String, String) {
    let (status, body) = send(
        addr,
        "GET",
        "/api/tables/1/opponent-link",
        token,
        "application/json",
        "",
    );
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(v["svg"].as_str().unwrap().contains("<svg"), "{v}");
    // A short link a braille reader can type: `/t/` and the game's code.
    let link = v["link"].as_str().unwrap();
    let code = link.split("/t/").nth(1).expect("a /t/ link");
    let (status, _) = send(
        addr,
        "GET",
        &format!("/T/{}", code.to_uppercase()),
        "",
        "",
        "",
    );
    assert_eq!(status, 303, "typed as read, in capitals");
    (
        v["game"].as_u64().unwrap(),
        v["plays"].as_str().unwrap().to_owned(),
        code.replace('-', ""),
    )
}

/// A write any person at the table may make: the clock said aloud.
fn may_write(addr: &str, token: &str) -> u16 {
    post(addr, "/api/tables/1/clock/say", token, "").status
}

#[test]
fn a_second_blind_players_link_belongs_to_one_game_and_the_others_last() {
    use shakmaty::Board;
    use tactus_board::event::Protocol;
    use tactus_board::sim::Simulator;

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Both players blind: two pegged boards on real pseudo-terminals.
    let black = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let white = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let config = dir.path().join("venue.toml");
    std::fs::write(
        &config,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"peg:{}\"\n\
             opponent_board = \"peg:{}\"\ncontrol = \"90+30\"\nevent = \"Weekend Open\"\n\
             round = \"1\"\n\n[[player]]\nname = \"Bea\"\nstart_rank = 2\ntable = \"1\"\n",
            black.path().display(),
            white.path().display()
        ),
    )
    .unwrap();
    let args = ["--config", config.to_str().unwrap()];
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    let venue = venue_token(&data);
    let (player, assistant, arbiter) = common::tokens(&data, "1");

    // Game 1 (the venue file's): its token is printed, given to the
    // arbiter's page and on the cards, and works.
    let printed = printed_opponent(&data);
    let (game, plays, first) = opponent_link(&addr, &arbiter);
    assert_eq!((game, plays.as_str()), (1, "white"));
    assert_eq!(first, printed);
    assert_eq!(opponent_link(&addr, &venue).2, first, "the venue arbiter's");
    let cards = send(&addr, "GET", "/api/cards", &venue, "application/json", "").1;
    assert!(
        cards.contains(&format!(
            "/t/{}",
            tactus::service::security::codes::grouped_code(&first)
        )),
        "{cards}"
    );
    assert_eq!(may_write(&addr, &first), 200);
    // Only an arbiter is given it.
    for (token, want) in [(player.as_str(), 403), (first.as_str(), 403), ("", 401)] {
        let (status, body) = if token.is_empty() {
            let r = get(&addr, "/api/tables/1/opponent-link");
            (r.status, r.body)
        } else {
            send(
                &addr,
                "GET",
                "/api/tables/1/opponent-link",
                token,
                "text/plain",
                "",
            )
        };
        assert_eq!(status, want, "{body}");
    }

    // Round 1 is paired: a new game (the unbegun one set up anew), whose
    // second blind player gets a new token; the first one stops working.
    let (status, body) = round_json(
        &addr,
        &venue,
        r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea","blind":"both"}]}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (game, _, round1) = opponent_link(&addr, &arbiter);
    assert_eq!(game, 2);
    assert_ne!(round1, first);
    assert_eq!(may_write(&addr, &first), 403, "game 1's token in game 2");
    assert_eq!(may_write(&addr, &round1), 200);
    for lasting in [&player, &assistant, &arbiter, &venue] {
        assert_eq!(may_write(&addr, lasting), 200);
    }
    // Round 1's opponent, Ana, plays and resigns with her own token, once
    // the arbiter has started the round (before, the move is refused).
    let r = post(&addr, "/api/tables/1/move", &round1, r#"{"move":"e4"}"#);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("has not been started"), "{}", r.body);
    let r = post(&addr, "/api/rounds/1/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    play(&addr, "1", &round1, &["e4"]);
    act(&addr, "1", &round1, "resign", r#"{"side":"white"}"#);
    assert_eq!(view(&addr, "1")["result"]["result"], "0-1");

    // Round 2: another second blind player, another token.
    let (status, body) = round_json(
        &addr,
        &venue,
        r#"{"round":"2","games":[{"table":"1","white":"Carla","black":"Bea","blind":"both"}]}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (game, plays, round2) = opponent_link(&addr, &arbiter);
    assert_eq!((game, plays.as_str()), (3, "white"));
    assert_ne!(round2, round1);
    assert_eq!(
        may_write(&addr, &round1),
        403,
        "round 1's opponent in round 2"
    );
    assert_eq!(may_write(&addr, &first), 403);
    assert_eq!(may_write(&addr, &round2), 200);
    for lasting in [&player, &assistant, &arbiter, &venue] {
        assert_eq!(may_write(&addr, lasting), 200);
    }
    // A stale token cannot move either, nor resign for the new game.
    let stale = post(&addr, "/api/tables/1/move", &round1, r#"{"move":"e4"}"#);
    assert_eq!(stale.status, 403, "{}", stale.body);
    assert!(view(&addr, "1")["moves"].as_array().unwrap().is_empty());

    // A restart keeps the current game's token, and prints it.
    server.kill9();
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    assert_eq!(printed_opponent(&data), round2);
    assert_eq!(opponent_link(&addr, &arbiter).2, round2);
    assert_eq!(may_write(&addr, &round2), 200);
    assert_eq!(may_write(&addr, &round1), 403);
    assert_eq!(may_write(&addr, &player), 200);
    // The file holds the key, never a token of a game.
    let file = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    for token in [&first, &round1, &round2] {
        assert!(!file.contains(token.as_str()), "{file}");
    }
}

/// A round's own control and Chess960 start position; its PGN live while
/// the game is under way (`Round`, `Board`, the start position and
/// `[%clk]`), as a broadcast system polls it; and a second game at the
/// same table in the same round (a replayed game) once the first has a
/// result, both kept.
#[test]
fn a_round_sets_control_and_chess960_start_its_pgn_is_live_and_a_table_may_replay() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    std::fs::write(
        &config,
        "[[table]]\nid = \"1\"\nboard = \"none\"\nvariant = \"chess960\"\nstart_position = 518\n\
         control = \"90+30\"\nevent = \"Fischer Random Open\"\n",
    )
    .unwrap();
    let args = ["--config", config.to_str().unwrap()];
    let server = Server::start(&data, &args);
    let addr = server.addr.clone();
    let venue = venue_token(&data);

    // A start position or a control that does not read is refused, and
    // changes nothing.
    for bad in [r#""start_position":960"#, r#""control":"90+""#] {
        let (status, e) = round_json(
            &addr,
            &venue,
            &format!(
                r#"{{"round":"1","games":[{{"table":"1","white":"Ana","black":"Bea","blind":"black",{bad}}}]}}"#
            ),
        );
        assert_eq!(status, 422, "{bad}: {e}");
    }
    assert_eq!(view(&addr, "1")["control"], "90+30");

    // Round 1: its own control and start position (0: BBQNNRKR).
    let (status, r1) = round_json(
        &addr,
        &venue,
        r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea","blind":"black","control":"15+10","start_position":0}]}"#,
    );
    assert_eq!(status, 200, "{r1}");
    let first = r1["games"][0]["game"].as_u64().unwrap();
    let t = view(&addr, "1");
    assert_eq!(t["control"], "15+10", "{t}");
    assert!(
        t["fen"]
            .as_str()
            .unwrap()
            .starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR "),
        "{t}"
    );
    let r = post(&addr, "/api/rounds/1/start", &venue, "");
    assert_eq!(r.status, 200, "{}", r.body);
    play(&addr, "1", &venue, &["e4"]);

    // The round's PGN while the game is under way.
    let live = get(&addr, "/api/rounds/1/pgn").body;
    for want in [
        "[Round \"1\"]",
        "[Board \"1\"]",
        "[White \"Ana\"]",
        "[Variant \"Chess960\"]",
        "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w",
        "[TimeControl \"900+10\"]",
        "[Result \"*\"]",
        "1. e4 {[%clk ",
    ] {
        assert!(live.contains(want), "{want} not in:\n{live}");
    }
    let read = python_chess(&live, dir.path());
    assert_eq!(read.len(), 1, "{live}");

    // The same table again in round 1: refused while the game is under
    // way, set up as a second game once the arbiter has recorded a result.
    let again = r#"{"round":"1","games":[{"table":"1","white":"Ana","black":"Bea","blind":"black","start_position":959}]}"#;
    let (status, e) = round_json(&addr, &venue, again);
    assert_eq!(status, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains('1'), "{e}");
    let r = post(
        &addr,
        "/api/rounds/1/tables/1/result",
        &venue,
        r#"{"result":"1/2-1/2","reason":"a faulty clock: the game is replayed"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (status, r1b) = round_json(&addr, &venue, again);
    assert_eq!(status, 200, "{r1b}");
    assert_eq!(r1b["games"][0]["game"], first + 1, "{r1b}");
    let t = view(&addr, "1");
    assert_eq!(
        (t["game"].as_u64(), t["round"].as_str()),
        (Some(first + 1), Some("1"))
    );
    // The replayed game has the table's control again (the body gave none).
    assert_eq!(t["control"], "90+30", "{t}");
    let rounds = get(&addr, "/api/rounds").json();
    let round1 = rounds["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["round"] == "1")
        .unwrap_or_else(|| panic!("no round 1: {rounds}"));
    let games: Vec<(u64, String)> = round1["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_u64().unwrap(),
                g["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            (first, "finished".to_owned()),
            (first + 1, "not_begun".to_owned())
        ]
    );
    let both = get(&addr, "/api/rounds/1/pgn").body;
    assert_eq!(both.matches("[Round \"1\"]").count(), 2, "{both}");
    assert!(both.contains("[Result \"1/2-1/2\"]"), "{both}");
}
