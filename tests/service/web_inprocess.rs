//! The web layer in-process: axum's router driven through tower's
//! `oneshot`, over real table actors (manual time, a real SQLite journal in a
//! temporary folder, tokens made as `tactus serve` makes them). What the
//! process tests check over a socket, in milliseconds: statuses in the order
//! they are checked, roles, bodies, and the answers' JSON.

use crate::inprocess;

use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use tactus::table::actions::PersonRole::{Arbiter, Assistant, Player};
use tower::ServiceExt;

use inprocess::{Tables, app};

#[tokio::test]
async fn a_game_through_the_router() {
    let app = app(Tables::new(&["1"])).await;
    let (s, v) = app
        .post("/api/tables/1/move", Assistant, r#"{"move":"e4"}"#)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["text"], "Eva vier");
    app.time.advance(Duration::from_secs(20));
    let (s, v) = app
        .post(
            "/api/tables/1/move",
            Player,
            r#"{"move":"Sf6","lang":"de"}"#,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = app.table("1").await;
    assert_eq!(t["moves"], serde_json::json!(["e4", "Nf6"]));
    assert_eq!(t["clock"]["black_ms"], (90 * 60 - 20 + 30) * 1000);
    assert_eq!(t["kind"], "standard");
    assert_eq!(t["flag_rule"], "claim");
    assert_eq!(t["clock_says"], "left");
    let (s, v) = app
        .post("/api/tables/1/clock/say", Player, r#"{"time":"used"}"#)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["text"].as_str().unwrap().contains("verbraucht"), "{v}");
    let (s, _) = app.call("GET", "/api/tables/1/pgn", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

/// A request and the status it must get: method, path, token, body.
type Case<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    StatusCode,
);

/// Statuses in the order they are checked: table, token, role, body, game.
#[tokio::test]
async fn every_refusal_has_its_status_and_changes_nothing() {
    let app = app(Tables::new(&["1", "2"])).await;
    let before = app.table("1").await;
    let player = app.token("1", Player);
    let other_table = app.token("2", Arbiter);
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/api/tables/9/move",
            Some(&player),
            Some(r#"{"move":"e4"}"#),
            StatusCode::NOT_FOUND,
        ),
        // Text that cannot be a table id is refused as such, before any
        // token is looked at.
        (
            "POST",
            "/api/tables/a%20b/move",
            Some(&player),
            Some(r#"{"move":"e4"}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            "/api/tables/an-id-that-is-longer-than-thirty-two-characters",
            None,
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            "/api/tables/a.b/brf",
            None,
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/tables/1/move",
            None,
            Some(r#"{"move":"e4"}"#),
            StatusCode::UNAUTHORIZED,
        ),
        (
            "POST",
            "/api/tables/1/move",
            Some(&other_table),
            Some(r#"{"move":"e4"}"#),
            StatusCode::FORBIDDEN,
        ),
        // The blind player (Black) may not move for White.
        (
            "POST",
            "/api/tables/1/move",
            Some(&player),
            Some(r#"{"move":"e4"}"#),
            StatusCode::FORBIDDEN,
        ),
        (
            "POST",
            "/api/tables/1/result",
            Some(&player),
            Some(r#"{"result":"1-0"}"#),
            StatusCode::FORBIDDEN,
        ),
        (
            "POST",
            "/api/tables/1/illegal/completed",
            Some(&player),
            Some(r#"{"side":"white"}"#),
            StatusCode::FORBIDDEN,
        ),
        (
            "GET",
            "/api/tables/1/move",
            None,
            None,
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ];
    for (method, path, token, body, want) in cases {
        let (s, v) = app.call(method, path, token, body).await;
        assert_eq!(s, want, "{method} {path}: {v}");
    }
    // The refusal of a bad id says what an id is.
    let (s, v) = app.call("GET", "/api/tables/a.b", None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        v["error"],
        "table id `a.b`: use 1 to 32 letters, digits, `-` or `_`"
    );
    let assistant = app.token("1", Assistant);
    let arbiter = app.token("1", Arbiter);
    for (path, token, body, want) in [
        (
            "/api/tables/1/move",
            &assistant,
            r#"{"move":"e4""#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/tables/1/move",
            &assistant,
            r#"{"mvoe":"e4"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/tables/1/move",
            &assistant,
            r#"{"move":"Qz9"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/tables/1/clock/say",
            &assistant,
            r#"{"time":"soon"}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/tables/1/result",
            &arbiter,
            r#"{"result":"2-0"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // Only the player on move claims (9.2): White is on move.
        (
            "/api/tables/1/draw/claim/threefold",
            &assistant,
            r#"{"side":"black"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/tables/1/draw/claim/fifty",
            &assistant,
            r#"{"side":"white","move":"e5"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let (s, v) = app.call("POST", path, Some(token), Some(body)).await;
        assert!(
            s == want || (want == StatusCode::UNPROCESSABLE_ENTITY && s == StatusCode::BAD_REQUEST),
            "{path} {body}: {s} {v}"
        );
        assert!(v["error"].is_string(), "{path} {body}: {v}");
    }
    assert_eq!(app.table("1").await, before);
}

/// The square and the score typed on a page are read at the API's edge
/// (the journal's events hold a `Square` and a `KnownOutcome`): text that is
/// neither gets the answer it always had, and changes nothing.
#[tokio::test]
async fn a_typed_square_or_score_that_is_none_is_refused_in_words() {
    let app = app(Tables::new(&["1"])).await;
    let before = app.table("1").await;
    for (path, role, body, said) in [
        (
            "/api/tables/1/touched",
            Assistant,
            r#"{"side":"white","square":"z9"}"#,
            "square: `z9` is not a square",
        ),
        (
            "/api/tables/1/result",
            Arbiter,
            r#"{"result":"0-1/2"}"#,
            "result: `0-1/2` is not a result: use 1-0, 0-1 or 1/2-1/2",
        ),
    ] {
        // Typed where the body is read: the field named, then why.
        let (s, v) = app.post(path, role, body).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains(said), "{path}: {v}");
    }
    assert_eq!(app.table("1").await, before);
}

/// 9.4 through the API: a piece touched on this move loses the claim.
#[tokio::test]
async fn a_touch_loses_the_claim_through_the_api() {
    let app = app(Tables::new(&["1"])).await;
    app.post("/api/tables/1/move", Assistant, r#"{"move":"e4"}"#)
        .await;
    let (s, _) = app
        .post(
            "/api/tables/1/touched",
            Assistant,
            r#"{"side":"black","square":"g8"}"#,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app
        .post(
            "/api/tables/1/draw/claim/threefold",
            Player,
            r#"{"side":"black"}"#,
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("9.4"), "{v}");
    let t = app.table("1").await;
    assert_eq!(t["touched"][0]["square"], "g8");
    assert_eq!(t["touched"][0]["side"], "black");
}

/// A body that is no move, of 1.5 MB, gets a short error back and changes
/// nothing: over the 64 KiB a move's body may have, it is 413 (issue 43),
/// and a bad move of 60 KB is 422 with the input quoted to 100 characters
/// at most.
#[tokio::test]
async fn a_huge_bad_move_gets_a_short_error() {
    let app = app(Tables::new(&["1"])).await;
    let before = app.table("1").await;
    for text in [
        "Q".repeat(1_500_000),
        format!("e4 {}", "z".repeat(1_500_000)),
        "Q".repeat(60_000),
        format!("e4 {}", "z".repeat(60_000)),
    ] {
        let body = serde_json::json!({ "move": text }).to_string();
        let (s, v) = app.post("/api/tables/1/move", Assistant, &body).await;
        let want = if body.len() > 64 * 1024 {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        assert_eq!(s, want);
        let error = v["error"].as_str().unwrap();
        assert!(error.chars().count() < 400, "{} characters", error.len());
        let longest_run = error
            .split(|c: char| c != 'Q' && c != 'z')
            .map(str::len)
            .max()
            .unwrap_or(0);
        assert!(longest_run <= 100, "{longest_run} characters quoted");
    }
    let after = app.table("1").await;
    assert_eq!(after["moves"], before["moves"]);
}

/// A live stream whose reader falls more than the table's 256 events behind
/// ends (the page reconnects and gets the state first) instead of being
/// buffered for: the stream is opened, not read while 400 announcements are
/// made, then read to its end.
#[tokio::test]
async fn a_live_stream_that_falls_behind_ends_instead_of_buffering() {
    let app = app(Tables::new(&["1"])).await;
    let req = Request::builder()
        .uri("/api/tables/1/events")
        .body(Body::empty())
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body = res.into_body();
    let sent = 400;
    for _ in 0..sent {
        // A minute between readings: each is said (a reading asked while
        // the last is being said is only answered, not said again).
        app.time.advance(Duration::from_secs(60));
        let (s, _) = app.post("/api/tables/1/clock/say", Player, "{}").await;
        assert_eq!(s, StatusCode::OK);
    }
    // A stream still open would wait for its next event (or keep-alive) for
    // ever: the timeout is how that failure shows.
    let bytes = tokio::time::timeout(Duration::from_secs(10), to_bytes(body, 64 << 20))
        .await
        .expect("the stream of a reader that fell behind did not end")
        .unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.starts_with("event: state"),
        "{}",
        &text[..text.len().min(200)]
    );
    let announcements = text.matches("event: announcement").count();
    assert!(
        announcements < sent,
        "all {sent} announcements were kept for a reader that did not read"
    );
    // The table goes on.
    let (s, _) = app.post("/api/tables/1/clock/say", Player, "{}").await;
    assert_eq!(s, StatusCode::OK);
}

/// What the pages' ticking clocks count from: both clocks read at the
/// table's time `as_of_ms`, the side whose time runs, and the moves in UCI.
/// Counting the running side down by the time passed since `as_of_ms` gives
/// what the table itself reads later, and every event names the new
/// running side.
#[tokio::test]
async fn the_clock_reading_says_when_it_was_taken_and_whose_time_runs() {
    let app = app(Tables::new(&["1"])).await;
    let t = app.table("1").await;
    assert_eq!(t["clock"]["running_side"], serde_json::Value::Null);
    assert_eq!(t["clock"]["as_of_ms"], 1_000_000);
    let (s, v) = app
        .post("/api/tables/1/move", Assistant, r#"{"move":"e4"}"#)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let first = app.table("1").await;
    assert_eq!(first["clock"]["running_side"], "black");
    assert_eq!(first["moves_uci"], serde_json::json!(["e2e4"]));
    app.time.advance(Duration::from_millis(7_250));
    let later = app.table("1").await;
    let passed =
        later["clock"]["as_of_ms"].as_u64().unwrap() - first["clock"]["as_of_ms"].as_u64().unwrap();
    assert_eq!(passed, 7_250);
    assert_eq!(
        later["clock"]["black_ms"].as_u64().unwrap(),
        first["clock"]["black_ms"].as_u64().unwrap() - passed
    );
    assert_eq!(later["clock"]["white_ms"], first["clock"]["white_ms"]);
    let (s, v) = app
        .post("/api/tables/1/move", Player, r#"{"move":"Nf6"}"#)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = app.table("1").await;
    assert_eq!(t["clock"]["running_side"], "white");
    assert_eq!(t["moves_uci"], serde_json::json!(["e2e4", "g8f6"]));
    let (s, v) = app.post("/api/tables/1/clock/pause", Arbiter, "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = app.table("1").await;
    assert_eq!(t["clock"]["running"], false);
    assert_eq!(t["clock"]["running_side"], serde_json::Value::Null);
}

/// Reads a live stream until `until` is in what came, for at most ten
/// seconds (a stream never ends by itself).
async fn read_stream_until(body: Body, until: &str) -> String {
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let mut text = String::new();
    let read = async {
        while !text.contains(until) {
            match stream.next().await {
                Some(Ok(chunk)) => text.push_str(&String::from_utf8_lossy(&chunk)),
                _ => break,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    text
}

/// The `data:` of the first event named `name` in an SSE text.
fn event_data(text: &str, name: &str) -> serde_json::Value {
    let at = text
        .find(&format!("event: {name}\n"))
        .unwrap_or_else(|| panic!("no {name} in {text}"));
    let data = text[at..]
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    serde_json::from_str(data).unwrap()
}

#[tokio::test]
async fn a_page_coming_back_is_sent_what_it_missed_once_and_in_order() {
    let app = app(Tables::new(&["1"])).await;
    let open = |query: &str| {
        let req = Request::builder()
            .uri(format!("/api/tables/1/events{query}"))
            .body(Body::empty())
            .unwrap();
        app.router.clone().oneshot(req)
    };
    // A new page is told the number it is at.
    let res = open("").await.unwrap();
    let text = read_stream_until(res.into_body(), "event: at").await;
    assert_eq!(event_data(&text, "at")["seq"], 0, "{text}");
    // Three announcements; the page had the first.
    for (path, body) in [
        ("/api/tables/1/move", r#"{"move":"e4"}"#),
        ("/api/tables/1/clock/say", "{}"),
        ("/api/tables/1/move", r#"{"move":"e5"}"#),
    ] {
        let role = if body.contains("e5") {
            Player
        } else {
            Assistant
        };
        let (s, v) = app.post(path, role, body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let res = open("?since=1").await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body = res.into_body();
    // Another one after the return: sent as it comes, after the missed.
    let (s, _) = app.post("/api/tables/1/clock/say", Player, "{}").await;
    assert_eq!(s, StatusCode::OK);
    let text = read_stream_until(body, "id: 4").await;
    assert!(text.starts_with("event: state"), "{text}");
    let missed = event_data(&text, "missed");
    assert_eq!(missed["complete"], true);
    let seqs: Vec<u64> = missed["announcements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, vec![2, 3]);
    assert_eq!(missed["announcements"][0]["kind"], "clock");
    assert_eq!(text.matches("event: announcement").count(), 1, "{text}");
    assert!(
        !text.contains("id: 2\n") && !text.contains("id: 3\n"),
        "{text}"
    );
    // Browsers send Last-Event-ID by themselves: the same.
    let req = Request::builder()
        .uri("/api/tables/1/events")
        .header("last-event-id", "3")
        .body(Body::empty())
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    let text = read_stream_until(res.into_body(), "event: missed").await;
    let missed = event_data(&text, "missed");
    assert_eq!(missed["announcements"].as_array().unwrap().len(), 1);
    // A number this table never gave (the service restarted since): all
    // it has, marked incomplete.
    let res = open("?since=999").await.unwrap();
    let text = read_stream_until(res.into_body(), "event: missed").await;
    let missed = event_data(&text, "missed");
    assert_eq!(missed["complete"], false);
    assert_eq!(missed["announcements"].as_array().unwrap().len(), 4);
    // A number that is none: refused.
    for bad in ["?since=abc", "?since=-1"] {
        let res = open(bad).await.unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
}

/// Issue 36, item 6: over plain HTTP the venue arbiter's token works only
/// from this computer. The listener tells each request who its peer is;
/// here the request carries it as the listener would put it.
#[tokio::test]
async fn the_venue_token_over_plain_http_works_only_from_this_computer() {
    use tactus::service::web::listener::Peer;
    let app = app(Tables::new(&["1"])).await;
    let venue = app.tokens.venue_arbiter().unwrap().to_owned();
    let peer = |ip: &str, secure: bool| Peer {
        ip: ip.parse().unwrap(),
        secure,
        crowded: false,
    };
    for (who, p, want) in [
        (
            "a phone in the hall, plain HTTP",
            peer("192.168.1.23", false),
            StatusCode::FORBIDDEN,
        ),
        (
            "a phone over IPv6, plain HTTP",
            peer("fd00::23", false),
            StatusCode::FORBIDDEN,
        ),
        (
            "a phone in the hall, HTTPS",
            peer("192.168.1.23", true),
            StatusCode::OK,
        ),
        (
            "the server's own screen",
            peer("127.0.0.1", false),
            StatusCode::OK,
        ),
        (
            "the server's own screen, IPv6",
            peer("::1", false),
            StatusCode::OK,
        ),
        (
            "the server's own screen, IPv4 in IPv6",
            peer("::ffff:127.0.0.1", false),
            StatusCode::OK,
        ),
    ] {
        let mut req = Request::builder()
            .uri("/api/trf")
            .header("Authorization", format!("Bearer {venue}"))
            .body(Body::empty())
            .unwrap();
        req.extensions_mut().insert(p);
        let res = app.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let body = to_bytes(res.into_body(), 1 << 20).await.unwrap();
        // Let through, the TRF answers that none was imported yet.
        let want = if want == StatusCode::OK {
            StatusCode::NOT_FOUND
        } else {
            want
        };
        assert_eq!(status, want, "{who}: {}", String::from_utf8_lossy(&body));
        if want == StatusCode::FORBIDDEN {
            assert!(
                String::from_utf8_lossy(&body).contains("tactus tls self-signed"),
                "{who}"
            );
        }
    }
    // Other tokens and reads are not this rule's: a table's player over
    // plain HTTP from the hall still plays (its own risk is the venue's
    // HTTPS to take, docs/https.md).
    let mut req = Request::builder()
        .uri("/api/tables/1")
        .body(Body::empty())
        .unwrap();
    req.extensions_mut().insert(peer("192.168.1.23", false));
    assert_eq!(
        app.router.clone().oneshot(req).await.unwrap().status(),
        StatusCode::OK
    );
}

/// Issue 36, item 4: a requester cannot ask faster than it can be said.
/// 500 clock readings asked by the player at one instant are one spoken
/// reading (and one announcement on the pages); each request is still
/// answered with the reading as text. Another role's request is its own;
/// once the reading has been said, the player is heard again.
#[tokio::test]
async fn a_requester_is_paced_at_the_speed_of_speech() {
    let app = app(Tables::new(&["1"])).await;
    let said = |v: &serde_json::Value| v["last_announcement"].as_str().map(str::to_owned);
    let before = app.table("1").await;
    for i in 0..500 {
        let (s, v) = app.post("/api/tables/1/clock/say", Player, "{}").await;
        assert_eq!(s, StatusCode::OK, "{i}: {v}");
        assert!(
            v["text"].as_str().is_some_and(|t| !t.is_empty()),
            "{i}: {v}"
        );
    }
    let after = app.table("1").await;
    assert_ne!(said(&before), said(&after), "the first reading is said");
    assert_eq!(clock_announcements(&app).await, 1, "500 asked, one said");
    // Another request (the time used) is said; the assistant's is theirs;
    // the player's next, once the last is said, is said.
    let (s, v) = app
        .post("/api/tables/1/clock/say", Player, r#"{"time":"used"}"#)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["paced"], serde_json::Value::Null, "{v}");
    assert_eq!(clock_announcements(&app).await, 2);
    let (s, _) = app.post("/api/tables/1/clock/say", Assistant, "{}").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(clock_announcements(&app).await, 3);
    app.time.advance(Duration::from_secs(30));
    let (s, _) = app.post("/api/tables/1/clock/say", Player, "{}").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(clock_announcements(&app).await, 4);
}

/// The clock announcements the table's pages have been sent: the `missed`
/// list of a stream opened from announcement 0.
async fn clock_announcements(app: &inprocess::App) -> usize {
    use futures_util::StreamExt;
    let req = Request::builder()
        .uri("/api/tables/1/events?since=0")
        .body(Body::empty())
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    let mut data = res.into_body().into_data_stream();
    let mut text = String::new();
    while !text.contains("event: missed") || !text.ends_with("\n\n") {
        let chunk = tokio::time::timeout(Duration::from_secs(10), data.next())
            .await
            .expect("the stream's first events")
            .expect("a chunk")
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    let missed = text
        .split("event: missed\ndata: ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(missed).unwrap();
    v["announcements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "clock")
        .count()
}
