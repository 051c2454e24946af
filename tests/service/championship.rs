//! Issue 33: a championship for the blind, paired round after round by a
//! real pairing engine. bbpPairings (FIDE's Dutch system, built from its
//! vendored source by `scripts/bbppairings.sh`) pairs every round from the
//! TRF file `tactus serve` gave back after the last one, as Swiss-Manager
//! or SwissSys would call it:
//!
//! - an all-blind event: twelve listed players without tables, six tactus
//!   tables with no sensor board, every game played by the two players' own
//!   tokens (moves, a draw offered and accepted, resignations, a game
//!   decided before a move), a forfeit recorded by the arbiter, every
//!   player's one link checked each round (table, colour, opponent, board
//!   order), the other side and other tables refused, the standings;
//! - a mixed open: eleven players (a bye every round), two blind players
//!   at their own tables, the other boards' results entered by the arbiter
//!   in the pairing program.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
use tactus_testkit::bbp::{self, Paired};

use crate::common::{Server, get, post, request};

/// A request with any method and body; the status, the headers and the body.
pub(crate) fn send(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    kind: &str,
    body: &str,
) -> (u16, String, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: {kind}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let answer = tactus_testkit::http::parse_response(&raw);
    let text = String::from_utf8_lossy(&raw);
    let head = text.split("\r\n\r\n").next().unwrap_or("").to_owned();
    (answer.status, head, answer.body)
}

fn venue_token(data: &Path) -> String {
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    value["venue"]["arbiter"].as_str().unwrap().to_owned()
}

/// Every listed player's own token, by start rank.
fn player_tokens(data: &Path) -> BTreeMap<u16, String> {
    let text = std::fs::read_to_string(data.join("tokens.toml")).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    value["players"]
        .as_table()
        .expect("a [players] table in tokens.toml")
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), v.as_str().unwrap().to_owned()))
        .collect()
}

/// The file a pairing program starts from: TRF-26's records (rounds, the
/// first player's colour, the point system, the time control, the dates,
/// a comment) and one line per player, no round played.
fn initial_trf(names: &[&str], rounds: u16) -> String {
    let mut dates = format!("132{:88}", "");
    for r in 0..rounds {
        dates.push_str(&format!("26/12/{:02}  ", 1 + r));
    }
    let mut out = format!(
        "012 Blind Players' Championship\n022 Tactus Hall\n042 2026/12/01\n{}\n\
         142 {rounds}\n152 W\n162  W 1.0    D 0.5    L 0.0\n222 3600+30\n\
         ### written by the test, as a pairing program would\n",
        dates.trim_end()
    );
    for (i, name) in names.iter().enumerate() {
        let rank = i + 1;
        out.push_str(&format!(
            "001 {rank:>4} m    {name:<33} {:>4} GER {:>11} 1990/01/01  0.0 {rank:>4}\n",
            2300 - 20 * rank,
            4_100_000 + rank
        ));
    }
    out
}

/// `text` with `tenths` added to player `rank`'s points (columns 81-84):
/// what a pairing program writes with a pairing-allocated bye.
fn add_points(text: &[u8], rank: u16, tenths: u32) -> Vec<u8> {
    let trf = Trf::from_bytes(text).unwrap();
    let p = trf.player(rank).unwrap();
    let now = p.points_tenths.unwrap_or(0) + tenths;
    let mut lines: Vec<Vec<u8>> = text.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
    let field = format!("{:>4}", format!("{}.{}", now / 10, now % 10));
    lines[p.line - 1][80..84].copy_from_slice(field.as_bytes());
    lines.join(&b'\n')
}

/// The round's pairings by the engine, written into the file as a pairing
/// program writes a round before it is played (a bye with its point).
fn paired_round(file: &[u8], round: u16) -> (Vec<Paired>, Vec<u8>) {
    let pairs = bbp::pair(file).unwrap_or_else(|e| {
        panic!(
            "the pairing engine refused the file for round {round}: {e}\n{}",
            String::from_utf8_lossy(file)
        )
    });
    let mut text = bbp::with_round(file, round, &pairs);
    for p in &pairs {
        if let Paired::Bye(rank) = p {
            text = add_points(&text, *rank, 10);
        }
    }
    (pairs, text)
}

