//! Fault test: 10,000 malformed or unauthorised API requests (bad JSON,
//! wrong or missing tokens, wrong roles, unknown tables, huge bodies, wrong
//! methods, random paths, random bytes on a raw TCP socket) sent by two
//! threads while a whole game is played through the API. Every one gets its
//! status; the game changes only by its real moves; the server never dies.
//! The seed is printed; `TACTUS_SEED=<seed>` replays a run.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use common::{GAME, Rng, Server, get, post, raw_request, request, tokens, venue_without_boards};

const REQUESTS: usize = 10_000;
const ATTACKERS: usize = 2;

/// Over the body limit (2 MB).
const HUGE: usize = 2 * 1024 * 1024 + 1;

struct Tokens {
    player: String,
    assistant: String,
    arbiter: String,
    /// A token of the other table.
    stranger: String,
}

/// Which turn-independent bad request to send, and the status it must get.
fn bad_request(addr: &str, t: &Tokens, rng: &mut Rng) -> (String, u16, Option<u16>) {
    let kind = rng.below(20);
    let hex = |rng: &mut Rng| {
        rng.bytes(16)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let status = |r: common::Response| Some(r.status);
    let (what, want, got): (&str, u16, Option<u16>) = match kind {
        0 => ("no token", 401, {
            status(request(
                addr,
                "POST",
                "/api/tables/1/move",
                None,
                Some(r#"{"move":"e4"}"#),
            ))
        }),
        1 => {
            // Not `Bearer <token>`; the body does not matter.
            let header = rng
                .pick(&["Basic dXNlcjpwdw==", "Bearer", "Digest x", "Token abc"])
                .expect("a non-empty choice");
            let body = rng
                .pick(&["{", r#"{"move":"e4"}"#, ""])
                .expect("a non-empty choice");
            let raw = format!(
                "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: {header}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            (
                "malformed Authorization",
                401,
                raw_request(addr, raw.as_bytes(), false),
            )
        }
        2 => {
            let path = rng
                .pick(&[
                    "/api/tables/1/move",
                    "/api/tables/1/clock/pause",
                    "/api/tables/1/result",
                    "/api/tables/1/resign",
                ])
                .expect("a non-empty choice");
            let body = rng
                .pick(&[r#"{"move":"e4"}"#, "{", "[]", r#"{"side":"white"}"#])
                .expect("a non-empty choice");
            let token = hex(rng);
            ("wrong token", 403, status(post(addr, path, &token, body)))
        }
        3 => ("another table's token", 403, {
            status(post(
                addr,
                "/api/tables/1/move",
                &t.stranger,
                r#"{"move":"e4"}"#,
            ))
        }),
        4 => {
            // Not the player's to do, whoever is to move.
            let (path, body) = *rng
                .pick(&[
                    ("/api/tables/1/clock/pause", ""),
                    ("/api/tables/1/clock/start", ""),
                    ("/api/tables/1/touched", r#"{"side":"white","square":"e2"}"#),
                    ("/api/tables/1/resign", r#"{"side":"white"}"#),
                    ("/api/tables/1/draw/offer", r#"{"side":"white"}"#),
                ])
                .expect("a non-empty choice");
            ("the player acting for White", 403, {
                status(post(addr, path, &t.player, body))
            })
        }
        5 => {
            // The arbiter's alone.
            let (path, body) = *rng
                .pick(&[
                    ("/api/tables/1/result", r#"{"result":"1-0"}"#),
                    (
                        "/api/tables/1/clock/adjust",
                        r#"{"side":"white","seconds":60}"#,
                    ),
                    (
                        "/api/tables/1/ruling",
                        r#"{"white_sheet":"1. e4","black_sheet":"1. e4","apply":true}"#,
                    ),
                ])
                .expect("a non-empty choice");
            let token = if rng.chance(0.5) {
                &t.player
            } else {
                &t.assistant
            };
            (
                "not the arbiter",
                403,
                status(post(addr, path, token, body)),
            )
        }
        6 => {
            let path = rng
                .pick(&[
                    "/api/tables/9/move",
                    "/api/tables/zz/clock/say",
                    "/api/tables/1x/resign",
                ])
                .expect("a non-empty choice");
            ("unknown table (write)", 404, {
                status(post(addr, path, &t.assistant, r#"{"move":"e4"}"#))
            })
        }
        7 => {
            let path = rng
                .pick(&[
                    "/api/tables/9",
                    "/api/tables/9/pgn",
                    "/table/9/player",
                    "/arbiter/nope",
                    "/static/../../etc/passwd",
                ])
                .expect("a non-empty choice");
            ("unknown table (read)", 404, status(get(addr, path)))
        }
        8 | 9 => {
            let body = rng
                .pick(&[
                    "{",
                    "[]",
                    "null",
                    r#"{"move":1}"#,
                    r#"{"mov":"e4"}"#,
                    r#"{"move":"e4","x":1}"#,
                    "\"e4\"",
                    r#"{"move":"e4"}}"#,
                ])
                .expect("a non-empty choice");
            let path = rng
                .pick(&["/api/tables/1/move", "/api/tables/1/promotion"])
                .expect("a non-empty choice");
            // JSON that does not read is 400; JSON that reads but does
            // not fit the body (an unknown field, not an object) is 422
            // naming what does not fit.
            // (A body read as far as it fits: `{"move":"e4"}}` on the
            // promotion's route is refused for its unknown field first.)
            let got = status(post(addr, path, &t.assistant, body));
            let want =
                if serde_json::from_str::<serde_json::Value>(body).is_ok() || got == Some(422) {
                    422
                } else {
                    400
                };
            ("malformed JSON", want, got)
        }
        10 => {
            let body = rng
                .pick(&[
                    r#"{"side":"purple"}"#,
                    r#"{"side":1}"#,
                    "{}",
                    r#"{"side":"white","extra":true}"#,
                ])
                .expect("a non-empty choice");
            ("malformed side", 422, {
                status(post(addr, "/api/tables/1/draw/offer", &t.assistant, body))
            })
        }
        11 => {
            // Random bytes, not even UTF-8, as a JSON body.
            let n = rng.range(1, 300) as usize;
            let body = rng.bytes(n);
            let mut raw = format!(
                "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n",
                t.assistant
            )
            .into_bytes();
            raw.extend(body);
            // Not JSON: 400; bytes that begin as a JSON value (a digit, a
            // quote) read as one of the wrong type: 422.
            let got = raw_request(addr, &raw, false);
            ("random body", if got == Some(422) { 422 } else { 400 }, got)
        }
        12 => {
            // One in 20 of these is over the limit: a few hundred megabytes
            // in all would be needless.
            if rng.chance(0.05) {
                let body = format!(r#"{{"move":"{}"}}"#, "a".repeat(HUGE));
                (
                    "huge body",
                    413,
                    status(post(addr, "/api/tables/1/move", &t.assistant, &body)),
                )
            } else {
                // A stranger's huge body is refused before it is read.
                let raw = "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n";
                (
                    "a stranger's huge body",
                    401,
                    raw_request(addr, raw.as_bytes(), false),
                )
            }
        }
        13 | 14 => {
            let (method, path) = *rng
                .pick(&[
                    ("GET", "/api/tables/1/move"),
                    ("PUT", "/api/tables/1/move"),
                    ("DELETE", "/api/tables/1/resign"),
                    ("PATCH", "/api/tables/1/clock/start"),
                    ("POST", "/api/tables/1"),
                    ("DELETE", "/api/tables/1"),
                    ("PUT", "/api/tables"),
                    ("POST", "/api/pgn"),
                ])
                .expect("a non-empty choice");
            let token = *rng
                .pick(&[Some(t.assistant.as_str()), None])
                .expect("a non-empty choice");
            (
                "wrong method",
                405,
                status(request(addr, method, path, token, None)),
            )
        }
        15 => {
            let prefix = rng
                .pick(&["/", "/api/", "/api/tables/1/", "/static/x/", "/table/1/"])
                .expect("a non-empty choice");
            let path = format!("{prefix}q{}", hex(rng));
            ("random path", 404, status(get(addr, &path)))
        }
        16 | 17 => {
            // Random bytes on a raw socket: a 400, or the connection closed
            // with no answer when the bytes never make a request head.
            let n = rng.range(1, 2000) as usize;
            let mut bytes = rng.bytes(n);
            if rng.chance(0.5) {
                bytes.extend_from_slice(b"\r\n\r\n");
            }
            let got = raw_request(addr, &bytes, true);
            let got = got.or(Some(400));
            ("random bytes", 400, got)
        }
        _ => {
            // Well-formed and the role may ask, but it does not fit the game.
            let (token, path, body) = *rng
                .pick(&[
                    (&t.assistant, "/api/tables/1/move", r#"{"move":"a1a1"}"#),
                    (&t.assistant, "/api/tables/1/move", r#"{"move":"Qz9"}"#),
                    (&t.assistant, "/api/tables/1/move", r#"{"move":""}"#),
                    (&t.assistant, "/api/tables/1/draw/accept", ""),
                    // A player accepts a draw offered to them: none was.
                    (&t.player, "/api/tables/1/draw/accept", ""),
                    (
                        &t.assistant,
                        "/api/tables/1/promotion",
                        r#"{"piece":"king"}"#,
                    ),
                    (
                        &t.arbiter,
                        "/api/tables/1/clock/adjust",
                        r#"{"side":"black","seconds":1e9}"#,
                    ),
                ])
                .expect("a non-empty choice");
            (
                "does not fit the game",
                422,
                status(post(addr, path, token, body)),
            )
        }
    };
    (what.to_owned(), want, got)
}

/// What must not change but by the real moves: everything but the clock's
/// times (they run, and so does the table time they were read at) and the
/// record of illegal attempts. An illegal move sent
/// by someone allowed to move is an attempt on the record for the arbiter
/// (7.5), so that record grows, by those attempts only.
fn state(addr: &str) -> serde_json::Value {
    let mut v = get(addr, "/api/tables/1").json();
    let clock = v["clock"].as_object_mut().unwrap();
    clock.remove("white_ms");
    clock.remove("black_ms");
    clock.remove("as_of_ms");
    check_illegal_record(&v);
    v.as_object_mut().unwrap().remove("illegal");
    // How many attempts in all (the state carries the latest few).
    v.as_object_mut().unwrap().remove("illegal_count");
    // An attempt on the record is announced ("regelwidriger Zug").
    v.as_object_mut().unwrap().remove("last_announcement");
    v["alerts"]
        .as_array_mut()
        .unwrap()
        .retain(|a| a["kind"] != "illegal");
    v
}

/// Every recorded illegal attempt is the well-formed illegal move the
/// attack sends (`a1a1` by the assistant), never anything else it sends.
fn check_illegal_record(v: &serde_json::Value) {
    for entry in v["illegal"].as_array().unwrap() {
        assert_eq!(entry["text"], "a1a1", "{entry}");
    }
}

#[test]
fn ten_thousand_bad_requests_change_nothing() {
    let started = Instant::now();
    let mut rng = Rng::from_env("TACTUS_SEED");
    let dir = tempfile::tempdir().unwrap();
    let venue = venue_without_boards(dir.path(), 2);
    let data = dir.path().join("data");
    let mut server = Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (player, assistant, arbiter) = tokens(&data, "1");
    let (stranger, _, _) = tokens(&data, "2");
    let t = Arc::new(Tokens {
        player,
        assistant,
        arbiter,
        stranger,
    });

    let sent = Arc::new(AtomicUsize::new(0));
    let mut attackers: Vec<_> = (0..ATTACKERS)
        .map(|_| {
            let (addr, t, sent) = (addr.clone(), t.clone(), sent.clone());
            let mut rng = Rng::new(rng.next_u64());
            thread::spawn(move || {
                let mut by_status = std::collections::BTreeMap::new();
                while sent.fetch_add(1, Ordering::Relaxed) < REQUESTS {
                    let (what, want, got) = bad_request(&addr, &t, &mut rng);
                    assert_eq!(got, Some(want), "{what}");
                    *by_status.entry(want).or_insert(0usize) += 1;
                }
                by_status
            })
        })
        .collect();

    // The real game, spread over the attack: White through the assistant,
    // Black (the blind player, no board here) through the player's page.
    let mut expected = state(&addr);
    for (i, uci) in GAME.iter().enumerate() {
        while sent.load(Ordering::Relaxed) < REQUESTS * i / GAME.len() {
            thread::sleep(Duration::from_millis(20));
            assert_eq!(state(&addr), expected, "changed by a bad request");
            // An attacker that stopped early stopped on a wrong status:
            // said now, not waited for (the count would never be reached).
            if let Some(done) = attackers.iter().position(|a| a.is_finished())
                && sent.load(Ordering::Relaxed) < REQUESTS
            {
                let a = attackers.swap_remove(done);
                match a.join() {
                    Err(e) => std::panic::resume_unwind(e),
                    Ok(_) => panic!("an attacker stopped before the requests were sent"),
                }
            }
        }
        let token = if i % 2 == 0 { &t.assistant } else { &t.player };
        let r = post(
            &addr,
            "/api/tables/1/move",
            token,
            &format!(r#"{{"move":"{uci}"}}"#),
        );
        assert_eq!(r.status, 200, "ply {}: {}", i + 1, r.body);
        let now = state(&addr);
        assert_eq!(now["moves"].as_array().unwrap().len(), i + 1);
        assert_eq!(now["touched"], expected["touched"]);
        assert_eq!(now["draw_offer"], serde_json::Value::Null);
        expected = now;
    }
    let mut by_status = std::collections::BTreeMap::new();
    for a in attackers {
        for (status, n) in a.join().expect("an attacker's request got a wrong status") {
            *by_status.entry(status).or_insert(0) += n;
        }
    }
    assert!(server.is_running(), "the server died");
    let end = state(&addr);
    assert_eq!(end, expected);
    assert_eq!(end["result"]["result"], "1-0");
    assert_eq!(end["result"]["reason"], "checkmate");
    // The other table was never touched.
    assert_eq!(
        get(&addr, "/api/tables/2").json()["moves"],
        serde_json::json!([])
    );
    let total: usize = by_status.values().sum();
    assert_eq!(total, REQUESTS);
    eprintln!(
        "API faults: {total} bad requests {by_status:?} mixed into a {}-ply game, {:.1} s",
        GAME.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn a_stranger_is_refused_before_the_body_and_a_huge_body_is_413() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--board", "none"]);
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(dir.path(), "1");
    // No token and a malformed body: the token is missing first.
    let r = request(&addr, "POST", "/api/tables/1/move", None, Some("{"));
    assert_eq!(r.status, 401, "{}", r.body);
    let r = post(&addr, "/api/tables/1/move", "nope", "{");
    assert_eq!(r.status, 403, "{}", r.body);
    // A declared body far over the limit is not waited for.
    let raw = "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 99999999\r\n\r\n";
    assert_eq!(raw_request(&addr, raw.as_bytes(), false), Some(401));
    let body = format!(r#"{{"move":"{}"}}"#, "a".repeat(HUGE));
    let r = post(&addr, "/api/tables/1/move", &assistant, &body);
    assert_eq!(r.status, 413, "{}", r.body);
    // A wrong method is a wrong method, token or not.
    let r = get(&addr, "/api/tables/1/move");
    assert_eq!(r.status, 405);
    // axum's own answers are the one error body too (issue 29).
    assert!(r.json()["error"].is_string(), "{}", r.body);
    let r = get(&addr, "/api/tables/1/events?since=not-a-number");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["error"].is_string(), "{}", r.body);
    let r = get(&addr, "/api/tables/1/brf?format=zzz");
    assert!(r.status >= 400, "{}", r.body);
    assert!(r.json()["error"].is_string(), "{}", r.body);
    assert_eq!(
        get(&addr, "/api/tables/1").json()["moves"],
        serde_json::json!([])
    );
}