/// The board order FIDE gives the round's games: the higher score of the
/// pair, the sum of both, the better-ranked player; scores before the
/// round, from the file.
fn fide_board_order(file: &[u8], round: u16, games: &[(u16, u16)]) -> Vec<(u16, u16)> {
    let trf = Trf::from_bytes(file).unwrap();
    let before = |rank: u16| -> u32 {
        let p = trf.player(rank).unwrap();
        (1..round)
            .filter_map(|r| match p.round(r) {
                RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
                RoundEntry::NotPaired => None,
            })
            .map(|r| trf.point_system().of(r))
            .sum()
    };
    let mut ordered = games.to_vec();
    ordered.sort_by_key(|&(w, b)| {
        let (sw, sb) = (before(w), before(b));
        (
            std::cmp::Reverse(sw.max(sb)),
            std::cmp::Reverse(sw + sb),
            w.min(b),
        )
    });
    ordered
}

/// How a game is played: by its players' own tokens.
#[derive(Debug, Clone, Copy)]
enum Script {
    /// 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#: 1-0.
    ScholarsMate,
    /// 1. f3 e5 2. g4 Qh4#: 0-1.
    FoolsMate,
    /// 1. e4 e5, Black offers a draw, White accepts it: ½-½.
    DrawAgreed,
    /// Black resigns before a move: 1-0, not played (TRF `W`/`L`).
    ResignsAtOnce,
    /// 1. d4 d5, White resigns: 0-1.
    WhiteResigns,
}

impl Script {
    fn pick(n: usize) -> Script {
        [
            Script::ScholarsMate,
            Script::FoolsMate,
            Script::DrawAgreed,
            Script::ResignsAtOnce,
            Script::WhiteResigns,
        ][n % 5]
    }

    fn result(self) -> &'static str {
        match self {
            Script::ScholarsMate | Script::ResignsAtOnce => "1-0",
            Script::FoolsMate | Script::WhiteResigns => "0-1",
            Script::DrawAgreed => "1/2-1/2",
        }
    }
}

fn write(addr: &str, table: &str, what: &str, token: &str, body: &str) -> (u16, Value) {
    let r = post(addr, &format!("/api/tables/{table}/{what}"), token, body);
    (r.status, r.json())
}

/// Plays `script` at `table`, each side by its own player's token.
fn play(addr: &str, table: &str, script: Script, white: &str, black: &str) {
    let mv = |token: &str, m: &str| {
        let (s, v) = write(addr, table, "move", token, &format!(r#"{{"move":"{m}"}}"#));
        assert_eq!(s, 200, "table {table}: {m}: {v}");
    };
    match script {
        Script::ScholarsMate => {
            for (i, m) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
                .iter()
                .enumerate()
            {
                mv(if i % 2 == 0 { white } else { black }, m);
            }
        }
        Script::FoolsMate => {
            for (i, m) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
                mv(if i % 2 == 0 { white } else { black }, m);
            }
        }
        Script::DrawAgreed => {
            mv(white, "e4");
            mv(black, "e5");
            let (s, v) = write(addr, table, "draw/offer", black, r#"{"side":"black"}"#);
            assert_eq!(s, 200, "{v}");
            // Their own offer is not theirs to accept (a player's token;
            // an assistant accepts for either side).
            if black.len() == tactus::service::security::codes::CODE_LEN {
                let (s, v) = write(addr, table, "draw/accept", black, "");
                assert_eq!(s, 422, "{v}");
            }
            let (s, v) = write(addr, table, "draw/accept", white, "");
            assert_eq!(s, 200, "{v}");
        }
        Script::ResignsAtOnce => {
            let (s, v) = write(addr, table, "resign", black, r#"{"side":"black"}"#);
            assert_eq!(s, 200, "{v}");
        }
        Script::WhiteResigns => {
            mv(white, "d4");
            mv(black, "d5");
            let (s, v) = write(addr, table, "resign", white, r#"{"side":"white"}"#);
            assert_eq!(s, 200, "{v}");
        }
    }
}

const NAMES: [&str; 12] = [
    "Ana Abad",
    "Bea Blanco",
    "Carla Cruz",
    "Dan Diez",
    "Eve Estevez",
    "Fran Fuentes",
    "Gil Gomez",
    "Hugo Haro",
    "Ines Iglesias",
    "Juan Jimenez",
    "Kai Kuhn",
    "Lea Lopez",
];

#[test]
fn an_all_blind_swiss_is_paired_by_the_engine_from_every_file_tactus_gives_back() {
    const ROUNDS: u16 = 5;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    let mut venue = String::new();
    for t in 1..=6 {
        venue.push_str(&format!(
            "[[table]]\nid = \"board{t}\"\nboard = \"none\"\n\n"
        ));
    }
    for (i, name) in NAMES.iter().enumerate() {
        venue.push_str(&format!(
            "[[player]]\nname = \"{name}\"\nstart_rank = {}\n\n",
            i + 1
        ));
    }
    std::fs::write(&config, &venue).unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let arbiter = venue_token(&data);
    let tokens = player_tokens(&data);
    assert_eq!(tokens.len(), 12, "one token per listed player");
    let boards: Vec<String> = (1..=6).map(|t| format!("board{t}")).collect();

    // Before any round: nowhere to play, and why.
    let me = send(
        &addr,
        "GET",
        "/api/players/me",
        Some(&tokens[&1]),
        "text/plain",
        "",
    );
    assert_eq!(me.0, 200, "{}", me.2);
    let me: Value = serde_json::from_str(&me.2).unwrap();
    assert_eq!(me["table"], Value::Null, "{me}");
    assert!(me["why"].as_str().unwrap().contains("no round"), "{me}");
    // Too many games for the tables: 409, how many are missing, nothing set up.
    let seven: Vec<Value> = (0..7)
        .map(|i| serde_json::json!({"white": format!("W{i}"), "black": format!("B{i}"), "blind": "both"}))
        .collect();
    let body = serde_json::json!({"round": "1", "games": seven}).to_string();
    let (s, _, v) = send(
        &addr,
        "POST",
        "/api/rounds",
        Some(&arbiter),
        "application/json",
        &body,
    );
    assert_eq!(s, 409, "{v}");
    assert!(v.contains("1 more table"), "{v}");
    // A file whose points disagree with its results: 422, naming the line.
    let stale = initial_trf(&NAMES, ROUNDS).replace("1990/01/01  0.0    3", "1990/01/01  1.5    3");
    let (s, _, v) = send(
        &addr,
        "POST",
        "/api/rounds?round=1",
        Some(&arbiter),
        "text/plain",
        &stale,
    );
    assert_eq!(s, 422, "{v}");
    assert!(v.contains("line 12") && v.contains("points"), "{v}");

    let mut file = initial_trf(&NAMES, ROUNDS).into_bytes();
    for round in 1..=ROUNDS {
        let (pairs, paired) = paired_round(&file, round);
        let games: Vec<(u16, u16)> = pairs
            .iter()
            .map(|p| match p {
                Paired::Game(g) => (g.white, g.black),
                Paired::Bye(r) => panic!("twelve players, a bye for {r}"),
            })
            .collect();
        assert_eq!(games.len(), 6);
        let order = fide_board_order(&paired, round, &games);
        let (s, _, v) = send(
            &addr,
            "POST",
            &format!("/api/rounds?round={round}"),
            Some(&arbiter),
            "text/plain",
            &String::from_utf8(paired.clone()).unwrap(),
        );
        assert_eq!(s, 200, "round {round}: {v}");
        // Every player's one link: their table in board order, colour,
        // opponent.
        for (board, &(w, b)) in order.iter().enumerate() {
            for (rank, colour, them) in [(w, "white", b), (b, "black", w)] {
                let (s, _, body) = send(
                    &addr,
                    "GET",
                    "/api/players/me",
                    Some(&tokens[&rank]),
                    "text/plain",
                    "",
                );
                assert_eq!(s, 200, "{body}");
                let me: Value = serde_json::from_str(&body).unwrap();
                assert_eq!(me["round"], round.to_string(), "{me}");
                assert_eq!(me["table"], boards[board], "round {round}, {rank}: {me}");
                assert_eq!(me["board"], board + 1, "{me}");
                assert_eq!(me["colour"], colour, "{me}");
                assert_eq!(me["opponent"]["start_rank"], them, "{me}");
                assert_eq!(me["opponent"]["name"], NAMES[usize::from(them) - 1], "{me}");
                assert_eq!(me["name"], NAMES[usize::from(rank) - 1], "{me}");
            }
        }
        let (s, _, v) = send(
            &addr,
            "POST",
            &format!("/api/rounds/{round}/start"),
            Some(&arbiter),
            "text/plain",
            "",
        );
        assert_eq!(s, 200, "{v}");
        for (board, &(w, b)) in order.iter().enumerate() {
            let table = &boards[board];
            let (white, black) = (&tokens[&w], &tokens[&b]);
            // The other side and another table are refused, changing nothing.
            let (s, v) = write(&addr, table, "move", black, r#"{"move":"e4"}"#);
            assert_eq!(s, 403, "Black's token moving for White: {v}");
            let other = &boards[(board + 1) % 6];
            let (s, v) = write(&addr, other, "move", white, r#"{"move":"e4"}"#);
            assert_eq!(s, 403, "a player's token at another table: {v}");
            assert!(v["error"].as_str().unwrap().contains(table.as_str()), "{v}");
            if round == 2 && board == 5 {
                // Black did not come: the arbiter records a forfeit.
                let r = post(
                    &addr,
                    &format!("/api/rounds/2/tables/{table}/result"),
                    &arbiter,
                    r#"{"result":"1-0","forfeit":"black"}"#,
                );
                assert_eq!(r.status, 200, "{}", r.body);
                assert_eq!(r.json()["forfeit"], "black", "{}", r.body);
                continue;
            }
            let script = Script::pick(usize::from(round) + board);
            play(&addr, table, script, white, black);
            let view = get(&addr, &format!("/api/tables/{table}")).json();
            assert_eq!(view["result"]["result"], script.result(), "{table}: {view}");
            // The round plays the file's time control (TRF-26 `222`).
            assert_eq!(view["control"], "60+30", "{view}");
        }
        // The file back, read by the engine: its checker replays every
        // round, and (but after the last) it pairs the next.
        let back = request(&addr, "GET", "/api/trf", Some(&arbiter), None);
        assert_eq!(back.status, 200, "{}", back.body);
        let back = back.body.into_bytes();
        bbp::check(&back).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let trf = Trf::from_bytes(&back).unwrap();
        trf.check_points().unwrap();
        // Only result letters and points changed, and TRF-26's records
        // are kept.
        assert_eq!(back.len(), paired.len());
        let text = String::from_utf8(back.clone()).unwrap();
        for record in ["142 5", "152 W", "162  W 1.0", "222 3600+30", "### written"] {
            assert!(text.contains(record), "{record}");
        }
        if round == 2 {
            let forfeited = order[5];
            assert_eq!(
                trf.player(forfeited.0).unwrap().round(2),
                RoundEntry::Game {
                    opponent: forfeited.1,
                    colour: Some(shakmaty::Color::White),
                    result: Some(ResultChar::ForfeitWin)
                }
            );
        }
        for (board, &(w, _)) in order.iter().enumerate() {
            if matches!(
                Script::pick(usize::from(round) + board),
                Script::ResignsAtOnce
            ) && !(round == 2 && board == 5)
            {
                let RoundEntry::Game { result, .. } = trf.player(w).unwrap().round(round) else {
                    panic!("{w} played in round {round}");
                };
                assert_eq!(
                    result,
                    Some(ResultChar::UnratedWin),
                    "decided before a move"
                );
            }
        }
        // The round as broadcasters poll it: the file's event, site and
        // round date, FIDE ids, and 304 while nothing changed.
        let (s, head, pgn) = send(
            &addr,
            "GET",
            &format!("/api/rounds/{round}/pgn"),
            None,
            "text/plain",
            "",
        );
        assert_eq!(s, 200);
        assert!(
            pgn.contains("[Event \"Blind Players' Championship\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("[Site \"Tactus Hall\"]"), "{pgn}");
        assert!(
            pgn.contains(&format!("[Date \"2026.12.{:02}\"]", round)),
            "{pgn}"
        );
        let (w, _) = order[0];
        assert!(
            pgn.contains(&format!("[WhiteFideId \"{}\"]", 4_100_000 + u32::from(w))),
            "{pgn}"
        );
        assert_eq!(pgn.matches("[Event ").count(), 6, "{pgn}");
        let etag = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("etag: ")
                    .map(str::to_owned)
            })
            .expect("an ETag");
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET /api/rounds/{round}/pgn HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\n\
             Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 304"), "{answer}");
        file = back;
    }

    // The standings: the final file's points, ties sharing a place.
    let trf = Trf::from_bytes(&file).unwrap();
    let standings = get(&addr, "/api/standings").json();
    let rows = standings.as_array().unwrap();
    assert_eq!(rows.len(), 12);
    let mut last = (usize::MAX, u32::MAX);
    for (i, row) in rows.iter().enumerate() {
        let rank = row["start_rank"].as_u64().unwrap() as u16;
        let tenths = trf.player(rank).unwrap().points_tenths.unwrap();
        let shown: String = row["points"].as_str().unwrap().into();
        assert_eq!(shown, format!("{}.{}", tenths / 10, tenths % 10), "{row}");
        let place = row["place"].as_u64().unwrap() as usize;
        if tenths == last.1 {
            assert_eq!(place, last.0, "a tie shares its place: {row}");
        } else {
            assert!(tenths < last.1, "by points: {standings}");
            assert_eq!(place, i + 1, "{row}");
        }
        last = (place, tenths);
    }
    let page = get(&addr, "/standings");
    assert_eq!(page.status, 200);
    assert!(page.body.contains(">Points</button></th>"), "{}", page.body);

    // A player's link as a braille reader types it: capitals, dashes.
    let code = &tokens[&1];
    let typed = format!(
        "/p/{}-{}-{}-{}",
        &code[..4],
        &code[4..8],
        &code[8..12],
        &code[12..]
    )
    .to_uppercase();
    let (s, head, _) = send(&addr, "GET", &typed, None, "text/plain", "");
    assert_eq!(s, 303, "{head}");
    let me: Value = serde_json::from_str(
        &send(
            &addr,
            "GET",
            "/api/players/me",
            Some(code),
            "text/plain",
            "",
        )
        .2,
    )
    .unwrap();
    let want = format!(
        "location: /table/{}/player?plays={}#token={code}",
        me["table"].as_str().unwrap(),
        me["colour"].as_str().unwrap()
    );
    assert!(head.to_ascii_lowercase().contains(&want), "{head}");
    assert_eq!(
        send(&addr, "GET", "/p/not-a-code", None, "text/plain", "").0,
        404
    );
}

#[test]
fn a_mixed_open_with_blind_players_at_their_own_tables_is_paired_to_the_last_round() {
    const ROUNDS: u16 = 4;
    let names: Vec<&str> = NAMES[..11].to_vec();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    // Two blind players with their own equipment: Carla (3) at table A,
    // Hugo (8) at table B.
    let venue = "[[table]]\nid = \"A\"\nboard = \"none\"\nblind = \"white\"\n\n\
                 [[table]]\nid = \"B\"\nboard = \"none\"\n\n\
                 [[player]]\nname = \"Carla Cruz\"\nstart_rank = 3\ntable = \"A\"\n\n\
                 [[player]]\nname = \"Hugo Haro\"\nstart_rank = 8\ntable = \"B\"\n";
    std::fs::write(&config, venue).unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let arbiter = venue_token(&data);
    let tokens = player_tokens(&data);
    let assistants: BTreeMap<&str, String> = ["A", "B"]
        .into_iter()
        .map(|t| (t, crate::common::tokens(&data, t).1))
        .collect();

    let mut file = initial_trf(&names, ROUNDS).into_bytes();
    for round in 1..=ROUNDS {
        let (pairs, paired) = paired_round(&file, round);
        let byes = pairs.iter().filter(|p| matches!(p, Paired::Bye(_))).count();
        assert_eq!(byes, 1, "eleven players: one bye");
        let (s, _, v) = send(
            &addr,
            "POST",
            &format!("/api/rounds?round={round}"),
            Some(&arbiter),
            "text/plain",
            &String::from_utf8(paired.clone()).unwrap(),
        );
        assert_eq!(s, 200, "round {round}: {v}");
        let set_up: Value = serde_json::from_str(&v).unwrap();
        let (s, _, v) = send(
            &addr,
            "POST",
            &format!("/api/rounds/{round}/start"),
            Some(&arbiter),
            "text/plain",
            "",
        );
        assert!(s == 200 || s == 404, "{v}");
        // The blind players' games at their tables, played: the blind
        // player by their own token, the sighted opponent's moves by the
        // table's assistant.
        let mut at_tables = Vec::new();
        for g in set_up["games"].as_array().unwrap() {
            let table = g["table"].as_str().unwrap();
            let (w, b) = (
                g["ranks"]["white"].as_u64().unwrap() as u16,
                g["ranks"]["black"].as_u64().unwrap() as u16,
            );
            let own = |rank: u16| {
                tokens
                    .get(&rank)
                    .cloned()
                    .unwrap_or_else(|| assistants[table].clone())
            };
            let blind_rank = if table == "A" { 3 } else { 8 };
            assert!(w == blind_rank || b == blind_rank, "{g}");
            let script = Script::pick(usize::from(round) + usize::from(w));
            play(&addr, table, script, &own(w), &own(b));
            at_tables.push((w, b));
        }
        // Everything else was played on ordinary boards: the arbiter
        // enters those results in the pairing program, into the file
        // tactus gave back.
        let back = request(&addr, "GET", "/api/trf", Some(&arbiter), None)
            .body
            .into_bytes();
        let mut trf = Trf::from_bytes(&back).unwrap();
        for p in &pairs {
            let Paired::Game(g) = p else { continue };
            if at_tables.contains(&(g.white, g.black)) {
                continue;
            }
            let (rw, rb) = match (g.white + g.black + round) % 3 {
                0 => (ResultChar::Win, ResultChar::Loss),
                1 => (ResultChar::Draw, ResultChar::Draw),
                _ => (ResultChar::Loss, ResultChar::Win),
            };
            trf = trf.with_result(round, g.white, rw).unwrap();
            trf = trf.with_result(round, g.black, rb).unwrap();
        }
        file = trf.to_bytes();
        bbp::check(&file).unwrap_or_else(|e| panic!("round {round}: {e}"));
    }
    let trf = Trf::from_bytes(&file).unwrap();
    trf.check_points().unwrap();
    for rank in [3, 8] {
        assert_eq!(trf.player(rank).unwrap().rounds.len(), usize::from(ROUNDS));
    }
}

/// A player's own token after the venue file no longer lists them: a
/// clear 403 saying so, at every door; the others' still work.
#[test]
fn a_player_no_longer_listed_is_told_why_their_token_fails() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    let players = |n: usize| -> String {
        NAMES[..n]
            .iter()
            .enumerate()
            .map(|(i, name)| format!("[[player]]\nname = \"{name}\"\nstart_rank = {}\n\n", i + 1))
            .collect()
    };
    let tables = "[[table]]\nid = \"1\"\nboard = \"none\"\n\n";
    std::fs::write(&config, format!("{tables}{}", players(2))).unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let tokens = player_tokens(&data);
    let arbiter = venue_token(&data);
    let body = r#"{"round":"1","games":[{"white":"Ana Abad","black":"Bea Blanco"}]}"#;
    let (s, _, v) = send(
        &server.addr,
        "POST",
        "/api/rounds",
        Some(&arbiter),
        "application/json",
        body,
    );
    assert_eq!(s, 200, "{v}");
    server.kill9();
    // Bea leaves the event: the organiser takes her out of the file.
    std::fs::write(&config, format!("{tables}{}", players(1))).unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (s, _, v) = send(
        &addr,
        "GET",
        "/api/players/me",
        Some(&tokens[&2]),
        "text/plain",
        "",
    );
    assert_eq!(s, 403, "{v}");
    assert!(v.contains("start_rank = 2 is not listed"), "{v}");
    let r = post(
        &addr,
        "/api/tables/1/resign",
        &tokens[&2],
        r#"{"side":"black"}"#,
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("not listed"), "{}", r.body);
    let (s, _, v) = send(
        &addr,
        "GET",
        "/api/players/me",
        Some(&tokens[&1]),
        "text/plain",
        "",
    );
    assert_eq!(s, 200, "{v}");
    assert!(v.contains("\"table\":\"1\""), "{v}");
    // The standings in braille: one player a line.
    let brf = get(&addr, "/api/standings.brf?lang=en");
    assert_eq!(brf.status, 200, "{}", brf.body);
    assert_eq!(brf.body.lines().count(), 1, "{}", brf.body);
    assert!(brf.body.is_ascii());
}

/// Issue 36, item 3: the competition's writes refuse a missing or wrong
/// token before reading the body. A stranger sends the head of a 1.5 MB
/// round and nothing of its body: the answer (401, 403) comes without
/// it. Before, the server waited for the body (a slow sender held it for
/// the whole header timeout and more). A read timeout far above any answer
/// time bounds the wait; the assertion is on the answer, not on a time.
#[test]
fn the_competition_s_writes_refuse_a_stranger_before_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = crate::common::venue_without_boards(dir.path(), 1);
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let (_, _, table_arbiter) = crate::common::tokens(&data, "1");
    for (path, auth, want) in [
        ("/api/rounds", String::new(), 401),
        (
            "/api/rounds",
            format!("Authorization: Bearer {table_arbiter}\r\n"),
            403,
        ),
        ("/api/rounds/1/tables/1/result", String::new(), 401),
        (
            "/api/rounds/1/start",
            "Authorization: Bearer 0123456789abcdef0123456789abcdef\r\n".into(),
            403,
        ),
    ] {
        let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\n\
             Content-Length: 1500000\r\n\r\n{{\"round\""
        )
        .unwrap();
        let mut head = [0u8; 12];
        s.read_exact(&mut head).expect("an answer before the body");
        let status: u16 = std::str::from_utf8(&head[9..12]).unwrap().parse().unwrap();
        assert_eq!(status, want, "{path}");
    }
}

/// Issue 33: a player's settings follow them. Written with their own token
/// on one device, read back on another, kept across a restart; a value
/// out of range, an unknown key or another's token changes nothing; the
/// token is checked before the body.
#[test]
fn a_player_s_settings_follow_them_across_devices_and_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("venue.toml");
    let players: String = NAMES[..2]
        .iter()
        .enumerate()
        .map(|(i, name)| format!("[[player]]\nname = \"{name}\"\nstart_rank = {}\n\n", i + 1))
        .collect();
    std::fs::write(
        &config,
        format!("[[table]]\nid = \"1\"\nboard = \"none\"\n\n{players}"),
    )
    .unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let tokens = player_tokens(&data);
    let path = "/api/players/me/settings";
    let json = "application/json";
    let (s, _, v) = send(&server.addr, "GET", path, Some(&tokens[&1]), json, "");
    assert_eq!((s, v.as_str()), (200, "{}"));
    let chosen = r#"{"lang":"es","move_style":"long","notation":"de","clock":"used","low_time_s":300,"rate":1.25,"volume":0.5}"#;
    let (s, _, v) = send(&server.addr, "PUT", path, Some(&tokens[&1]), json, chosen);
    assert_eq!((s, v.as_str()), (200, chosen));
    // Refused, each naming what is wrong; nothing changed.
    for (body, says) in [
        (r#"{"rate":3}"#, "rate 3"),
        (r#"{"low_time_s":0}"#, "low_time_s 0"),
        (r#"{"lang":"pl"}"#, "lang `pl`"),
        (r#"{"sound":true}"#, "unknown field `sound`"),
        ("not json", "settings:"),
    ] {
        let (s, _, v) = send(&server.addr, "PUT", path, Some(&tokens[&1]), json, body);
        assert_eq!(s, 422, "{body}: {v}");
        assert!(v.contains(says), "{body}: {v}");
    }
    let venue = venue_token(&data);
    let (s, _, v) = send(&server.addr, "PUT", path, Some(&venue), json, "{}");
    assert_eq!(s, 403, "{v}");
    let (s, _, v) = send(&server.addr, "PUT", path, None, json, "{}");
    assert_eq!(s, 401, "{v}");
    // The other player's settings are their own.
    let (s, _, v) = send(&server.addr, "GET", path, Some(&tokens[&2]), json, "");
    assert_eq!((s, v.as_str()), (200, "{}"));
    // A stranger's head with a body never sent: refused without it.
    let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "PUT {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: 4000\r\n\r\n"
    )
    .unwrap();
    let mut raw = [0u8; 12];
    stream.read_exact(&mut raw).unwrap();
    assert_eq!(&raw, b"HTTP/1.1 401");
    drop(stream);

    server.kill9();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let (s, _, v) = send(&server.addr, "GET", path, Some(&tokens[&1]), json, "");
    assert_eq!((s, v.as_str()), (200, chosen));
}
